import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Asset } from '../../../common/api/assets.ts';
import type { GeneratedMedia } from '../../../common/api/generation.ts';
import { authHeader, createTestUser, makeTestClip, solidPng, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { type FakeArk, startFakeArk } from './fake-ark.ts';

let t: TestApp;
let fake: FakeArk;
let user: TestUser;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'ark-int-'));
  const clip = await makeTestClip({ FFMPEG_PATH: undefined, FFPROBE_PATH: undefined }, dir, {
    seconds: 1,
    width: 320,
    height: 180,
    fps: 12,
  });
  fake = await startFakeArk({ apiKey: 'ark-int-key', image: await solidPng(1280, 720, '#2255cc'), video: clip });
  t = await createTestApp({ env: { BYTEPLUS_API_KEY: 'ark-int-key', BYTEPLUS_API_BASE: fake.url } });
  user = await createTestUser(t.ctx.db, { credits: 500 });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('generates a seedream4 image through the HTTP route into a stored asset made by BytePlus', async () => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ai/generate/image',
    headers: authHeader(user.token),
    payload: { prompt: 'a blue harbour at noon', model: 'seedream4', size: '512x288', variations: 1, seed: 5 },
  });
  expect(res.statusCode, res.body).toBe(200);
  const item = (res.json() as { data: GeneratedMedia[] }).data[0];
  expect(fake.requests[0]).toMatchObject({
    path: '/api/v3/images/generations',
    body: { model: 'seedream-4-0-250828' },
  });
  expect(fake.downloads).toHaveLength(1);
  expect(item.metadata).toMatchObject({ engine: 'byteplus', model: 'seedream4' });
  const file = await t.app.inject({ method: 'GET', url: item.url, headers: authHeader(user.token) });
  const meta = await sharp(file.rawPayload).metadata();
  expect([meta.width, meta.height]).toEqual([512, 288]);
  const asset = (
    await t.app.inject({ method: 'GET', url: `/api/ai/assets/${item.id}`, headers: authHeader(user.token) })
  ).json() as { data: Asset };
  expect(asset.data).toMatchObject({ type: 'image', status: 'completed', model: 'seedream4' });
  expect(asset.data.metadata).toMatchObject({ engine: 'byteplus', vendorModel: 'seedream-4-0-250828' });
});
