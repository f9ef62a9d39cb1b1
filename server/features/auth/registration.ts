import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { EMAIL_CODE } from '../../../common/api/auth.constants.ts';
import type { RegisterBody } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { pendingRegistrations } from '../../db/schema/index.ts';
import {
  assertCodeChecksAllowed,
  recordCodeFailure,
  recordResend,
  resendWaitSeconds,
} from '../../platform/auth/attempts.ts';
import { generateNumericCode, hashPassword, safeEqualHex, sha256 } from '../../platform/auth/crypto.ts';
import { assertStrongPassword } from '../../platform/auth/password-strength.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { createSession, type RequestMeta } from '../../platform/auth/sessions.ts';
import { AppError } from '../../platform/errors.ts';
import { registrationAttemptMail, verificationCodeMail } from '../../platform/mail/templates.ts';
import { mailFailureForLog } from '../../platform/mail/types.ts';
import { insertAccount, type SignedIn } from './service.ts';
import { findUserByEmail, loadUserDto } from './users.ts';
import { grantWelcomeCreditsOncePerEmail } from './welcome.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'mail' | 'log' | 'config'>;
const pending = pendingRegistrations;
/** How long a pending registration is kept after its code expired (its email and password hash with it). */
const PENDING_KEPT_MS = 86_400_000;

const normalizedEmail = (email: string) => email.trim().toLowerCase();

/**
 * POST /api/auth/register (issue 27: registration must not tell who has an account). New and taken emails get
 * the same answer (202, "we sent a code"), the same scrypt work and one mail each:
 * - a new email gets a pending registration (details, password hash and the SHA-256 of a new code; registering
 *   again replaces them and mails a new code) and the code. No account and no session exist until the code
 *   comes back (verifyRegistration), so signing in with the chosen password fails alike for both cases.
 * - a taken email gets nothing stored; its owner is mailed that someone tried to register with it, with how to
 *   sign in or reset the password (at most once per EMAIL_CODE.resendCooldownSeconds per address, silently, so
 *   the endpoint cannot flood an owner's inbox).
 * Mail failures are logged, never answered: the answer would tell the cases apart.
 */
export async function registerUser(deps: Deps, input: RegisterBody): Promise<void> {
  const now = deps.clock.now();
  const email = normalizedEmail(input.email);
  // Checked before the email is looked up, so a weak password is refused alike for new and taken emails.
  assertStrongPassword(input.password, { email, firstName: input.first_name, lastName: input.last_name });
  const passwordHash = await hashPassword(input.password);
  const outcome = await deps.db.transaction(async (tx) => {
    // Sign-ups never finished leave with the next registration a day after their code expired.
    await tx.delete(pending).where(lt(pending.expiresAt, new Date(now.getTime() - PENDING_KEPT_MS)));
    const owner = await findUserByEmail(tx, email);
    if (owner) {
      if ((await resendWaitSeconds(tx, now, email, EMAIL_CODE.resendCooldownSeconds)) > 0) return null;
      await recordResend(tx, now, email);
      return { kind: 'taken' as const, owner };
    }
    const code = generateNumericCode(EMAIL_CODE.length);
    const details = {
      firstName: input.first_name,
      lastName: input.last_name,
      passwordHash,
      role: input.role,
      codeHash: sha256(code),
      expiresAt: new Date(now.getTime() + EMAIL_CODE.expiresInSeconds * 1000),
      wrongTries: 0,
      updatedAt: now,
    };
    try {
      await tx
        .insert(pending)
        .values({ email, ...details, createdAt: now })
        .onConflictDoUpdate({ target: pending.email, set: details });
    } catch (error) {
      // The failed query's parameters (and the database's "failing row") hold the code's SHA-256, which gives
      // a six-digit code away, and the password hash: the error that gets logged must not carry them.
      throw new Error(`the registration could not be stored (SQLSTATE ${sqlStateOf(error)})`);
    }
    await recordResend(tx, now, email);
    return { kind: 'new' as const, code, firstName: input.first_name };
  });
  if (!outcome) return;
  try {
    if (outcome.kind === 'taken') {
      await deps.mail.send(registrationAttemptMail(email, outcome.owner.firstName, deps.config.publicUrl));
    } else {
      await deps.mail.send(verificationCodeMail(email, outcome.firstName, outcome.code));
    }
  } catch (error) {
    deps.log.warn({ ...mailFailureForLog(error), kind: outcome.kind }, 'registration mail could not be sent');
  }
}

/**
 * POST /api/auth/resend-verification for an address with a pending registration: a new code replaces the old
 * one (same answer as every other address; the caller applies the cooldown). Returns whether a code was sent.
 */
export async function reissuePendingCode(
  tx: DbOrTx,
  now: Date,
  email: string,
): Promise<{ code: string; firstName: string } | null> {
  const code = generateNumericCode(EMAIL_CODE.length);
  try {
    const [row] = await tx
      .update(pending)
      .set({
        codeHash: sha256(code),
        expiresAt: new Date(now.getTime() + EMAIL_CODE.expiresInSeconds * 1000),
        wrongTries: 0,
        updatedAt: now,
      })
      .where(eq(pending.email, normalizedEmail(email)))
      .returning({ firstName: pending.firstName });
    return row ? { code, firstName: row.firstName } : null;
  } catch (error) {
    throw new Error(`the registration code could not be stored (SQLSTATE ${sqlStateOf(error)})`);
  }
}

/**
 * POST /api/auth/verify-code with `email`: the code mailed at registration creates the account (verified, with
 * its trial; the welcome credits once per mailbox ever, see welcome.ts) and signs it in. An address without a
 * pending registration (unknown, or an existing account) answers like a wrong code. A code dies after
 * EMAIL_CODE.maxWrongTries wrong tries or EMAIL_CODE.expiresInSeconds; failed checks are also counted per
 * address (AUTH_LOCKOUT.maxFailedCodes), so registering again for fresh codes does not buy unlimited guesses.
 * Two verifications racing: only the one that deletes the pending row creates the account.
 */
export async function verifyRegistration(
  deps: Deps,
  input: { email: string; code: string },
  meta: RequestMeta,
): Promise<SignedIn> {
  const now = deps.clock.now();
  const email = normalizedEmail(input.email);
  const subject = `pending:${email}`;
  await assertCodeChecksAllowed(deps.db, now, subject);
  const [row] = await deps.db.select().from(pending).where(eq(pending.email, email)).limit(1);
  if (!row) {
    await recordCodeFailure(deps.db, now, subject);
    throw codeError('invalid_code', MESSAGES.verification.invalidCode);
  }
  if (row.expiresAt.getTime() <= now.getTime()) throw codeError('code_expired', MESSAGES.verification.expired);
  if (row.wrongTries >= EMAIL_CODE.maxWrongTries) throw codeError('code_dead', MESSAGES.verification.tooManyWrong);

  if (!safeEqualHex(sha256(input.code), row.codeHash)) {
    await recordCodeFailure(deps.db, now, subject);
    const [counted] = await deps.db
      .update(pending)
      .set({ wrongTries: sql`${pending.wrongTries} + 1`, updatedAt: now })
      .where(and(eq(pending.id, row.id), lt(pending.wrongTries, EMAIL_CODE.maxWrongTries)))
      .returning({ wrongTries: pending.wrongTries });
    if (!counted || counted.wrongTries >= EMAIL_CODE.maxWrongTries) {
      throw codeError('code_dead', MESSAGES.verification.tooManyWrong);
    }
    throw codeError('invalid_code', MESSAGES.verification.invalidCode);
  }

  let created: { user: UserRow; token: string };
  try {
    created = await deps.db.transaction(async (tx) => {
      const [claimed] = await tx
        .delete(pending)
        .where(
          and(
            eq(pending.id, row.id),
            eq(pending.codeHash, row.codeHash),
            lt(pending.wrongTries, EMAIL_CODE.maxWrongTries),
            gt(pending.expiresAt, now),
          ),
        )
        .returning();
      if (!claimed) throw codeError('invalid_code', MESSAGES.verification.invalidCode);
      const user = await insertAccount(tx, now, {
        firstName: claimed.firstName,
        lastName: claimed.lastName,
        email: claimed.email,
        passwordHash: claimed.passwordHash,
        role: claimed.role,
        userStatus: claimed.role === 'creator' ? 'pending' : null,
        isVerified: true,
        grantWelcome: false,
      });
      await grantWelcomeCreditsOncePerEmail(tx, deps.config, user);
      const { token } = await createSession(tx, now, user.id, meta);
      return { user, token };
    });
  } catch (error) {
    // The address got an account meanwhile (an admin created it): the code no longer creates one.
    if (isUniqueViolation(error)) throw codeError('invalid_code', MESSAGES.verification.invalidCode);
    throw error;
  }
  return { token: created.token, user: await loadUserDto(deps.db, created.user.id, now) };
}

function codeError(code: 'invalid_code' | 'code_expired' | 'code_dead', message: string): AppError {
  return new AppError(400, code, message);
}

function sqlStateOf(error: unknown): string {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if ('code' in e && typeof e.code === 'string') return e.code;
    e = 'cause' in e ? e.cause : undefined;
  }
  return 'unknown';
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (typeof e !== 'object') return false;
    if ('code' in e && e.code === '23505') return true;
    e = 'cause' in e ? e.cause : undefined;
  }
  return false;
}
