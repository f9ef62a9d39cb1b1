import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { ManualClock } from '../clock.ts';
import { AppError } from '../errors.ts';
import { storageUsedBytes } from './quota.ts';
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

const put = (store: MediaStore, userId: string, bytes: number, options: { quotaBytes?: number; temporary?: boolean }) =>
  store.put({
    body: randomBytes(bytes),
    contentType: 'image/png',
    ext: 'png',
    storageClass: options.temporary ? 'temporary' : 'upload',
    userId,
    quotaBytes: options.quotaBytes,
  });

describe('storage quota', () => {
  it("counts the user's unexpired objects only", async () => {
    const user = await createTestUser(t.ctx.db);
    const other = await createTestUser(t.ctx.db);
    const store = new MediaStore({ db: t.ctx.db, storage: t.ctx.storage, clock });
    await put(store, user.id, 3000, {});
    await put(store, user.id, 500, { temporary: true });
    await put(store, other.id, 7000, {});
    expect(await storageUsedBytes({ db: t.ctx.db, clock }, user.id)).toBe(3500);
    clock.advance(2 * 86_400_000);
    expect(await storageUsedBytes({ db: t.ctx.db, clock }, user.id)).toBe(3000);
  });

  it('never lets puts racing each other pass the quota', async () => {
    const user = await createTestUser(t.ctx.db);
    const store = new MediaStore({ db: t.ctx.db, storage: t.ctx.storage, clock });
    await put(store, user.id, 90_000, {});
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => put(store, user.id, 6000, { quotaBytes: 100_000 })),
    );
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toMatchObject({ status: 413, code: 'storage_full' });
    }
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeLessThanOrEqual(1);
    expect(await storageUsedBytes({ db: t.ctx.db, clock }, user.id)).toBeLessThanOrEqual(100_000);
    expect(results.find((r) => r.status === 'rejected')?.reason).toBeInstanceOf(AppError);
  });
});
