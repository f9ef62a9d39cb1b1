import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset } from '../../../common/api/assets.ts';
import { LOCAL_PREVIEW_PRICES } from '../../../common/api/generation.constants.ts';
import type { GeneratedMedia } from '../../../common/api/generation.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { tasks } from '../../db/schema/index.ts';
import { CONTENT_POLICY } from '../../engines/policy.ts';
import { generatedMediaOf } from '../../platform/jobs/outcome.ts';
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
let other: TestUser;
let broke: TestUser;
let png: Buffer;

const FILTERED_TERM = CONTENT_POLICY.find((rule) => !rule.requiresAlso)?.terms[0] ?? '';

interface ImageData {
  status: string;
  url: string;
  id: string;
  width: number;
  height: number;
  metadata: Record<string, unknown>;
  base64?: string;
}

function post(url: string, payload: object, token?: string) {
  return t.app.inject({ method: 'POST', url, payload, headers: token ? authHeader(token) : {} });
}

async function fetchImage(url: string, token = user.token) {
  const res = await t.app.inject({ method: 'GET', url, headers: authHeader(token) });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

async function sizeOf(bytes: Buffer): Promise<[number, number]> {
  const meta = await sharp(bytes).metadata();
  return [meta.width ?? 0, meta.height ?? 0];
}

async function tasksOf(userId: string) {
  return t.ctx.db.select().from(tasks).where(eq(tasks.userId, userId));
}

/** A PNG of random noise: every pixel different, so unchanged pixels are meaningful. */
async function noisePng(width: number, height: number): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0; i < data.length; i++) data[i] = (i * 7919 + ((i * 31) % 251)) % 256;
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

async function rawPixels(bytes: Buffer): Promise<Buffer> {
  return sharp(bytes).removeAlpha().raw().toBuffer();
}

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db, { credits: 1000 });
  other = await createTestUser(t.ctx.db, { credits: 1000 });
  broke = await createTestUser(t.ctx.db, { credits: 0 });
  png = await solidPng(320, 180, '#cc6633');
});
afterAll(async () => {
  await t?.close();
});

describe('POST /api/nanobana/edit-image', () => {
  it('edits a base64 image at 2K, saves it as an image asset with the canvas metadata and charges imageEdit', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await post(
      '/api/nanobana/edit-image',
      {
        prompt: 'make it warmer and brighter',
        imageBuffer: png.toString('base64'),
        imageMimeType: 'image/png',
        fileNamePrefix: 'quick-edit',
        quality: '2k',
      },
      user.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { success: boolean; data: ImageData; creditsUsed: number };
    expect(body.success).toBe(true);
    expect(body.creditsUsed).toBe(LOCAL_PREVIEW_PRICES.imageEdit);
    expect(body.data).toMatchObject({ status: 'completed', width: 2048, height: 1152 });
    expect(await sizeOf(await fetchImage(body.data.url))).toEqual([2048, 1152]);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - LOCAL_PREVIEW_PRICES.imageEdit);
    const asset = (
      await t.app.inject({ method: 'GET', url: `/api/ai/assets/${body.data.id}`, headers: authHeader(user.token) })
    ).json() as { data: Asset };
    expect(asset.data).toMatchObject({ type: 'image', status: 'completed' });
    expect(asset.data.metadata).toMatchObject({
      source: 'canvas-quick-edit',
      generator: 'nanobana',
      editingTool: 'nanobana-edit-image',
      fileNamePrefix: 'quick-edit',
    });
    expect(typeof asset.data.metadata.editedAt).toBe('string');
    expect(String(asset.data.metadata.baseImageUrl)).toMatch(/^\/api\//);
  });

  it('needs a session', async () => {
    const res = await post('/api/nanobana/edit-image', { prompt: 'x', imageBuffer: png.toString('base64') });
    expect(res.statusCode).toBe(401);
  });

  it('answers 402 before any work when the balance is short, spending nothing', async () => {
    const res = await post(
      '/api/nanobana/edit-image',
      { prompt: 'brighter', imageBuffer: png.toString('base64'), imageMimeType: 'image/png' },
      broke.token,
    );
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ success: false, code: 'insufficient_credits' });
    expect(await creditsOf(t.ctx.db, broke.id)).toBe(0);
    expect(await tasksOf(broke.id)).toHaveLength(0);
  });

  it('refuses a prompt the content policy filters with 422, spending nothing', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await post(
      '/api/nanobana/edit-image',
      { prompt: `add a ${FILTERED_TERM}`, imageBuffer: png.toString('base64'), imageMimeType: 'image/png' },
      user.token,
    );
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'content_filtered' });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
  });

  it('validates: a prompt, image bytes only (sniffed, not the claimed type), quality', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const noPrompt = await post('/api/nanobana/edit-image', { prompt: ' ', imageBuffer: 'aGk=' }, user.token);
    expect(noPrompt.statusCode).toBe(400);
    expect(noPrompt.json()).toMatchObject({ error: 'Prompt is required' });
    const text = await post(
      '/api/nanobana/edit-image',
      {
        prompt: 'x',
        imageBuffer: Buffer.from('just some text, not an image').toString('base64'),
        imageMimeType: 'image/png',
      },
      user.token,
    );
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({ error: MESSAGES.remote.unsupportedMime });
    const mime = await post(
      '/api/nanobana/edit-image',
      { prompt: 'x', imageBuffer: png.toString('base64'), imageMimeType: 'video/mp4' },
      user.token,
    );
    expect(mime.json()).toMatchObject({ error: MESSAGES.canvasImages.notAnImage });
    const quality = await post(
      '/api/nanobana/edit-image',
      { prompt: 'x', imageBuffer: png.toString('base64'), quality: '8k' },
      user.token,
    );
    expect(quality.json()).toMatchObject({ error: MESSAGES.canvasImages.quality });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
  });

  it("answers 404 for another user's media", async () => {
    const theirs = await storeUpload(t.ctx, other.id, png, 'image/png', 'png');
    const res = await post('/api/nanobana/edit-image', { prompt: 'brighter', imageBuffer: theirs.url }, user.token);
    expect(res.statusCode).toBe(404);
    const mine = await post('/api/nanobana/edit-image', { prompt: 'brighter', imageBuffer: theirs.url }, other.token);
    expect(mine.statusCode, mine.body).toBe(200);
  });
});

describe('JPEG images as bare base64 (starting with /9j/, not a media path)', () => {
  let jpeg: Buffer;
  beforeAll(async () => {
    jpeg = await sharp(await noisePng(320, 180))
      .jpeg({ quality: 85 })
      .toBuffer();
    expect(jpeg.toString('base64').startsWith('/9j/')).toBe(true);
  });

  it('quick edit takes a bare-base64 JPEG, with or without its MIME type, and answers a decodable image', async () => {
    for (const imageMimeType of ['image/jpeg', undefined]) {
      const res = await post(
        '/api/nanobana/edit-image',
        { prompt: 'make it warmer', imageBuffer: jpeg.toString('base64'), imageMimeType, quality: '2k' },
        user.token,
      );
      expect(res.statusCode, res.body).toBe(200);
      const data = (res.json() as { data: ImageData }).data;
      expect(data.status).toBe('completed');
      const bytes = await fetchImage(data.url);
      expect(await sharp(bytes).metadata()).toMatchObject({ width: 2048, height: 1152 });
      expect((await sharp(bytes).stats()).channels[0].stdev).toBeGreaterThan(5);
    }
  });

  it('multi-image composition takes bare-base64 JPEGs and answers a decodable image', async () => {
    const second = await sharp(await solidPng(200, 200, '#2244cc'))
      .jpeg()
      .toBuffer();
    const res = await post(
      '/api/nanobana/multi-image-composition',
      {
        prompt: 'blend these into one scene',
        imageBuffers: [jpeg.toString('base64'), second.toString('base64')],
        imageMimeType: 'image/jpeg',
      },
      user.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const data = (res.json() as { data: ImageData }).data;
    expect(await sizeOf(await fetchImage(data.url))).toEqual([2048, 1152]);
    expect(data.metadata).toMatchObject({ imageCount: 2 });
  });

  it('a path that is not one of the studio’s media paths is still refused as a media URL', async () => {
    const res = await post(
      '/api/nanobana/edit-image',
      { prompt: 'brighter', imageBuffer: '/api/images/../../etc/passwd.png' },
      user.token,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: MESSAGES.inputs.notAMediaUrl });
  });
});

describe('compositions', () => {
  it('multi-image-composition composes the images at 2K in the shape of the first', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const second = await solidPng(200, 200, '#2244cc');
    const res = await post(
      '/api/nanobana/multi-image-composition',
      {
        prompt: 'blend these into one scene',
        imageBuffers: [png.toString('base64'), second.toString('base64')],
        imageMimeType: 'image/png',
        fileNamePrefix: 'multi',
      },
      user.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const data = (res.json() as { data: ImageData }).data;
    expect(await sizeOf(await fetchImage(data.url))).toEqual([2048, 1152]);
    expect(data.metadata).toMatchObject({ editingTool: 'multi-image-composition', imageCount: 2 });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - LOCAL_PREVIEW_PRICES.composition);
  });

  it('advanced-composition honours the aspect ratio', async () => {
    const res = await post(
      '/api/nanobana/advanced-composition',
      {
        prompt: 'a poster',
        imageBuffers: [png.toString('base64'), `data:image/png;base64,${png.toString('base64')}`],
        mimeTypes: ['image/png', 'image/png'],
        fileNamePrefix: 'adv',
        aspectRatio: '16:9',
      },
      user.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const data = (res.json() as { data: ImageData }).data;
    expect(await sizeOf(await fetchImage(data.url))).toEqual([2048, 1152]);
    expect(data.metadata).toMatchObject({ editingTool: 'advanced-composition', source: 'canvas-composition' });
  });

  it('validates the number of images', async () => {
    const none = await post('/api/nanobana/multi-image-composition', { prompt: 'x', imageBuffers: [] }, user.token);
    expect(none.json()).toMatchObject({ error: MESSAGES.canvasImages.imagesRequired });
    const many = await post(
      '/api/nanobana/advanced-composition',
      { prompt: 'x', imageBuffers: Array.from({ length: 11 }, () => 'aGk=') },
      user.token,
    );
    expect(many.statusCode).toBe(400);
    expect(many.json()).toMatchObject({ error: MESSAGES.canvasImages.tooManyImages(10) });
  });
});

describe('POST /api/nanobana/generate-text-to-image', () => {
  it('answers the 2K square image as url and base64', async () => {
    const res = await post(
      '/api/nanobana/generate-text-to-image',
      { prompt: 'a red fox in the snow', fileNamePrefix: 'canvas', quality: '2k', aspectRatio: '1:1' },
      user.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { data: ImageData; creditsUsed: number };
    expect(body.creditsUsed).toBe(LOCAL_PREVIEW_PRICES.image);
    const bytes = await fetchImage(body.data.url);
    expect(await sizeOf(bytes)).toEqual([2048, 2048]);
    expect(Buffer.from(body.data.base64 ?? '', 'base64').equals(bytes)).toBe(true);
  });

  it('needs a session and credits', async () => {
    expect((await post('/api/nanobana/generate-text-to-image', { prompt: 'x' })).statusCode).toBe(401);
    const res = await post('/api/nanobana/generate-text-to-image', { prompt: 'a fox' }, broke.token);
    expect(res.statusCode).toBe(402);
  });
});

describe('POST /api/ai/generate/image (canvas seedream and nanobana forms)', () => {
  it('seedream4 16:9 4K is 3840x2160 and nanobana 1:1 2K is 2048x2048, data as an array of items with url', async () => {
    for (const [form, expected, price] of [
      [
        { model: 'seedream4', service: 'seedream', aspectRatio: '16:9', sampleImageSize: '4K' },
        [3840, 2160],
        LOCAL_PREVIEW_PRICES.image4k,
      ],
      [{ model: 'nanobana', aspectRatio: '1:1', sampleImageSize: '2K' }, [2048, 2048], LOCAL_PREVIEW_PRICES.image],
    ] as const) {
      const res = await post(
        '/api/ai/generate/image',
        {
          prompt: 'a harbour at dawn',
          ...form,
          style: 'photographic',
          personGeneration: 'allow_adult',
          numberOfImages: 1,
          watermark: false,
        },
        user.token,
      );
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { data: GeneratedMedia[]; creditsUsed: number };
      expect(Array.isArray(body.data)).toBe(true);
      expect(body.creditsUsed).toBe(price);
      const first = body.data[0];
      if (!first) throw new Error('no item');
      expect(await sizeOf(await fetchImage(first.url))).toEqual(expected);
    }
  });
});

describe('POST /api/ai/generate/multi-composition', () => {
  const regionA = { x: 20, y: 30, width: 80, height: 60 };
  const regionB = { x: 200, y: 100, width: 120, height: 90 };

  it('runs the reference chain: each step changes only its region; pixels outside every mask are unchanged', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const base = await noisePng(400, 300);
    const reference = await solidPng(64, 64, '#0000ff');
    const res = await post(
      '/api/ai/generate/multi-composition',
      {
        baseImage: `data:image/png;base64,${base.toString('base64')}`,
        compositionSteps: [
          {
            id: 'region-a',
            prompt: 'put the blue object here',
            regionMask: regionA,
            referenceImage: `data:image/png;base64,${reference.toString('base64')}`,
            referenceImageName: 'blue.png',
          },
          { id: 'region-b', prompt: 'a small green bush', regionMask: regionB },
        ],
        mode: 'reference-chain',
        maxSteps: 10,
        consistencyStrength: 0.8,
        preserveOriginal: true,
      },
      user.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      data: { id: string; steps: Array<{ id: string; outputImage: string }>; metadata: Record<string, unknown> };
      creditsUsed: number;
    };
    expect(body.creditsUsed).toBe(2 * LOCAL_PREVIEW_PRICES.compositionStep);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - 2 * LOCAL_PREVIEW_PRICES.compositionStep);
    expect(body.data.steps.map((s) => s.id)).toEqual(['region-a', 'region-b']);
    expect(body.data.metadata).toMatchObject({ mode: 'reference-chain', stepCount: 2, width: 400, height: 300 });

    const basePixels = await rawPixels(base);
    const inside = (x: number, y: number, r: typeof regionA) =>
      x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
    const outputs: Buffer[] = [];
    for (const step of body.data.steps) {
      const bytes = await fetchImage(step.outputImage);
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 400, 300]);
      outputs.push(await rawPixels(bytes));
    }
    const [first, final] = outputs;
    if (!first || !final) throw new Error('missing outputs');
    let changedInA = 0;
    for (let y = 0; y < 300; y++) {
      for (let x = 0; x < 400; x++) {
        const p = (y * 400 + x) * 3;
        const same = (img: Buffer) =>
          img[p] === basePixels[p] && img[p + 1] === basePixels[p + 1] && img[p + 2] === basePixels[p + 2];
        if (!inside(x, y, regionA) && !inside(x, y, regionB)) {
          if (!same(final)) throw new Error(`pixel ${x},${y} outside every region changed`);
        }
        if (!inside(x, y, regionA) && !same(first)) throw new Error(`step 1 changed ${x},${y} outside its region`);
        if (inside(x, y, regionA)) {
          if (!same(first)) changedInA++;
          // the final keeps step 1's region A (region B does not overlap it)
          if (final[p] !== first[p]) throw new Error('step 2 changed region A');
        }
      }
    }
    expect(changedInA).toBeGreaterThan(regionA.width * regionA.height * 0.9);
    // region A now shows the blue reference
    const centre = ((regionA.y + 30) * 400 + regionA.x + 40) * 3;
    expect(final[centre + 2]).toBeGreaterThan(200);
    expect(final[centre]).toBeLessThan(40);

    const asset = (
      await t.app.inject({
        method: 'GET',
        url: `/api/ai/assets?type=image&limit=50`,
        headers: authHeader(user.token),
      })
    ).json() as { data: Asset[] };
    const saved = asset.data.filter((a) => a.metadata.source === 'multi-composition');
    expect(saved.length).toBeGreaterThanOrEqual(2);
    expect(saved.find((a) => a.metadata.regionId === 'region-b')?.metadata).toMatchObject({
      editingTool: 'multi-composition',
      generator: 'nanobana',
      regionMask: regionB,
    });
  });

  it('takes a 4K canvas image over 10 MB by its media URL (region edit and quick edit), not only inline', async () => {
    // A 3840x2160 PNG of random pixels is well over 10 MB, as the canvas's generated 4K images often are.
    const big = await sharp(randomBytes(3840 * 2160 * 3), { raw: { width: 3840, height: 2160, channels: 3 } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(10 * 1024 * 1024);
    const source = await storeUpload(t.ctx, user.id, big, 'image/png', 'png');
    const region = { x: 1200, y: 600, width: 900, height: 500 };
    const step = { id: 'stall', prompt: 'a fruit stall', regionMask: region };

    // Inline, the same bytes stay refused (over the 10 MB input limit).
    const inline = await post(
      '/api/ai/generate/multi-composition',
      { baseImage: `data:image/png;base64,${big.toString('base64')}`, compositionSteps: [step] },
      user.token,
    );
    expect([400, 413]).toContain(inline.statusCode);

    const res = await post(
      '/api/ai/generate/multi-composition',
      { baseImage: source.url, compositionSteps: [step] },
      user.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { data: { id: string; metadata: Record<string, unknown> } };
    expect(body.data.metadata).toMatchObject({ baseImageUrl: source.url, width: 3840, height: 2160 });
    // Big inputs are slow on a busy machine: the reply may come before the task ends (status 'processing').
    const composed = await waitForTask(t.ctx.db, body.data.id, { timeoutMs: 60_000 });
    expect(composed.status).toBe('completed');
    const output = generatedMediaOf(composed)[0];
    if (!output) throw new Error('no output');
    expect(await sizeOf(await fetchImage(output.url))).toEqual([3840, 2160]);

    // Quick AI Edit takes the same image by URL in imageBuffer.
    const edit = await post(
      '/api/nanobana/edit-image',
      { prompt: 'warmer light', imageBuffer: source.url },
      user.token,
    );
    expect(edit.statusCode, edit.body).toBe(200);
    const edited = await waitForTask(t.ctx.db, (edit.json() as { data: ImageData & { taskId: string } }).data.taskId);
    expect(edited.status).toBe('completed');
    expect(generatedMediaOf(edited)[0]).toMatchObject({ width: 2048, height: 1152 });
  }, 120_000);

  it('validates steps, regions and ownership with clear messages, spending nothing', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const baseImage = `data:image/png;base64,${png.toString('base64')}`;
    const step = (id: string, regionMask = { x: 0, y: 0, width: 20, height: 20 }) => ({
      id,
      prompt: 'a tree',
      regionMask,
    });
    const none = await post('/api/ai/generate/multi-composition', { baseImage, compositionSteps: [] }, user.token);
    expect(none.json()).toMatchObject({ error: MESSAGES.canvasImages.stepsRequired });
    const eleven = await post(
      '/api/ai/generate/multi-composition',
      { baseImage, compositionSteps: Array.from({ length: 11 }, (_, i) => step(`s${i}`)) },
      user.token,
    );
    expect(eleven.json()).toMatchObject({ error: MESSAGES.canvasImages.tooManySteps(10) });
    const overMax = await post(
      '/api/ai/generate/multi-composition',
      { baseImage, maxSteps: 1, compositionSteps: [step('a'), step('b')] },
      user.token,
    );
    expect(overMax.json()).toMatchObject({ error: MESSAGES.canvasImages.tooManySteps(1) });
    const dup = await post(
      '/api/ai/generate/multi-composition',
      { baseImage, compositionSteps: [step('a'), step('a')] },
      user.token,
    );
    expect(dup.json()).toMatchObject({ error: MESSAGES.canvasImages.duplicateStep('a') });
    const outside = await post(
      '/api/ai/generate/multi-composition',
      { baseImage, compositionSteps: [step('far', { x: 300, y: 0, width: 40, height: 40 })] },
      user.token,
    );
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toMatchObject({ error: MESSAGES.canvasImages.regionOutside('far', 320, 180) });
    const mode = await post(
      '/api/ai/generate/multi-composition',
      { baseImage, mode: 'parallel', compositionSteps: [step('a')] },
      user.token,
    );
    expect(mode.statusCode).toBe(400);
    const filtered = await post(
      '/api/ai/generate/multi-composition',
      { baseImage, compositionSteps: [{ ...step('a'), prompt: `a ${FILTERED_TERM}` }] },
      user.token,
    );
    expect(filtered.statusCode).toBe(422);
    const theirs = await storeUpload(t.ctx, other.id, png, 'image/png', 'png');
    const notMine = await post(
      '/api/ai/generate/multi-composition',
      { baseImage: theirs.url, compositionSteps: [step('a')] },
      user.token,
    );
    expect(notMine.statusCode).toBe(404);
    const theirRef = await post(
      '/api/ai/generate/multi-composition',
      { baseImage, compositionSteps: [{ ...step('a'), referenceImage: theirs.url }] },
      user.token,
    );
    expect(theirRef.statusCode).toBe(404);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
    expect(
      (await post('/api/ai/generate/multi-composition', { baseImage, compositionSteps: [step('a')] })).statusCode,
    ).toBe(401);
    const poor = await post(
      '/api/ai/generate/multi-composition',
      { baseImage, compositionSteps: [step('a')] },
      broke.token,
    );
    expect(poor.statusCode).toBe(402);
    expect(await tasksOf(broke.id)).toHaveLength(0);
  });
});

describe('a quick edit still running when the request stops waiting (issue 30)', () => {
  let idle: TestApp;
  beforeAll(async () => {
    // No worker: the task waits in the queue, as it may behind a long queue on a busy machine.
    idle = await createTestApp({ env: { RUN_WORKERS: 'false' } });
  });
  afterAll(async () => {
    await idle?.close();
  });

  it('answers processing with the task to follow and names the engine making it', async () => {
    const owner = await createTestUser(idle.ctx.db, { credits: 100 });
    const res = await idle.app.inject({
      method: 'POST',
      url: '/api/nanobana/edit-image',
      payload: { prompt: 'warmer light', imageBuffer: `data:image/png;base64,${png.toString('base64')}` },
      headers: authHeader(owner.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = (res.json() as { data: ImageData & { taskId: string } }).data;
    expect(data).toMatchObject({ status: 'processing', url: null, metadata: { engine: 'local', model: 'nanobana' } });
    const [row] = await idle.ctx.db.select().from(tasks).where(eq(tasks.id, data.taskId));
    expect(row?.userId).toBe(owner.id);
  }, 60_000);
});
