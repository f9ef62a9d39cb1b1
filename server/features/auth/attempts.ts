import { and, count, desc, eq, gte, lt } from 'drizzle-orm';
import { AUTH_LOCKOUT } from '../../../common/constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { authAttempts } from '../../db/schema/index.ts';
import { tooManyRequests } from '../../platform/errors.ts';
import type { DbOrTx } from './users.ts';

type AttemptKind = (typeof authAttempts.$inferInsert)['kind'];

const WINDOW_MS = AUTH_LOCKOUT.windowMinutes * 60_000;
const LIMITS: Record<AttemptKind, number> = {
  login: AUTH_LOCKOUT.maxFailedLogins,
  verify: AUTH_LOCKOUT.maxFailedCodes,
};

const ofSubject = (kind: AttemptKind, subject: string) =>
  and(eq(authAttempts.kind, kind), eq(authAttempts.subject, subject));

/** This subject's failures inside the sliding window that ends `now`. */
const inWindow = (now: Date, kind: AttemptKind, subject: string) =>
  and(ofSubject(kind, subject), gte(authAttempts.createdAt, new Date(now.getTime() - WINDOW_MS)));

/**
 * Per-account lockout: with `limit` failures for this subject inside the sliding window, answer 429
 * until the oldest of them leaves the window. Works across IPs and API processes (it is a table).
 */
export async function assertNotLocked(db: DbOrTx, now: Date, kind: AttemptKind, subject: string): Promise<void> {
  const limit = LIMITS[kind];
  const recent = await db
    .select({ createdAt: authAttempts.createdAt })
    .from(authAttempts)
    .where(inWindow(now, kind, subject))
    .orderBy(desc(authAttempts.createdAt))
    .limit(limit);
  if (recent.length < limit) return;
  const unlocksAt = recent[limit - 1].createdAt.getTime() + WINDOW_MS;
  throw tooManyRequests(MESSAGES.auth.tooManyAttempts, Math.max(1, Math.ceil((unlocksAt - now.getTime()) / 1000)));
}

/** Records one failure and drops this subject's failures that have left the window. */
export async function recordFailure(db: DbOrTx, now: Date, kind: AttemptKind, subject: string): Promise<void> {
  await db.insert(authAttempts).values({ kind, subject, createdAt: now });
  await db
    .delete(authAttempts)
    .where(and(ofSubject(kind, subject), lt(authAttempts.createdAt, new Date(now.getTime() - WINDOW_MS))));
}

export async function clearFailures(db: DbOrTx, kind: AttemptKind, subject: string): Promise<void> {
  await db.delete(authAttempts).where(ofSubject(kind, subject));
}

/** Failures recorded for this subject inside the sliding window. */
export async function countFailures(db: DbOrTx, now: Date, kind: AttemptKind, subject: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(authAttempts)
    .where(inWindow(now, kind, subject));
  return Number(row?.n ?? 0);
}
