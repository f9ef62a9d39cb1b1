import { describe, expect, it } from 'vitest';
import {
  addLayers,
  aspectRatioOf,
  byZ,
  captureCompositionSession,
  clampArtboardSide,
  clampPosition,
  compositionPrompt,
  fitScale,
  keepAspect,
  type Layer,
  MULTI_COMPOSITION_MAX,
  moveLayer,
  type NewLayer,
  parseCompositionSession,
  placeNewLayer,
  removeLayer,
  resizeArtboard,
  resizeLayer,
  roomLeft,
  setOpacity,
  shiftLayer,
  sniffImageType,
} from './layers.ts';

const board = { width: 1000, height: 500 };
const image = (n: number, w = 400, h = 200): NewLayer => ({
  id: `l${n}`,
  url: `/api/personas/image/${n}.png`,
  name: `image-${n}.png`,
  naturalWidth: w,
  naturalHeight: h,
});
const three = () => addLayers([], [image(1), image(2), image(3)], board).layers;
const order = (layers: Layer[]) => byZ(layers).map((l) => l.id);

describe('multi-composition layers', () => {
  it('adds up to ten layers on top of each other and reports the ones left out', () => {
    const many = Array.from({ length: 12 }, (_, i) => image(i));
    const { layers, dropped } = addLayers([], many, board);
    expect(layers).toHaveLength(MULTI_COMPOSITION_MAX);
    expect(dropped).toBe(2);
    expect(roomLeft(layers)).toBe(0);
    expect(layers.map((l) => l.zIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(addLayers(layers, [image(99)], board)).toEqual({ layers, dropped: 1 });
  });

  it('places a new image at its size within 25–60 % of the artboard, aspect kept, cascading later ones', () => {
    const first = placeNewLayer({ width: 400, height: 200 }, board, 0);
    expect(first.width / first.height).toBeCloseTo(2);
    expect(first.width).toBeLessThanOrEqual(600);
    expect(first.height).toBeLessThanOrEqual(300);
    const second = placeNewLayer({ width: 400, height: 200 }, board, 1);
    expect(second.x).toBeGreaterThan(first.x);
    expect(second.y).toBeGreaterThan(first.y);
    // A portrait image on a landscape board is limited by the height.
    const tall = placeNewLayer({ width: 100, height: 400 }, board, 2);
    expect(tall.height).toBe(300);
    expect(tall.width).toBe(75);
    // Small images grow to a quarter of the board, large ones shrink to 60 %.
    expect(placeNewLayer({ width: 50, height: 50 }, board, 0)).toMatchObject({ width: 125, height: 125 });
    expect(placeNewLayer({ width: 5000, height: 2500 }, board, 0)).toMatchObject({ width: 600, height: 300 });
  });

  it('moves within the artboard, keeping part of the layer on it', () => {
    const layers = three();
    const moved = moveLayer(layers, 'l1', -5000, 9000, board);
    const l1 = moved.find((l) => l.id === 'l1') as Layer;
    expect(l1.x).toBe(32 - l1.width);
    expect(l1.y).toBe(board.height - 32);
    expect(moveLayer(layers, 'l1', 10.4, 20.6, board).find((l) => l.id === 'l1')).toMatchObject({ x: 10, y: 21 });
    expect(clampPosition({ width: 10, height: 10 }, -50, -50, board)).toEqual({ x: 0, y: 0 });
  });

  it('resizes with a minimum and a maximum, and corner drags keep the aspect ratio', () => {
    const layers = three();
    const small = resizeLayer(layers, 'l2', { width: 2, height: 3 }, board).find((l) => l.id === 'l2');
    expect(small).toMatchObject({ width: 16, height: 16 });
    const big = resizeLayer(layers, 'l2', { width: 9999, height: 9999 }, board).find((l) => l.id === 'l2');
    expect(big).toMatchObject({ width: 2000, height: 1000 });
    expect(keepAspect({ width: 400, height: 200 }, 200)).toEqual({ width: 200, height: 100 });
    expect(keepAspect({ width: 400, height: 200 }, 1)).toEqual({ width: 32, height: 16 });
  });

  it('reorders by swapping neighbours and renumbers after removal', () => {
    const layers = three();
    expect(order(layers)).toEqual(['l1', 'l2', 'l3']);
    expect(order(shiftLayer(layers, 'l1', 'up'))).toEqual(['l2', 'l1', 'l3']);
    expect(order(shiftLayer(layers, 'l3', 'down'))).toEqual(['l1', 'l3', 'l2']);
    expect(order(shiftLayer(layers, 'l3', 'up'))).toEqual(['l1', 'l2', 'l3']);
    expect(order(shiftLayer(layers, 'l1', 'down'))).toEqual(['l1', 'l2', 'l3']);
    const removed = removeLayer(shiftLayer(layers, 'l1', 'up'), 'l2');
    expect(removed.map((l) => [l.id, l.zIndex])).toEqual([
      ['l1', 0],
      ['l3', 1],
    ]);
  });

  it('clamps opacity and custom artboard sides', () => {
    expect(setOpacity(three(), 'l1', 1.7)[0]?.opacity).toBe(1);
    expect(setOpacity(three(), 'l1', 0.333)[0]?.opacity).toBe(0.33);
    expect(clampArtboardSide(10)).toBe(256);
    expect(clampArtboardSide(99999)).toBe(4096);
    expect(clampArtboardSide(1500.4)).toBe(1500);
    expect(clampArtboardSide(Number.NaN)).toBe(256);
  });

  it('rescales layers with the artboard without distorting them', () => {
    const layers = three();
    const to = { width: 500, height: 500 };
    const scaled = resizeArtboard(layers, board, to);
    scaled.forEach((layer, i) => {
      const before = layers[i] as Layer;
      expect(layer.width / layer.height).toBeCloseTo(before.width / before.height, 1);
      expect(layer.width).toBe(Math.round(before.width / 2));
      expect(layer.x + layer.width).toBeGreaterThan(0);
      expect(layer.x).toBeLessThan(to.width);
    });
  });

  it('fits the artboard into the space shown, never enlarging', () => {
    expect(fitScale({ width: 1920, height: 1080 }, { width: 960, height: 1000 })).toBe(0.5);
    expect(fitScale({ width: 100, height: 100 }, { width: 960, height: 1000 })).toBe(1);
    expect(fitScale({ width: 100, height: 100 }, { width: 0, height: 10 })).toBe(0);
  });

  it('gives the artboard shape as an aspect ratio', () => {
    expect(aspectRatioOf({ width: 1920, height: 1080 })).toBe('16:9');
    expect(aspectRatioOf({ width: 1024, height: 1024 })).toBe('1:1');
    expect(aspectRatioOf({ width: 1080, height: 1920 })).toBe('9:16');
  });

  it('puts the layer order and placement into the prompt, bottom layer first, within 4000 characters', () => {
    const layers = shiftLayer(three(), 'l1', 'up');
    const text = compositionPrompt('  a beach scene  ', layers, board);
    expect(text.startsWith('a beach scene\n\nLayout on a 1000x500 canvas.')).toBe(true);
    const lines = text.split('\n').filter((line) => line.startsWith('Image '));
    expect(lines.map((line) => line.match(/\((.*?)\)/)?.[1])).toEqual(['image-2.png', 'image-1.png', 'image-3.png']);
    expect(lines[0]).toMatch(/left \d+%, top \d+%, width \d+%, height \d+%\.$/);
    const faded = compositionPrompt('x', setOpacity(layers, 'l3', 0.5), board);
    expect(faded).toContain('opacity 50%');
    expect(compositionPrompt('y'.repeat(5000), layers, board).length).toBeLessThanOrEqual(4000);
  });

  it('captures and restores a session round trip', () => {
    const layers = setOpacity(shiftLayer(three(), 'l3', 'down'), 'l2', 0.4);
    const state = {
      layers,
      canvasWidth: 1000,
      canvasHeight: 500,
      prompt: 'blend them',
      result: { url: '/api/personas/image/r.png', id: 'a1', width: 2048, height: 1024 },
    };
    const captured = captureCompositionSession(state);
    expect(captured?.layers.map((l) => Object.keys(l).sort())[0]).toEqual(
      ['height', 'id', 'name', 'opacity', 'url', 'width', 'x', 'y', 'zIndex'].sort(),
    );
    const restored = parseCompositionSession(JSON.parse(JSON.stringify(captured)));
    expect(order(restored.layers)).toEqual(order(layers));
    expect(restored).toMatchObject({
      canvasWidth: 1000,
      canvasHeight: 500,
      prompt: 'blend them',
      result: state.result,
    });
    expect(byZ(restored.layers)).toEqual(byZ(layers));
    expect(captureCompositionSession({ ...state, layers: [], prompt: ' ', result: null })).toBeNull();
  });

  it('refuses data of another shape and repairs odd values', () => {
    expect(() => parseCompositionSession({ layers: 'x', canvasWidth: 1, canvasHeight: 1 })).toThrow(
      'layers must be an array',
    );
    expect(() => parseCompositionSession({ layers: [] })).toThrow('canvasWidth and canvasHeight must be numbers');
    const odd = parseCompositionSession({
      layers: [{ url: '/a.png', x: -9999, opacity: 7 }, { nourl: true }, { url: '/b.png', zIndex: -4 }],
      canvasWidth: 50_000,
      canvasHeight: 1024,
    });
    expect(odd.canvasWidth).toBe(4096);
    expect(odd.layers).toHaveLength(2);
    expect(odd.layers[0]).toMatchObject({ id: 'layer-0', opacity: 1, name: 'Layer 1' });
    expect(odd.layers[0]?.x).toBeGreaterThan(-9999);
    expect(odd.layers.map((l) => l.zIndex).sort()).toEqual([0, 1]);
    expect(odd.result).toBeNull();
  });

  it('sniffs image files by their bytes', () => {
    const bytes = (...values: Array<number | string>) =>
      new Uint8Array(values.flatMap((v) => (typeof v === 'string' ? [...v].map((c) => c.charCodeAt(0)) : [v])));
    expect(sniffImageType(bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a))).toBe('image/png');
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(sniffImageType(bytes('RIFF', 0, 0, 0, 0, 'WEBPVP8 '))).toBe('image/webp');
    expect(sniffImageType(bytes('GIF89a'))).toBe('image/gif');
    expect(sniffImageType(bytes('%PDF-1.7'))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });
});
