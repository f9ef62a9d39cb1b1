import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { EnhanceQueuedReply } from '../../../common/api/upscale.ts';
import {
  authHeader,
  createTestUser,
  makeTestClip,
  storeUpload,
  type TestUser,
  waitForTask,
} from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { FAKE_TOPAZ_KEY, type FakeTopaz, startFakeTopaz } from './fake-topaz.ts';

let fake: FakeTopaz;
let t: TestApp;
let user: TestUser;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'topaz-int-'));
  fake = await startFakeTopaz({}, { walk: false });
  t = await createTestApp({ env: { TOPAZ_API_KEY: FAKE_TOPAZ_KEY, TOPAZ_API_BASE: fake.url } });
  user = await createTestUser(t.ctx.db, { credits: 200 });
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
});

it('enhances a video through POST /api/topaz/enhance with Topaz configured: the stored asset names topaz', async () => {
  const clip = await makeTestClip(t.config, dir, { seconds: 1, width: 320, height: 180, fps: 24 });
  const stored = await storeUpload(t.ctx, user.id, clip, 'video/mp4', 'mp4');
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/topaz/enhance',
    headers: authHeader(user.token),
    payload: { videoUrl: stored.url, model: 'proteus', options: { scale: 2, quality: 'high', option: 'prob-4' } },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { requestId } = res.json() as EnhanceQueuedReply;
  const task = await waitForTask(t.ctx.db, requestId, { timeoutMs: 60_000, intervalMs: 200 });
  expect(task.status, JSON.stringify(task.error)).toBe('completed');
  expect(fake.jobs).toHaveLength(1);

  const { asset_id } = task.result as { asset_id: string };
  const assetRes = await t.app.inject({
    method: 'GET',
    url: `/api/ai/assets/${asset_id}`,
    headers: authHeader(user.token),
  });
  const asset = (assetRes.json() as { data: { url: string; metadata: Record<string, unknown> } }).data;
  expect(asset.metadata.enhancement).toMatchObject({
    model: 'proteus',
    width: 640,
    height: 360,
    engine: { engine: 'topaz', model: 'proteus', requestId: fake.jobs[0]?.id },
  });
});
