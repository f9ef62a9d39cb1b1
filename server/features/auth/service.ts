import { eq } from 'drizzle-orm';
import { type Role, TRIAL_DAYS, TRIAL_PLAN, type UserStatus } from '../../../common/api/auth.constants.ts';
import type { LoginBody, RegisterBody, User } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { subscriptions, users } from '../../db/schema/index.ts';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from '../../platform/auth/crypto.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { cachePerDatabase } from '../../platform/cache/coherent-cache.ts';
import { grantWelcomeCredits } from '../../platform/credits/ledger.ts';
import { conflict, unauthorized } from '../../platform/errors.ts';
import { mailFailureForLog } from '../../platform/mail/types.ts';
import { sendLoginAlerts } from '../security/alerts.ts';
import { completeLoginChallenge, createLoginChallenge, isTwoFactorEnabled } from '../security/two-factor.ts';
import { assertLoginAllowed, clearLoginFailures, countLoginFailures, recordLoginFailure } from './attempts.ts';
import { createSession, isKnownDevice, type RequestMeta, revokeAllSessions } from './sessions.ts';
import { findUserByEmail, loadUserDto, type SubscriptionRow, toUserDto } from './users.ts';
import { issueVerificationCode, sendVerificationMail } from './verification.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'mail' | 'log' | 'config'>;

export interface SignedIn {
  token: string;
  user: User;
}

export interface NewAccount {
  firstName: string;
  lastName: string;
  email: string;
  passwordHash: string;
  role: Role;
  userStatus: UserStatus | null;
  creatorType?: string | null;
  isVerified: boolean;
}

/**
 * Inserts a user with a TRIAL_DAYS trial subscription, and the welcome credit grant (a ledger `addition`)
 * when the account is created verified; others get it when they verify their email (verifyCode), so
 * unverified sign-ups cannot farm credits. Call inside a transaction.
 */
export async function insertAccount(tx: Tx, now: Date, account: NewAccount): Promise<UserRow> {
  const [user] = await tx
    .insert(users)
    .values({
      firstName: account.firstName,
      lastName: account.lastName,
      email: account.email.trim().toLowerCase(),
      passwordHash: account.passwordHash,
      role: account.role,
      userStatus: account.userStatus,
      creatorType: account.creatorType ?? null,
      isVerified: account.isVerified,
      lastPasswordChange: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await tx.insert(subscriptions).values({
    userId: user.id,
    planType: TRIAL_PLAN,
    status: 'trialing',
    trialEnd: new Date(now.getTime() + TRIAL_DAYS * 86_400_000),
    currentPeriodEnd: null,
    createdAt: now,
    updatedAt: now,
  });
  if (account.isVerified) await grantWelcomeCredits(tx, user.id);
  return user;
}

/** POST /api/auth/register: a creator (pending approval) or a brand, signed in and sent a code. */
export async function registerUser(deps: Deps, input: RegisterBody, meta: RequestMeta): Promise<SignedIn> {
  const now = deps.clock.now();
  const passwordHash = await hashPassword(input.password);
  let created: { user: UserRow; code: string; token: string };
  try {
    created = await deps.db.transaction(async (tx) => {
      if (await findUserByEmail(tx, input.email)) throw conflict(MESSAGES.auth.emailTaken);
      const user = await insertAccount(tx, now, {
        firstName: input.first_name,
        lastName: input.last_name,
        email: input.email,
        passwordHash,
        role: input.role,
        userStatus: input.role === 'creator' ? 'pending' : null,
        isVerified: false,
      });
      const code = await issueVerificationCode(tx, now, user.id);
      const { token } = await createSession(tx, now, user.id, meta);
      return { user, code, token };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(MESSAGES.auth.emailTaken);
    throw error;
  }
  try {
    await sendVerificationMail(deps, created.user, created.code);
  } catch (error) {
    // The account exists; the verification page offers "resend", so registration still succeeds.
    deps.log.warn(
      { ...mailFailureForLog(error), userId: created.user.id },
      'verification mail could not be sent at registration',
    );
  }
  return { token: created.token, user: await loadUserDto(deps.db, created.user.id, now) };
}

/** What a correct password leads to: a session, or (two-factor on) a challenge that still needs the code. */
export type LoginResult =
  | ({ kind: 'session' } & SignedIn)
  | { kind: 'two_factor'; challengeToken: string; expiresInSeconds: number };

/**
 * POST /api/auth/login. Unknown emails cost the same scrypt work as wrong passwords and get the same
 * 401. Unverified users are signed in too (the web routes them to the verification page). With
 * two-factor on, a correct password only opens a challenge: no session until the code is given, and
 * the failed attempts stay counted until then (they feed the suspicious-activity alert). Failures are
 * limited per client address (see assertLoginAllowed), so strangers cannot lock the owner out.
 */
export async function loginUser(deps: Deps, input: LoginBody, meta: RequestMeta): Promise<LoginResult> {
  const now = deps.clock.now();
  const origin = { ip: meta.ip, email: input.email };
  await assertLoginAllowed(deps.db, now, origin);
  const user = await findUserByEmail(deps.db, input.email);
  const passwordOk = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!user || !passwordOk) {
    await recordLoginFailure(deps.db, now, origin);
    throw unauthorized(MESSAGES.auth.invalidCredentials);
  }
  if (await isTwoFactorEnabled(deps.db, user.id)) {
    return { kind: 'two_factor', ...(await createLoginChallenge(deps, user.id)) };
  }
  return { kind: 'session', ...(await finishLogin(deps, user, meta)) };
}

/** POST /api/auth/login/two-factor: the challenge from a password log-in plus a TOTP or recovery code. */
export async function loginWithSecondFactor(
  deps: Deps,
  input: { challengeToken: string; code: string },
  meta: RequestMeta,
): Promise<SignedIn> {
  const userId = await completeLoginChallenge(deps, input.challengeToken, input.code);
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw unauthorized(MESSAGES.account.challengeExpired);
  return finishLogin(deps, user, meta);
}

/** Opens the session, clears the failure count and sends the new-device and suspicious-activity mails. */
async function finishLogin(deps: Deps, user: UserRow, meta: RequestMeta): Promise<SignedIn> {
  const now = deps.clock.now();
  const failedAttempts = await countLoginFailures(deps.db, now, user.email);
  await clearLoginFailures(deps.db, { ip: meta.ip, email: user.email });
  const newDevice = !(await isKnownDevice(deps.db, user.id, meta));
  const { token } = await createSession(deps.db, now, user.id, meta);
  await sendLoginAlerts(deps, user, meta, { newDevice, failedAttempts });
  return { token, user: await loadUserDto(deps.db, user.id, now) };
}

/** GET /api/auth/me. */
/**
 * Subscription rows by user, dropped when the migration 0009 trigger announces a change of the user's
 * subscription: GET /api/auth/me then needs no query on a hit (see CoherentCache).
 */
export const subscriptionCache = cachePerDatabase<SubscriptionRow | null>({
  channel: 'genpro_users_changed',
  ttlMs: 60_000,
  maxEntries: 10_000,
});

/**
 * The signed-in user (the row the session resolved) with its subscription, serialised; `since` is when the
 * request arrived (see CoherentCache.get).
 */
export async function getMe(
  deps: Pick<Deps, 'db' | 'clock'>,
  user: UserRow,
  since?: number,
): Promise<{ user: User; credits: number }> {
  const subscription = await subscriptionCache.of(deps).read(
    user.id,
    user.id,
    async () => {
      const [row] = await deps.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id)).limit(1);
      return row ?? null;
    },
    since,
  );
  return { user: toUserDto(user, subscription, deps.clock.now()), credits: user.credits };
}

export interface AdminInput {
  email: string;
  password: string;
  firstName?: string;
  lastName?: string;
}

/**
 * Creates a verified admin, or promotes an existing account to admin (verified, user_status cleared,
 * password set to the one given, its other sessions revoked). New admins get the same welcome credits
 * and trial row as any verified account; a promoted one gets the welcome credits if it never had them.
 */
export async function createAdmin(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: AdminInput,
): Promise<{ user: User; created: boolean }> {
  const now = deps.clock.now();
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  const { userId, created } = await deps.db.transaction(async (tx) => {
    const existing = await findUserByEmail(tx, email);
    if (existing) {
      await tx
        .update(users)
        .set({
          role: 'admin',
          userStatus: null,
          isVerified: true,
          passwordHash,
          lastPasswordChange: now,
          updatedAt: now,
          ...(input.firstName ? { firstName: input.firstName } : {}),
          ...(input.lastName ? { lastName: input.lastName } : {}),
        })
        .where(eq(users.id, existing.id));
      await revokeAllSessions(tx, now, existing.id);
      // Verified now: an account promoted before verifying its email gets the grant it was owed.
      await grantWelcomeCredits(tx, existing.id);
      return { userId: existing.id, created: false };
    }
    const user = await insertAccount(tx, now, {
      firstName: input.firstName ?? 'Admin',
      lastName: input.lastName ?? 'User',
      email,
      passwordHash,
      role: 'admin',
      userStatus: null,
      isVerified: true,
    });
    return { userId: user.id, created: true };
  });
  return { user: await loadUserDto(deps.db, userId, now), created };
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (typeof e !== 'object') return false;
    if ('code' in e && e.code === '23505') return true;
    e = 'cause' in e ? e.cause : undefined;
  }
  return false;
}
