import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '../../../common/messages.ts';
import type { Db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/index.ts';
import { cachePerDatabase } from '../cache/coherent-cache.ts';
import type { Clock } from '../clock.ts';
import { AppError, forbidden, unauthorized } from '../errors.ts';
import { USERS_CHANGED_CHANNEL } from './account-changes.ts';
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
    /**
     * performance.now() when the studio began handling the request: everything committed before the client
     * sent it was committed before this, so coherent caches may serve it once changes up to here are heard.
     */
    receivedAt: number;
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
  channel: USERS_CHANGED_CHANNEL,
  ttlMs: 60_000,
  maxEntries: 10_000,
});

/** Starts caching resolved sessions for the studio that owns `ctx.db`; returns the function that stops it. */
export const startSessionCache = sessionCache.start;

function touchDue(session: SessionRow, now: Date): boolean {
  return now.getTime() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS;
}

/** A cached session that may be used as it is at `now` (not expired, no last-seen write due). */
function usable(
  cached: { user: UserRow; session: SessionRow } | undefined,
  now: Date,
): { user: UserRow; session: SessionRow } | undefined {
  return cached && cached.session.expiresAt > now && !touchDue(cached.session, now) ? cached : undefined;
}

/** Resolves the session behind a token hash; null when it is unknown, revoked or expired. */
async function resolveSession(
  db: Db,
  clock: Clock,
  hash: string,
  since: number,
): Promise<{ user: UserRow; session: SessionRow } | null> {
  const now = clock.now();
  const cache = sessionCache.of({ db, clock });
  const cached = usable(await cache.get(hash, since), now);
  if (cached) return cached;
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
  if (touchDue(row.session, now)) {
    // The touch itself is announced (and drops this user's entries), so the row is cached from the next read.
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.session.id));
    return row;
  }
  cache.set(hash, row.user.id, row, generation);
  return row;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Sets `request.auth` from the bearer token or session cookie. Answers at once (undefined) when the session
 * is cached and servable without waiting; otherwise returns the promise of the lookup.
 */
export function authenticateRequest(request: FastifyRequest, db: Db, clock: Clock): Promise<void> | undefined {
  request.receivedAt = performance.now();
  request.auth = null;
  const found = readToken(request);
  if (!found) return undefined;
  const hash = sha256(found.token);
  const ready = usable(sessionCache.of({ db, clock }).getNow(hash, request.receivedAt), clock.now());
  if (ready) {
    request.auth = { ...ready, via: found.via };
    return undefined;
  }
  return resolveSession(db, clock, hash, request.receivedAt).then((resolved) => {
    if (resolved) request.auth = { ...resolved, via: found.via };
  });
}

export interface RequireOptions {
  roles?: ReadonlyArray<UserRow['role']>;
  /** Refuse (403 `email_not_verified`) a user who has not verified the email address yet. */
  verifiedEmail?: boolean;
}

/**
 * The studio's verification gate (the dashboard sends an unverified user to /auth/verify): 403
 * `email_not_verified` with MESSAGES.verification.required unless the user has verified the email address.
 */
export function assertEmailVerified(user: Pick<UserRow, 'isVerified'>): void {
  if (!user.isVerified) throw forbidden(MESSAGES.verification.required, 'email_not_verified');
}

/**
 * Throws unless the request has a signed-in user (of one of `roles`, when given); cookie sessions need
 * X-Requested-With on writes.
 */
export function assertSignedIn(request: FastifyRequest, options: RequireOptions = {}): void {
  const auth = request.auth;
  if (!auth) {
    const hadToken = readToken(request) !== null;
    throw unauthorized(hadToken ? MESSAGES.auth.loginAgain : MESSAGES.auth.required);
  }
  if (auth.via === 'cookie' && !SAFE_METHODS.has(request.method) && !request.headers['x-requested-with']) {
    throw new AppError(403, 'csrf', MESSAGES.auth.csrf);
  }
  if (options.roles && !options.roles.includes(auth.user.role)) throw forbidden(MESSAGES.auth.forbidden);
  if (options.verifiedEmail) assertEmailVerified(auth.user);
}

/**
 * preValidation hook: assertSignedIn before the body is validated, so a caller without a session gets 401
 * whatever it sent. A callback hook: it has nothing to wait for and runs on nearly every API call.
 */
export function requireUser(options: RequireOptions = {}) {
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void => {
    try {
      assertSignedIn(request, options);
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  };
}

/** preValidation hook: a signed-in user of one role; 403 with the role's own message otherwise. */
export function requireRole(role: UserRow['role'], message: string) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    assertSignedIn(request);
    if (currentUser(request).role !== role) throw forbidden(message);
  };
}

/**
 * The signed-in user of a route open to everyone, or null: signed out, or a session cookie sent without
 * X-Requested-With (a cross-site form could send it, so it is treated as signed out rather than refused).
 */
export function optionalUser(request: FastifyRequest): UserRow | null {
  const auth = request.auth;
  if (!auth) return null;
  if (auth.via === 'cookie' && !SAFE_METHODS.has(request.method) && !request.headers['x-requested-with']) return null;
  return auth.user;
}

/** The signed-in user of a route guarded by requireUser. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.auth) throw unauthorized(MESSAGES.auth.required);
  return request.auth.user;
}
