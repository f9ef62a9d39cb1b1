import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaObjects } from '../../db/schema/index.ts';
import { createTestUser, eventually, makeTestClip, solidPng } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { ManualClock } from '../clock.ts';
import { MAINTENANCE_QUEUES } from '../jobs/schema.ts';
import { MediaStore } from './store.ts';

let t: TestApp;
let clock: ManualClock;
beforeAll(async () => {
  clock = new ManualClock(new Date());
  t = await createTestApp({ clock });
});
afterAll(async () => {
  await t?.close();
});

describe('MediaStore and the clean-up job', () => {
  it('schedules the clean-up hourly', async () => {
    const row = await t.ctx.database.executeSql('SELECT name, cron FROM pgboss.schedule WHERE name = $1', [
      MAINTENANCE_QUEUES.mediaCleanup,
    ]);
    expect(row.rows[0]).toMatchObject({ name: MAINTENANCE_QUEUES.mediaCleanup, cron: '7 * * * *' });
  });

  it('deletes expired temporary objects from storage and the table, and keeps the rest', async () => {
    const user = await createTestUser(t.ctx.db);
    const store = new MediaStore({ db: t.ctx.db, storage: t.ctx.storage, clock });
    const bytes = Buffer.from('temporary bytes');
    const temporary = await store.put({
      body: bytes,
      contentType: 'image/png',
      ext: 'png',
      storageClass: 'temporary',
      userId: user.id,
    });
    const reference = await store.put({
      body: bytes,
      contentType: 'image/png',
      ext: 'png',
      storageClass: 'reference',
      userId: user.id,
    });
    const permanent = await store.put({
      body: bytes,
      contentType: 'image/png',
      ext: 'png',
      storageClass: 'generated',
      userId: user.id,
    });
    expect(temporary.expiresAt).not.toBeNull();
    expect(permanent.expiresAt).toBeNull();

    clock.advance(12 * 3_600_000);
    const fresh = await store.put({
      body: bytes,
      contentType: 'image/png',
      ext: 'png',
      storageClass: 'character_temp',
      userId: user.id,
    });
    clock.advance(12 * 3_600_000 + 1_000);

    await t.ctx.jobs.runMaintenance(MAINTENANCE_QUEUES.mediaCleanup);
    await eventually(
      async () => (await store.get(temporary.key)) === null && (await store.get(reference.key)) === null,
      {
        what: 'the clean-up job',
      },
    );
    expect(await t.ctx.storage.head(temporary.key)).toBeNull();
    expect(await t.ctx.storage.head(reference.key)).toBeNull();
    expect(await store.get(permanent.key)).not.toBeNull();
    expect(await t.ctx.storage.head(permanent.key)).not.toBeNull();
    expect(await store.get(fresh.key)).not.toBeNull();
    expect(await t.ctx.storage.head(fresh.key)).not.toBeNull();
  });

  it('removes the bytes when recording the row fails, and deletes objects by key', async () => {
    const store = new MediaStore({ db: t.ctx.db, storage: t.ctx.storage, clock });
    // A user id that does not exist violates the foreign key.
    await expect(
      store.put({
        body: Buffer.from('x'),
        contentType: 'image/png',
        ext: 'png',
        storageClass: 'upload',
        userId: '00000000-0000-0000-0000-000000000000',
      }),
    ).rejects.toThrow();
    const user = await createTestUser(t.ctx.db);
    const stored = await store.put({
      body: Buffer.from('x'),
      contentType: 'image/png',
      ext: 'png',
      storageClass: 'upload',
      userId: user.id,
      personaId: user.id,
    });
    const [row] = await t.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.key, stored.key));
    expect(row.tags).toMatchObject({ PersonaId: user.id, IsPersonaAsset: 'true' });
    expect(await store.delete(stored.key)).toBe(true);
    expect(await store.delete(stored.key)).toBe(false);
    expect(await t.ctx.storage.head(stored.key)).toBeNull();
  });

  it('records what ffprobe finds in a stored video, and nothing for other files', async () => {
    const user = await createTestUser(t.ctx.db);
    const store = new MediaStore({ ...t.ctx, clock });
    const dir = await mkdtemp(path.join(os.tmpdir(), 'genpro-store-test-'));
    try {
      const clip = await makeTestClip(t.config, dir, { seconds: 1, width: 160, height: 90, fps: 10 });
      const base = { contentType: 'video/mp4', ext: 'mp4', storageClass: 'upload', userId: user.id } as const;
      const video = await store.put({ ...base, body: clip });
      const expected = { durationMs: 1000, video: { codec: 'h264', width: 160, height: 90, fps: 10 }, audio: null };
      expect(video.probe).toMatchObject(expected);
      const [row] = await t.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.key, video.key));
      expect(row?.probe).toMatchObject(expected);
      const broken = await store.put({ ...base, body: clip.subarray(0, 1024) });
      const streamed = await store.put({ ...base, body: Readable.from([clip]), contentLength: clip.length });
      const image = await store.put({
        ...base,
        contentType: 'image/png',
        ext: 'png',
        body: await solidPng(8, 8, '#000'),
      });
      for (const { key } of [broken, streamed, image]) {
        const [other] = await t.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.key, key));
        expect(other?.probe).toBeNull();
      }
      // Facts learned later are kept; rows of an unknown shape count as none.
      if (!video.probe) throw new Error('the video was not probed');
      await store.saveFacts(streamed.key, { ...video.probe, keyframes: [0] });
      await t.ctx.db
        .update(mediaObjects)
        .set({ probe: { width: 160 } })
        .where(eq(mediaObjects.key, broken.key));
      const facts = await store.factsOf([video.key, broken.key, streamed.key, image.key, 'not a key']);
      expect([...facts.keys()].sort()).toEqual([video.key, streamed.key].sort());
      expect(facts.get(streamed.key)).toMatchObject({ ...expected, keyframes: [0] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
