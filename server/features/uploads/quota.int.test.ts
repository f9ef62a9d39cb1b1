// Issue 17: the per-user storage quota (STORAGE_QUOTA_MB) and the per-user upload rate limit.
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StorageUsage } from '../../../common/api/uploads.ts';
import { storageFullMessage } from '../../../common/rules/storage.ts';
import { mediaObjects, tasks, users } from '../../db/schema/index.ts';
import {
  authHeader,
  createTestUser,
  creditsOf,
  type FilePart,
  multipart,
  storeUpload,
  type TestUser,
  waitForTask,
} from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { realJpeg, realPng } from '../../test/security/attack-files.ts';

const MB = 1024 * 1024;
const dataUri = (mime: string, data: Buffer) => `data:${mime};base64,${data.toString('base64')}`;

/** A PNG of noise, `side` × `side`: about 3 × side² bytes, since noise does not compress. */
function noisyPng(side: number): Promise<Buffer> {
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
}

function calls(t: TestApp, token: string) {
  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, payload, headers: authHeader(token) });
  const form = (url: string, part: FilePart) => {
    const body = multipart({}, part);
    return t.app.inject({
      method: 'POST',
      url,
      payload: body.payload,
      headers: { ...body.headers, ...authHeader(token) },
    });
  };
  return {
    upload: (data: Buffer) => form('/api/upload', { filename: 'a.png', contentType: 'image/png', data }),
    avatar: (data: Buffer) =>
      form('/api/users/avatar', { name: 'avatar', filename: 'a.png', contentType: 'image/png', data }),
    base64: (data: Buffer) => post('/api/upload/base64-to-url', { base64Data: dataUri('image/png', data) }),
    temp: (data: Buffer) => post('/api/temp-upload', { videoData: dataUri('image/png', data) }),
    post,
  };
}

const uploadRoutes = ({ upload, avatar, base64, temp }: ReturnType<typeof calls>) => ({ upload, avatar, base64, temp });

async function filesUnder(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).length;
}

describe('storage quota (STORAGE_QUOTA_MB=1)', () => {
  let t: TestApp;

  /** Rows, files and avatar of a user: what a refused upload must leave as it was. */
  async function storedState(userId: string) {
    const objects = await t.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.userId, userId));
    const [row] = await t.ctx.db.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, userId));
    return {
      objects: objects.length,
      avatar: row.avatarUrl,
      files: await filesUnder(path.join(t.config.dataDir, 'media')),
    };
  }

  beforeAll(async () => {
    t = await createTestApp({ env: { STORAGE_QUOTA_MB: '1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses an upload that would pass the quota with 413, saying how much is used, and stores nothing', async () => {
    const user = await createTestUser(t.ctx.db);
    const used = Math.round(0.6 * MB);
    await storeUpload(t.ctx, user.id, randomBytes(used), 'image/png', 'png');
    const big = await noisyPng(400); // about 470 KB: 0.6 MB + 0.47 MB > 1 MB
    expect(big.length).toBeGreaterThan(0.4 * MB);
    const before = await storedState(user.id);
    const api = calls(t, user.token);
    const expected = { success: false, code: 'storage_full', error: storageFullMessage(used, MB) };
    expect(expected.error).toBe('Storage full: 0.6 MB of 1.0 MB used. Delete assets to free space.');
    for (const [route, send] of Object.entries(uploadRoutes(api))) {
      if (route === 'avatar') continue; // re-encoded to a small WebP: it would fit
      const res = await send(big);
      expect(res.statusCode, route).toBe(413);
      expect(res.json(), route).toMatchObject(expected);
    }
    expect(await storedState(user.id)).toEqual(before);
    // What still fits is stored (its thumbnail task is let finish, so later tests see a settled store).
    const small = await api.upload(await realPng());
    expect(small.statusCode).toBe(200);
    expect((await waitForTask(t.ctx.db, small.json().data.taskId)).status).toBe('completed');
  });

  it('refuses every upload route and paid generations once full, before any credit is reserved', async () => {
    const user = await createTestUser(t.ctx.db, { credits: 500 });
    await storeUpload(t.ctx, user.id, randomBytes(MB), 'image/png', 'png');
    const png = await realPng();
    const before = await storedState(user.id);
    const api = calls(t, user.token);
    const full = { success: false, code: 'storage_full', error: storageFullMessage(MB, MB) };
    expect(full.error).toBe('Storage full: 1.0 MB of 1.0 MB used. Delete assets to free space.');
    for (const [route, send] of Object.entries(uploadRoutes(api))) {
      const res = await send(png);
      expect(res.statusCode, route).toBe(413);
      expect(res.json(), route).toMatchObject(full);
    }
    const generation = await api.post('/api/ai/generate/image', { prompt: 'a calm lake at dawn', size: '256x256' });
    expect(generation.statusCode).toBe(413);
    expect(generation.json()).toMatchObject(full);
    const inline = await api.post('/api/ai/generate/image', {
      prompt: 'a calm lake at dawn',
      size: '256x256',
      referenceImages: [dataUri('image/jpeg', await realJpeg())],
    });
    expect(inline.statusCode).toBe(413);
    expect(inline.json()).toMatchObject(full);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(500);
    expect(await t.ctx.db.select().from(tasks).where(eq(tasks.userId, user.id))).toEqual([]);
    expect(await storedState(user.id)).toEqual(before);
  });

  it('GET /api/account/storage reports the bytes the user stores, thumbnails and avatar included', async () => {
    const user = await createTestUser(t.ctx.db);
    const api = calls(t, user.token);
    const uploaded = await api.upload(await noisyPng(100));
    expect(uploaded.statusCode).toBe(200);
    expect((await waitForTask(t.ctx.db, uploaded.json().data.taskId)).status).toBe('completed');
    expect((await api.base64(await realPng())).statusCode).toBe(200);
    expect((await api.avatar(await noisyPng(64))).statusCode).toBe(200);

    const res = await t.app.inject({ method: 'GET', url: '/api/account/storage', headers: authHeader(user.token) });
    expect(res.statusCode).toBe(200);
    const usage = (res.json() as { data: StorageUsage }).data;
    const objects = await t.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.userId, user.id));
    expect(objects.length).toBe(4); // the upload, its thumbnail, the base64 file, the avatar
    let storedBytes = 0;
    for (const object of objects) storedBytes += (await t.ctx.storage.head(object.key))?.size ?? 0;
    expect(usage).toEqual({ usedBytes: storedBytes, limitBytes: MB });
    expect((await t.app.inject({ method: 'GET', url: '/api/account/storage' })).statusCode).toBe(401);
  });
});

describe('upload rate limit (RATE_LIMIT_UPLOADS_PER_MINUTE=3)', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_UPLOADS_PER_MINUTE: '3' } });
    user = await createTestUser(t.ctx.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts uploads per user across every upload route; over the limit 429 with retryAfterSeconds', async () => {
    const png = await realPng();
    const api = calls(t, user.token);
    expect((await api.upload(png)).statusCode).toBe(200);
    expect((await api.base64(png)).statusCode).toBe(200);
    expect((await api.avatar(png)).statusCode).toBe(200);
    for (const send of [api.temp, api.upload, api.avatar]) {
      const res = await send(png);
      expect(res.statusCode).toBe(429);
      const body = res.json() as { success: boolean; code: string; details: { retryAfterSeconds: number } };
      expect(body).toMatchObject({ success: false, code: 'rate_limited' });
      expect(body.details.retryAfterSeconds).toBeGreaterThan(0);
      expect(body.details.retryAfterSeconds).toBeLessThanOrEqual(60);
      expect(res.headers['retry-after']).toBe(String(body.details.retryAfterSeconds));
    }
    // Another user has a limit of their own.
    const other = await createTestUser(t.ctx.db);
    expect((await calls(t, other.token).upload(png)).statusCode).toBe(200);
  });
});
