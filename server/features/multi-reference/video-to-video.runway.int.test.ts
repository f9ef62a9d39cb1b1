import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FakeRunway, startFakeRunway } from '../../engines/runway/fake-runway.ts';
import {
  authHeader,
  createTestUser,
  makeTestClip,
  solidPng,
  storeUpload,
  type TestUser,
  waitForTask,
} from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

// With RUNWAY_API_KEY set, multi-reference video-to-video reaches Runway's aleph2 (the spec's runway-gen4_aleph) in its shape:
// the video as videoUri, the heaviest image as the one reference, the ratio from the aspect.

let t: TestApp;
let fake: FakeRunway;
let user: TestUser;
let dir: string;
let clipUrl: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mr-runway-'));
  const clip = await makeTestClip({ FFMPEG_PATH: undefined, FFPROBE_PATH: undefined }, dir, {
    seconds: 1,
    width: 320,
    height: 180,
    fps: 12,
  });
  fake = await startFakeRunway({ apiKey: 'rw-mr-key', video: clip });
  t = await createTestApp({ env: { RUNWAY_API_KEY: 'rw-mr-key', RUNWAY_API_BASE: fake.url } });
  user = await createTestUser(t.ctx.db, { credits: 500 });
  clipUrl = (await storeUpload(t.ctx, user.id, clip, 'video/mp4', 'mp4')).url;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('sends /v1/video_to_video with aleph2, the video and the heaviest image as its opening keyframe', async () => {
  const dataUri = async (colour: string) =>
    `data:image/png;base64,${(await solidPng(64, 64, colour)).toString('base64')}`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ai/generate/multi-reference',
    headers: authHeader(user.token),
    payload: {
      type: 'video-to-video',
      prompt: 'make it look like a red poster',
      referenceImages: [
        { url: await dataUri('#2030e0'), weight: 0.2, type: 'style', mediaType: 'image' },
        { url: clipUrl, weight: 0.5, type: 'composition', mediaType: 'video' },
        { url: await dataUri('#e02020'), weight: 0.9, type: 'color', mediaType: 'image' },
      ],
      aspectRatio: '16:9',
      quality: 'standard',
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { data } = res.json();
  const task = await waitForTask(t.ctx.db, data.taskId, { timeoutMs: 60_000 });
  expect(task.status).toBe('completed');
  const call = fake.requests.find((r) => r.path === '/v1/video_to_video');
  expect(call).toBeDefined();
  // Runway replaced gen4_aleph with aleph2, which keeps the input video's frame and takes an image as a
  // guidance keyframe at the start (it has no `references`).
  const body = call?.body as { model: string; videoUri: string; keyframes: Array<{ at: number; uri: string }> };
  expect(body.model).toBe('aleph2');
  expect(body.videoUri).toMatch(/^data:video\/mp4;base64,/);
  expect(body.keyframes).toHaveLength(1);
  expect(body.keyframes[0].at).toBe(0);
  const ref = Buffer.from(body.keyframes[0].uri.split(',')[1] ?? '', 'base64');
  const { channels } = await sharp(ref).stats();
  expect(channels[0].mean).toBeGreaterThan(200); // the red one (weight 0.9), not the blue one
  expect(
    (task.result as { assets: Array<{ type: string; metadata: Record<string, unknown> }> }).assets[0],
  ).toMatchObject({
    type: 'video',
    metadata: { engine: 'runway' },
  });
});
