import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { TWO_FACTOR } from '../../../common/api/account.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { twoFactorChallenges, userTwoFactor } from '../../db/schema/index.ts';
import {
  assertSecondFactorAllowed,
  clearSecondFactorFailures,
  recordSecondFactorFailure,
} from '../../platform/auth/attempts.ts';
import { generateToken, safeEqualHex, sha256 } from '../../platform/auth/crypto.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { revokeOtherSessions } from '../../platform/auth/sessions.ts';
import { AppError, badRequest, conflict } from '../../platform/errors.ts';
import { type SecretConfig, seal, unseal } from './secret-box.ts';

// TOTP two-factor authentication (RFC 6238: HMAC-SHA-1, 6 digits, 30 s steps, ±1 step accepted).
// A time step is accepted once at most (user_two_factor.last_used_step), recovery codes once each.

type Deps = Pick<AppContext, 'db' | 'clock' | 'config'>;
type TwoFactorRow = typeof userTwoFactor.$inferSelect;

const SEAL_PURPOSE = 'totp-secret';
const m = MESSAGES.account;

function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: TWO_FACTOR.issuer,
    label,
    algorithm: 'SHA1',
    digits: TWO_FACTOR.digits,
    period: TWO_FACTOR.periodSeconds,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The TOTP secret, or null when it was sealed with another APP_SECRET (then only recovery codes work). */
function secretOf(config: SecretConfig, row: TwoFactorRow): string | null {
  try {
    return unseal(config, SEAL_PURPOSE, row.secretEncrypted);
  } catch {
    return null;
  }
}

/** The time step a valid code belongs to, or null. Within ±TWO_FACTOR.window steps of now. */
function matchingStep(secretBase32: string | null, code: string, now: Date): number | null {
  if (secretBase32 === null || !new RegExp(`^\\d{${TWO_FACTOR.digits}}$`).test(code)) return null;
  const timestamp = now.getTime();
  const delta = totpFor(secretBase32, 'check').validate({ token: code, timestamp, window: TWO_FACTOR.window });
  if (delta === null) return null;
  return Math.floor(timestamp / 1000 / TWO_FACTOR.periodSeconds) + delta;
}

/** Recovery codes: `xxxxx-xxxxx` in lower-case base32; compared without case or dashes. */
function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}
function hashRecoveryCode(code: string): string {
  return createHash('sha256')
    .update(`recovery:${normalizeRecoveryCode(code)}`)
    .digest('hex');
}
const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

export async function twoFactorRow(db: DbOrTx, userId: string): Promise<TwoFactorRow | null> {
  const [row] = await db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId)).limit(1);
  return row ?? null;
}

export async function isTwoFactorEnabled(db: DbOrTx, userId: string): Promise<boolean> {
  return (await twoFactorRow(db, userId))?.enabledAt != null;
}

/** POST /api/users/two-factor/setup: a fresh secret replaces any unfinished enrolment. */
export async function setupTwoFactor(
  deps: Deps,
  user: UserRow,
): Promise<{ secret: string; otpauthUrl: string; qrCodeDataUrl: string }> {
  const existing = await twoFactorRow(deps.db, user.id);
  if (existing?.enabledAt) throw conflict(m.twoFactorAlreadyEnabled);
  const secret = new Secret({ size: 20 }).base32;
  const sealed = seal(deps.config, SEAL_PURPOSE, secret);
  const now = deps.clock.now();
  await deps.db
    .insert(userTwoFactor)
    .values({ userId: user.id, secretEncrypted: sealed, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: userTwoFactor.userId,
      set: { secretEncrypted: sealed, enabledAt: null, recoveryCodeHashes: [], lastUsedStep: null, updatedAt: now },
    });
  const otpauthUrl = totpFor(secret, user.email).toString();
  const qrCodeDataUrl = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 1, width: 240 });
  return { secret, otpauthUrl, qrCodeDataUrl };
}

/**
 * Records `step` as used unless it (or a later one) already was: the conditional update makes two
 * concurrent requests with the same code race for one row, and only one wins.
 */
async function claimStep(db: DbOrTx, userId: string, step: number, now: Date): Promise<boolean> {
  const claimed = await db
    .update(userTwoFactor)
    .set({ lastUsedStep: step, updatedAt: now })
    .where(
      and(
        eq(userTwoFactor.userId, userId),
        or(isNull(userTwoFactor.lastUsedStep), lt(userTwoFactor.lastUsedStep, step)),
      ),
    )
    .returning({ userId: userTwoFactor.userId });
  return claimed.length > 0;
}

/** Removes one recovery code hash if it is still there (same race-safety as claimStep). */
async function claimRecoveryCode(db: DbOrTx, row: TwoFactorRow, code: string, now: Date): Promise<boolean> {
  const hash = hashRecoveryCode(code);
  if (!row.recoveryCodeHashes.includes(hash)) return false;
  const remaining = row.recoveryCodeHashes.filter((h) => h !== hash);
  const claimed = await db
    .update(userTwoFactor)
    .set({ recoveryCodeHashes: remaining, updatedAt: now })
    .where(
      and(
        eq(userTwoFactor.userId, row.userId),
        sql`${userTwoFactor.recoveryCodeHashes} @> ${JSON.stringify([hash])}::jsonb`,
      ),
    )
    .returning({ userId: userTwoFactor.userId });
  return claimed.length > 0;
}

/**
 * POST /api/users/two-factor/enable: the first valid code turns two-factor on and signs out every other
 * session of the user (one opened with a stolen password must not outlive the new second factor); this
 * one stays. Returns the recovery codes once.
 */
export async function enableTwoFactor(
  deps: Deps,
  auth: { userId: string; sessionId: string },
  code: string,
): Promise<string[]> {
  const { userId } = auth;
  const row = await twoFactorRow(deps.db, userId);
  if (!row) throw badRequest(m.twoFactorNotStarted);
  if (row.enabledAt) throw conflict(m.twoFactorAlreadyEnabled);
  const now = deps.clock.now();
  const step = matchingStep(secretOf(deps.config, row), code, now);
  if (step === null || !(await claimStep(deps.db, userId, step, now))) {
    throw new AppError(400, 'invalid_code', m.twoFactorInvalidCode);
  }
  const codes = Array.from({ length: TWO_FACTOR.recoveryCodes }, newRecoveryCode);
  await deps.db.transaction(async (tx) => {
    await tx
      .update(userTwoFactor)
      .set({ enabledAt: now, recoveryCodeHashes: codes.map(hashRecoveryCode), updatedAt: now })
      .where(eq(userTwoFactor.userId, userId));
    await revokeOtherSessions(tx, now, userId, auth.sessionId);
  });
  return codes;
}

/**
 * Checks a second factor of a user with two-factor enabled: a TOTP code (its step not used before)
 * or an unused recovery code (consumed). False when neither.
 */
export async function verifySecondFactor(deps: Deps, userId: string, code: string): Promise<boolean> {
  const row = await twoFactorRow(deps.db, userId);
  if (!row?.enabledAt) return false;
  const now = deps.clock.now();
  const compact = code.replace(/\s+/g, '');
  if (/^\d+$/.test(compact)) {
    const step = matchingStep(secretOf(deps.config, row), compact, now);
    return step !== null && (await claimStep(deps.db, userId, step, now));
  }
  return claimRecoveryCode(deps.db, row, compact, now);
}

export async function disableTwoFactor(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(userTwoFactor).where(eq(userTwoFactor.userId, userId));
}

// ---- The log-in challenge: password accepted, second factor owed ----

/**
 * A challenge for the second step of a log-in: the TOTP (or a recovery) code, or, with `emailCode`, the
 * code mailed to the account (a guarded log-in of an account without two-factor, ACCOUNT_GUARD).
 */
export async function createLoginChallenge(
  deps: Pick<Deps, 'db' | 'clock'>,
  userId: string,
  emailCode?: { code: string; ttlSeconds: number },
): Promise<{ challengeToken: string; expiresInSeconds: number }> {
  const now = deps.clock.now();
  const challengeToken = generateToken();
  const ttlSeconds = emailCode?.ttlSeconds ?? TWO_FACTOR.challengeTtlSeconds;
  await deps.db.insert(twoFactorChallenges).values({
    userId,
    tokenHash: sha256(challengeToken),
    emailCodeHash: emailCode ? sha256(emailCode.code) : null,
    expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
    createdAt: now,
  });
  return { challengeToken, expiresInSeconds: ttlSeconds };
}

/**
 * Checks the code against a live challenge and consumes it on success (returns the user id). A wrong
 * code counts against the challenge; the TWO_FACTOR.maxWrongTries-th kills it. Dead, consumed or
 * expired challenges answer 400 challenge_expired: the user logs in again. Wrong codes also count for the
 * account and for this address and account (the account guard's rule: an address that has failed waits
 * a growing delay, one that has not is always checked, so the owner's right code still gets in).
 */
export async function completeLoginChallenge(
  deps: Deps,
  challengeToken: string,
  code: string,
  ip: string,
): Promise<string> {
  const now = deps.clock.now();
  const [challenge] = await deps.db
    .select()
    .from(twoFactorChallenges)
    .where(eq(twoFactorChallenges.tokenHash, sha256(challengeToken)))
    .limit(1);
  const dead = new AppError(400, 'challenge_expired', m.challengeExpired);
  if (!challenge || challenge.consumedAt || challenge.expiresAt.getTime() <= now.getTime()) throw dead;
  if (challenge.wrongTries >= TWO_FACTOR.maxWrongTries)
    throw new AppError(400, 'challenge_dead', m.challengeTooManyTries);
  // Per account as well as per challenge: whoever has the password can open challenge after challenge.
  await assertSecondFactorAllowed(deps.db, now, challenge.userId, ip);

  const right = challenge.emailCodeHash
    ? safeEqualHex(sha256(code.replace(/\s+/g, '')), challenge.emailCodeHash)
    : await verifySecondFactor(deps, challenge.userId, code);
  if (!right) {
    await recordSecondFactorFailure(deps.db, now, challenge.userId, ip);
    const [updated] = await deps.db
      .update(twoFactorChallenges)
      .set({ wrongTries: sql`${twoFactorChallenges.wrongTries} + 1` })
      .where(eq(twoFactorChallenges.id, challenge.id))
      .returning({ wrongTries: twoFactorChallenges.wrongTries });
    if ((updated?.wrongTries ?? TWO_FACTOR.maxWrongTries) >= TWO_FACTOR.maxWrongTries) {
      throw new AppError(400, 'challenge_dead', m.challengeTooManyTries);
    }
    throw new AppError(400, 'invalid_code', m.twoFactorInvalidCode);
  }
  const consumed = await deps.db
    .update(twoFactorChallenges)
    .set({ consumedAt: now })
    .where(
      and(
        eq(twoFactorChallenges.id, challenge.id),
        isNull(twoFactorChallenges.consumedAt),
        gt(twoFactorChallenges.expiresAt, now),
      ),
    )
    .returning({ id: twoFactorChallenges.id });
  if (consumed.length === 0) throw dead;
  await clearSecondFactorFailures(deps.db, challenge.userId, ip);
  // Old challenges of this user are of no further use.
  await deps.db
    .delete(twoFactorChallenges)
    .where(and(eq(twoFactorChallenges.userId, challenge.userId), lt(twoFactorChallenges.expiresAt, now)));
  return challenge.userId;
}
