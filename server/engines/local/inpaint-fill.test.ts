import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { MediaBuffer } from '../types.ts';
import { LocalImageEngine } from './image.ts';
import { Rng } from './random.ts';

// Magic Selector's local remove and add, measured on the pixels: the remove fill has the grain of the
// picture around it (not a smooth smear), the add draws in the mask's own shape in the named colour.

const engine = new LocalImageEngine();
const model = 'stability';
const W = 160;
const H = 120;

/** A textured background: a soft gradient with strong per-pixel noise (sd ≈ 20). */
async function noisyBackground(): Promise<MediaBuffer> {
  const rng = new Rng(11);
  const data = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const o = (y * W + x) * 3;
      const n = rng.gauss() * 35;
      data[o] = Math.max(0, Math.min(255, Math.round(90 + x * 0.3 + n)));
      data[o + 1] = Math.max(0, Math.min(255, Math.round(120 + y * 0.2 + n)));
      data[o + 2] = Math.max(0, Math.min(255, Math.round(100 + n)));
    }
  }
  return {
    data: await sharp(data, { raw: { width: W, height: H, channels: 3 } })
      .png()
      .toBuffer(),
    mimeType: 'image/png',
  };
}

const CIRCLE = { cx: 80, cy: 60, r: 30 };
const inCircle = (x: number, y: number) => (x - CIRCLE.cx) ** 2 + (y - CIRCLE.cy) ** 2 <= CIRCLE.r ** 2;

async function circleMask(): Promise<MediaBuffer> {
  const data = Buffer.alloc(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (inCircle(x, y)) data[y * W + x] = 255;
  return {
    data: await sharp(data, { raw: { width: W, height: H, channels: 1 } })
      .png()
      .toBuffer(),
    mimeType: 'image/png',
  };
}

const raw = (bytes: Buffer) => sharp(bytes).removeAlpha().raw().toBuffer();

/** Standard deviation of the green channel over the pixels `where` selects. */
function spread(data: Buffer, where: (x: number, y: number) => boolean): number {
  let s = 0;
  let sq = 0;
  let n = 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      if (!where(x, y)) continue;
      const v = data[(y * W + x) * 3 + 1];
      s += v;
      sq += v * v;
      n++;
    }
  }
  return Math.sqrt(sq / n - (s / n) ** 2);
}

function changedOutside(a: Buffer, b: Buffer): number {
  let changed = 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      if (inCircle(x, y)) continue;
      const o = (y * W + x) * 3;
      if (a[o] !== b[o] || a[o + 1] !== b[o + 1] || a[o + 2] !== b[o + 2]) changed++;
    }
  }
  return changed;
}

describe('Magic Selector local remove', () => {
  it('fills with the texture of the surroundings: the spread inside is within 50 % of the ring around it', async () => {
    const image = await noisyBackground();
    const mask = await circleMask();
    const result = await engine.inpaint({ model, prompt: 'remove the lamp', image, mask, mode: 'add-remove' });
    const before = await raw(image.data);
    const after = await raw(result.data);
    expect(changedOutside(before, after)).toBe(0);
    const ring = (x: number, y: number) => {
      const d = Math.hypot(x - CIRCLE.cx, y - CIRCLE.cy);
      return d > CIRCLE.r && d <= CIRCLE.r + 15;
    };
    const surrounding = spread(after, ring);
    const filled = spread(after, inCircle);
    expect(surrounding).toBeGreaterThan(20);
    expect(filled).toBeGreaterThan(surrounding * 0.5);
    expect(filled).toBeLessThan(surrounding * 1.5);
    // The fill is new texture, not the old content left in place.
    let same = 0;
    for (let p = 0; p < W * H; p++)
      if (inCircle(p % W, Math.floor(p / W)) && before[p * 3 + 1] === after[p * 3 + 1]) same++;
    expect(same).toBeLessThan(Math.PI * CIRCLE.r ** 2 * 0.2);
    expect(result.metadata.preview).toMatchObject({ notApplied: [] });
    expect(String((result.metadata.preview as { note: string }).note)).toMatch(/surroundings/);
  });
});

describe('Magic Selector local add', () => {
  it("'add a red ball' changes only the circular mask, red-dominant, corners of its box unchanged", async () => {
    const image = await noisyBackground();
    const mask = await circleMask();
    const result = await engine.inpaint({ model, prompt: 'add a red ball', image, mask, mode: 'add-remove' });
    const before = await raw(image.data);
    const after = await raw(result.data);
    expect(changedOutside(before, after)).toBe(0);
    let red = 0;
    let inside = 0;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        if (!inCircle(x, y)) continue;
        inside++;
        const o = (y * W + x) * 3;
        if (after[o] > after[o + 1] + 40 && after[o] > after[o + 2] + 40) red++;
      }
    }
    expect(red / inside).toBeGreaterThan(0.9);
    // The corners of the mask's bounding box are outside the circle and keep their bytes.
    for (const [x, y] of [
      [CIRCLE.cx - CIRCLE.r + 2, CIRCLE.cy - CIRCLE.r + 2],
      [CIRCLE.cx + CIRCLE.r - 2, CIRCLE.cy + CIRCLE.r - 2],
    ]) {
      const o = (y * W + x) * 3;
      expect([...after.subarray(o, o + 3)]).toEqual([...before.subarray(o, o + 3)]);
    }
    // Lit from the top left: the upper-left of the ball is brighter than the lower-right.
    const lum = (x: number, y: number) => after[(y * W + x) * 3];
    expect(lum(CIRCLE.cx - 12, CIRCLE.cy - 12)).toBeGreaterThan(lum(CIRCLE.cx + 12, CIRCLE.cy + 12));
    expect(result.metadata.preview).toMatchObject({
      applied: expect.arrayContaining(['colour: red', 'round shading: ball']),
      notApplied: [],
    });
  });

  it('says what it could not draw: the object of "add a wooden dog" is not applied, the material is', async () => {
    const image = await noisyBackground();
    const mask = await circleMask();
    const result = await engine.inpaint({ model, prompt: 'add a wooden dog', image, mask, mode: 'add-remove' });
    const preview = result.metadata.preview as { applied: string[]; notApplied: string[]; note: string };
    expect(preview.applied).toContain('material: wooden');
    expect(preview.notApplied).toEqual(['dog']);
    expect(preview.note).toMatch(/Not applied: "dog"/);
    const after = await raw(result.data);
    const o = (CIRCLE.cy * W + CIRCLE.cx) * 3;
    // Wood is brown: red over blue.
    expect(after[o]).toBeGreaterThan(after[o + 2]);
  });
});
