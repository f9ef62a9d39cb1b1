import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { patternPng, rectMask } from '../test-media.ts';
import type { MediaBuffer } from '../types.ts';
import { LocalImageEngine } from './image.ts';
import { decode, type RawImage } from './raw.ts';

// The compose parameters (compositionMode, preserveDetails, negativePrompt) and Magic Selector premium
// each change the picture, in the direction the docs (docs/engines.md) promise. Measured on decoded pixels.

const engine = new LocalImageEngine();
const model = 'nanobana';
const W = 192;

/** Horizontal stripes in two colours, with per-pixel noise: texture for the detail measures. */
async function stripes(a: [number, number, number], b: [number, number, number], seed = 1): Promise<MediaBuffer> {
  const data = Buffer.alloc(W * W * 3);
  let s = seed;
  for (let y = 0; y < W; y++)
    for (let x = 0; x < W; x++) {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      const noise = (s % 41) - 20;
      const c = Math.floor(y / 12) % 2 === 0 ? a : b;
      for (let k = 0; k < 3; k++) data[(y * W + x) * 3 + k] = Math.max(0, Math.min(255, c[k] + noise));
    }
  return {
    data: await sharp(data, { raw: { width: W, height: W, channels: 3 } })
      .png()
      .toBuffer(),
    mimeType: 'image/png',
  };
}

async function raw(bytes: Buffer): Promise<RawImage> {
  return decode({ data: bytes, mimeType: 'image/png' });
}

function meanAbsDiff(a: RawImage, b: RawImage): number {
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs(a.data[i] - b.data[i]);
  return sum / a.data.length;
}

/** Mean absolute Laplacian of the grey image: high-frequency energy. */
function laplacian(image: RawImage): number {
  const { width: w, height: h, channels: c } = image;
  const g = (x: number, y: number) => {
    const o = (y * w + x) * c;
    return 0.299 * image.data[o] + 0.587 * image.data[o + 1] + 0.114 * image.data[o + 2];
  };
  let sum = 0;
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++)
      sum += Math.abs(4 * g(x, y) - g(x - 1, y) - g(x + 1, y) - g(x, y - 1) - g(x, y + 1));
  return sum / ((w - 2) * (h - 2));
}

function meanStd(image: RawImage): number {
  let total = 0;
  for (let k = 0; k < 3; k++) {
    let s = 0;
    let q = 0;
    const n = image.width * image.height;
    for (let p = 0; p < n; p++) {
      const v = image.data[p * image.channels + k];
      s += v;
      q += v * v;
    }
    total += Math.sqrt(q / n - (s / n) ** 2);
  }
  return total / 3;
}

/** Mean of r − (g + b) / 2: how red the picture is. */
function redness(image: RawImage): number {
  let sum = 0;
  const n = image.width * image.height;
  for (let p = 0; p < n; p++) {
    const o = p * image.channels;
    sum += image.data[o] - (image.data[o + 1] + image.data[o + 2]) / 2;
  }
  return sum / n;
}

async function compose(
  extra: Record<string, unknown>,
  images?: Array<{ image: MediaBuffer; weight: number; role?: string }>,
) {
  const refs = images ?? [
    { image: await patternPng(W, W), weight: 0.5, role: 'character' },
    { image: await stripes([230, 230, 230], [20, 20, 60]), weight: 0.5, role: 'style' },
  ];
  const result = await engine.compose({
    model,
    prompt: 'blend them',
    images: refs,
    width: W,
    height: W,
    seed: 3,
    ...extra,
  });
  return { result, image: await raw(result.data) };
}

const luma = (r: number, g: number, b: number) => 0.299 * r + 0.587 * g + 0.114 * b;

/** Per-pixel Pearson correlation of two images' luminance (−1…1); the measure of structure kept. */
function lumaCorrelation(a: RawImage, b: RawImage): number {
  const n = a.width * a.height;
  let sa = 0;
  let sb = 0;
  let saa = 0;
  let sbb = 0;
  let sab = 0;
  for (let p = 0; p < n; p++) {
    const x = luma(a.data[p * a.channels], a.data[p * a.channels + 1], a.data[p * a.channels + 2]);
    const y = luma(b.data[p * b.channels], b.data[p * b.channels + 1], b.data[p * b.channels + 2]);
    sa += x;
    sb += y;
    saa += x * x;
    sbb += y * y;
    sab += x * y;
  }
  const cov = sab / n - (sa / n) * (sb / n);
  const va = saa / n - (sa / n) ** 2;
  const vb = sbb / n - (sb / n) ** 2;
  return va <= 0 || vb <= 0 ? 0 : cov / Math.sqrt(va * vb);
}

describe('compose: compositionMode', () => {
  it('gives each of the four modes its own picture, in the documented direction', async () => {
    const subject = await raw((await patternPng(W, W)).data);
    const structure = await raw((await stripes([230, 230, 230], [20, 20, 60])).data);
    const modes = [
      'multi-image-composition',
      'high-fidelity-preservation',
      'advanced-composition',
      'iterative-refinement',
    ];
    const out: Record<string, RawImage> = {};
    for (const compositionMode of modes) {
      const { result, image } = await compose({ compositionMode });
      expect(result.metadata.compositionMode).toBe(compositionMode);
      out[compositionMode] = image;
    }
    for (let i = 0; i < modes.length; i++)
      for (let j = i + 1; j < modes.length; j++)
        expect(meanAbsDiff(out[modes[i]], out[modes[j]]), `${modes[i]} vs ${modes[j]}`).toBeGreaterThan(4);
    const base = out['multi-image-composition'];
    // high-fidelity-preservation: the subject (role character) stays much closer to itself.
    expect(meanAbsDiff(out['high-fidelity-preservation'], subject)).toBeLessThan(meanAbsDiff(base, subject) * 0.6);
    // iterative-refinement: passes give back the contrast the averaging took.
    expect(meanStd(out['iterative-refinement'])).toBeGreaterThan(meanStd(base) + 5);
    // advanced-composition: structure of the composition reference, colour of the others.
    const { image: advanced } = await compose({ compositionMode: 'advanced-composition' }, [
      { image: await patternPng(W, W), weight: 0.75, role: 'color' },
      { image: await stripes([230, 230, 230], [20, 20, 60]), weight: 0.25, role: 'composition' },
    ]);
    const { image: plain } = await compose({ compositionMode: 'multi-image-composition' }, [
      { image: await patternPng(W, W), weight: 0.75, role: 'color' },
      { image: await stripes([230, 230, 230], [20, 20, 60]), weight: 0.25, role: 'composition' },
    ]);
    expect(lumaCorrelation(advanced, structure)).toBeGreaterThan(lumaCorrelation(plain, structure) + 0.1);
    expect(lumaCorrelation(advanced, structure)).toBeGreaterThan(0.9);
  });
});

describe('compose: preserveDetails', () => {
  it('true keeps the references’ fine detail, false leaves the blend smoother', async () => {
    const on = await compose({ preserveDetails: true });
    const off = await compose({ preserveDetails: false });
    expect(on.result.data.equals(off.result.data)).toBe(false);
    expect(on.result.metadata.operations).toContain('detail-layer');
    expect(laplacian(on.image)).toBeGreaterThan(laplacian(off.image) * 2);
    // compared with the plain per-pixel average of the two references, true has more detail, false less
    const a = await raw((await patternPng(W, W)).data);
    const b = await raw((await stripes([230, 230, 230], [20, 20, 60])).data);
    const avg: RawImage = { ...a, data: Buffer.from(a.data.map((v, i) => Math.round((v + b.data[i]) / 2))) };
    expect(laplacian(on.image)).toBeGreaterThan(laplacian(avg));
    expect(laplacian(off.image)).toBeLessThan(laplacian(avg));
  });
});

describe('compose: negativePrompt', () => {
  it('removes the colours it names and the effects it names', async () => {
    const refs = [
      { image: await stripes([220, 30, 30], [200, 60, 40]), weight: 0.6 },
      { image: await stripes([30, 60, 220], [40, 40, 180], 7), weight: 0.4 },
    ];
    const plain = await compose({}, refs);
    const noRed = await compose({ negativePrompt: 'red' }, refs);
    expect(noRed.result.data.equals(plain.result.data)).toBe(false);
    expect(noRed.result.metadata.operations).toContain('remove-colours:red');
    expect(redness(plain.image)).toBeGreaterThan(20);
    expect(redness(noRed.image)).toBeLessThan(redness(plain.image) - 20);
    // 'blur' asked in the prompt and refused in the negative prompt: no blur
    const blurredRefs = { prompt: 'dreamy blur' };
    const blurred = await engine.compose({ model, images: refs, width: W, height: W, seed: 3, ...blurredRefs });
    const notBlurred = await engine.compose({
      model,
      images: refs,
      width: W,
      height: W,
      seed: 3,
      ...blurredRefs,
      negativePrompt: 'blur',
    });
    expect(blurred.metadata.operations).toContain('blur');
    expect(notBlurred.metadata.operations).not.toContain('blur');
    expect(laplacian(await raw(notBlurred.data))).toBeGreaterThan(laplacian(await raw(blurred.data)));
  });
});

describe('inpaint: Magic Selector premium', () => {
  it('feathers the mask edge and matches the surroundings; pixels outside the mask stay identical', async () => {
    const base = await patternPng(256, 256);
    const box = { left: 64, top: 64, width: 128, height: 128 };
    const mask = await rectMask(256, 256, box);
    const run = (quality: string) =>
      engine.inpaint({
        model: 'stability',
        prompt: 'a field of bright flowers',
        image: base,
        mask,
        mode: 'inpaint',
        quality,
        seed: 5,
      });
    const standard = await run('standard');
    const premium = await run('premium');
    expect(premium.data.equals(standard.data)).toBe(false);
    expect(premium.metadata.operations).toEqual(expect.arrayContaining(['match-surroundings', 'feathered-edge']));
    const src = await raw(base.data);
    const s = await raw(standard.data);
    const p = await raw(premium.data);
    const inside = (x: number, y: number) =>
      x >= box.left && x < box.left + box.width && y >= box.top && y < box.top + box.height;
    for (let y = 0; y < 256; y += 3)
      for (let x = 0; x < 256; x += 3)
        if (!inside(x, y)) {
          const o = (y * 256 + x) * 3;
          expect([p.data[o], p.data[o + 1], p.data[o + 2]]).toEqual([src.data[o], src.data[o + 1], src.data[o + 2]]);
        }
    // the jump across the mask's edge (first pixel inside vs the original there) is smaller with premium
    const edgeJump = (img: RawImage) => {
      let sum = 0;
      let n = 0;
      for (let t = box.left; t < box.left + box.width; t++) {
        for (const [x, y] of [
          [t, box.top],
          [t, box.top + box.height - 1],
          [box.left, t],
          [box.left + box.width - 1, t],
        ]) {
          const o = (y * 256 + x) * 3;
          for (let k = 0; k < 3; k++) sum += Math.abs(img.data[o + k] - src.data[o + k]);
          n += 3;
        }
      }
      return sum / n;
    };
    expect(edgeJump(p)).toBeLessThan(edgeJump(s) * 0.5);
  });
});
