import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset } from '../../../common/api/assets.ts';
import { LOCAL_PREVIEW_PRICES } from '../../../common/api/generation.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { tasks } from '../../db/schema/index.ts';
import { CONTENT_POLICY } from '../../engines/policy.ts';
import {
  authHeader,
  createTestUser,
  creditsOf,
  solidPng,
  storeUpload,
  type TestUser,
  waitForTask,
} from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let user: TestUser;
let broke: TestUser;
let base: Buffer;
let mask: Buffer;
let reference: Buffer;

const W = 64;
const H = 48;
/** The painted rectangle of the mask. */
const BOX = { left: 16, top: 12, width: 24, height: 16 };

const uri = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

function post(payload: object, token?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/ai/generate/inpaint',
    payload,
    headers: token ? authHeader(token) : {},
  });
}

async function noisePng(width: number, height: number): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0; i < data.length; i++) data[i] = (i * 7919 + ((i * 31) % 251)) % 256;
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** White strokes on black, like the panel's brush. */
async function maskPng(): Promise<Buffer> {
  const data = Buffer.alloc(W * H);
  for (let y = BOX.top; y < BOX.top + BOX.height; y++) data.fill(255, y * W + BOX.left, y * W + BOX.left + BOX.width);
  return sharp(data, { raw: { width: W, height: H, channels: 1 } })
    .png()
    .toBuffer();
}

const rgb = (bytes: Buffer) => sharp(bytes).removeAlpha().raw().toBuffer();
const inside = (x: number, y: number) =>
  x >= BOX.left && x < BOX.left + BOX.width && y >= BOX.top && y < BOX.top + BOX.height;

async function fetchImage(url: string) {
  const res = await t.app.inject({ method: 'GET', url, headers: authHeader(user.token) });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

/** Counts of changed pixels outside and inside the mask box. */
async function diff(result: Buffer) {
  const a = await rgb(base);
  const b = await rgb(result);
  expect(await sharp(result).metadata()).toMatchObject({ width: W, height: H, format: 'png' });
  let outside = 0;
  let within = 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 3;
      const changed = a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2];
      if (!changed) continue;
      if (inside(x, y)) within++;
      else outside++;
    }
  }
  return { outside, within };
}

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db, { credits: 1000 });
  broke = await createTestUser(t.ctx.db, { credits: 0 });
  base = await noisePng(W, H);
  mask = await maskPng();
  reference = await solidPng(32, 32, '#10e020');
});
afterAll(async () => {
  await t?.close();
});

describe('POST /api/ai/generate/inpaint', () => {
  it('changes only the painted pixels, saves the result as a magic-selector asset and charges LOCAL_PREVIEW_PRICES.inpaint', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await post(
      {
        baseImage: uri(base),
        maskImage: uri(mask),
        mode: 'inpaint',
        quality: 'standard',
        prompt: 'a red balloon',
        styleStrength: 75,
      },
      user.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      success: boolean;
      data: { url: string; id: string; status: string };
      creditsUsed: number;
    };
    expect(body).toMatchObject({
      success: true,
      creditsUsed: LOCAL_PREVIEW_PRICES.inpaint,
      data: { status: 'completed' },
    });
    const { outside, within } = await diff(await fetchImage(body.data.url));
    expect(outside).toBe(0);
    expect(within).toBeGreaterThan(0);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - LOCAL_PREVIEW_PRICES.inpaint);
    const asset = (
      await t.app.inject({ method: 'GET', url: `/api/ai/assets/${body.data.id}`, headers: authHeader(user.token) })
    ).json() as { data: Asset };
    expect(asset.data).toMatchObject({ type: 'image', status: 'completed' });
    expect(asset.data.metadata).toMatchObject({ editingTool: 'magic-selector', mode: 'inpaint' });
    expect(String(asset.data.metadata.baseImageUrl)).toMatch(/^\/api\//);
  });

  it("'add a red ball' draws red in the circle the user painted (its corners untouched) and says what it did", async () => {
    const c = { x: 28, y: 24, r: 12 };
    const round = (x: number, y: number) => (x - c.x) ** 2 + (y - c.y) ** 2 <= c.r ** 2;
    const circle = Buffer.alloc(W * H);
    for (let p = 0; p < W * H; p++) if (round(p % W, Math.floor(p / W))) circle[p] = 255;
    const circleMask = await sharp(circle, { raw: { width: W, height: H, channels: 1 } })
      .png()
      .toBuffer();
    const res = await post(
      { baseImage: uri(base), maskImage: uri(circleMask), mode: 'add-remove', prompt: 'add a red ball' },
      user.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const { url, id } = (res.json() as { data: { url: string; id: string } }).data;
    const a = await rgb(base);
    const b = await rgb(await fetchImage(url));
    let changedOutside = 0;
    let redInside = 0;
    let inside = 0;
    for (let p = 0; p < W * H; p++) {
      const o = p * 3;
      if (!round(p % W, Math.floor(p / W))) {
        if (a[o] !== b[o] || a[o + 1] !== b[o + 1] || a[o + 2] !== b[o + 2]) changedOutside++;
        continue;
      }
      inside++;
      if (b[o] > b[o + 1] + 40 && b[o] > b[o + 2] + 40) redInside++;
    }
    expect(changedOutside).toBe(0);
    expect(redInside / inside).toBeGreaterThan(0.9);
    const asset = (
      await t.app.inject({ method: 'GET', url: `/api/ai/assets/${id}`, headers: authHeader(user.token) })
    ).json() as { data: Asset };
    expect(asset.data.metadata.preview).toMatchObject({
      applied: expect.arrayContaining(['colour: red', 'round shading: ball']),
      notApplied: [],
    });
  });

  it('remove fills the painted area with the texture around it, not a smooth smear', async () => {
    const res = await post(
      { baseImage: uri(base), maskImage: uri(mask), mode: 'add-remove', prompt: 'remove the sign' },
      user.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const out = await rgb(await fetchImage((res.json() as { data: { url: string } }).data.url));
    expect(
      (
        await diff(
          await sharp(out, { raw: { width: W, height: H, channels: 3 } })
            .png()
            .toBuffer(),
        )
      ).outside,
    ).toBe(0);
    const spread = (where: (x: number, y: number) => boolean) => {
      const values: number[] = [];
      for (let p = 0; p < W * H; p++) if (where(p % W, Math.floor(p / W))) values.push(out[p * 3 + 1]);
      const mean = values.reduce((s, v) => s + v, 0) / values.length;
      return Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
    };
    const ring = (x: number, y: number) =>
      !inside(x, y) &&
      x >= BOX.left - 8 &&
      x < BOX.left + BOX.width + 8 &&
      y >= BOX.top - 8 &&
      y < BOX.top + BOX.height + 8;
    expect(spread(inside)).toBeGreaterThan(spread(ring) * 0.5);
    expect(spread(inside)).toBeLessThan(spread(ring) * 1.5);
  });

  it('takes a stored image over 10 MB by its media URL, as the canvas sends its 4K images', {
    timeout: 120_000,
  }, async () => {
    // Over 10 MB in fewer pixels than 4K (16-bit noise), so the local engine's work stays small.
    const [w, h] = [1920, 1000];
    const big = await sharp(randomBytes(w * h * 3), { raw: { width: w, height: h, channels: 3 } })
      .toColourspace('rgb16')
      .png({ compressionLevel: 1 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(10 * 1024 * 1024);
    const source = await storeUpload(t.ctx, user.id, big, 'image/png', 'png');
    const bigMask = await sharp({ create: { width: w, height: h, channels: 3, background: '#000' } })
      .composite([{ input: await solidPng(200, 150, '#ffffff'), left: 800, top: 400 }])
      .png()
      .toBuffer();
    const inline = await post({ baseImage: uri(big), maskImage: uri(bigMask), prompt: 'a red balloon' }, user.token);
    expect([400, 413]).toContain(inline.statusCode);
    const res = await post({ baseImage: source.url, maskImage: uri(bigMask), prompt: 'a red balloon' }, user.token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { data: { taskId: string } };
    const task = await waitForTask(t.ctx.db, body.data.taskId, { timeoutMs: 110_000 });
    expect(task.status, JSON.stringify(task.error)).toBe('completed');
  });

  it('replace puts the reference into the painted area only', async () => {
    const res = await post(
      { baseImage: uri(base), maskImage: uri(mask), mode: 'replace', prompt: '', referenceImage: uri(reference) },
      user.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const url = (res.json() as { data: { url: string } }).data.url;
    const result = await fetchImage(url);
    const { outside, within } = await diff(result);
    expect(outside).toBe(0);
    expect(within).toBe(BOX.width * BOX.height);
    const px = await rgb(result);
    const i = ((BOX.top + 4) * W + BOX.left + 4) * 3;
    expect([px[i], px[i + 1], px[i + 2]]).toEqual([0x10, 0xe0, 0x20]);
  });

  it('style transfer without a prompt uses the reference and the default prompt', async () => {
    const res = await post(
      {
        baseImage: uri(base),
        maskImage: uri(mask),
        mode: 'style-transfer',
        referenceImage: uri(reference),
        styleStrength: 40,
      },
      user.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const { outside } = await diff(await fetchImage((res.json() as { data: { url: string } }).data.url));
    expect(outside).toBe(0);
  });

  it('answers every validation message of the spec, spending nothing', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const cases: [object, string][] = [
      [{ mode: 'inpaint', prompt: ' ' }, MESSAGES.magicSelector.inpaintPrompt],
      [{ mode: 'replace', prompt: 'x' }, MESSAGES.magicSelector.replaceReference],
      [{ mode: 'style-transfer', prompt: 'x' }, MESSAGES.magicSelector.styleReference],
      [{ mode: 'add-remove' }, 'Please enter a prompt for add-remove mode'],
      [{ mode: 'photorealistic' }, 'Please enter a prompt for photorealistic mode'],
      [{ mode: 'stylized' }, 'Please enter a prompt for stylized mode'],
      [{ mode: 'comic-panel' }, 'Please enter a prompt for comic-panel mode'],
      [{ mode: 'inpaint', prompt: 'x', styleStrength: 101 }, MESSAGES.magicSelector.styleStrength],
      [{ mode: 'inpaint', prompt: 'x', quality: 'ultra' }, MESSAGES.magicSelector.quality],
    ];
    for (const [extra, message] of cases) {
      const res = await post({ baseImage: uri(base), maskImage: uri(mask), ...extra }, user.token);
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: message });
    }
    const noBase = await post({ baseImage: '', maskImage: uri(mask), prompt: 'x' }, user.token);
    expect(noBase.json()).toMatchObject({ error: MESSAGES.magicSelector.baseRequired });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
  });

  it('takes base and reference images only as png, jpg or webp (a GIF is refused by its bytes), spending nothing', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const gif = await sharp(base).gif().toBuffer();
    const gifUri = `data:image/png;base64,${gif.toString('base64')}`;
    const asBase = await post({ baseImage: gifUri, maskImage: uri(mask), prompt: 'a balloon' }, user.token);
    expect(asBase.statusCode, asBase.body).toBe(400);
    expect(asBase.json()).toMatchObject({
      success: false,
      code: 'unsupported_type',
      error: MESSAGES.magicSelector.fileType,
    });
    const asReference = await post(
      { baseImage: uri(base), maskImage: uri(mask), mode: 'replace', prompt: 'x', referenceImage: gifUri },
      user.token,
    );
    expect(asReference.json()).toMatchObject({ code: 'unsupported_type', error: MESSAGES.magicSelector.fileType });
    const webp = await sharp(base).webp().toBuffer();
    const asWebp = await post(
      { baseImage: `data:image/webp;base64,${webp.toString('base64')}`, maskImage: uri(mask), prompt: 'a balloon' },
      user.token,
    );
    expect(asWebp.statusCode, asWebp.body).toBe(200);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - LOCAL_PREVIEW_PRICES.inpaint);
  });

  it('refuses a prompt the content policy filters with 422, spending nothing', async () => {
    const term = CONTENT_POLICY.find((rule) => !rule.requiresAlso)?.terms[0] ?? '';
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await post({ baseImage: uri(base), maskImage: uri(mask), prompt: `add a ${term}` }, user.token);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'content_filtered' });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
  });

  it('answers 422 with the spec message when the base image URL cannot be fetched, refunding the credits', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await post(
      {
        baseImage: 'https://photos.unreachable.invalid/beach.jpg',
        maskImage: uri(mask),
        mode: 'add-remove',
        prompt: 'remove the umbrella',
      },
      user.token,
    );
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ success: false, code: 'fetch_failed', error: MESSAGES.remote.fetchFailed });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
  });

  it('needs a session', async () => {
    const res = await post({ baseImage: uri(base), maskImage: uri(mask), prompt: 'x' });
    expect(res.statusCode).toBe(401);
  });

  it('answers 402 when the balance is short, spending nothing and queuing nothing', async () => {
    const res = await post({ baseImage: uri(base), maskImage: uri(mask), prompt: 'a balloon' }, broke.token);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ success: false, code: 'insufficient_credits' });
    expect(await creditsOf(t.ctx.db, broke.id)).toBe(0);
    expect(await t.ctx.db.select().from(tasks).where(eq(tasks.userId, broke.id))).toHaveLength(0);
  });
});
