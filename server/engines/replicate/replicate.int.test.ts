import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { EnhanceQueuedReply } from '../../../common/api/upscale.ts';
import { authHeader, createTestUser, solidPng, storeUpload, type TestUser, waitForTask } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { FAKE_REPLICATE_TOKEN, type FakeReplicate, startFakeReplicate } from './fake-replicate.ts';

let fake: FakeReplicate;
let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  fake = await startFakeReplicate();
  t = await createTestApp({ env: { REPLICATE_API_TOKEN: FAKE_REPLICATE_TOKEN, REPLICATE_API_BASE: fake.url } });
  user = await createTestUser(t.ctx.db, { credits: 100 });
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

it('upscales through the route with Replicate configured: the stored asset names replicate as its engine', async () => {
  const png = await solidPng(640, 360, '#228844');
  const stored = await storeUpload(t.ctx, user.id, png, 'image/png', 'png');
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/proxy/enhancor/image-upscaler/queue',
    headers: authHeader(user.token),
    payload: { img_url: stored.url },
  });
  expect(res.statusCode).toBe(200);
  const { requestId } = res.json() as EnhanceQueuedReply;
  const task = await waitForTask(t.ctx.db, requestId, { timeoutMs: 60_000, intervalMs: 200 });
  expect(task.status, JSON.stringify(task.error)).toBe('completed');
  expect(fake.created).toHaveLength(1);

  const { asset_id } = task.result as { asset_id: string };
  const assetRes = await t.app.inject({
    method: 'GET',
    url: `/api/ai/assets/${asset_id}`,
    headers: authHeader(user.token),
  });
  const asset = (assetRes.json() as { data: { url: string; metadata: Record<string, unknown> } }).data;
  expect(asset.metadata.enhancement).toMatchObject({
    service: 'image-upscaler',
    width: 3840,
    height: 2160,
    engine: { engine: 'replicate', model: 'image-upscaler' },
  });
  const file = await t.app.inject({ method: 'GET', url: asset.url, headers: authHeader(user.token) });
  expect(await sharp(file.rawPayload).metadata()).toMatchObject({ width: 3840, height: 2160 });
});
