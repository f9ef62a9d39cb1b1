import { describe, expect, it } from 'vitest';
import { type RegionContext, RegionSelector, type SelectableRegion } from './RegionSelector.ts';
import { REGION_COLOURS } from './rules.ts';

// A pixel buffer with the 2D calls the painting makes, drawn for real (solid lines; the alpha of a fill is kept
// in its colour text): rectangles fill their pixels, a stroked rectangle the pixels within half the line width of
// its edges, an image (one colour here) the pixels it covers.
class Raster {
  readonly pixels: string[];
  readonly context: RegionContext<{ colour: string }>;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.pixels = new Array<string>(width * height).fill('');
    const raster = this;
    this.context = {
      fillStyle: '',
      strokeStyle: '',
      lineWidth: 1,
      globalAlpha: 1,
      clearRect(x, y, w, h) {
        raster.paint((px, py) => inBox(px, py, x, y, w, h), '');
      },
      fillRect(x, y, w, h) {
        raster.paint((px, py) => inBox(px, py, x, y, w, h), String(this.fillStyle));
      },
      strokeRect(x, y, w, h) {
        const half = this.lineWidth / 2;
        raster.paint(
          (px, py) =>
            inBox(px, py, x - half, y - half, w + 2 * half, h + 2 * half) &&
            !inBox(px, py, x + half, y + half, w - 2 * half, h - 2 * half),
          String(this.strokeStyle),
        );
      },
      setLineDash() {},
      drawImage(image, dx, dy, dw, dh) {
        raster.paint((px, py) => inBox(px, py, dx, dy, dw, dh), image.colour);
      },
    };
  }

  at(x: number, y: number) {
    return this.pixels[y * this.width + x];
  }

  private paint(inside: (x: number, y: number) => boolean, colour: string) {
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) if (inside(x + 0.5, y + 0.5)) this.pixels[y * this.width + x] = colour;
    }
  }
}

const inBox = (px: number, py: number, x: number, y: number, w: number, h: number) =>
  px >= x && px < x + w && py >= y && py < y + h;

const region = (id: string, x: number, y: number, width: number, height: number): SelectableRegion => ({
  id,
  x,
  y,
  width,
  height,
  hasImage: false,
});
const bounds = { width: 200, height: 100 };

describe('RegionSelector', () => {
  it('maps a pointer to surface pixels when the canvas is shown scaled', () => {
    const selector = new RegionSelector();
    const box = { left: 10, top: 20, width: 100, height: 50 };
    expect(selector.pointAt({ clientX: 60, clientY: 45 }, bounds, box)).toEqual({ x: 100, y: 50 });
    expect(selector.pointAt({ clientX: 60, clientY: 45 }, bounds, { ...box, width: 0 })).toBeNull();
  });

  it('draws a rectangle from press to release, clamped to the surface, in either direction', () => {
    const selector = new RegionSelector();
    expect(selector.press({ x: 150, y: 80 }, [], false)).toEqual({ kind: 'draw' });
    expect(selector.move({ x: 120, y: 60 })).toBe(true);
    expect(selector.release({ x: 260, y: -5 }, bounds)).toEqual({ x: 150, y: 0, width: 50, height: 80 });
    expect(selector.dragging).toBe(false);
  });

  it('discards a rectangle under 20x20 and a release without a press', () => {
    const selector = new RegionSelector();
    selector.press({ x: 10, y: 10 }, [], false);
    expect(selector.release({ x: 25, y: 50 }, bounds)).toBeNull();
    expect(selector.move({ x: 90, y: 90 })).toBe(false);
    expect(selector.release({ x: 90, y: 90 }, bounds)).toBeNull();
  });

  it('picks the topmost region under a press, and draws over it with Shift held', () => {
    const selector = new RegionSelector();
    const regions = [region('a', 0, 0, 100, 100), region('b', 50, 50, 40, 40)];
    expect(selector.press({ x: 60, y: 60 }, regions, false)).toEqual({ kind: 'select', id: 'b' });
    expect(selector.press({ x: 10, y: 10 }, regions, false)).toEqual({ kind: 'select', id: 'a' });
    expect(selector.dragging).toBe(false);
    expect(selector.press({ x: 60, y: 60 }, regions, true)).toEqual({ kind: 'draw' });
    expect(selector.dragging).toBe(true);
    selector.cancel();
    expect(selector.release({ x: 99, y: 99 }, bounds)).toBeNull();
  });

  it('finds the drop target under a point', () => {
    const selector = new RegionSelector();
    const regions = [region('a', 0, 0, 30, 30)];
    expect(selector.regionAt(regions, { x: 5, y: 5 })?.id).toBe('a');
    expect(selector.regionAt(regions, { x: 50, y: 5 })).toBeNull();
    expect(selector.regionAt(regions, null)).toBeNull();
  });

  it('paints the image, each region in the colour of its state, a dropped image, and the dragged rectangle', () => {
    const selector = new RegionSelector<{ colour: string }>();
    const raster = new Raster(200, 100);
    const regions = [region('active', 20, 20, 40, 40), { ...region('dropped', 120, 20, 40, 40), hasImage: true }];
    selector.setDroppedImage('dropped', { colour: 'dropped-image' }, { width: 40, height: 40 });
    const scene = { image: { colour: 'photo' }, ...bounds, regions, activeId: 'active', dropId: null };
    selector.draw(raster.context, scene);

    expect(raster.at(5, 5)).toBe('photo');
    expect(raster.at(20, 40)).toBe(REGION_COLOURS.active);
    expect(raster.at(40, 40)).toBe(`${REGION_COLOURS.active}33`);
    expect(raster.at(120, 40)).toBe(REGION_COLOURS.hasImage);
    // The dropped image lies under the region's tint.
    expect(raster.at(140, 40)).toBe(`${REGION_COLOURS.hasImage}33`);

    selector.press({ x: 70, y: 70 }, regions, false);
    selector.move({ x: 110, y: 90 });
    selector.draw(raster.context, scene);
    expect(raster.at(70, 80)).toBe('#ffffff');
    expect(raster.at(90, 80)).toBe('photo');

    selector.release(null, bounds);
    selector.forget('dropped');
    selector.draw(raster.context, { ...scene, dropId: 'dropped' });
    expect(raster.at(70, 80)).toBe('photo');
    expect(raster.at(120, 40)).toBe(REGION_COLOURS.dropTarget);
  });

  it('draws a dropped image in its own aspect, centred in its region, never stretched', () => {
    const selector = new RegionSelector<{ colour: string }>();
    const drawn: number[][] = [];
    const raster = new Raster(200, 100);
    const context = {
      ...raster.context,
      drawImage: (image: { colour: string }, ...box: number[]) => {
        if (image.colour === 'wide') drawn.push(box);
      },
    };
    // A 2:1 picture dropped on a 40×40 region: 40×20, centred vertically.
    selector.setDroppedImage('r', { colour: 'wide' }, { width: 1600, height: 800 });
    const regions = [{ ...region('r', 120, 20, 40, 40), hasImage: true }];
    selector.draw(context, { image: { colour: 'photo' }, ...bounds, regions, activeId: null, dropId: null });
    expect(drawn).toEqual([[120, 30, 40, 20]]);
  });
});
