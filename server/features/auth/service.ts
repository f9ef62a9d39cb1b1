import { eq } from 'drizzle-orm';
import {
  ACCOUNT_GUARD,
  type Role,
  TRIAL_DAYS,
  TRIAL_PLAN,
  type UserStatus,
} from '../../../common/api/auth.constants.ts';
import type { LoginBody, User } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { subscriptions, users } from '../../db/schema/index.ts';
import { USERS_CHANGED_CHANNEL } from '../../platform/auth/account-changes.ts';
import {
  assertLoginAllowed,
  clearLoginFailures,
  countLoginFailures,
  recordLoginFailure,
} from '../../platform/auth/attempts.ts';
import { DUMMY_PASSWORD_HASH, generateNumericCode, hashPassword, verifyPassword } from '../../platform/auth/crypto.ts';
import { assertStrongPassword } from '../../platform/auth/password-strength.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { createSession, isKnownDevice, type RequestMeta, revokeAllSessions } from '../../platform/auth/sessions.ts';
import { cachePerDatabase } from '../../platform/cache/coherent-cache.ts';
import { grantWelcomeCredits } from '../../platform/credits/ledger.ts';
import { unauthorized } from '../../platform/errors.ts';
import { loginCodeMail } from '../../platform/mail/templates.ts';
import { mailFailureForLog } from '../../platform/mail/types.ts';
import { sendLoginAlerts } from '../security/alerts.ts';
import { completeLoginChallenge, createLoginChallenge, isTwoFactorEnabled } from '../security/two-factor.ts';
import { findUserByEmail, loadUserDto, type SubscriptionRow, toUserDto } from './users.ts';

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
  /** Grant the welcome credits now (default: when created verified). Sign-up passes false and grants once per email. */
  grantWelcome?: boolean;
}

/**
 * Inserts a user with a TRIAL_DAYS trial subscription, and the welcome credit grant (a ledger `addition`)
 * when the account is created verified (the demo seed, create-admin). Self-service sign-ups are created by
 * verifyRegistration with `grantWelcome: false` and get the credits once per mailbox (welcome.ts), so neither
 * unverified nor deleted-and-recreated accounts farm credits. Call inside a transaction.
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
  if (account.grantWelcome ?? account.isVerified) await grantWelcomeCredits(tx, user.id);
  return user;
}

/** What a correct password leads to: a session, or (two-factor on) a challenge that still needs the code. */
export type LoginResult =
  | ({ kind: 'session' } & SignedIn)
  | { kind: 'two_factor' | 'email_code'; challengeToken: string; expiresInSeconds: number };

/**
 * POST /api/auth/login. Unknown emails cost the same scrypt work as wrong passwords and get the same
 * 401. Unverified users are signed in too (the web routes them to the verification page). With
 * two-factor on, a correct password only opens a challenge: no session until the code is given, and
 * the failed attempts stay counted until then (they feed the suspicious-activity alert). Failures are
 * limited per client address (see assertLoginAllowed), so strangers cannot lock the owner out. An account
 * with ACCOUNT_GUARD.guardAfterFailures failed log-ins (from any addresses) is guarded: its right password
 * opens a challenge whose code is mailed to the account (kind 'email_code'), and addresses that failed for
 * it wait growing delays.
 */
export async function loginUser(deps: Deps, input: LoginBody, meta: RequestMeta): Promise<LoginResult> {
  const now = deps.clock.now();
  const origin = { ip: meta.ip, email: input.email };
  const { guarded } = await assertLoginAllowed(deps.db, now, origin);
  const user = await findUserByEmail(deps.db, input.email);
  const passwordOk = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!user || !passwordOk) {
    await recordLoginFailure(deps.db, now, origin);
    throw unauthorized(MESSAGES.auth.invalidCredentials);
  }
  if (await isTwoFactorEnabled(deps.db, user.id)) {
    return { kind: 'two_factor', ...(await createLoginChallenge(deps, user.id)) };
  }
  if (guarded) return { kind: 'email_code', ...(await mailLoginCode(deps, user)) };
  return { kind: 'session', ...(await finishLogin(deps, user, meta)) };
}

/**
 * A guarded account's right password (ACCOUNT_GUARD): a challenge whose code is mailed to the account.
 * A delivery failure is logged and the answer is the same; the owner can log in again for a new code.
 */
async function mailLoginCode(deps: Deps, user: UserRow) {
  const code = generateNumericCode(ACCOUNT_GUARD.loginCodeLength);
  const challenge = await createLoginChallenge(deps, user.id, {
    code,
    ttlSeconds: ACCOUNT_GUARD.loginCodeExpiresInSeconds,
  });
  try {
    await deps.mail.send(loginCodeMail(user.email, user.firstName, code));
  } catch (error) {
    deps.log.warn({ ...mailFailureForLog(error), userId: user.id }, 'sign-in code mail could not be sent');
  }
  return challenge;
}

/** POST /api/auth/login/two-factor: the challenge from a password log-in plus a TOTP, recovery or mailed code. */
export async function loginWithSecondFactor(
  deps: Deps,
  input: { challengeToken: string; code: string },
  meta: RequestMeta,
): Promise<SignedIn> {
  const userId = await completeLoginChallenge(deps, input.challengeToken, input.code, meta.ip);
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
  channel: USERS_CHANGED_CHANNEL,
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
  assertStrongPassword(input.password, { email, firstName: input.firstName, lastName: input.lastName });
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
