import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { ContentFilteredError, type UpscaleVideoRequest, type VideoResult } from '../types.ts';
import { VendorBalanceError } from '../vendor/http.ts';
import { vendorOverrides } from '../vendor/index.ts';
import { EnhancorUpscaleEngine } from './enhancor.ts';
import { FAKE_ENHANCOR_KEY, type FakeEnhancor, startFakeEnhancor } from './fake-enhancor.ts';

let fake: FakeEnhancor;
let engine: EnhancorUpscaleEngine;
let png: Buffer;
const videoCalls: UpscaleVideoRequest[] = [];

beforeAll(async () => {
  fake = await startFakeEnhancor();
  engine = new EnhancorUpscaleEngine({
    apiKey: FAKE_ENHANCOR_KEY,
    baseUrl: fake.url,
    pollIntervalMs: 5,
    video: {
      video: async (request) => {
        videoCalls.push(request);
        return { engine: 'stand-in' } as unknown as VideoResult;
      },
    },
  });
  png = await sharp({ create: { width: 960, height: 540, channels: 3, background: '#cc8866' } })
    .png()
    .toBuffer();
});

afterAll(() => fake.close());

const request = (model: string, extra: object = {}) => ({
  model,
  image: { data: png, mimeType: 'image/png' },
  targetWidth: 3840,
  targetHeight: 2160,
  ...extra,
});

describe('Enhancor adapter', () => {
  it('queues the request, polls the status to COMPLETED and downloads the result at the 4K box', async () => {
    const progress: number[] = [];
    const result = await engine.image(request('realistic-skin'), { onProgress: (f) => progress.push(f) });
    const job = fake.jobs.at(-1);
    expect(job?.service).toBe('realistic-skin');
    // PENDING, IN_QUEUE, IN_PROGRESS, then COMPLETED.
    expect(job?.polls).toBe(4);
    expect(result).toMatchObject({ width: 3840, height: 2160, mimeType: 'image/png' });
    expect(result.metadata).toMatchObject({ engine: 'enhancor', model: 'realistic-skin', requestId: job?.id });
    expect(await sharp(result.data).metadata()).toMatchObject({ width: 3840, height: 2160, format: 'png' });
    expect(progress.at(0)).toBe(0.1);
    expect(progress.at(-1)).toBe(0.9);
  });

  it('passes mode and enhancement level to the service path of each name', async () => {
    await engine.image(request('portrait-upscaler', { mode: 'fast' }));
    expect(fake.jobs.at(-1)).toMatchObject({ service: 'upscaler', body: { mode: 'fast' } });
    await engine.image(request('detailed', { enhancementLevel: 0.8 }));
    expect(fake.jobs.at(-1)).toMatchObject({ service: 'detailed', body: { enhancementLevel: 0.8 } });
  });

  it('retries a 429 and then succeeds', async () => {
    const before = fake.calls.filter((c) => c.endsWith('/queue')).length;
    fake.rateLimitNext(2);
    expect((await engine.image(request('detailed'))).width).toBe(3840);
    expect(fake.calls.filter((c) => c.endsWith('/queue')).length - before).toBe(3);
  });

  it('maps insufficient credits to VendorBalanceError', async () => {
    fake.failBalanceNext();
    await expect(engine.image(request('detailed'))).rejects.toBeInstanceOf(VendorBalanceError);
  });

  it('maps a moderation failure to ContentFilteredError', async () => {
    fake.failSafetyNext();
    const error = await engine.image(request('realistic-skin')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentFilteredError);
    expect((error as ContentFilteredError).reasons[0]).toMatch(/^Enhancor: Image rejected by content moderation/);
  });

  it('hands video to the video upscaler it was given', async () => {
    await engine.video({ model: 'proteus', video: { data: Buffer.from('x'), mimeType: 'video/mp4' }, scale: 2 });
    expect(videoCalls).toHaveLength(1);
  });

  it('is enabled by ENHANCOR_API_KEY and serves realistic-skin, portrait-upscaler and detailed', () => {
    expect(vendorOverrides(loadConfig({})).upscale?.detailed).toBeUndefined();
    const upscale =
      vendorOverrides(loadConfig({ ENHANCOR_API_KEY: 'k', ENHANCOR_BASE_URL: 'http://127.0.0.1:9' })).upscale ?? {};
    expect(['realistic-skin', 'portrait-upscaler', 'detailed'].map((n) => upscale[n]?.name)).toEqual([
      'enhancor',
      'enhancor',
      'enhancor',
    ]);
    expect(upscale['image-upscaler']).toBeUndefined();
  });
});

describe('Enhancor request shape', () => {
  it('the fake refuses an unknown field or a wrong type with 400 (the shape is pinned, there is no public reference)', async () => {
    const post = (body: unknown) =>
      fetch(`${fake.url}/api/upscaler/v1/queue`, {
        method: 'POST',
        headers: { 'x-api-key': FAKE_ENHANCOR_KEY, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { success: boolean; message: string } }));
    const img_url = 'data:image/png;base64,iVBORw0KGgo=';
    expect(await post({ img_url, scale: 4 })).toMatchObject({ status: 400, body: { success: false } });
    expect((await post({ img_url, enhancementLevel: '0.5' })).body.message).toContain('enhancementLevel');
    expect((await post({ imgUrl: img_url })).status).toBe(400);
  });
});
