import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socialPublishJournal } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { metricsRefreshJob } from './metrics.ts';
import { databasePublishJournal } from './publish-journal.ts';

// The publish journal on the studio's database (PGlite, and PostgreSQL with DATABASE_URL): the claim that keeps one
// process at a time on a publish, and the sweep of old entries. What the connectors keep in it is tested with each
// network (connectors/<network>.int.test.ts, "never posts twice across processes").

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 180_000);
afterAll(async () => {
  await t?.close();
});

let keys = 0;
const publish = () => ({ platform: 'tiktok' as const, accountId: 'open-id-1', idempotencyKey: `post-${++keys}` });

describe('publish journal', () => {
  it('one holder at a time: a live claim is not taken, a lapsed one is with the state recorded so far, and its old holder records nothing', async () => {
    const journal = databasePublishJournal(t.ctx.db);
    const key = publish();
    expect(await journal.claim(key, 'worker-a', 60_000)).toEqual({ claimed: true, state: null });
    expect(await journal.put(key, 'worker-a', { publishId: 'p-1', uploaded: false })).toBe(true);

    const held = await journal.claim(key, 'worker-b', 60_000);
    expect(held).toMatchObject({ claimed: false });
    expect(!held.claimed && held.heldForMs).toBeGreaterThan(50_000);
    expect(await journal.renew(key, 'worker-b', 60_000)).toBe(false);
    expect(await journal.put(key, 'worker-b', { publishId: 'p-2' })).toBe(false);

    // worker-a's process dies: it renews no more, and its lease runs out.
    await t.ctx.db
      .update(socialPublishJournal)
      .set({ claimedUntil: sql`now() - interval '1 second'` })
      .where(eq(socialPublishJournal.idempotencyKey, key.idempotencyKey));
    expect(await journal.claim(key, 'worker-b', 60_000)).toEqual({
      claimed: true,
      state: { publishId: 'p-1', uploaded: false },
    });
    expect(await journal.put(key, 'worker-a', { publishId: 'p-3' })).toBe(false);
    expect(await journal.renew(key, 'worker-a', 60_000)).toBe(false);
    expect(await journal.put(key, 'worker-b', { publishId: 'p-1', uploaded: true })).toBe(true);
    await journal.release(key, 'worker-b');
    expect(await journal.claim(key, 'worker-c', 60_000)).toEqual({
      claimed: true,
      state: { publishId: 'p-1', uploaded: true },
    });

    // Many claims of a new publish at once (several workers): exactly one gets it.
    const raced = publish();
    const claims = await Promise.all(
      Array.from({ length: 6 }, (_, i) => databasePublishJournal(t.ctx.db).claim(raced, `racer-${i}`, 60_000)),
    );
    expect(claims.filter((c) => c.claimed)).toHaveLength(1);
  });

  it('the social pass sweeps entries unchanged for a week, not newer ones nor one a worker holds', async () => {
    const journal = databasePublishJournal(t.ctx.db);
    const [old, recent, held] = [publish(), publish(), publish()];
    for (const key of [old, recent, held]) {
      await journal.claim(key, 'writer', 60_000);
      await journal.put(key, 'writer', { outcome: { externalId: key.idempotencyKey, shareUrl: '', views: 0 } });
      if (key !== held) await journal.release(key, 'writer');
    }
    const age = (key: typeof old, days: number) =>
      t.ctx.db
        .update(socialPublishJournal)
        .set({ updatedAt: sql`now() - make_interval(days => ${days}::integer)` })
        .where(eq(socialPublishJournal.idempotencyKey, key.idempotencyKey));
    await age(old, 8);
    await age(recent, 6);
    await age(held, 8);

    expect(await metricsRefreshJob.run(t.ctx)).toMatchObject({ journalSwept: 1 });
    const left = await t.ctx.db.select({ key: socialPublishJournal.idempotencyKey }).from(socialPublishJournal);
    expect(left.map((r) => r.key)).toEqual(expect.arrayContaining([recent.idempotencyKey, held.idempotencyKey]));
    expect(left.map((r) => r.key)).not.toContain(old.idempotencyKey);
  });
});
