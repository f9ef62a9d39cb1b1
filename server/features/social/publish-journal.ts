import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { socialPublishJournal as journal } from '../../db/schema/index.ts';
import type { PublishJournal, PublishKey } from './connectors/journal.ts';

// The publish journal on the studio's database (PostgreSQL or PGlite): one row per network, account and post. Leases
// and ages are in the database's time, the one clock every process shares.

/**
 * How long an entry is kept after its last change: longer than any task's retries, and than the week Google keeps
 * a resumable upload session; a failed post republished within it still finds what its publish started.
 */
const PUBLISH_JOURNAL_KEEP_DAYS = 7;

const at = (key: PublishKey) =>
  and(
    eq(journal.platform, key.platform),
    eq(journal.accountId, key.accountId),
    eq(journal.idempotencyKey, key.idempotencyKey),
  );
const leaseEnd = (leaseMs: number) => sql`now() + (${Math.round(leaseMs)}::integer * interval '1 millisecond')`;
const free = or(isNull(journal.claimedUntil), lt(journal.claimedUntil, sql`now()`));

export function databasePublishJournal(db: DbOrTx): PublishJournal {
  return {
    async claim(key, holder, leaseMs) {
      const [row] = await db
        .insert(journal)
        .values({ ...key, claimedBy: holder, claimedUntil: leaseEnd(leaseMs) })
        .onConflictDoUpdate({
          target: [journal.platform, journal.accountId, journal.idempotencyKey],
          set: { claimedBy: holder, claimedUntil: leaseEnd(leaseMs) },
          setWhere: free,
        })
        .returning({ state: journal.state });
      if (row) return { claimed: true, state: row.state ?? null };
      const [held] = await db
        .select({ ms: sql<string>`greatest(0, extract(epoch from (${journal.claimedUntil} - now())) * 1000)` })
        .from(journal)
        .where(at(key));
      return { claimed: false, heldForMs: Number(held?.ms ?? 0) };
    },
    async renew(key, holder, leaseMs) {
      const rows = await db
        .update(journal)
        .set({ claimedUntil: leaseEnd(leaseMs) })
        .where(and(at(key), eq(journal.claimedBy, holder)))
        .returning({ holder: journal.claimedBy });
      return rows.length > 0;
    },
    async put(key, holder, state) {
      const rows = await db
        .update(journal)
        .set({ state, updatedAt: sql`now()` })
        .where(and(at(key), eq(journal.claimedBy, holder)))
        .returning({ holder: journal.claimedBy });
      return rows.length > 0;
    },
    async release(key, holder) {
      await db
        .update(journal)
        .set({ claimedBy: null, claimedUntil: null })
        .where(and(at(key), eq(journal.claimedBy, holder)));
    },
  };
}

/** Forgets the entries unchanged for PUBLISH_JOURNAL_KEEP_DAYS and not claimed now; returns how many. */
export async function sweepPublishJournal(db: DbOrTx): Promise<number> {
  const removed = await db
    .delete(journal)
    .where(and(lt(journal.updatedAt, sql`now() - make_interval(days => ${PUBLISH_JOURNAL_KEEP_DAYS}::integer)`), free))
    .returning({ key: journal.idempotencyKey });
  return removed.length;
}
