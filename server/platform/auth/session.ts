import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '../../../common/messages.ts';
import type { Db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/index.ts';
import { cachePerDatabase } from '../cache/coherent-cache.ts';
import type { Clock } from '../clock.ts';
import { AppError, forbidden, unauthorized } from '../errors.ts';
import { sha256 } from './crypto.ts';

export const SESSION_COOKIE = 'genpro_session';
/** last_seen_at is written at most this often per session, to keep reads cheap. */
const TOUCH_INTERVAL_MS = 60_000;

export type UserRow = typeof users.$inferSelect;
type SessionRow = typeof sessions.$inferSelect;

interface Authenticated {
  user: UserRow;
  session: SessionRow;
  via: 'bearer' | 'cookie';
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: Authenticated | null;
  }
}

function readToken(request: FastifyRequest): { token: string; via: 'bearer' | 'cookie' } | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) {
    const token = header.slice(7).trim();
    if (token) return { token, via: 'bearer' };
  }
  const cookie = request.cookies?.[SESSION_COOKIE];
  if (cookie) return { token: cookie, via: 'cookie' };
  return null;
}

/**
 * Sessions resolved lately, by token hash, so most requests need no session query. The migration 0009
 * triggers announce every committed change of a user row or of one of its sessions (revocation, deletion,
 * approval, a credit spend…), which drops that user's entries; a hit is served only after the notification
 * barrier (see CoherentCache), so no request is ever answered from a stale user.
 */
const sessionCache = cachePerDatabase<{ user: UserRow; session: SessionRow }>({
  channel: 'genpro_users_changed',
  ttlMs: 60_000,
  maxEntries: 10_000,
});

/** Starts caching resolved sessions for the studio that owns `ctx.db`; returns the function that stops it. */
export const startSessionCache = sessionCache.start;

/** Resolves the session behind a token; null when it is unknown, revoked or expired. */
async function resolveSession(
  db: Db,
  clock: Clock,
  token: string,
): Promise<{ user: UserRow; session: SessionRow } | null> {
  const now = clock.now();
  const hash = sha256(token);
  const cache = sessionCache.of({ db, clock });
  const cached = await cache.get(hash);
  const touchDue = (row: { session: SessionRow }) =>
    now.getTime() - row.session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS;
  if (cached && cached.session.expiresAt > now && !touchDue(cached)) return cached;
  const generation = cache.generation();
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hash), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .limit(1);
  if (!row) {
    cache.delete(hash);
    return null;
  }
  if (touchDue(row)) {
    // The touch itself is announced (and drops this user's entries), so the row is cached from the next read.
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.session.id));
    return row;
  }
  cache.set(hash, row.user.id, row, generation);
  return row;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export async function authenticateRequest(request: FastifyRequest, db: Db, clock: Clock): Promise<void> {
  request.auth = null;
  const found = readToken(request);
  if (!found) return;
  const resolved = await resolveSession(db, clock, found.token);
  if (!resolved) return;
  request.auth = { ...resolved, via: found.via };
}

export interface RequireOptions {
  roles?: ReadonlyArray<UserRow['role']>;
}

/**
 * preValidation hook: a signed-in user (optionally of given roles), checked before the body is validated so
 * a caller without a session gets 401 whatever it sent; cookie sessions need X-Requested-With on writes.
 */
export function requireUser(options: RequireOptions = {}) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const auth = request.auth;
    if (!auth) {
      const hadToken = readToken(request) !== null;
      throw unauthorized(hadToken ? MESSAGES.auth.loginAgain : MESSAGES.auth.required);
    }
    if (auth.via === 'cookie' && !SAFE_METHODS.has(request.method) && !request.headers['x-requested-with']) {
      throw new AppError(403, 'csrf', MESSAGES.auth.csrf);
    }
    if (options.roles && !options.roles.includes(auth.user.role)) throw forbidden(MESSAGES.auth.forbidden);
  };
}

/** The signed-in user of a route guarded by requireUser. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.auth) throw unauthorized(MESSAGES.auth.required);
  return request.auth.user;
}
