import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTestClip, solidPng } from '../../test/fixtures.ts';
import { ContentFilteredError } from '../types.ts';
import { VendorBalanceError, VendorError } from '../vendor/http.ts';
import { type FakeRunway, startFakeRunway } from './fake-runway.ts';
import { RunwayVideoEngine } from './runway.ts';

const tools = { FFMPEG_PATH: undefined, FFPROBE_PATH: undefined };
let dir: string;
let clip: Buffer;
let png: Buffer;
let fake: FakeRunway;
let engine: RunwayVideoEngine;

const base = {
  model: 'runway-gen4_turbo',
  prompt: 'the camera pushes in slowly',
  durationSeconds: 5,
  width: 1280,
  height: 720,
  fps: 24,
  generateAudio: false,
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'runway-test-'));
  clip = await makeTestClip(tools, dir, { seconds: 1, width: 320, height: 180, fps: 12 });
  png = await solidPng(64, 36, '#336699');
  fake = await startFakeRunway({ apiKey: 'rw-key', video: clip });
  engine = new RunwayVideoEngine({
    apiKey: 'rw-key',
    baseUrl: fake.url,
    tools,
    pollIntervalMs: 5,
    allowFastPolling: true,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
});
afterAll(async () => {
  await fake?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.script = [];
  fake.failNext = [];
  fake.cancelled.length = 0;
  fake.downloads = 0;
});

describe('RunwayVideoEngine against a fake Runway API', () => {
  it('creates a gen4_turbo task, follows the status sequence with progress and downloads the output', async () => {
    fake.script = [
      { status: 'PENDING' },
      { status: 'THROTTLED' },
      { status: 'RUNNING', progress: 0.4 },
      { status: 'RUNNING', progress: 0.8 },
      { status: 'SUCCEEDED', output: true },
    ];
    const progress: number[] = [];
    const result = await engine.imageToVideo(
      { ...base, image: { data: png, mimeType: 'image/png' }, durationSeconds: 10, seed: 42 },
      { onProgress: (f) => progress.push(f) },
    );
    const create = fake.requests[0];
    expect(create).toMatchObject({ method: 'POST', path: '/v1/image_to_video' });
    expect(create.headers).toMatchObject({ authorization: 'Bearer rw-key', 'x-runway-version': '2024-11-06' });
    expect(create.body).toEqual({
      model: 'gen4_turbo',
      promptImage: `data:image/png;base64,${png.toString('base64')}`,
      ratio: '1280:720',
      promptText: 'the camera pushes in slowly',
      duration: 10,
      seed: 42,
    });
    expect(fake.requests.filter((r) => r.path === '/v1/tasks/task-1' && r.method === 'GET')).toHaveLength(5);
    expect(progress).toEqual([0, 0.4, 0.8, 1]);
    expect(fake.downloads).toBe(1);
    expect(result.data.equals(clip)).toBe(true);
    expect(result).toMatchObject({ mimeType: 'video/mp4', width: 320, height: 180, fps: 12, hasAudio: false });
    expect(result.durationSeconds).toBeCloseTo(1, 1);
    expect(result.metadata).toMatchObject({ engine: 'runway', model: 'runway-gen4_turbo', vendorModel: 'gen4_turbo' });
  });

  it('refuses a last frame on gen4_turbo with a clear 400 before calling Runway (it takes a first frame only)', async () => {
    const error = await engine
      .textToVideo({
        ...base,
        width: 720,
        height: 1280,
        firstFrame: { data: png, mimeType: 'image/png' },
        lastFrame: { data: png, mimeType: 'image/png' },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorError);
    expect(error).toMatchObject({ status: 400, code: 'vendor_rejected' });
    expect((error as Error).message).toContain('gen4_turbo takes a first frame only');
    expect(fake.requests).toHaveLength(0);
  });

  it('picks the nearest portrait ratio for a first frame', async () => {
    await engine.textToVideo({ ...base, width: 720, height: 1280, firstFrame: { data: png, mimeType: 'image/png' } });
    const body = fake.requests[0].body as { promptImage: string; ratio: string; duration: number };
    expect(body.promptImage).toBe(`data:image/png;base64,${png.toString('base64')}`);
    expect(body.ratio).toBe('720:1280');
    expect(body.duration).toBe(5);
  });

  it('refuses text-only requests: gen4_turbo needs a starting image', async () => {
    const error = await engine.textToVideo(base).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorError);
    expect((error as VendorError).status).toBe(400);
    expect(fake.requests).toHaveLength(0);
  });

  it('sends runway-gen4_aleph as aleph2 (video to video) and act_two (character performance) in Runway’s shapes', async () => {
    const video = { data: clip, mimeType: 'video/mp4' };
    const aleph = await engine.videoToVideo({
      model: 'runway-gen4_aleph',
      prompt: 'make it snow',
      video,
      reference: { data: png, mimeType: 'image/png' },
      width: 848,
      height: 480,
    });
    expect(fake.requests[0]).toMatchObject({
      path: '/v1/video_to_video',
    });
    expect(fake.requests[0].body).toEqual({
      model: 'aleph2',
      videoUri: `data:video/mp4;base64,${clip.toString('base64')}`,
      promptText: 'make it snow',
      keyframes: [{ at: 0, uri: `data:image/png;base64,${png.toString('base64')}` }],
    });
    expect(aleph.metadata).toMatchObject({ engine: 'runway', model: 'runway-gen4_aleph', vendorModel: 'aleph2' });

    fake.requests.length = 0;
    const act = await engine.characterPerformance({
      model: 'runway-act_two',
      character: { data: png, mimeType: 'image/png' },
      reference: video,
      width: 960,
      height: 960,
      expressionIntensity: 9,
    });
    expect(fake.requests[0]).toMatchObject({
      path: '/v1/character_performance',
      body: {
        model: 'act_two',
        character: { type: 'image', uri: `data:image/png;base64,${png.toString('base64')}` },
        reference: { type: 'video', uri: `data:video/mp4;base64,${clip.toString('base64')}` },
        ratio: '960:960',
        expressionIntensity: 5,
      },
    });
    expect(act.metadata).toMatchObject({ engine: 'runway', model: 'runway-act_two' });
  });

  it('the fake refuses what Runway refuses: gen4_aleph, a gen4_turbo last frame, unknown fields, wrong types', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${fake.url}${path}`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer rw-key',
          'x-runway-version': '2024-11-06',
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error: string; issues: unknown[] } }));
    const video = `data:video/mp4;base64,${clip.toString('base64')}`;
    const image = `data:image/png;base64,${png.toString('base64')}`;
    const aleph = await post('/v1/video_to_video', { model: 'gen4_aleph', videoUri: video, promptText: 'snow' });
    expect(aleph).toMatchObject({ status: 400, body: { error: 'Validation of body failed' } });
    expect(aleph.body.issues[0]).toMatchObject({ path: ['model'] });
    const last = await post('/v1/image_to_video', {
      model: 'gen4_turbo',
      ratio: '1280:720',
      promptImage: [
        { uri: image, position: 'first' },
        { uri: image, position: 'last' },
      ],
    });
    expect(last.status).toBe(400);
    const unknown = await post('/v1/image_to_video', {
      model: 'gen4_turbo',
      ratio: '1280:720',
      promptImage: image,
      references: [],
    });
    expect(unknown).toMatchObject({ status: 400, body: { issues: [{ code: 'unrecognized_keys' }] } });
    const wrongType = await post('/v1/character_performance', {
      model: 'act_two',
      character: { type: 'image', uri: image },
      reference: { type: 'video', uri: video },
      expressionIntensity: '3',
    });
    expect(wrongType).toMatchObject({ status: 400, body: { issues: [{ path: ['expressionIntensity'] }] } });
    const good = await post('/v1/video_to_video', { model: 'aleph2', videoUri: video, promptText: 'snow' });
    expect(good.status).toBe(200);
  });

  it('surfaces a request Runway refuses as a clear vendor_rejected error naming the field', async () => {
    // An input without a MIME type makes a data URI Runway does not accept.
    const error = await engine
      .characterPerformance({
        model: 'runway-act_two',
        character: { data: png, mimeType: '' },
        reference: { data: clip, mimeType: 'video/mp4' },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorError);
    expect(error).toMatchObject({ status: 400, code: 'vendor_rejected', retryable: false });
    expect((error as Error).message).toBe('Runway: Validation of body failed (character.uri: Invalid URI)');
    expect(fake.requests.filter((r) => r.path === '/v1/character_performance')).toHaveLength(1);
  });

  it('maps a SAFETY.* failed task to a content-filtered error', async () => {
    fake.script = [
      { status: 'RUNNING', progress: 0.1 },
      { status: 'FAILED', failure: 'Input image flagged by moderation', failureCode: 'SAFETY.INPUT.IMAGE' },
    ];
    const error = await engine.imageToVideo({ ...base, image: { data: png, mimeType: 'image/png' } }).catch((e) => e);
    expect(error).toBeInstanceOf(ContentFilteredError);
    expect(error).toMatchObject({ status: 422, code: 'content_filtered' });
    expect((error as ContentFilteredError).reasons[0]).toContain('SAFETY.INPUT.IMAGE');
    expect(fake.downloads).toBe(0);
  });

  it('maps “not enough credits” to a balance error, and INTERNAL.* failures to a retryable error', async () => {
    fake.failNext = [{ status: 400, body: { error: 'You do not have enough credits to run this task.' } }];
    const balance = await engine.imageToVideo({ ...base, image: { data: png, mimeType: 'image/png' } }).catch((e) => e);
    expect(balance).toBeInstanceOf(VendorBalanceError);
    expect(balance).toMatchObject({ status: 402 });

    fake.script = [
      { status: 'FAILED', failure: 'An unexpected error occurred', failureCode: 'INTERNAL.BAD_OUTPUT.CODE01' },
    ];
    const internal = await engine
      .imageToVideo({ ...base, image: { data: png, mimeType: 'image/png' } })
      .catch((e) => e);
    expect(internal).toBeInstanceOf(VendorError);
    expect(internal).toMatchObject({ retryable: true, status: 502 });

    fake.failNext = [{ status: 400, body: { error: 'promptImage: invalid data URI' } }];
    const invalid = await engine.imageToVideo({ ...base, image: { data: png, mimeType: 'image/png' } }).catch((e) => e);
    expect(invalid).toMatchObject({ retryable: false, status: 400 });
    expect((invalid as Error).message).toContain('invalid data URI');
  });

  it('retries a 429 (honouring Retry-After) and a 503, then succeeds', async () => {
    fake.failNext = [
      { status: 429, body: { error: 'Too many requests' }, retryAfter: '0' },
      { status: 503, body: { error: 'Service unavailable' } },
    ];
    const result = await engine.imageToVideo({ ...base, image: { data: png, mimeType: 'image/png' } });
    expect(fake.requests.filter((r) => r.path === '/v1/image_to_video')).toHaveLength(3);
    expect(result.data.equals(clip)).toBe(true);
  });

  it('cancels the task with DELETE when the caller aborts', async () => {
    fake.script = [{ status: 'RUNNING', progress: 0.2 }];
    const controller = new AbortController();
    const pending = engine.imageToVideo(
      { ...base, image: { data: png, mimeType: 'image/png' } },
      { signal: controller.signal, onProgress: (f) => f > 0 && controller.abort(new Error('stopped by user')) },
    );
    await expect(pending).rejects.toThrow('stopped by user');
    const created = fake.requests.find((r) => r.path === '/v1/image_to_video');
    expect(created).toBeDefined();
    expect(fake.cancelled).toHaveLength(1);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/v1/tasks/${fake.cancelled[0]}` });
  });
});
