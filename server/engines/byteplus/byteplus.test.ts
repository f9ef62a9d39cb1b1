import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTestClip, solidPng } from '../../test/fixtures.ts';
import { ContentFilteredError } from '../types.ts';
import { VendorBalanceError, VendorError } from '../vendor/http.ts';
import { createArkEngines } from './byteplus.ts';
import { type FakeArk, startFakeArk } from './fake-ark.ts';

const tools = { FFMPEG_PATH: undefined, FFPROBE_PATH: undefined };
let dir: string;
let clip: Buffer;
let vendorPng: Buffer;
let png: Buffer;
let fake: FakeArk;
let engines: ReturnType<typeof createArkEngines>;

const video = {
  model: 'seedance',
  prompt: 'A cat runs',
  durationSeconds: 5,
  width: 1280,
  height: 720,
  fps: 24,
  generateAudio: false,
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'ark-test-'));
  clip = await makeTestClip(tools, dir, { seconds: 1, width: 320, height: 180, fps: 12 });
  vendorPng = await solidPng(1280, 960, '#22aa44');
  png = await solidPng(64, 48, '#884422');
  fake = await startFakeArk({ apiKey: 'ark-key', image: vendorPng, video: clip });
  engines = createArkEngines({
    apiKey: 'ark-key',
    baseUrl: fake.url,
    tools,
    seedreamModel: 'seedream-4-0-250828',
    seedanceModel: 'seedance-1-0-pro-250528',
    pollIntervalMs: 5,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
});
afterAll(async () => {
  await fake?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.failNext = [];
  fake.script = [];
  fake.cancelled.length = 0;
  fake.downloads.length = 0;
});

describe('Seedream 4.0 against a fake ModelArk', () => {
  it('sends the prompt and reference images, downloads the URL and answers the size asked for', async () => {
    const result = await engines.image.textToImage({
      model: 'seedream4',
      prompt: 'a lighthouse at dusk',
      width: 1024,
      height: 768,
      seed: 7,
      referenceImages: [
        { data: png, mimeType: 'image/png' },
        { data: png, mimeType: 'image/png' },
      ],
    });
    const request = fake.requests[0];
    expect(request).toMatchObject({ method: 'POST', path: '/api/v3/images/generations' });
    expect(request.headers.authorization).toBe('Bearer ark-key');
    expect(request.body).toMatchObject({
      model: 'seedream-4-0-250828',
      prompt: 'a lighthouse at dusk',
      image: [`data:image/png;base64,${png.toString('base64')}`, `data:image/png;base64,${png.toString('base64')}`],
      response_format: 'url',
      size: '1112x832',
      seed: 7,
      sequential_image_generation: 'disabled',
      watermark: false,
    });
    expect(fake.downloads).toHaveLength(1);
    const meta = await sharp(result.data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1024, 768]);
    const { dominant } = await sharp(result.data).stats();
    expect(dominant.g).toBeGreaterThan(dominant.r);
    expect(result.metadata).toMatchObject({ engine: 'byteplus', model: 'seedream4', referenceCount: 2 });
  });

  it('keeps unmasked pixels byte-identical when inpainting', async () => {
    const image = await solidPng(64, 48, '#884422');
    const mask = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#000' } })
      .composite([{ input: await solidPng(32, 48, '#fff'), left: 32, top: 0 }])
      .png()
      .toBuffer();
    const result = await engines.image.inpaint({
      model: 'seedream',
      prompt: 'grass',
      image: { data: image, mimeType: 'image/png' },
      mask: { data: mask, mimeType: 'image/png' },
      mode: 'inpaint',
    });
    const { data } = await sharp(result.data).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number) => [...data.subarray(x * 4, x * 4 + 3)];
    expect(at(5)).toEqual([0x88, 0x44, 0x22]);
    expect(at(50)).toEqual([0x22, 0xaa, 0x44]);
  });

  it('maps a sensitive-content error to content filtered and AccountOverdueError to a balance error', async () => {
    fake.failNext = [
      {
        status: 400,
        body: {
          error: {
            code: 'InputTextSensitiveContentDetected',
            message: 'The request failed because the input text may contain sensitive information.',
            type: 'BadRequest',
          },
        },
      },
    ];
    const filtered = await engines.image
      .textToImage({ model: 'seedream4', prompt: 'x', width: 1024, height: 1024 })
      .catch((e) => e);
    expect(filtered).toBeInstanceOf(ContentFilteredError);
    expect((filtered as ContentFilteredError).reasons[0]).toContain('InputTextSensitiveContentDetected');

    fake.failNext = [
      {
        status: 403,
        body: {
          error: { code: 'AccountOverdueError', message: 'Your account has an overdue balance.', type: 'Forbidden' },
        },
      },
    ];
    const balance = await engines.image
      .textToImage({ model: 'seedream4', prompt: 'x', width: 1024, height: 1024 })
      .catch((e) => e);
    expect(balance).toBeInstanceOf(VendorBalanceError);
    expect(balance).toMatchObject({ status: 402 });

    fake.failNext = [
      { status: 404, body: { error: { code: 'ModelNotOpen', message: 'The model is not activated.' } } },
    ];
    const notOpen = await engines.image
      .textToImage({ model: 'seedream4', prompt: 'x', width: 1024, height: 1024 })
      .catch((e) => e);
    expect(notOpen).toBeInstanceOf(VendorError);
    expect(notOpen).toMatchObject({ status: 400, retryable: false });
    expect((notOpen as Error).message).toContain('ModelNotOpen');
  });

  it('retries a 429 then succeeds', async () => {
    fake.failNext = [
      {
        status: 429,
        body: { error: { code: 'RateLimitExceeded.EndpointRPMExceeded', message: 'Too many requests' } },
        retryAfter: '0',
      },
    ];
    const result = await engines.image.textToImage({
      model: 'seedreamai',
      prompt: 'a forest',
      width: 1280,
      height: 960,
    });
    expect(fake.requests.filter((r) => r.path === '/api/v3/images/generations')).toHaveLength(2);
    expect(result.width).toBe(1280);
  });
});

describe('Seedance against a fake ModelArk', () => {
  it('creates a task with first and last frames, polls queued → running → succeeded and downloads the video', async () => {
    fake.script = [{ status: 'queued' }, { status: 'running' }, { status: 'running' }, { status: 'succeeded' }];
    const progress: number[] = [];
    const result = await engines.video.imageToVideo(
      {
        ...video,
        image: { data: png, mimeType: 'image/png' },
        lastFrame: { data: png, mimeType: 'image/png' },
        seed: 3,
      },
      { onProgress: (f) => progress.push(f) },
    );
    expect(fake.requests[0]).toMatchObject({
      path: '/api/v3/contents/generations/tasks',
      body: {
        model: 'seedance-1-0-pro-250528',
        content: [
          {
            type: 'text',
            text: 'A cat runs --ratio adaptive --resolution 720p --duration 5 --camerafixed false --watermark false --seed 3',
          },
          { type: 'image_url', role: 'first_frame' },
          { type: 'image_url', role: 'last_frame' },
        ],
      },
    });
    expect(fake.requests.filter((r) => r.method === 'GET')).toHaveLength(4);
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(1);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]);
    expect(result.data.equals(clip)).toBe(true);
    expect(result).toMatchObject({ width: 320, height: 180, fps: 12, hasAudio: false });
    expect(result.metadata).toMatchObject({
      engine: 'byteplus',
      model: 'seedance',
      vendorModel: 'seedance-1-0-pro-250528',
    });
  });

  it('maps a failed task with an output safety code to content filtered, and picks the ratio for text-only', async () => {
    fake.script = [
      { status: 'running' },
      {
        status: 'failed',
        error: {
          code: 'OutputVideoSensitiveContentDetected',
          message: 'The generated video may contain sensitive information.',
        },
      },
    ];
    const error = await engines.video.textToVideo({ ...video, width: 720, height: 1280 }).catch((e) => e);
    expect(error).toBeInstanceOf(ContentFilteredError);
    expect((fake.requests[0].body as { content: Array<{ text: string }> }).content[0].text).toContain('--ratio 9:16');
    expect(fake.downloads).toHaveLength(0);
  });

  it('retries a 429 on creation, then succeeds', async () => {
    fake.failNext = [
      { status: 429, body: { error: { code: 'RateLimitExceeded', message: 'slow down' } }, retryAfter: '0' },
    ];
    const result = await engines.video.textToVideo(video);
    expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
    expect(result.data.equals(clip)).toBe(true);
  });

  it('cancels the task when the caller aborts', async () => {
    fake.script = [{ status: 'running' }];
    const controller = new AbortController();
    let polls = 0;
    const pending = engines.video.textToVideo(video, {
      signal: controller.signal,
      onProgress: () => {
        if (++polls === 3) controller.abort(new Error('stopped'));
      },
    });
    await expect(pending).rejects.toThrow('stopped');
    expect(fake.cancelled).toHaveLength(1);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'DELETE' });
  });
});

describe('requests ModelArk would refuse', () => {
  const post = (route: string, body: unknown) =>
    fetch(`${fake.url}${route}`, {
      method: 'POST',
      headers: { authorization: 'Bearer ark-key', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error: Record<string, string> } }));

  it('the fake answers 400 InvalidParameter for an unknown field or a wrong type', async () => {
    const base = { model: 'seedream-4-0-250828', prompt: 'a lake', size: '2048x2048' };
    expect((await post('/images/generations', base)).status).toBe(200);
    const unknown = await post('/images/generations', { ...base, negative_prompt: 'fog' });
    expect(unknown).toMatchObject({
      status: 400,
      body: { error: { code: 'InvalidParameter', param: 'negative_prompt' } },
    });
    const wrongType = await post('/images/generations', { ...base, watermark: 'no' });
    expect(wrongType).toMatchObject({ status: 400, body: { error: { param: 'watermark' } } });
    const badRole = await post('/contents/generations/tasks', {
      model: 'seedance-1-0-pro-250528',
      content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' }, role: 'middle_frame' }],
    });
    expect(badRole.status).toBe(400);
  });

  it('surfaces a refused request as vendor_rejected naming Ark’s parameter', async () => {
    const error = await engines.image
      .textToImage({
        model: 'seedream4',
        prompt: 'a lake',
        width: 1024,
        height: 1024,
        referenceImages: [{ data: png, mimeType: '' }],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorError);
    expect(error).toMatchObject({ status: 400, code: 'vendor_rejected', retryable: false });
    expect((error as Error).message).toContain('InvalidParameter');
    expect((error as Error).message).toContain('image');
  });
});
