import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { ContentFilteredError, type UpscaleVideoRequest, type VideoResult } from '../types.ts';
import { VendorBalanceError, VendorError } from '../vendor/http.ts';
import { vendorOverrides } from '../vendor/index.ts';
import { FAKE_REPLICATE_TOKEN, type FakeReplicate, startFakeReplicate } from './fake-replicate.ts';
import { ReplicateUpscaleEngine } from './replicate.ts';

let fake: FakeReplicate;
let engine: ReplicateUpscaleEngine;
let png: Buffer;
const videoCalls: UpscaleVideoRequest[] = [];

beforeAll(async () => {
  fake = await startFakeReplicate();
  engine = new ReplicateUpscaleEngine({
    apiToken: FAKE_REPLICATE_TOKEN,
    baseUrl: fake.url,
    version: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    pollIntervalMs: 5,
    video: {
      video: async (request) => {
        videoCalls.push(request);
        return { engine: 'stand-in' } as unknown as VideoResult;
      },
    },
  });
  png = await sharp({ create: { width: 480, height: 270, channels: 3, background: '#3366aa' } })
    .png()
    .toBuffer();
});

afterAll(() => fake.close());

const request = (image = png) => ({
  model: 'image-upscaler',
  image: { data: image, mimeType: 'image/png' },
  targetWidth: 3840,
  targetHeight: 2160,
});

describe('Replicate Real-ESRGAN adapter', () => {
  it('creates a prediction with the version, polls it to success and downloads the output at the 4K box', async () => {
    const progress: number[] = [];
    const result = await engine.image(request(), { onProgress: (f) => progress.push(f) });
    expect(fake.created.at(-1)).toMatchObject({
      version: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
      input: { scale: 8, face_enhance: false },
    });
    expect(fake.created.at(-1)?.input.image).toMatch(/^data:image\/png;base64,/);
    expect(result).toMatchObject({ width: 3840, height: 2160, mimeType: 'image/png' });
    expect(result.metadata).toMatchObject({ engine: 'replicate', model: 'image-upscaler', scale: 8 });
    const meta = await sharp(result.data).metadata();
    expect(meta).toMatchObject({ width: 3840, height: 2160, format: 'png' });
    // starting → processing (50 %) → processing (100 %) → succeeded, reported as rising progress.
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(fake.calls.filter((c) => c.startsWith('GET /v1/predictions/')).length).toBeGreaterThanOrEqual(3);
  });

  it('keeps a portrait image upright: its long side goes to 3840', async () => {
    const tall = await sharp({ create: { width: 270, height: 480, channels: 3, background: '#aa6633' } })
      .jpeg()
      .toBuffer();
    const result = await engine.image({ ...request(tall), outputFormat: 'webp' });
    expect(result).toMatchObject({ width: 2160, height: 3840, mimeType: 'image/webp' });
  });

  it('uploads large inputs through the files API instead of a data URI', async () => {
    const noisy = await sharp(randomBytes(400 * 400 * 3), {
      raw: { width: 400, height: 400, channels: 3 },
    })
      .png()
      .toBuffer();
    expect(noisy.byteLength).toBeGreaterThan(256 * 1024);
    const result = await engine.image(request(noisy));
    expect(fake.calls).toContain('POST /v1/files');
    expect(fake.created.at(-1)?.input.image).toMatch(/\/v1\/files\//);
    expect(result.width).toBe(3840);
  });

  it('retries a 429 (Retry-After) and then succeeds', async () => {
    const before = fake.calls.filter((c) => c === 'POST /v1/predictions').length;
    fake.rateLimitNext(2);
    const result = await engine.image(request());
    expect(result.width).toBe(3840);
    expect(fake.calls.filter((c) => c === 'POST /v1/predictions').length - before).toBe(3);
  });

  it('maps the 402 insufficient-credit answer to VendorBalanceError', async () => {
    fake.failBalanceNext();
    const error = await engine.image(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorBalanceError);
    expect((error as VendorBalanceError).status).toBe(402);
  });

  it("maps a failed prediction with Replicate's NSFW error to ContentFilteredError", async () => {
    fake.failSafetyNext();
    const error = await engine.image(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentFilteredError);
    expect((error as ContentFilteredError).reasons[0]).toMatch(/^Replicate: NSFW content detected/);
  });

  it('downloads the output at once, retrying a failing output URL', async () => {
    fake.flakyOutputNext();
    const result = await engine.image(request());
    expect(result.width).toBe(3840);
  });

  it('cancels the prediction when the signal aborts', async () => {
    const controller = new AbortController();
    const run = engine.image(request(), {
      onProgress: (f) => {
        if (f > 0.05) controller.abort(new Error('stopped'));
      },
      signal: controller.signal,
    });
    await expect(run).rejects.toThrow('stopped');
    await expect.poll(() => fake.calls.some((c) => /^POST \/v1\/predictions\/\w+\/cancel$/.test(c))).toBe(true);
  });

  it('hands video to the video upscaler it was given (Real-ESRGAN is image-only)', async () => {
    await engine.video({ model: 'proteus', video: { data: Buffer.from('x'), mimeType: 'video/mp4' }, scale: 2 });
    expect(videoCalls).toHaveLength(1);
  });

  it('is enabled by REPLICATE_API_TOKEN alone and serves image-upscaler and upscale_4k', () => {
    expect(vendorOverrides(loadConfig({})).upscale?.['image-upscaler']).toBeUndefined();
    const upscale = vendorOverrides(loadConfig({ REPLICATE_API_TOKEN: 'r8_x' })).upscale ?? {};
    expect(upscale['image-upscaler']?.name).toBe('replicate');
    expect(upscale.upscale_4k?.name).toBe('replicate');
  });

  it('the fake answers 422 Input validation failed for an unknown field or a wrong type, as Replicate does', async () => {
    const post = (body: unknown) =>
      fetch(`${fake.url}/predictions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${FAKE_REPLICATE_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
    const version = 'f121d640bd286e1fdc67f9799164c1d5be36ff74576ee11c803ae5b665dd46aa';
    const image = `data:image/png;base64,${(
      await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
        .png()
        .toBuffer()
    ).toString('base64')}`;
    const unknown = await post({ version, input: { image, scale: 2, upscale: 4 } });
    expect(unknown).toMatchObject({ status: 422, body: { title: 'Input validation failed' } });
    expect(String(unknown.body.detail)).toContain('upscale');
    const wrongType = await post({ version, input: { image, scale: '2' } });
    expect(wrongType).toMatchObject({ status: 422, body: { invalid_fields: [{ field: 'input.scale' }] } });
    const tooBig = await post({ version, input: { image, scale: 12 } });
    expect(tooBig.status).toBe(422);
    expect((await post({ version, input: { image, scale: 2 } })).status).toBe(201);
  });

  it('surfaces a refused prediction as vendor_rejected with Replicate’s detail', async () => {
    const misconfigured = new ReplicateUpscaleEngine({
      apiToken: FAKE_REPLICATE_TOKEN,
      baseUrl: fake.url,
      version: 'not-a-version',
      pollIntervalMs: 5,
      video: { video: async () => ({}) as VideoResult },
    });
    const small = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123' } })
      .png()
      .toBuffer();
    const error = await misconfigured
      .image({
        model: 'image-upscaler',
        image: { data: small, mimeType: 'image/png' },
        targetWidth: 32,
        targetHeight: 32,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorError);
    expect(error).toMatchObject({ status: 400, code: 'vendor_rejected', retryable: false });
    expect((error as Error).message).toBe('Replicate: - version: Invalid version');
  });
});
