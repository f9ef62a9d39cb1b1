import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  besideSpot,
  boundingRect,
  chooseSource,
  clampZoom,
  containRect,
  containSize,
  cullToViewport,
  firstFreeGridPosition,
  fitScale,
  floatingPlacement,
  freeSpotNear,
  gridPosition,
  intersects,
  keepsAspect,
  type Rect,
  revealRect,
  screenRect,
  visibleRect,
  wheelZoom,
  zoomAround,
} from './rules.ts';

describe('an image box in the image’s own aspect', () => {
  const box = { width: 300, height: 200 };

  it('fits a 16:9 image, a square and a portrait into the 300×200 box, as large as they go', () => {
    expect(containSize(box, { width: 3840, height: 2160 })).toEqual({ width: 300, height: 168.75 });
    expect(containSize(box, { width: 2048, height: 2048 })).toEqual({ width: 200, height: 200 });
    expect(containSize(box, { width: 900, height: 1600 })).toEqual({ width: 112.5, height: 200 });
  });

  it('keeps a box of the right aspect, and the box when the size is unknown or not usable', () => {
    expect(containSize(box, { width: 1500, height: 1000 })).toEqual(box);
    expect(containSize(box, undefined)).toEqual(box);
    expect(containSize(box, { width: 0, height: 900 })).toEqual(box);
    expect(containSize(box, { width: Number.NaN, height: 900 })).toEqual(box);
  });

  it('counts a thumbnail’s rounded height (480×270 of 1600×900, 480×160 of 1000×333) as the same aspect', () => {
    expect(keepsAspect({ width: 300, height: 168.75 }, { width: 480, height: 270 })).toBe(true);
    expect(keepsAspect({ width: 300, height: 99.9 }, { width: 480, height: 160 })).toBe(true);
    expect(keepsAspect(box, { width: 1600, height: 900 })).toBe(false);
    expect(keepsAspect(box, { width: 1000, height: 1000 })).toBe(false);
  });

  it('shrinks a saved box of another aspect around its centre, returning the same box when it fits', () => {
    const saved = { id: 'a', x: 50, y: 50, width: 300, height: 200 };
    expect(containRect(saved, { width: 1600, height: 900 })).toEqual({
      id: 'a',
      x: 50,
      y: 50 + (200 - 168.75) / 2,
      width: 300,
      height: 168.75,
    });
    expect(containRect(saved, { width: 1000, height: 1000 })).toEqual({
      id: 'a',
      x: 100,
      y: 50,
      width: 200,
      height: 200,
    });
    expect(containRect(saved, { width: 600, height: 400 })).toBe(saved);
  });

  it('always gives the natural aspect, inside the box (property)', () => {
    const side = fc.double({ min: 1, max: 10_000, noNaN: true });
    fc.assert(
      fc.property(side, side, side, side, (bw, bh, nw, nh) => {
        const fitted = containRect({ x: 0, y: 0, width: bw, height: bh }, { width: nw, height: nh });
        expect(keepsAspect(fitted, { width: nw, height: nh })).toBe(true);
        expect(fitted.width).toBeLessThanOrEqual(bw + 1e-9);
        expect(fitted.height).toBeLessThanOrEqual(bh + 1e-9);
        expect(Math.max(fitted.width / bw, fitted.height / bh)).toBeCloseTo(1, 9);
        expect(fitted.x + fitted.width / 2).toBeCloseTo(bw / 2, 6);
        expect(fitted.y + fitted.height / 2).toBeCloseTo(bh / 2, 6);
      }),
    );
  });
});

describe('gridPosition', () => {
  it('starts at 50,50 and steps 350 across, 300 down, three columns', () => {
    expect(gridPosition(0)).toEqual({ x: 50, y: 50 });
    expect(gridPosition(1)).toEqual({ x: 400, y: 50 });
    expect(gridPosition(2)).toEqual({ x: 750, y: 50 });
    expect(gridPosition(3)).toEqual({ x: 50, y: 350 });
    expect(gridPosition(999)).toEqual({ x: 50, y: 50 + 333 * 300 });
  });
  it('treats negative or fractional indexes sanely', () => {
    expect(gridPosition(-4)).toEqual({ x: 50, y: 50 });
    expect(gridPosition(1.7)).toEqual({ x: 400, y: 50 });
  });
});

describe('firstFreeGridPosition', () => {
  const size = { width: 300, height: 200 };
  const at = (index: number, box = size): Rect => ({ ...gridPosition(index), ...box });

  it('fills the grid in order on an untouched canvas', () => {
    expect(firstFreeGridPosition([], size)).toEqual({ x: 50, y: 50 });
    expect(firstFreeGridPosition([at(0), at(1)], size)).toEqual({ x: 750, y: 50 });
    expect(firstFreeGridPosition([at(0), at(1), at(2)], size)).toEqual({ x: 50, y: 350 });
  });

  it('reuses the cell of a removed image instead of counting images', () => {
    expect(firstFreeGridPosition([at(0), at(2), at(3)], size)).toEqual({ x: 400, y: 50 });
  });

  it('skips a cell a moved image now covers, even partly', () => {
    // The second image was dragged half into the third cell: the next image goes to the second row.
    const moved = { x: 600, y: 100, width: 300, height: 200 };
    expect(firstFreeGridPosition([at(0), moved], size)).toEqual({ x: 50, y: 350 });
  });

  it('skips every cell a large image covers (an enhanced 1920×1080 from the first cell)', () => {
    const big = { x: 50, y: 50, width: 1920, height: 1080 };
    expect(firstFreeGridPosition([big], size)).toEqual({ x: 50, y: 50 + 4 * 300 });
  });

  it('places a bigger new image where all of it is free', () => {
    const wide = { width: 640, height: 360 };
    // Cell 1 is free but a 640-wide image there would reach into the image in cell 2.
    expect(firstFreeGridPosition([at(0), at(2)], wide)).toEqual({ x: 50, y: 350 });
  });

  it('treats touching edges as free and ignores images without area', () => {
    expect(firstFreeGridPosition([{ x: 350, y: 50, width: 10, height: 10 }], size)).toEqual({ x: 50, y: 50 });
    expect(firstFreeGridPosition([{ x: 60, y: 60, width: 0, height: 0 }], size)).toEqual({ x: 50, y: 50 });
  });

  it('never overlaps an image, wherever the images are (property)', () => {
    const image = fc.record({
      x: fc.integer({ min: -2000, max: 4000 }),
      y: fc.integer({ min: -2000, max: 6000 }),
      width: fc.integer({ min: 1, max: 2500 }),
      height: fc.integer({ min: 1, max: 1500 }),
    });
    const box = fc.record({ width: fc.integer({ min: 1, max: 2000 }), height: fc.integer({ min: 1, max: 1200 }) });
    fc.assert(
      fc.property(fc.array(image, { maxLength: 60 }), box, (images, newSize) => {
        const placed = { ...firstFreeGridPosition(images, newSize), ...newSize };
        expect(images.filter((other) => intersects(other, placed))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  // How long it takes is a budget of `npm run bench -- speed`, not a test.
  it('finds the next free cell after a full canvas of 1000 images', () => {
    const images = Array.from({ length: 1000 }, (_, i) => at(i));
    expect(firstFreeGridPosition(images, size)).toEqual(gridPosition(1000));
  });
});

describe('freeSpotNear', () => {
  const enhanced = { x: 2200, y: 50, width: 1920, height: 1080 };
  it('keeps the preferred spot when it is free', () => {
    expect(freeSpotNear([{ x: 50, y: 50, width: 300, height: 200 }], enhanced)).toEqual(enhanced);
  });
  it('moves down a grid row at a time past what is there', () => {
    expect(freeSpotNear([enhanced], enhanced)).toEqual({ ...enhanced, y: 50 + 4 * 300 });
    const small = { x: 3000, y: 400, width: 300, height: 200 };
    expect(freeSpotNear([small], enhanced)).toEqual({ ...enhanced, y: 650 });
  });
});

describe('revealRect', () => {
  const viewport = { width: 1200, height: 800 };
  it('leaves the view alone when the rectangle is already in sight', () => {
    const view = { zoom: 1, panX: 0, panY: 0 };
    expect(revealRect(view, { x: 400, y: 50, width: 300, height: 200 }, viewport)).toBe(view);
  });
  it('centres an off-screen rectangle at the same zoom', () => {
    const view = revealRect({ zoom: 1, panX: 0, panY: 0 }, { x: 50, y: 2150, width: 300, height: 200 }, viewport);
    expect(view).toEqual({ zoom: 1, panX: 600 - 200, panY: 400 - 2250 });
    const seen = visibleRect(view, viewport.width, viewport.height);
    expect(seen.y).toBeLessThanOrEqual(2150);
    expect(seen.y + seen.height).toBeGreaterThanOrEqual(2350);
  });
  it('zooms out (never in) to fit a rectangle larger than the viewport', () => {
    const view = revealRect({ zoom: 1, panX: 0, panY: 0 }, { x: 2200, y: 50, width: 1920, height: 1080 }, viewport);
    expect(view.zoom).toBeCloseTo((1200 - 80) / 1920);
    const seen = visibleRect(view, viewport.width, viewport.height);
    expect(seen.x).toBeLessThanOrEqual(2200);
    expect(seen.x + seen.width).toBeGreaterThanOrEqual(2200 + 1920);
    const zoomedOut = { zoom: 0.2, panX: 5000, panY: 0 };
    expect(revealRect(zoomedOut, { x: 50, y: 50, width: 300, height: 200 }, viewport).zoom).toBe(0.2);
  });
});

describe('zoom', () => {
  it('clamps to 0.1–5', () => {
    expect(clampZoom(0.01)).toBe(0.1);
    expect(clampZoom(9)).toBe(5);
    expect(clampZoom(2)).toBe(2);
    expect(clampZoom(Number.NaN)).toBe(1);
  });
  it('keeps the point under the pointer fixed', () => {
    const view = { zoom: 1, panX: 100, panY: -40 };
    const pointer = { x: 600, y: 400 };
    const next = zoomAround(view, 2, pointer);
    const before = { x: (pointer.x - view.panX) / view.zoom, y: (pointer.y - view.panY) / view.zoom };
    const after = { x: (pointer.x - next.panX) / next.zoom, y: (pointer.y - next.panY) / next.zoom };
    expect(after.x).toBeCloseTo(before.x);
    expect(after.y).toBeCloseTo(before.y);
  });
  it('steps the wheel by 1.1 in and 0.9 out, within the range', () => {
    expect(wheelZoom({ zoom: 1, panX: 0, panY: 0 }, -100, { x: 0, y: 0 }).zoom).toBeCloseTo(1.1);
    expect(wheelZoom({ zoom: 1, panX: 0, panY: 0 }, 100, { x: 0, y: 0 }).zoom).toBeCloseTo(0.9);
    expect(wheelZoom({ zoom: 5, panX: 0, panY: 0 }, -100, { x: 10, y: 10 })).toEqual({ zoom: 5, panX: 0, panY: 0 });
    expect(wheelZoom({ zoom: 0.1, panX: 0, panY: 0 }, 100, { x: 0, y: 0 }).zoom).toBe(0.1);
  });
});

describe('culling', () => {
  it('maps the screen viewport into canvas space', () => {
    expect(visibleRect({ zoom: 2, panX: -200, panY: -100 }, 1200, 800)).toEqual({
      x: 100,
      y: 50,
      width: 600,
      height: 400,
    });
    expect(visibleRect({ zoom: 1, panX: 0, panY: 0 }, 1200, 800, 100)).toEqual({
      x: -100,
      y: -100,
      width: 1400,
      height: 1000,
    });
  });
  it('keeps only intersecting items', () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({ id: i, ...gridPosition(i), width: 300, height: 200 }));
    const seen = cullToViewport(items, visibleRect({ zoom: 1, panX: 0, panY: 0 }, 1200, 800));
    expect(seen.map((item) => item.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(intersects({ x: 0, y: 0, width: 10, height: 10 }, { x: 10, y: 0, width: 5, height: 5 })).toBe(false);
  });
});

describe('chooseSource', () => {
  const image = { thumbnailUrl: '/t.webp', width: 300 };
  it('draws the thumbnail until the image is wider on screen than the 480 px thumbnail', () => {
    expect(chooseSource(image, 1)).toBe('thumbnail');
    expect(chooseSource(image, 1.6)).toBe('thumbnail');
    expect(chooseSource(image, 1.7)).toBe('full');
    expect(chooseSource(image, 1, 200)).toBe('full');
  });
  it('uses the full url when there is no thumbnail', () => {
    expect(chooseSource({ thumbnailUrl: null, width: 10 }, 0.1)).toBe('full');
  });
});

describe('fitScale', () => {
  it('fits the 1200×800 element into smaller boxes, never enlarging', () => {
    expect(fitScale(2000, 2000)).toBe(1);
    expect(fitScale(600)).toBe(0.5);
    expect(fitScale(1200, 400)).toBe(0.5);
  });
});

describe('the selection toolbar', () => {
  const bounds = { width: 800, height: 600 };
  const bar = { width: 240, height: 40 };

  it('goes above the image, centred on it, when there is room', () => {
    expect(floatingPlacement({ x: 300, y: 200, width: 200, height: 100 }, bar, bounds)).toEqual({
      x: 280,
      y: 152,
      side: 'above',
    });
  });

  it('goes below when there is no room above, and stays inside the view at its edges', () => {
    const placed = floatingPlacement({ x: -50, y: 20, width: 200, height: 100 }, bar, bounds);
    expect(placed).toEqual({ x: 8, y: 128, side: 'below' });
    const right = floatingPlacement({ x: 700, y: 300, width: 200, height: 100 }, bar, bounds);
    expect(right).toEqual({ x: 800 - 240 - 8, y: 252, side: 'above' });
  });

  it('goes beside an image as tall as the view, on the side with more room', () => {
    const tall = { x: 100, y: 0, width: 200, height: 600 };
    expect(floatingPlacement(tall, bar, bounds)).toEqual({ x: 308, y: 280, side: 'right' });
    expect(floatingPlacement({ ...tall, x: 500 }, bar, bounds)).toEqual({ x: 252, y: 280, side: 'left' });
  });

  it('cuts a panel too tall for any side to the larger room above or below, down to the toolbar alone', () => {
    const panel = { width: 320, height: 500 };
    expect(
      floatingPlacement({ x: 10, y: 10, width: 100, height: 60 }, panel, { width: 360, height: 500 }, 8, 8, 40),
    ).toEqual({ x: 8, y: 78, side: 'below', maxHeight: 414 });
    expect(
      floatingPlacement({ x: 10, y: 400, width: 100, height: 60 }, panel, { width: 360, height: 500 }, 8, 8, 40),
    ).toEqual({ x: 8, y: 8, side: 'above', maxHeight: 384 });
    // Not even the toolbar fits beside it: over.
    expect(
      floatingPlacement({ x: 10, y: 30, width: 100, height: 440 }, panel, { width: 360, height: 500 }, 8, 8, 40).side,
    ).toBe('over');
  });

  it('lies over the image only when it fills the view', () => {
    expect(floatingPlacement({ x: 0, y: 0, width: 800, height: 600 }, bar, bounds).side).toBe('over');
  });

  it('never covers the image while any side has room (property)', () => {
    fc.assert(
      fc.property(
        fc.record({
          x: fc.integer({ min: -400, max: 800 }),
          y: fc.integer({ min: -400, max: 600 }),
          width: fc.integer({ min: 10, max: 700 }),
          height: fc.integer({ min: 10, max: 500 }),
        }),
        (anchor) => {
          const placed = floatingPlacement(anchor, { ...bar, height: 300 }, bounds, 8, 8, bar.height);
          const box = { x: placed.x, y: placed.y, width: bar.width, height: placed.maxHeight ?? 300 };
          expect(box.x).toBeGreaterThanOrEqual(8);
          expect(box.x + box.width).toBeLessThanOrEqual(bounds.width - 8);
          expect(box.y).toBeGreaterThanOrEqual(8);
          expect(box.y + box.height).toBeLessThanOrEqual(bounds.height - 8);
          if (placed.side !== 'over') expect(intersects(box, anchor)).toBe(false);
        },
      ),
    );
  });

  it('follows pan and zoom: a canvas rectangle on screen', () => {
    expect(screenRect({ x: 50, y: 50, width: 300, height: 200 }, { zoom: 2, panX: -10, panY: 20 }, 0.5)).toEqual({
      x: 45,
      y: 60,
      width: 300,
      height: 200,
    });
    expect(boundingRect([])).toBeNull();
    expect(
      boundingRect([
        { x: 0, y: 10, width: 10, height: 10 },
        { x: 30, y: 0, width: 5, height: 5 },
      ]),
    ).toEqual({ x: 0, y: 0, width: 35, height: 20 });
  });
});

describe('a result beside its source', () => {
  it('goes to the right of the source, below anything already there', () => {
    const source = { x: 50, y: 50, width: 300, height: 169 };
    expect(besideSpot([source], source, { width: 300, height: 169 })).toEqual({
      x: 400,
      y: 50,
      width: 300,
      height: 169,
    });
    const taken = { x: 400, y: 50, width: 300, height: 200 };
    expect(besideSpot([source, taken], source, { width: 300, height: 169 })).toEqual({
      x: 400,
      y: 350,
      width: 300,
      height: 169,
    });
  });
});
