import { beforeEach, describe, expect, it } from 'vitest';
import { firstFreeGridPosition } from './rules.ts';
import { useCanvas } from './store.ts';

const ratio = (box: { width: number; height: number }) => box.width / box.height;

describe('canvas images keep their aspect', () => {
  beforeEach(() => useCanvas.getState().clearAll());

  it('places a new 16:9 and a new 1:1 image in their own aspect inside the 300×200 box, on free cells', () => {
    const { addImage } = useCanvas.getState();
    const wide = addImage({
      url: '/wide.png',
      thumbnailUrl: null,
      name: 'wide',
      naturalWidth: 1600,
      naturalHeight: 900,
    });
    const square = addImage({
      url: '/sq.png',
      thumbnailUrl: null,
      name: 'sq',
      naturalWidth: 1024,
      naturalHeight: 1024,
    });
    expect(wide).toMatchObject({ x: 50, y: 50, width: 300, height: 168.75 });
    expect(square).toMatchObject({ x: 400, y: 50, width: 200, height: 200 });
    // A portrait larger than its cell would be is still placed where it overlaps nothing.
    const tall = addImage({
      url: '/t.png',
      thumbnailUrl: null,
      name: 't',
      width: 600,
      height: 600,
      naturalWidth: 900,
      naturalHeight: 1600,
    });
    expect(tall).toMatchObject({ width: 337.5, height: 600 });
    const images = useCanvas.getState().images;
    expect(tall).toMatchObject(firstFreeGridPosition(images.slice(0, 2), { width: 337.5, height: 600 }));
  });

  it('keeps the given box when the natural size is unknown, and corrects it once the pixels load', () => {
    const { addImage } = useCanvas.getState();
    const added = addImage({ url: '/u.png', thumbnailUrl: '/u-thumb.webp', name: 'u' });
    expect(added).toMatchObject({ x: 50, y: 50, width: 300, height: 200 });
    // The thumbnail loads first: the box becomes square around its centre; no natural size is recorded from it.
    useCanvas.getState().fitToImage(added?.id ?? '', { width: 480, height: 480 }, false);
    const [fixed] = useCanvas.getState().images;
    expect(fixed).toMatchObject({ x: 100, y: 50, width: 200, height: 200 });
    expect(fixed?.naturalWidth).toBeUndefined();
    // A box that already fits is left alone (the same array: nothing to save again).
    const before = useCanvas.getState().images;
    useCanvas.getState().fitToImage(added?.id ?? '', { width: 2048, height: 2048 }, true);
    expect(useCanvas.getState().images).toBe(before);
  });

  it('corrects a saved 300×200 box of a 16:9 image and records the size when the full image loaded', () => {
    useCanvas.getState().restore({
      images: [
        {
          id: 'old',
          url: '/old.png',
          thumbnailUrl: null,
          x: 50,
          y: 50,
          width: 300,
          height: 200,
          name: 'old',
          naturalWidth: 2048,
          naturalHeight: 2048,
        },
      ],
      selectedIds: [],
      zoom: 1,
      panX: 0,
      panY: 0,
      tool: 'select',
      inputMode: 'generate',
      format: '4K|TV',
    });
    useCanvas.getState().fitToImage('old', { width: 1600, height: 900 }, true);
    const [fixed] = useCanvas.getState().images;
    expect(fixed).toMatchObject({ naturalWidth: 1600, naturalHeight: 900, width: 300 });
    expect(ratio(fixed ?? { width: 0, height: 1 })).toBeCloseTo(16 / 9, 9);
  });
});
