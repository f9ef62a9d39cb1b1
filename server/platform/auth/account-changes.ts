import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';

/**
 * The migration 0009 triggers NOTIFY this channel with a user's id on every committed change of the user's row
 * (approval, role, credits, wallet and earnings), sessions or subscription. The session and subscription caches
 * drop that user's entries on it, and the event stream tells the user's open pages (event `account`).
 */
export const USERS_CHANGED_CHANNEL = 'genpro_users_changed';

/**
 * Announces a change of the user's account kept outside those rows (bank accounts, payouts, the Stripe Connect
 * account) on the same channel. Inside a transaction it is delivered when that commits, and not at all if it rolls
 * back; PostgreSQL delivers it to every process listening, whichever process committed.
 */
export async function announceAccountChange(db: DbOrTx, userId: string): Promise<void> {
  await db.execute(sql`SELECT pg_notify(${USERS_CHANGED_CHANNEL}, ${userId})`);
}
