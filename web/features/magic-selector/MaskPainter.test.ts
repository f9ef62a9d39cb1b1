import { describe, expect, it } from 'vitest';
import { type MaskContext, MaskPainter, type MaskSurface } from './MaskPainter.ts';

// A pixel buffer with the 2D calls the painter makes, drawn for real: rectangles fill their pixels, a stroked
// path covers the pixels whose centres lie within half the line width of a segment (round caps and joins), and
// an image is copied scaled to the nearest pixel. Colours are kept as their CSS hex text per pixel.
class RasterSurface implements MaskSurface<RasterSurface> {
  readonly pixels: string[];
  private readonly context: MaskContext<RasterSurface>;

  constructor(
    readonly width: number,
    readonly height: number,
    fill = '',
  ) {
    this.pixels = new Array<string>(width * height).fill(fill);
    const surface = this;
    let path: Array<{ x: number; y: number }> = [];
    this.context = {
      fillStyle: '',
      strokeStyle: '',
      lineCap: 'butt',
      lineJoin: 'miter',
      lineWidth: 1,
      fillRect(x, y, w, h) {
        surface.each((px, py) => px >= x && px < x + w && py >= y && py < y + h, String(this.fillStyle));
      },
      beginPath() {
        path = [];
      },
      moveTo(x, y) {
        path = [{ x, y }];
      },
      lineTo(x, y) {
        path.push({ x, y });
      },
      stroke() {
        const half = this.lineWidth / 2;
        const segments = path.slice(1).map((to, i) => [path[i] as { x: number; y: number }, to] as const);
        surface.each(
          (px, py) => segments.some(([a, b]) => distanceToSegment(px + 0.5, py + 0.5, a, b) <= half),
          String(this.strokeStyle),
        );
      },
      drawImage(image, dx, dy, dw, dh) {
        for (let py = 0; py < surface.height; py++) {
          for (let px = 0; px < surface.width; px++) {
            if (px < dx || px >= dx + dw || py < dy || py >= dy + dh) continue;
            const sx = Math.floor(((px - dx) * image.width) / dw);
            const sy = Math.floor(((py - dy) * image.height) / dh);
            surface.pixels[py * surface.width + px] = image.at(sx, sy);
          }
        }
      },
    };
  }

  getContext() {
    return this.context;
  }

  toDataURL(type: string) {
    return `data:${type};base64,${Buffer.from(this.pixels.join(',')).toString('base64')}`;
  }

  at(x: number, y: number): string {
    return this.pixels[y * this.width + x] as string;
  }

  count(colour: string): number {
    return this.pixels.filter((pixel) => pixel === colour).length;
  }

  private each(inside: (x: number, y: number) => boolean, colour: string) {
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) if (inside(x, y)) this.pixels[y * this.width + x] = colour;
    }
  }
}

function distanceToSegment(x: number, y: number, a: { x: number; y: number }, b: { x: number; y: number }) {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((x - a.x) * dx + (y - a.y) * dy) / length));
  return Math.hypot(x - (a.x + t * dx), y - (a.y + t * dy));
}

const WHITE = '#ffffff';
const BLACK = '#000000';
const onScreen = (width: number) => ({ left: 100, top: 50, width });

describe('MaskPainter', () => {
  it('starts a mask all black', () => {
    const surface = new RasterSurface(40, 20, 'unpainted');
    new MaskPainter(surface, 4).clear();
    expect(surface.count(BLACK)).toBe(40 * 20);
  });

  it('paints a white stroke of the brush width along the pointer path, and nothing elsewhere', () => {
    const surface = new RasterSurface(40, 20);
    const painter = new MaskPainter(surface, 4);
    painter.clear();
    const box = onScreen(40);
    painter.begin(painter.pointAt({ clientX: 110, clientY: 60 }, box));
    painter.extend(painter.pointAt({ clientX: 130, clientY: 60 }, box));
    painter.end();

    expect(surface.at(10, 10)).toBe(WHITE);
    expect(surface.at(20, 10)).toBe(WHITE);
    expect(surface.at(29, 10)).toBe(WHITE);
    expect(surface.at(20, 8)).toBe(WHITE);
    expect(surface.at(20, 13)).toBe(BLACK);
    expect(surface.at(35, 10)).toBe(BLACK);
    expect(surface.at(20, 2)).toBe(BLACK);
  });

  it('keeps the brush its on-screen width when the image is shown smaller than its size', () => {
    // 80 mask pixels shown 40 screen pixels wide: each screen pixel covers two, the brush is 8 mask pixels wide.
    const surface = new RasterSurface(80, 40);
    const painter = new MaskPainter(surface, 4);
    painter.clear();
    const point = painter.pointAt({ clientX: 120, clientY: 60 }, onScreen(40));
    expect(point).toEqual({ x: 40, y: 20, scale: 2 });
    painter.begin(point);
    painter.end();
    expect(surface.at(40, 20)).toBe(WHITE);
    expect(surface.at(40, 16)).toBe(WHITE);
    expect(surface.at(40, 14)).toBe(BLACK);
  });

  it('paints only between a press and a release', () => {
    const surface = new RasterSurface(40, 20);
    const painter = new MaskPainter(surface, 4);
    painter.clear();
    const box = onScreen(40);
    painter.extend(painter.pointAt({ clientX: 120, clientY: 60 }, box));
    expect(surface.count(WHITE)).toBe(0);

    painter.begin(painter.pointAt({ clientX: 105, clientY: 55 }, box));
    painter.end();
    const dot = surface.count(WHITE);
    expect(dot).toBeGreaterThan(0);
    painter.extend(painter.pointAt({ clientX: 135, clientY: 65 }, box));
    expect(surface.count(WHITE)).toBe(dot);
  });

  it('clears what was painted', () => {
    const surface = new RasterSurface(40, 20);
    const painter = new MaskPainter(surface, 4);
    painter.clear();
    painter.begin(painter.pointAt({ clientX: 120, clientY: 60 }, onScreen(40)));
    painter.end();
    painter.clear();
    expect(surface.count(WHITE)).toBe(0);
  });

  it('restores a saved mask stretched to the mask size, and hands the mask out as a PNG data URL', () => {
    const saved = new RasterSurface(2, 2, BLACK);
    saved.pixels[1] = WHITE; // top right
    const surface = new RasterSurface(10, 10);
    const painter = new MaskPainter(surface, 4);
    painter.paint(saved);
    expect(surface.at(9, 0)).toBe(WHITE);
    expect(surface.at(5, 4)).toBe(WHITE);
    expect(surface.at(4, 4)).toBe(BLACK);
    expect(surface.at(9, 5)).toBe(BLACK);
    expect(surface.count(WHITE)).toBe(25);
    expect(painter.toDataUrl()).toMatch(/^data:image\/png;base64,/);
  });
});
