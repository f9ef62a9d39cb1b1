import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_PREVIEW_PRICES } from '../../../common/api/generation.constants.ts';
import type { GeneratedMedia } from '../../../common/api/generation.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { assets, creditTransactions, mediaObjects, tasks } from '../../db/schema/index.ts';
import { createAsset } from '../../features/assets/service.ts';
import { addCredits } from '../../platform/credits/ledger.ts';
import { type FakeS3, startFakeS3 } from '../../platform/storage/fake-s3.ts';
import { LocalStorage } from '../../platform/storage/local.ts';
import {
  authHeader,
  createTestUser,
  creditsOf,
  solidPng,
  storeUpload,
  type TestUser,
  waitForTask,
} from '../fixtures.ts';
import { createTestApp, type TestApp } from '../harness.ts';
import { FullableDisk } from './storage-full-disk.ts';

// Storage that fails while a generation saves its output: a full local disk (ENOSPC) and S3 refusing
// PutObject. The task must fail with the studio's message, refund once, leave no asset, media row or
// stored object behind, and the studio must work again once the fault clears. S3 answering 5xx is an
// outage, not a refusal: the task waits it out and retries (storage-outage.int.test.ts; here, one
// InternalError is retried and the task completes, charged once).

// The images are made by the local engine, so they are charged its preview price for one image.
const IMAGE_PRICE = LOCAL_PREVIEW_PRICES.image;
const START_CREDITS = 100;

interface Backend {
  name: string;
  setup(): Promise<TestApp>;
  /** What goes wrong while the fault is on. */
  fault: string;
  fail(): void;
  /** No write at all succeeds. */
  failEverything(): void;
  /** Only thumbnails cannot be written (the outputs before them can); local disk only, to keep S3 runs short. */
  failThumbnails?(): void;
  heal(): void;
  /** What an upload answers while no write succeeds. */
  uploadRefused: { status: number; code: string; error: string; messageKey: string };
  /** One write fails as an outage would and the next succeeds (S3 only: a local disk has no such answer). */
  failOnceAsOutage?(): void;
  /** Every stored object key. */
  storedKeys(): Promise<string[]>;
  teardown(): Promise<void>;
}

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

function localBackend(): Backend {
  let disk: FullableDisk | undefined;
  let t: TestApp | undefined;
  return {
    name: 'local disk full (ENOSPC)',
    async setup() {
      t = await createTestApp({
        storage: (config) => {
          disk = new FullableDisk(new LocalStorage(path.join(config.dataDir, 'media')));
          return disk;
        },
      });
      return t;
    },
    fault: 'no output can be written',
    fail: () => disk?.fill(/^(generated|thumbnail)\//),
    failThumbnails: () => disk?.fill(/^thumbnail\//),
    failEverything: () => disk?.fill(/./),
    heal: () => disk?.fill(null),
    // A full disk is not an outage: waiting frees no space.
    uploadRefused: { status: 500, code: 'internal', error: MESSAGES.generic.internal, messageKey: 'generic.internal' },
    // Sidecars (.meta) count too: a half-written object leaves one behind.
    storedKeys: async () => (disk ? filesUnder(disk.disk.root) : []),
    teardown: async () => t?.close(),
  };
}

function s3Backend(): Backend {
  let fake: FakeS3 | undefined;
  let t: TestApp | undefined;
  return {
    name: 'S3 PutObject errors',
    async setup() {
      fake = await startFakeS3('genpro-faults');
      t = await createTestApp({
        env: {
          S3_BUCKET: fake.bucket,
          S3_ENDPOINT: fake.endpoint,
          S3_FORCE_PATH_STYLE: 'true',
          S3_ACCESS_KEY_ID: 'AKIDTEST',
          S3_SECRET_ACCESS_KEY: 'secret',
        },
      });
      return t;
    },
    // The output is stored, then S3 stores its thumbnail but refuses it (the write landed, its answer
    // said no): both objects must go.
    fault: 'the thumbnail PUT answers 403 AccessDenied after S3 stored it',
    fail: () => fake?.failPuts({ status: 403, code: 'AccessDenied', keys: /^thumbnail\//, storeAnyway: true }),
    // 500 InternalError is S3's "try again": an outage.
    failEverything: () => fake?.failPuts({ status: 500, code: 'InternalError' }),
    heal: () => fake?.failPuts(null),
    uploadRefused: {
      status: 503,
      code: 'storage_unavailable',
      error: MESSAGES.media.storageUnavailable,
      messageKey: 'media.storageUnavailable',
    },
    // The write landed but its answer was lost (500): tried again, the same key is written once more.
    failOnceAsOutage: () =>
      fake?.failPuts({ status: 500, code: 'InternalError', keys: /^thumbnail\//, storeAnyway: true, count: 1 }),
    storedKeys: async () => [...(fake?.objects.keys() ?? [])].sort(),
    teardown: async () => {
      await t?.close();
      await fake?.close();
    },
  };
}

for (const backend of [localBackend(), s3Backend()]) {
  describe(`saving a task's output when storage fails: ${backend.name}`, () => {
    let t: TestApp;
    let user: TestUser;

    beforeAll(async () => {
      t = await backend.setup();
      user = await createTestUser(t.ctx.db);
      await addCredits(t.ctx.db, {
        userId: user.id,
        amount: START_CREDITS,
        source: 'admin',
        description: 'test grant',
      });
    });
    afterAll(async () => {
      backend.heal();
      await backend.teardown();
    });

    function generate(prompt: string) {
      return t.app.inject({
        method: 'POST',
        url: '/api/ai/generate/image',
        headers: authHeader(user.token),
        payload: { prompt, size: '256x256', variations: 1 },
      });
    }

    async function mediaRowsOfUser(): Promise<string[]> {
      const rows = await t.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.userId, user.id));
      return rows.map((r) => r.key).sort();
    }

    async function ledgerOf(userId: string) {
      return t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.userId, userId));
    }

    async function expectBalanceIsLedgerSum(): Promise<number> {
      const rows = await ledgerOf(user.id);
      const sum = rows.reduce((n, r) => n + (r.type === 'addition' ? r.amount : -r.amount), 0);
      const balance = await creditsOf(t.ctx.db, user.id);
      expect(balance).toBe(sum);
      return balance;
    }

    /** Runs one generation against the fault and checks it failed cleanly. */
    async function expectCleanFailure(prompt: string): Promise<void> {
      const keysBefore = await backend.storedKeys();
      const mediaRowsBefore = await mediaRowsOfUser();
      const balanceBefore = await creditsOf(t.ctx.db, user.id);
      const res = await generate(prompt);

      // The user sees the studio's message, nothing of the storage's own error.
      expect(res.statusCode, res.body).toBe(500);
      const body = res.json();
      expect(body).toMatchObject({
        success: false,
        code: 'generation_failed',
        error: MESSAGES.generation.imageFailed,
        details: { creditsRefunded: IMAGE_PRICE },
      });
      expect(res.body).not.toMatch(/ENOSPC|AccessDenied|stack|at .*\.ts/);
      const taskId = body.details.taskId as string;

      const [task] = await t.ctx.db.select().from(tasks).where(eq(tasks.id, taskId));
      expect(task.status).toBe('failed');
      expect(JSON.stringify(task.error)).not.toMatch(/ENOSPC|AccessDenied/);
      const status = await t.app.inject({
        method: 'POST',
        url: '/api/ai/status',
        headers: authHeader(user.token),
        payload: { taskId },
      });
      expect(status.json()).toMatchObject({ status: 'failed', url: null, error: MESSAGES.generation.imageFailed });

      // Refunded exactly once; the balance is the ledger's sum.
      const rows = (await ledgerOf(user.id)).filter((r) => r.taskId === taskId);
      expect(rows.map((r) => `${r.type}:${r.source}:${r.amount}`).sort()).toEqual([
        `addition:refund:${IMAGE_PRICE}`,
        `deduction:generation:${IMAGE_PRICE}`,
      ]);
      expect(await creditsOf(t.ctx.db, user.id)).toBe(balanceBefore);
      await expectBalanceIsLedgerSum();

      // Nothing half-saved: no asset, no media row, no object.
      expect(await t.ctx.db.select().from(assets).where(eq(assets.taskId, taskId))).toHaveLength(0);
      expect(await mediaRowsOfUser()).toEqual(mediaRowsBefore);
      const rowsOfTask = (await t.ctx.db.select().from(mediaObjects)).filter(
        (m) => (m.tags as Record<string, string>).GenerationId === taskId,
      );
      expect(rowsOfTask).toEqual([]);
      expect(await backend.storedKeys()).toEqual(keysBefore);
    }

    it(`fails the task cleanly and refunds it once when ${backend.fault}`, async () => {
      backend.fail();
      await expectCleanFailure('a lighthouse at dusk');
    });

    if (backend.failThumbnails) {
      it('an upscale whose thumbnail cannot be written fails, keeps the original and leaves no enhanced file', async () => {
        const png = await solidPng(320, 180, '#3366cc');
        const upload = await storeUpload(t.ctx, user.id, png, 'image/png', 'png');
        const asset = await createAsset(t.ctx, {
          userId: user.id,
          type: 'image',
          key: upload.key,
          contentType: 'image/png',
          url: upload.url,
        });
        const keysBefore = await backend.storedKeys();
        const mediaRowsBefore = await mediaRowsOfUser();
        const balanceBefore = await creditsOf(t.ctx.db, user.id);
        backend.failThumbnails?.();

        const res = await t.app.inject({
          method: 'POST',
          url: '/api/proxy/enhancor/image-upscaler/queue',
          headers: authHeader(user.token),
          payload: { img_url: upload.url, original_asset_id: asset.id },
        });
        expect(res.statusCode, res.body).toBe(200);
        const taskId = res.json().requestId as string;
        const task = await waitForTask(t.ctx.db, taskId, { timeoutMs: 60_000, intervalMs: 100 });
        expect(task.status).toBe('failed');

        const dto = await t.app.inject({
          method: 'GET',
          url: `/api/ai/assets/${asset.id}`,
          headers: authHeader(user.token),
        });
        expect(dto.json().data).toMatchObject({
          url: upload.url,
          metadata: { enhancement_status: 'failed', enhancement_error: MESSAGES.generic.internal },
        });
        expect(dto.body).not.toContain('ENOSPC');
        const refunds = (await ledgerOf(user.id)).filter((r) => r.taskId === taskId && r.source === 'refund');
        expect(refunds).toHaveLength(1);
        expect(await creditsOf(t.ctx.db, user.id)).toBe(balanceBefore);
        await expectBalanceIsLedgerSum();
        expect(await mediaRowsOfUser()).toEqual(mediaRowsBefore);
        expect(await backend.storedKeys()).toEqual(keysBefore);
        await t.app.inject({ method: 'DELETE', url: `/api/ai/assets/${asset.id}`, headers: authHeader(user.token) });
      });
    }

    it(`an upload while no write succeeds answers ${backend.uploadRefused.status} and keeps nothing`, async () => {
      const keysBefore = await backend.storedKeys();
      const mediaRowsBefore = await mediaRowsOfUser();
      backend.failEverything();
      const png = await solidPng(16, 16, '#ff8800');
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/upload/base64-to-url',
        headers: authHeader(user.token),
        payload: { base64Data: `data:image/png;base64,${png.toString('base64')}` },
      });
      backend.heal();
      const { status, ...body } = backend.uploadRefused;
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({ success: false, ...body });
      expect(await mediaRowsOfUser()).toEqual(mediaRowsBefore);
      expect(await backend.storedKeys()).toEqual(keysBefore);
    });

    if (backend.failOnceAsOutage) {
      it('a write that fails as an outage once is tried again: the task completes, charged once, nothing left over', async () => {
        const balanceBefore = await creditsOf(t.ctx.db, user.id);
        backend.failOnceAsOutage?.();
        const res = await generate('a red kite over the dunes');
        backend.heal();
        expect(res.statusCode, res.body).toBe(200);
        const [media] = res.json().data as GeneratedMedia[];
        const taskId = media.metadata.taskId as string;
        const [task] = await t.ctx.db.select().from(tasks).where(eq(tasks.id, taskId));
        expect(task).toMatchObject({ status: 'completed', attempts: 1 });
        const rows = (await ledgerOf(user.id)).filter((r) => r.taskId === taskId);
        expect(rows.map((r) => `${r.type}:${r.source}:${r.amount}`)).toEqual([`deduction:generation:${IMAGE_PRICE}`]);
        expect(await creditsOf(t.ctx.db, user.id)).toBe(balanceBefore - IMAGE_PRICE);
        // Exactly the output and its thumbnail are stored, each with its row.
        const ofTask = (await t.ctx.db.select().from(mediaObjects)).filter(
          (m) => (m.tags as Record<string, string>).GenerationId === taskId,
        );
        expect(ofTask.map((m) => m.storageClass).sort()).toEqual(['generated', 'thumbnail']);
        const keys = await backend.storedKeys();
        for (const row of ofTask) expect(keys).toContain(row.key);
        // Refund it by hand so the last test starts from the same balance.
        await addCredits(t.ctx.db, { userId: user.id, amount: IMAGE_PRICE, source: 'admin', description: 'test' });
      });
    }

    it('works again once the fault clears: the next task completes and is charged', async () => {
      backend.heal();
      const before = await creditsOf(t.ctx.db, user.id);
      expect(before).toBe(START_CREDITS);
      const res = await generate('a green teapot');
      expect(res.statusCode, res.body).toBe(200);
      const [media] = res.json().data as GeneratedMedia[];
      expect(media.type).toBe('image');
      const file = await t.app.inject({ method: 'GET', url: media.url, headers: authHeader(user.token) });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/png');
      expect(await creditsOf(t.ctx.db, user.id)).toBe(START_CREDITS - IMAGE_PRICE);
      await expectBalanceIsLedgerSum();
      const keys = await backend.storedKeys();
      expect(keys.some((k) => k.endsWith(media.url.split('/').at(-1) as string))).toBe(true);
      const health = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
    });
  });
}
