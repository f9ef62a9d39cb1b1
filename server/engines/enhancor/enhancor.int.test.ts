import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { EnhanceQueuedReply } from '../../../common/api/upscale.ts';
import { authHeader, createTestUser, solidPng, storeUpload, type TestUser, waitForTask } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { FAKE_ENHANCOR_KEY, type FakeEnhancor, startFakeEnhancor } from './fake-enhancor.ts';

let fake: FakeEnhancor;
let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  fake = await startFakeEnhancor({ walk: false });
  t = await createTestApp({ env: { ENHANCOR_API_KEY: FAKE_ENHANCOR_KEY, ENHANCOR_BASE_URL: fake.url } });
  user = await createTestUser(t.ctx.db, { credits: 100 });
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

it('enhances through the route with Enhancor configured: the stored asset names enhancor as its engine', async () => {
  const png = await solidPng(640, 360, '#884422');
  const stored = await storeUpload(t.ctx, user.id, png, 'image/png', 'png');
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/proxy/enhancor/realistic-skin/queue',
    headers: authHeader(user.token),
    payload: { img_url: stored.url },
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
    service: 'realistic-skin',
    width: 3840,
    height: 2160,
    engine: { engine: 'enhancor', model: 'realistic-skin', requestId: fake.jobs[0]?.id },
  });
  const file = await t.app.inject({ method: 'GET', url: asset.url, headers: authHeader(user.token) });
  expect(await sharp(file.rawPayload).metadata()).toMatchObject({ width: 3840, height: 2160 });
});
