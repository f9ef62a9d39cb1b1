import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset } from '../../../common/api/assets.ts';
import type { GeneratedMedia, GenerationStatus, TaskAccepted } from '../../../common/api/generation.ts';
import { STATUS_PATHS } from '../../features/generation/status.ts';
import { authHeader, createTestUser, creditsOf, eventually, makeTestClip, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { testToolConfig } from '../test-media.ts';
import { FakeGemini } from './fake-gemini.ts';

const KEY = 'int-gemini-key';
let t: TestApp;
let fake: FakeGemini;
let user: TestUser;
let workDir: string;
let clip: Buffer;

function post(url: string, payload: object) {
  return t.app.inject({ method: 'POST', url, payload, headers: authHeader(user.token) });
}
function get(url: string) {
  return t.app.inject({ method: 'GET', url, headers: authHeader(user.token) });
}

async function finalStatus(taskId: string): Promise<GenerationStatus> {
  let last: GenerationStatus | undefined;
  await eventually(
    async () => {
      const res = await post(STATUS_PATHS.veo, { taskId });
      last = (res.json() as { data: GenerationStatus }).data;
      return last.status !== 'processing';
    },
    { timeoutMs: 60_000, intervalMs: 50, what: `task ${taskId}` },
  );
  return last!;
}

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-gemini-int-'));
  clip = await makeTestClip(testToolConfig, workDir, { seconds: 2, width: 320, height: 180, fps: 12 });
  fake = await new FakeGemini({ apiKey: KEY, video: clip }).start();
  t = await createTestApp({
    env: { GEMINI_API_KEY: KEY, GEMINI_API_BASE: fake.base, GEMINI_POLL_INTERVAL_MS: '20' },
  });
  user = await createTestUser(t.ctx.db, { credits: 2000 });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('generation through the Gemini fake', () => {
  it('POST /api/ai/generate/image with nanobana stores the Nano Banana picture as an asset made by gemini', async () => {
    const res = await post('/api/ai/generate/image', {
      prompt: 'a fox in the snow',
      model: 'nanobana',
      size: '512x288',
      variations: 1,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [item] = (res.json() as { data: GeneratedMedia[] }).data;
    expect(item.metadata).toMatchObject({ engine: 'gemini', model: 'nanobana' });
    expect(fake.requests.some((r) => r.path === '/v1beta/models/gemini-2.5-flash-image:generateContent')).toBe(true);
    const file = await get(item.url);
    const meta = await sharp(file.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([512, 288]);
    const asset = (await get(`/api/ai/assets/${item.id}`)).json() as { data: Asset };
    expect(asset.data).toMatchObject({ status: 'completed', model: 'nanobana' });
    expect(asset.data.metadata).toMatchObject({ engine: 'gemini' });
  });

  it('POST /api/ai/generate/video with veo-3 runs the operation and stores the downloaded clip', async () => {
    const res = await post('/api/ai/generate/video', { prompt: 'a harbour at dawn', model: 'veo-3', duration: 8 });
    expect(res.statusCode, res.body).toBe(200);
    const accepted = (res.json() as { data: TaskAccepted }).data;
    const done = await finalStatus(accepted.taskId);
    expect(done).toMatchObject({ status: 'completed', progress: 100 });
    const file = await get(done.url!);
    expect(Buffer.from(file.rawPayload).equals(clip)).toBe(true);
    const asset = (await get(`/api/ai/assets/${done.assetId}`)).json() as { data: Asset };
    expect(asset.data.metadata).toMatchObject({ engine: 'gemini', vendorModel: 'veo-3.0-generate-001' });
  });

  it('a Veo safety block fails the task as content filtered and refunds it', async () => {
    fake.operationOutcome = { kind: 'filtered', reasons: ['Unsafe content detected.'] };
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await post('/api/ai/generate/video', {
      prompt: 'a quiet street',
      model: 'veo-3.0-generate-001',
      duration: 8,
    });
    expect(res.statusCode, res.body).toBe(200);
    const accepted = (res.json() as { data: TaskAccepted }).data;
    const done = await finalStatus(accepted.taskId);
    expect(done).toMatchObject({ status: 'failed', errorCode: 'content_filtered' });
    await eventually(async () => (await creditsOf(t.ctx.db, user.id)) === before, { what: 'the refund' });
  });
});
