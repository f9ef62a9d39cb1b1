import type { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_PREVIEW_PRICES } from '../../../common/api/generation.constants.ts';
import type { GeneratedMedia } from '../../../common/api/generation.ts';
import { MEDIA_URL_PREFIX } from '../../../common/api/media.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { assets, creditTransactions, mediaObjects, tasks } from '../../db/schema/index.ts';
import { addCredits } from '../../platform/credits/ledger.ts';
import { type FakeS3, startFakeS3 } from '../../platform/storage/fake-s3.ts';
import { createStorage } from '../../platform/storage/index.ts';
import type { ByteRange, ObjectInfo, ObjectStorage, PutObjectOptions } from '../../platform/storage/types.ts';
import { StorageUnavailableError } from '../../platform/storage/unavailable.ts';
import {
  authHeader,
  createTestUser,
  creditsOf,
  eventually,
  multipart,
  solidPng,
  storeUpload,
  type TestUser,
  waitForTask,
} from '../fixtures.ts';
import { createTestApp, type TestApp } from '../harness.ts';

// S3 down (its server stopped: connections refused) and back on the same port. Uploads and media reads answer 503
// with Retry-After and the keyed message, charge nothing and keep nothing; a generation that meets a short outage
// waits it out and completes, charged once; one that meets a long outage fails after its retries, refunded once;
// once S3 is back everything works again.

const IMAGE_PRICE = LOCAL_PREVIEW_PRICES.image;
const START_CREDITS = 100;
const UNAVAILABLE = {
  success: false,
  code: 'storage_unavailable',
  error: MESSAGES.media.storageUnavailable,
  messageKey: 'media.storageUnavailable',
};

/** The studio's S3 storage, counting the writes that met an outage (so the test knows a task is waiting one out). */
class ObservedStorage implements ObjectStorage {
  readonly kind = 's3' as const;
  outages = 0;
  constructor(private readonly inner: ObjectStorage) {}

  async put(key: string, body: Buffer | Readable, options: PutObjectOptions): Promise<ObjectInfo> {
    try {
      return await this.inner.put(key, body, options);
    } catch (error) {
      if (error instanceof StorageUnavailableError) this.outages++;
      throw error;
    }
  }
  head(key: string) {
    return this.inner.head(key);
  }
  read(key: string, range?: ByteRange) {
    return this.inner.read(key, range);
  }
  delete(key: string) {
    return this.inner.delete(key);
  }
  ping() {
    return this.inner.ping();
  }
  localPath(key: string) {
    return this.inner.localPath(key);
  }
}

let fake: FakeS3;
let storage: ObservedStorage;
let t: TestApp;
let user: TestUser;
let png: Buffer;
let stored: { key: string; url: string };

beforeAll(async () => {
  fake = await startFakeS3('genpro-outage');
  t = await createTestApp({
    env: {
      S3_BUCKET: fake.bucket,
      S3_ENDPOINT: fake.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'AKIDTEST',
      S3_SECRET_ACCESS_KEY: 'secret',
    },
    storage: (config) => {
      storage = new ObservedStorage(createStorage(config));
      return storage;
    },
  });
  user = await createTestUser(t.ctx.db);
  await addCredits(t.ctx.db, { userId: user.id, amount: START_CREDITS, source: 'admin', description: 'test grant' });
  png = await solidPng(48, 48, '#3366cc');
  stored = await storeUpload(t.ctx, user.id, png, 'image/png', 'png');
});

afterAll(async () => {
  await fake?.up();
  await t?.close();
  await fake?.close();
});

async function mediaRowsOfUser(): Promise<string[]> {
  const rows = await t.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.userId, user.id));
  return rows.map((r) => r.key).sort();
}

const storedKeys = () => [...fake.objects.keys()].sort();

function generate(prompt: string, extra: Record<string, unknown> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/ai/generate/image',
    headers: authHeader(user.token),
    payload: { prompt, size: '256x256', variations: 1, ...extra },
  });
}

function upload() {
  const body = multipart({ type: 'ai-asset' }, { filename: 'a.png', contentType: 'image/png', data: png });
  return t.app.inject({
    method: 'POST',
    url: '/api/upload',
    payload: body.payload,
    headers: { ...body.headers, ...authHeader(user.token) },
  });
}

function expectUnavailable(res: Awaited<ReturnType<typeof upload>>, what: string): void {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(503);
  expect(res.headers['retry-after'], what).toBe('5');
  expect(res.headers['cache-control'], what).toBe('no-store');
  expect(res.json(), what).toEqual(UNAVAILABLE);
  expect(res.body, what).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack/);
}

describe('media storage (S3) down and back', () => {
  it('uploads and media reads answer 503 with Retry-After and the message; nothing is charged or kept', async () => {
    const keysBefore = storedKeys();
    const rowsBefore = await mediaRowsOfUser();
    const balanceBefore = await creditsOf(t.ctx.db, user.id);
    await fake.down();
    try {
      expectUnavailable(await upload(), 'POST /api/upload');
      expectUnavailable(
        await t.app.inject({
          method: 'POST',
          url: '/api/upload/base64-to-url',
          headers: authHeader(user.token),
          payload: { base64Data: `data:image/png;base64,${png.toString('base64')}` },
        }),
        'POST /api/upload/base64-to-url',
      );
      const avatar = multipart({}, { filename: 'me.png', contentType: 'image/png', data: png });
      expectUnavailable(
        await t.app.inject({
          method: 'POST',
          url: '/api/users/avatar',
          payload: avatar.payload,
          headers: { ...avatar.headers, ...authHeader(user.token) },
        }),
        'POST /api/users/avatar',
      );
      // A generation whose reference must be stored first: refused before anything is reserved.
      expectUnavailable(
        await generate('a reference that cannot be stored', {
          referenceImages: [`data:image/png;base64,${png.toString('base64')}`],
        }),
        'POST /api/ai/generate/image with a data: reference',
      );

      // Every media route, ranges too; the answer is not cached as the file.
      for (const prefix of Object.values(MEDIA_URL_PREFIX)) {
        const res = await t.app.inject({
          method: 'GET',
          url: `${prefix}${stored.key}`,
          headers: authHeader(user.token),
        });
        expectUnavailable(res, `GET ${prefix}`);
        expect(res.headers.etag).toBeUndefined();
      }
      expectUnavailable(
        await t.app.inject({
          method: 'GET',
          url: stored.url,
          headers: { ...authHeader(user.token), range: 'bytes=0-9' },
        }),
        'GET with Range',
      );

      // The process stays ready (its database answers): a load balancer keeps it; the detailed report names storage.
      expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toMatchObject({ storage: 'down' });
    } finally {
      await fake.up();
    }
    expect(await creditsOf(t.ctx.db, user.id)).toBe(balanceBefore);
    expect(await mediaRowsOfUser()).toEqual(rowsBefore);
    expect(storedKeys()).toEqual(keysBefore);

    // Back: both work again.
    const res = await upload();
    expect(res.statusCode, res.body).toBe(200);
    const file = await t.app.inject({ method: 'GET', url: res.json().data.url, headers: authHeader(user.token) });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(png)).toBe(true);
    const old = await t.app.inject({ method: 'GET', url: stored.url, headers: authHeader(user.token) });
    expect(old.statusCode).toBe(200);
  });

  it('a generation that meets a short outage waits it out and completes, charged once', async () => {
    const balanceBefore = await creditsOf(t.ctx.db, user.id);
    const outagesBefore = storage.outages;
    await fake.down();
    const pending = generate('a lighthouse through a short outage');
    try {
      await eventually(async () => storage.outages > outagesBefore, {
        timeoutMs: 60_000,
        what: 'the task to meet the outage',
      });
    } finally {
      await fake.up();
    }
    const res = await pending;
    expect(res.statusCode, res.body).toBe(200);
    const [media] = res.json().data as GeneratedMedia[];
    const taskId = media.metadata.taskId as string;
    const [task] = await t.ctx.db.select().from(tasks).where(eq(tasks.id, taskId));
    expect(task).toMatchObject({ status: 'completed', attempts: 1 });
    const ledger = await t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.taskId, taskId));
    expect(ledger.map((r) => `${r.type}:${r.source}:${r.amount}`)).toEqual([`deduction:generation:${IMAGE_PRICE}`]);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(balanceBefore - IMAGE_PRICE);
    const file = await t.app.inject({ method: 'GET', url: media.url, headers: authHeader(user.token) });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
  });

  it('a generation that meets a long outage fails after its retries, refunded once, leaving nothing', {
    timeout: 180_000,
  }, async () => {
    const balanceBefore = await creditsOf(t.ctx.db, user.id);
    const keysBefore = storedKeys();
    const rowsBefore = await mediaRowsOfUser();
    await fake.down();
    let taskId: string;
    try {
      // The route waits ~20 s, less than the task's tries: it answers with the task to follow.
      const res = await generate('a lighthouse through a long outage');
      expect(res.statusCode, res.body).toBeLessThan(600);
      const body = res.json();
      taskId = body.data?.taskId ?? body.details?.taskId;
      expect(taskId, res.body).toBeTruthy();
      const task = await waitForTask(t.ctx.db, taskId, { timeoutMs: 150_000, intervalMs: 250 });
      // Both attempts (retryLimit 1) waited the outage out for a while before giving up.
      expect(task).toMatchObject({ status: 'failed', attempts: 2 });
      expect(storage.outages).toBeGreaterThanOrEqual(2);
    } finally {
      await fake.up();
    }
    const status = await t.app.inject({
      method: 'POST',
      url: '/api/ai/status',
      headers: authHeader(user.token),
      payload: { taskId },
    });
    expect(status.json()).toMatchObject({ status: 'failed', url: null, error: MESSAGES.generation.imageFailed });
    const ledger = await t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.taskId, taskId));
    expect(ledger.map((r) => `${r.type}:${r.source}:${r.amount}`).sort()).toEqual([
      `addition:refund:${IMAGE_PRICE}`,
      `deduction:generation:${IMAGE_PRICE}`,
    ]);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(balanceBefore);
    expect(await t.ctx.db.select().from(assets).where(eq(assets.taskId, taskId))).toHaveLength(0);
    expect(await mediaRowsOfUser()).toEqual(rowsBefore);
    expect(storedKeys()).toEqual(keysBefore);

    // Back: the next generation completes and is charged.
    const again = await generate('a lighthouse after the outage');
    expect(again.statusCode, again.body).toBe(200);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(balanceBefore - IMAGE_PRICE);
  });
});
