import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Asset } from '../../../common/api/assets.ts';
import type { GenerationStatus, TaskAccepted } from '../../../common/api/generation.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { STATUS_PATHS } from '../../features/generation/status.ts';
import { authHeader, createTestUser, eventually, makeTestClip, solidPng, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { type FakeRunway, startFakeRunway } from './fake-runway.ts';

let t: TestApp;
let fake: FakeRunway;
let user: TestUser;
let dir: string;
let clip: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'runway-int-'));
  clip = await makeTestClip({ FFMPEG_PATH: undefined, FFPROBE_PATH: undefined }, dir, {
    seconds: 1,
    width: 320,
    height: 180,
    fps: 12,
  });
  fake = await startFakeRunway({ apiKey: 'rw-int-key', video: clip });
  t = await createTestApp({ env: { RUNWAY_API_KEY: 'rw-int-key', RUNWAY_API_BASE: fake.url } });
  user = await createTestUser(t.ctx.db, { credits: 500 });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('generates a runway-gen4_turbo video through the HTTP route into a stored asset made by Runway', async () => {
  const png = await solidPng(320, 180, '#cc6633');
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ai/generate/video',
    headers: authHeader(user.token),
    payload: {
      prompt: 'waves rolling onto a beach at dawn',
      model: 'runway-gen4_turbo',
      duration: 5,
      inputImage: `data:image/png;base64,${png.toString('base64')}`,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const accepted = (res.json() as { data: TaskAccepted }).data;
  const final = await eventually(
    async () => {
      const body = (
        await t.app.inject({
          method: 'GET',
          url: STATUS_PATHS.runway(accepted.taskId),
          headers: authHeader(user.token),
        })
      ).json() as {
        status: string;
        output: string[];
      };
      return body.status === 'SUCCEEDED' || body.status === 'FAILED' ? body : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 100, what: 'the Runway video' },
  );
  expect(final.status).toBe('SUCCEEDED');
  expect(fake.requests[0]).toMatchObject({ method: 'POST', path: '/v1/image_to_video', body: { model: 'gen4_turbo' } });
  expect(fake.downloads).toBe(1);

  const status = (
    await t.app.inject({
      method: 'POST',
      url: STATUS_PATHS.ai,
      payload: { taskId: accepted.taskId },
      headers: authHeader(user.token),
    })
  ).json() as { data: GenerationStatus };
  const asset = (
    await t.app.inject({ method: 'GET', url: `/api/ai/assets/${status.data.assetId}`, headers: authHeader(user.token) })
  ).json() as { data: Asset };
  expect(asset.data).toMatchObject({ type: 'video', status: 'completed', model: 'runway-gen4_turbo' });
  expect(asset.data.metadata).toMatchObject({ engine: 'runway', vendorModel: 'gen4_turbo', width: 320, height: 180 });
  const file = await t.app.inject({ method: 'GET', url: asset.data.url, headers: authHeader(user.token) });
  expect(file.rawPayload.equals(clip)).toBe(true);
});

it('a video Runway fails for its input shows that cause; a refused studio key stays a generic failure (issue 21)', async () => {
  const png = await solidPng(320, 180, '#3366cc');
  const failedVideo = async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ai/generate/video',
      headers: authHeader(user.token),
      payload: {
        prompt: 'a paper boat on a pond',
        model: 'runway-gen4_turbo',
        duration: 5,
        inputImage: `data:image/png;base64,${png.toString('base64')}`,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { taskId } = (res.json() as { data: TaskAccepted }).data;
    return eventually(
      async () => {
        const reply = await t.app.inject({
          method: 'POST',
          url: STATUS_PATHS.video,
          payload: { taskId },
          headers: authHeader(user.token),
        });
        const data = (reply.json() as { data: GenerationStatus }).data;
        return data.status === 'failed' ? data : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100, what: 'the failed video' },
    );
  };

  fake.script = [
    { status: 'RUNNING', progress: 0.2 },
    { status: 'FAILED', failure: 'The input image could not be read', failureCode: 'ASSET.INVALID' },
  ];
  const invalid = await failedVideo();
  expect(invalid.errorCode).toBe('vendor_rejected');
  expect(invalid.error).toBe('Runway: The input image could not be read (ASSET.INVALID)');

  fake.script = [{ status: 'SUCCEEDED', progress: 1, output: true }];
  fake.failNext = [{ status: 401, body: { error: 'Invalid API key rw-int-key' } }];
  const refused = await failedVideo();
  expect(refused).toMatchObject({ errorCode: 'generation_failed', error: MESSAGES.generation.videoFailed });
});
