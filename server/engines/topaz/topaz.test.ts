import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { makeTestClip } from '../../test/fixtures.ts';
import { ContentFilteredError, type ImageResult, type UpscaleImageRequest } from '../types.ts';
import { VendorBalanceError } from '../vendor/http.ts';
import { vendorOverrides } from '../vendor/index.ts';
import { FAKE_TOPAZ_KEY, type FakeTopaz, startFakeTopaz } from './fake-topaz.ts';
import { TopazVideoEngine } from './topaz.ts';

const tools = loadConfig({});
let fake: FakeTopaz;
let engine: TopazVideoEngine;
let clip: Buffer;
let dir: string;
const imageCalls: UpscaleImageRequest[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'topaz-test-'));
  clip = await makeTestClip(tools, dir, { seconds: 1, width: 320, height: 180, fps: 24 });
  fake = await startFakeTopaz(tools);
  engine = new TopazVideoEngine({
    apiKey: FAKE_TOPAZ_KEY,
    baseUrl: fake.url,
    tools,
    pollIntervalMs: 5,
    image: {
      image: async (request) => {
        imageCalls.push(request);
        return { engine: 'stand-in' } as unknown as ImageResult;
      },
    },
  });
});

afterAll(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

const request = (extra: object = {}) => ({
  model: 'proteus',
  video: { data: clip, mimeType: 'video/mp4' },
  scale: 2,
  ...extra,
});

describe('Topaz video adapter', () => {
  it('creates, accepts, uploads the parts, completes, polls and downloads the enhanced video', async () => {
    const progress: number[] = [];
    const result = await engine.video(request(), { onProgress: (f) => progress.push(f) });
    const job = fake.jobs.at(-1);
    expect(job?.body).toMatchObject({
      source: { size: clip.byteLength, frameRate: 24, resolution: { width: 320, height: 180 } },
      output: { resolution: { width: 640, height: 360 }, frameRate: 24, container: 'mp4' },
      filters: [{ model: 'prob-4' }],
    });
    expect(fake.calls.filter((c) => c.startsWith('PUT /uploads/'))).toHaveLength(2);
    expect(fake.calls).toContain(`PATCH /video/${job?.id}/complete-upload/`);
    expect(result).toMatchObject({ width: 640, height: 360, fps: 24, mimeType: 'video/mp4' });
    expect(result.durationSeconds).toBeCloseTo(1, 1);
    expect(result.metadata).toMatchObject({
      engine: 'topaz',
      model: 'proteus',
      requestId: job?.id,
      filters: ['prob-4'],
    });
    expect(progress.length).toBeGreaterThanOrEqual(4);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('adds frame interpolation when the frame rate rises', async () => {
    const result = await engine.video(request({ model: 'artemis', scale: 4, fps: 30, interpolation: 'motion' }));
    expect(fake.jobs.at(-1)?.body.filters).toEqual([{ model: 'ahq-12' }, { model: 'apo-8' }]);
    expect(result).toMatchObject({ width: 1280, height: 720, fps: 30 });
  });

  it('retries a 429 on create and then succeeds', async () => {
    const before = fake.calls.filter((c) => c === 'POST /video/').length;
    fake.rateLimitNext(1);
    const result = await engine.video(request());
    expect(result.width).toBe(640);
    expect(fake.calls.filter((c) => c === 'POST /video/').length - before).toBe(2);
  });

  it('maps a 402 on create to VendorBalanceError', async () => {
    fake.failBalanceNext();
    await expect(engine.video(request())).rejects.toBeInstanceOf(VendorBalanceError);
  });

  it('maps a job failed for lack of credits to VendorBalanceError', async () => {
    fake.failBalanceLaterNext();
    await expect(engine.video(request())).rejects.toBeInstanceOf(VendorBalanceError);
  });

  it('maps a content-moderation failure to ContentFilteredError', async () => {
    fake.failSafetyNext();
    const error = await engine.video(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentFilteredError);
    expect((error as ContentFilteredError).reasons[0]).toMatch(/^Topaz: CONTENT_MODERATION/);
  });

  it('cancels the Topaz request when the signal aborts', async () => {
    const controller = new AbortController();
    const run = engine.video(request(), {
      signal: controller.signal,
      onProgress: (f) => {
        if (f > 0.2) controller.abort(new Error('stopped'));
      },
    });
    await expect(run).rejects.toThrow('stopped');
    await expect.poll(() => fake.calls.some((c) => /^DELETE \/video\//.test(c))).toBe(true);
  });

  it('hands images to the image upscaler it was given', async () => {
    await engine.image({
      model: 'topaz',
      image: { data: Buffer.from('x'), mimeType: 'image/png' },
      targetWidth: 3840,
      targetHeight: 2160,
    });
    expect(imageCalls).toHaveLength(1);
  });

  it('is enabled by TOPAZ_API_KEY alone and serves topaz, proteus and prob-4', () => {
    expect(vendorOverrides(loadConfig({})).upscale?.topaz).toBeUndefined();
    const upscale = vendorOverrides(loadConfig({ TOPAZ_API_KEY: 'k' })).upscale ?? {};
    expect(['topaz', 'proteus', 'prob-4'].map((n) => upscale[n]?.name)).toEqual(['topaz', 'topaz', 'topaz']);
  });
});
