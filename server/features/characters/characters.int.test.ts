import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHARACTER_MESSAGES, type Character, type CharacterGenerateReply } from '../../../common/api/characters.ts';
import { tasks } from '../../db/schema/index.ts';
import {
  authHeader,
  createTestUser,
  creditsOf,
  solidPng,
  storeUpload,
  type TestUser,
  waitForTask,
} from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let user: TestUser;
let other: TestUser;
let broke: TestUser;
let png: Buffer;

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: object) {
  return t.app.inject({ method, url, payload, headers: token ? authHeader(token) : {} });
}

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db, { credits: 500 });
  other = await createTestUser(t.ctx.db, { credits: 500 });
  broke = await createTestUser(t.ctx.db, { credits: 0 });
  png = await solidPng(256, 256, '#3366cc');
});
afterAll(async () => {
  await t?.close();
});

describe('characters CRUD', () => {
  it('creates, lists, updates and deletes a character of the user', async () => {
    const image = await storeUpload(t.ctx, user.id, png, 'image/png', 'png');
    const created = await call('POST', '/api/characters', user.token, {
      name: '  Mira ',
      description: 'A pilot with short red hair',
      personality: 'brave',
      images: [image.url],
    });
    expect(created.statusCode, created.body).toBe(200);
    const mira = (created.json() as { data: Character }).data;
    expect(mira).toMatchObject({ name: 'Mira', imageUrl: image.url, images: [image.url], style: null });

    const list = await call('GET', '/api/characters', user.token);
    expect((list.json() as { data: Character[] }).data.map((c) => c.id)).toEqual([mira.id]);
    expect((await call('GET', '/api/characters', other.token)).json()).toMatchObject({ data: [] });

    const updated = await call('PUT', `/api/characters/${mira.id}`, user.token, {
      name: 'Mira Vale',
      backstory: 'Grew up on a ship',
      imageUrl: image.url,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({
      data: { name: 'Mira Vale', backstory: 'Grew up on a ship', description: null },
    });

    expect(
      (await call('PUT', `/api/characters/${mira.id}`, other.token, { name: 'X', images: [image.url] })).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/api/characters/${mira.id}`, other.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/characters/not-a-uuid`, user.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/characters/${mira.id}`, user.token)).statusCode).toBe(200);
    expect((await call('GET', '/api/characters', user.token)).json()).toMatchObject({ data: [] });
  });

  it('refuses a missing name or image, and images that are not the user’s own', async () => {
    const mine = await storeUpload(t.ctx, user.id, png, 'image/png', 'png');
    const theirs = await storeUpload(t.ctx, other.id, png, 'image/png', 'png');
    const noName = await call('POST', '/api/characters', user.token, { name: ' ', images: [mine.url] });
    expect(noName.statusCode).toBe(400);
    expect(noName.json()).toMatchObject({
      success: false,
      error: expect.stringContaining(CHARACTER_MESSAGES.nameRequired),
    });
    const noImage = await call('POST', '/api/characters', user.token, { name: 'Ben' });
    expect(noImage.statusCode).toBe(400);
    expect(noImage.json()).toMatchObject({ error: CHARACTER_MESSAGES.imageRequired });
    for (const url of [theirs.url, 'https://cdn.example.org/a.png']) {
      const res = await call('POST', '/api/characters', user.token, { name: 'Ben', images: [url] });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: CHARACTER_MESSAGES.imageNotOwn });
    }
  });

  it('answers 401 without a session', async () => {
    expect((await call('GET', '/api/characters')).statusCode).toBe(401);
    expect((await call('POST', '/api/characters', undefined, { name: 'A' })).statusCode).toBe(401);
    expect((await call('POST', '/api/ai/generate', undefined, { prompt: 'x' })).statusCode).toBe(401);
  });
});

describe('POST /api/ai/generate', () => {
  it('generates an image with a saved character; the asset exists and decodes at the aspect ratio', async () => {
    const image = await storeUpload(t.ctx, user.id, png, 'image/png', 'png');
    const created = await call('POST', '/api/characters', user.token, { name: 'Ada', images: [image.url] });
    const ada = (created.json() as { data: Character }).data;
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await call('POST', '/api/ai/generate', user.token, {
      service: 'stability',
      type: 'text-to-image',
      prompt: 'Ada reading a map in a library',
      scenario: 'a rainy evening',
      characterIds: [ada.id],
      aspectRatio: '16:9',
      style: 'consistent',
      numImages: 1,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as CharacterGenerateReply;
    expect(body.data).toMatchObject({ type: 'image', status: 'completed' });
    expect(body.data.url).toBeTruthy();
    expect(body.data.media[0].metadata).toMatchObject({ referenceCount: 1 });
    const file = await call('GET', body.data.url!, user.token);
    expect(file.statusCode).toBe(200);
    const meta = await sharp(file.rawPayload).metadata();
    expect(meta.width! / meta.height!).toBeCloseTo(16 / 9, 1);
    const asset = await call('GET', `/api/ai/assets/${body.data.media[0].id}`, user.token);
    expect(asset.statusCode).toBe(200);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - body.creditsUsed);
  });

  it('needs a prompt and a character; 402 when broke with nothing spent or queued', async () => {
    const none = await call('POST', '/api/ai/generate', user.token, { prompt: 'a scene' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ error: CHARACTER_MESSAGES.promptAndCharacter });
    const image = await storeUpload(t.ctx, broke.id, png, 'image/png', 'png');
    const res = await call('POST', '/api/ai/generate', broke.token, {
      type: 'text-to-image',
      prompt: 'a portrait',
      characterImages: [image.url],
    });
    expect(res.statusCode).toBe(402);
    expect(await creditsOf(t.ctx.db, broke.id)).toBe(0);
    expect(await t.ctx.db.select().from(tasks).where(eq(tasks.userId, broke.id))).toHaveLength(0);
    const theirs = await call('POST', '/api/ai/generate', user.token, {
      prompt: 'a scene',
      characterIds: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(theirs.statusCode).toBe(404);
  });

  // The video renders on the local engine while the test waits (up to a minute on a busy machine).
  it('starts a video as a task with the character image', { timeout: 90_000 }, async () => {
    const image = await storeUpload(t.ctx, user.id, png, 'image/png', 'png');
    const res = await call('POST', '/api/ai/generate', user.token, {
      type: 'text-to-video',
      prompt: 'the character walks through a market',
      characterImages: [image.url],
      aspectRatio: '9:16',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as CharacterGenerateReply;
    expect(body.data).toMatchObject({ type: 'video', status: 'processing', url: null });
    expect(body.data.taskId).toBeTruthy();
    const task = await waitForTask(t.ctx.db, body.data.taskId, { timeoutMs: 60_000 });
    expect(task.status).toBe('completed');
  });
});
