import { describe, expect, it } from 'vitest';
import {
  chooseSource,
  clampZoom,
  cullToViewport,
  fitScale,
  gridPosition,
  intersects,
  visibleRect,
  wheelZoom,
  zoomAround,
} from './canvas.ts';

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
