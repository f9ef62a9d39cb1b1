import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { makeTestClip } from '../../test/fixtures.ts';
import { ContentFilteredError, type ImageResult, type UpscaleImageRequest } from '../types.ts';
import { VendorBalanceError } from '../vendor/http.ts';
import { vendorOverrides } from '../vendor/index.ts';
import { FAKE_TOPAZ_KEY, type FakeTopaz, startFakeTopaz, topazUrlCount } from './fake-topaz.ts';
import { planTopazUpload, TOPAZ_SEGMENT_BYTES, TopazVideoEngine } from './topaz.ts';

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
    // A source under 500 MB goes whole to the single URL Topaz answers.
    expect(fake.calls.filter((c) => c.startsWith('PUT /uploads/'))).toEqual([`PUT /uploads/${job?.id}/1`]);
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

  it('plans uploads in 500 MB segments, one per URL, as Topaz documents (not an even split)', () => {
    const GB = 1_000_000_000;
    // 1.2 GB → 3 URLs → 500 MB, 500 MB, 200 MB (Topaz's worked example).
    expect(topazUrlCount(1.2 * GB, 36_000)).toBe(3);
    expect(planTopazUpload(1.2 * GB, 3)).toEqual([
      { partNum: 1, start: 0, end: 500_000_000 },
      { partNum: 2, start: 500_000_000, end: 1_000_000_000 },
      { partNum: 3, start: 1_000_000_000, end: 1_200_000_000 },
    ]);
    // 1.1 GB: 3 URLs, the last part 100 MB (an even split would send 366.7 MB parts).
    expect(planTopazUpload(1.1 * GB, 3).map((p) => p.end - p.start)).toEqual([500e6, 500e6, 100e6]);
    // At most 500 MB or 1,000 frames: one URL, the whole file.
    expect(topazUrlCount(400_000_000, 36_000)).toBe(1);
    expect(topazUrlCount(2 * GB, 900)).toBe(1);
    expect(planTopazUpload(2 * GB, 1)).toEqual([{ partNum: 1, start: 0, end: 2 * GB }]);
    // Past 75 GB the 150-URL cap binds and the segments grow: 100 GB over 150 URLs.
    expect(topazUrlCount(100 * GB, 3_000_000)).toBe(150);
    const big = planTopazUpload(100 * GB, 150);
    expect(big).toHaveLength(150);
    expect(big[0].end).toBe(Math.ceil((100 * GB) / 150));
    expect(big.at(-1)?.end).toBe(100 * GB);
    expect(TOPAZ_SEGMENT_BYTES).toBe(500_000_000);
  });

  it('uploads a multi-part source in whole segments that the fake checks part by part', async () => {
    // The same rule with a segment small enough for the test clip: three URLs, two full segments.
    const segmentBytes = Math.floor(clip.byteLength / 2.5);
    const small = await startFakeTopaz(tools, { walk: false, segmentBytes, singleUploadFrames: 0 });
    try {
      const smallEngine = new TopazVideoEngine({
        apiKey: FAKE_TOPAZ_KEY,
        baseUrl: small.url,
        tools,
        pollIntervalMs: 5,
        segmentBytes,
        image: { image: async () => ({}) as ImageResult },
      });
      const result = await smallEngine.video(request());
      const job = small.jobs[0];
      expect([...job.parts.keys()]).toEqual([1, 2, 3]);
      expect([...job.parts.values()].map((b) => b.byteLength)).toEqual([
        segmentBytes,
        segmentBytes,
        clip.byteLength - 2 * segmentBytes,
      ]);
      expect(Buffer.concat([...job.parts.values()]).equals(clip)).toBe(true);
      expect(result.width).toBe(640);
    } finally {
      await small.close();
    }
  });

  it('the fake refuses a create body Topaz would refuse (unknown field, wrong type) with 400', async () => {
    const body = {
      source: {
        container: 'mp4',
        size: 1000,
        duration: 1,
        frameRate: 24,
        frameCount: 24,
        resolution: { width: 320, height: 180 },
      },
      output: {
        resolution: { width: 640, height: 360 },
        frameRate: 24,
        container: 'mp4',
        videoEncoder: 'H264',
        audioTransfer: 'None',
      },
      filters: [{ model: 'prob-4' }],
    };
    const post = (b: unknown) =>
      fetch(`${fake.url}/video/`, {
        method: 'POST',
        headers: { 'x-api-key': FAKE_TOPAZ_KEY, 'content-type': 'application/json' },
        body: JSON.stringify(b),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
    expect((await post(body)).status).toBe(200);
    const unknown = await post({ ...body, denoise: 0.5 });
    expect(unknown).toMatchObject({ status: 400, body: { message: 'Invalid request body' } });
    const wrongType = await post({ ...body, source: { ...body.source, size: '1000' } });
    expect(wrongType).toMatchObject({ status: 400, body: { errors: [{ path: 'source.size' }] } });
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
