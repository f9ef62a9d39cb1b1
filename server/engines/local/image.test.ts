import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { colourDistance, meanRgb, patternPng, rectMask, solidPng } from '../test-media.ts';
import { LocalImageEngine } from './image.ts';

const engine = new LocalImageEngine();
const model = 'seedream4';

describe('local image engine: text to image', () => {
  // How fast it paints is a budget of `npm run bench -- speed`, not a test.
  it('paints 1024x1024 PNG, decodable, with local metadata', async () => {
    const result = await engine.textToImage({
      model,
      prompt: 'a calm sunset over the ocean, orange and purple',
      width: 1024,
      height: 1024,
      seed: 7,
    });
    const meta = await sharp(result.data).metadata();
    expect(meta.format).toBe('png');
    expect([meta.width, meta.height]).toEqual([1024, 1024]);
    expect([result.width, result.height]).toEqual([1024, 1024]);
    expect(result.mimeType).toBe('image/png');
    expect(result.metadata).toMatchObject({ engine: 'local', model, scene: 'sea', timeOfDay: 'sunset' });
    expect(result.metadata.colours).toEqual(['orange', 'purple']);
    expect(result.seed).toBe(7);
  });

  it('honours any size and aspect, and output formats', async () => {
    for (const [w, h] of [
      [720, 1280],
      [640, 274],
      [333, 333],
    ]) {
      const r = await engine.textToImage({ model, prompt: 'misty forest', width: w, height: h });
      const meta = await sharp(r.data).metadata();
      expect([meta.width, meta.height]).toEqual([w, h]);
    }
    const webp = await engine.textToImage({
      model,
      prompt: 'desert dunes',
      width: 256,
      height: 256,
      outputFormat: 'webp',
    });
    expect((await sharp(webp.data).metadata()).format).toBe('webp');
    expect(webp.mimeType).toBe('image/webp');
    const jpeg = await engine.textToImage({
      model,
      prompt: 'desert dunes',
      width: 256,
      height: 256,
      outputFormat: 'jpeg',
    });
    expect((await sharp(jpeg.data).metadata()).format).toBe('jpeg');
  });

  it('is deterministic for the same prompt and seed; different prompts look different', async () => {
    const req = { model, prompt: 'neon cyberpunk city at night', width: 512, height: 512, seed: 42 };
    const a = await engine.textToImage(req);
    const b = await engine.textToImage(req);
    expect(a.data.equals(b.data)).toBe(true);
    const otherSeed = await engine.textToImage({ ...req, seed: 43 });
    expect(otherSeed.data.equals(a.data)).toBe(false);
    const other = await engine.textToImage({ ...req, prompt: 'green pine forest at noon' });
    expect(colourDistance(await meanRgb(a.data), await meanRgb(other.data))).toBeGreaterThan(25);
    const unseeded1 = await engine.textToImage({ model, prompt: 'snowy mountains', width: 128, height: 128 });
    const unseeded2 = await engine.textToImage({ model, prompt: 'snowy mountains', width: 128, height: 128 });
    expect(unseeded1.data.equals(unseeded2.data)).toBe(true);
  });

  it('follows colour words: a red prompt is redder than a blue one', async () => {
    const red = await meanRgb(
      (
        await engine.textToImage({
          model,
          prompt: 'abstract shapes, red and crimson',
          width: 256,
          height: 256,
          seed: 1,
        })
      ).data,
    );
    const blue = await meanRgb(
      (await engine.textToImage({ model, prompt: 'abstract shapes, blue and navy', width: 256, height: 256, seed: 1 }))
        .data,
    );
    expect(red[0] - red[2]).toBeGreaterThan(blue[0] - blue[2]);
  });

  it('renders 3840x2160 (4K)', async () => {
    const r = await engine.textToImage({ model, prompt: 'epic mountains at dawn', width: 3840, height: 2160, seed: 3 });
    const meta = await sharp(r.data).metadata();
    expect([meta.width, meta.height]).toEqual([3840, 2160]);
    expect(r.metadata.renderSize).toBe('2048x1152');
  });

  it('rejects impossible sizes', async () => {
    await expect(engine.textToImage({ model, prompt: 'x', width: 0, height: 10 })).rejects.toMatchObject({
      status: 400,
    });
    await expect(engine.textToImage({ model, prompt: 'x', width: 10000, height: 10 })).rejects.toMatchObject({
      status: 400,
    });
  });
});

describe('local image engine: edit', () => {
  it('applies operations named in the prompt', async () => {
    const image = await patternPng(320, 200);
    const bw = await engine.edit({ model, prompt: 'make it black and white', image });
    const raw = await sharp(bw.data).raw().toBuffer();
    let maxChroma = 0;
    for (let i = 0; i < raw.length; i += 3)
      maxChroma = Math.max(maxChroma, Math.abs(raw[i] - raw[i + 2]), Math.abs(raw[i] - raw[i + 1]));
    expect(maxChroma).toBeLessThanOrEqual(2);
    expect(bw.metadata).toMatchObject({ engine: 'local', operations: ['black-and-white'] });

    const before = await meanRgb(image.data);
    const warm = await meanRgb((await engine.edit({ model, prompt: 'warm grade', image })).data);
    expect(warm[0] - warm[2]).toBeGreaterThan(before[0] - before[2]);
    const cool = await meanRgb((await engine.edit({ model, prompt: 'cool tone', image })).data);
    expect(cool[2] - cool[0]).toBeGreaterThan(before[2] - before[0]);
    const bright = await meanRgb((await engine.edit({ model, prompt: 'brighten', image })).data);
    const dark = await meanRgb((await engine.edit({ model, prompt: 'darken', image })).data);
    expect(bright[1]).toBeGreaterThan(before[1]);
    expect(dark[1]).toBeLessThan(before[1]);
  });

  it('blurs, stylises, relights and falls back to auto-enhance', async () => {
    const image = await patternPng(200, 120);
    for (const [prompt, op] of [
      ['soft blur', 'blur'],
      ['sharpen details', 'sharpen'],
      ['cartoon style', 'cartoon'],
      ['vintage look', 'vintage'],
      ['relight from the left', 'relight'],
      ['pencil sketch', 'sketch'],
      ['hello there', 'auto-enhance'],
    ] as const) {
      const r = await engine.edit({ model, prompt, image });
      expect(r.metadata.operations, prompt).toContain(op);
      expect(r.data.equals(image.data), prompt).toBe(false);
      expect((await sharp(r.data).metadata()).channels, prompt).toBe(3);
    }
  });

  it('transfers colour from a reference and resizes on request', async () => {
    const image = await patternPng(160, 100);
    const reference = await solidPng(64, 64, [200, 30, 30]);
    const r = await engine.edit({ model, prompt: 'match the reference', image, reference, width: 80, height: 80 });
    expect([r.width, r.height]).toEqual([80, 80]);
    const m = await meanRgb(r.data);
    expect(colourDistance(m, [200, 30, 30])).toBeLessThan(colourDistance(await meanRgb(image.data), [200, 30, 30]));
    expect(r.metadata.operations).toContain('colour-transfer');
  });
});

describe('local image engine: compose', () => {
  it('follows the weights: the mean colour is closer to the heavier image', async () => {
    const red = await solidPng(300, 300, [220, 20, 20]);
    const blue = await solidPng(200, 400, [20, 20, 220]);
    const redHeavy = await engine.compose({
      model,
      prompt: 'blend',
      width: 256,
      height: 256,
      images: [
        { image: red, weight: 0.9 },
        { image: blue, weight: 0.1 },
      ],
    });
    const blueHeavy = await engine.compose({
      model,
      prompt: 'blend',
      width: 256,
      height: 256,
      images: [
        { image: red, weight: 0.2 },
        { image: blue, weight: 0.8 },
      ],
    });
    const a = await meanRgb(redHeavy.data);
    const b = await meanRgb(blueHeavy.data);
    expect(colourDistance(a, [220, 20, 20])).toBeLessThan(colourDistance(a, [20, 20, 220]));
    expect(colourDistance(b, [20, 20, 220])).toBeLessThan(colourDistance(b, [220, 20, 20]));
    expect(a[0]).toBeGreaterThan(b[0]);
    expect(redHeavy.metadata).toMatchObject({ engine: 'local', weights: [0.9, 0.1] });
    expect([redHeavy.width, redHeavy.height]).toEqual([256, 256]);
  });

  it('lays out bands (sequential) and mosaics (random) by weight, and applies prompt edits', async () => {
    const red = await solidPng(100, 100, [220, 20, 20]);
    const blue = await solidPng(100, 100, [20, 20, 220]);
    const seq = await engine.compose({
      model,
      prompt: 'x',
      width: 200,
      height: 100,
      blendMode: 'sequential',
      images: [
        { image: red, weight: 0.5 },
        { image: blue, weight: 0.5 },
      ],
    });
    const raw = await sharp(seq.data).raw().toBuffer();
    expect(raw[(50 * 200 + 10) * 3]).toBeGreaterThan(180); // left band red
    expect(raw[(50 * 200 + 190) * 3 + 2]).toBeGreaterThan(180); // right band blue
    const mosaic = await engine.compose({
      model,
      prompt: 'x',
      width: 160,
      height: 160,
      blendMode: 'random',
      seed: 5,
      images: [
        { image: red, weight: 1 },
        { image: blue, weight: 0 },
      ],
    });
    const m = await meanRgb(mosaic.data);
    expect(m[0]).toBeGreaterThan(200);
    const graded = await engine.compose({
      model,
      prompt: 'black and white',
      width: 64,
      height: 64,
      strength: 1,
      images: [{ image: red, weight: 1 }],
    });
    const g = await meanRgb(graded.data);
    expect(Math.abs(g[0] - g[2])).toBeLessThan(3);
  });
});

describe('local image engine: inpaint', () => {
  const box = { left: 40, top: 30, width: 60, height: 50 };

  async function assertOnlyMaskChanged(input: Buffer, output: Buffer, width: number): Promise<number> {
    const a = await sharp(input).raw().toBuffer({ resolveWithObject: true });
    const b = await sharp(output).raw().toBuffer({ resolveWithObject: true });
    expect(b.info.channels).toBe(a.info.channels);
    const c = a.info.channels;
    let changedInside = 0;
    for (let p = 0; p < a.info.width * a.info.height; p++) {
      const x = p % width;
      const y = Math.floor(p / width);
      const inside = x >= box.left && x < box.left + box.width && y >= box.top && y < box.top + box.height;
      for (let k = 0; k < c; k++) {
        if (!inside) {
          if (a.data[p * c + k] !== b.data[p * c + k]) throw new Error(`pixel ${x},${y} outside the mask changed`);
        } else if (a.data[p * c + k] !== b.data[p * c + k]) changedInside++;
      }
    }
    return changedInside;
  }

  it.each(['inpaint', 'add-remove', 'photorealistic', 'stylized', 'comic-panel'])(
    'mode %s changes only the masked pixels (outside byte-identical)',
    async (mode) => {
      const image = await patternPng(200, 120);
      const mask = await rectMask(200, 120, box);
      const prompt = mode === 'add-remove' ? 'remove the red box' : 'a field of golden flowers';
      const r = await engine.inpaint({ model, prompt, image, mask, mode });
      expect(r.mimeType).toBe('image/png');
      const changed = await assertOnlyMaskChanged(image.data, r.data, 200);
      expect(changed).toBeGreaterThan(100);
      expect(r.metadata).toMatchObject({ engine: 'local', mode, maskedPixels: box.width * box.height });
    },
  );

  it('replace puts the reference in the mask; style-transfer needs a reference; RGBA keeps alpha', async () => {
    const image = await patternPng(200, 120);
    const mask = await rectMask(200, 120, box);
    const reference = await solidPng(50, 50, [255, 0, 255]);
    const r = await engine.inpaint({ model, prompt: 'replace', image, mask, mode: 'replace', reference });
    await assertOnlyMaskChanged(image.data, r.data, 200);
    const inside = await sharp(
      await sharp(r.data)
        .extract({ ...box })
        .png()
        .toBuffer(),
    ).stats();
    expect(inside.channels[0].mean).toBeGreaterThan(240);
    expect(inside.channels[1].mean).toBeLessThan(15);
    await expect(engine.inpaint({ model, prompt: 'x', image, mask, mode: 'style-transfer' })).rejects.toMatchObject({
      status: 400,
    });
    const styled = await engine.inpaint({
      model,
      prompt: '',
      image,
      mask,
      mode: 'style-transfer',
      reference,
      styleStrength: 0.8,
    });
    await assertOnlyMaskChanged(image.data, styled.data, 200);

    const rgba = { data: await sharp(image.data).ensureAlpha(0.5).png().toBuffer(), mimeType: 'image/png' };
    const withAlpha = await engine.inpaint({ model, prompt: 'flowers', image: rgba, mask, mode: 'inpaint' });
    expect((await sharp(withAlpha.data).metadata()).channels).toBe(4);
    await assertOnlyMaskChanged(rgba.data, withAlpha.data, 200);
  });

  /** A 1024×1024 gradient: red rises left to right, blue top to bottom, green fixed. */
  async function gradientPng(size: number): Promise<{ data: Buffer; mimeType: string }> {
    const raw = Buffer.alloc(size * size * 3);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const p = (y * size + x) * 3;
        raw[p] = Math.round((x * 255) / (size - 1));
        raw[p + 1] = 140;
        raw[p + 2] = Math.round((y * 255) / (size - 1));
      }
    }
    return {
      data: await sharp(raw, { raw: { width: size, height: size, channels: 3 } })
        .png()
        .toBuffer(),
      mimeType: 'image/png',
    };
  }

  it.each([
    { width: 140, height: 92 },
    { width: 600, height: 400 },
  ])('removing fills a $width×$height hole from its surroundings at every depth (no black centre)', async (hole) => {
    const size = 1024;
    const hbox = { left: 200, top: 300, width: hole.width, height: hole.height };
    const mask = await rectMask(size, size, hbox);
    const cx = hbox.left + Math.floor(hbox.width / 2);
    const cy = hbox.top + Math.floor(hbox.height / 2);
    const pixel = (raw: Buffer, x: number, y: number) => [...raw.subarray((y * size + x) * 3, (y * size + x) * 3 + 3)];

    // A known colour: the whole hole, centre included, is that colour.
    const solid = await solidPng(size, size, [40, 160, 90]);
    const filled = await engine.inpaint({ model, prompt: 'remove the car', image: solid, mask, mode: 'add-remove' });
    const flat = await sharp(filled.data).raw().toBuffer();
    for (const [x, y] of [
      [cx, cy],
      [hbox.left + 1, hbox.top + 1],
      [hbox.left + hbox.width - 2, cy],
    ] as const) {
      expect(colourDistance(pixel(flat, x, y), [40, 160, 90])).toBeLessThan(3);
    }

    // A gradient: the centre takes the gradient's colour there (the mean of the hole's rim), not black.
    const gradient = await gradientPng(size);
    const r = await engine.inpaint({ model, prompt: 'remove the car', image: gradient, mask, mode: 'add-remove' });
    const out = await sharp(r.data).raw().toBuffer();
    const src = await sharp(gradient.data).raw().toBuffer();
    const expected = pixel(src, cx, cy);
    expect(colourDistance(pixel(out, cx, cy), expected)).toBeLessThan(12);
    expect(pixel(out, cx, cy)[1]).toBeGreaterThan(130);
    // Every filled pixel stays near the gradient (the fill is smooth, nothing collapses to black).
    let worst = 0;
    for (let y = hbox.top; y < hbox.top + hbox.height; y += 7) {
      for (let x = hbox.left; x < hbox.left + hbox.width; x += 7) {
        worst = Math.max(worst, colourDistance(pixel(out, x, y), pixel(src, x, y)));
      }
    }
    expect(worst).toBeLessThan(25);
    // Outside the hole the bytes are the input's.
    for (let p = 0; p < size * size; p++) {
      const x = p % size;
      const y = Math.floor(p / size);
      if (x >= hbox.left && x < hbox.left + hbox.width && y >= hbox.top && y < hbox.top + hbox.height) continue;
      if (out[p * 3] !== src[p * 3] || out[p * 3 + 1] !== src[p * 3 + 1] || out[p * 3 + 2] !== src[p * 3 + 2]) {
        throw new Error(`pixel ${x},${y} outside the hole changed`);
      }
    }
  });

  it('an all-black mask leaves the image untouched', async () => {
    const image = await patternPng(64, 64);
    const mask = await solidPng(64, 64, [0, 0, 0]);
    const r = await engine.inpaint({ model, prompt: 'anything', image, mask, mode: 'inpaint' });
    const a = await sharp(image.data).raw().toBuffer();
    const b = await sharp(r.data).raw().toBuffer();
    expect(a.equals(b)).toBe(true);
  });
});

describe('local image engine: output channels', () => {
  it('paints opaque RGB (no alpha band)', async () => {
    const r = await engine.textToImage({ model, prompt: 'a lake', width: 64, height: 64, seed: 1 });
    const meta = await sharp(r.data).metadata();
    expect(meta.channels).toBe(3);
    expect(meta.hasAlpha).toBe(false);
  });
});
