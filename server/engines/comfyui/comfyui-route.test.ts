// A generation through POST /api/ai/generate/image with ComfyUI (the fake) serving `stability`.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Asset } from '../../../common/api/assets.ts';
import type { GeneratedMedia } from '../../../common/api/generation.ts';
import { authHeader, createTestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { type FakeComfyUi, startFakeComfyUi } from './fake-comfyui.ts';

let fake: FakeComfyUi;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeComfyUi();
  fake.pendingPolls = 1;
  t = await createTestApp({ env: { COMFYUI_URL: fake.url, COMFYUI_MODELS: 'stability' } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

it('stores the image ComfyUI made as an asset that names the engine', async () => {
  const user = await createTestUser(t.ctx.db, { credits: 100 });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ai/generate/image',
    headers: authHeader(user.token),
    payload: {
      prompt: 'a lighthouse on a cliff at sunset',
      model: 'stability',
      size: '1024x1024',
      seed: 9,
      variations: 1,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const [item] = (res.json() as { data: GeneratedMedia[] }).data;
  expect(item.metadata).toMatchObject({ engine: 'comfyui' });
  expect(fake.prompts).toHaveLength(1);
  const file = await t.app.inject({ method: 'GET', url: item.url, headers: authHeader(user.token) });
  expect(file.statusCode).toBe(200);
  const asset = (
    await t.app.inject({ method: 'GET', url: `/api/ai/assets/${item.id}`, headers: authHeader(user.token) })
  ).json() as {
    data: Asset;
  };
  expect(asset.data).toMatchObject({ type: 'image', status: 'completed', model: 'stability' });
  expect(asset.data.metadata.engine).toBe('comfyui');
});
