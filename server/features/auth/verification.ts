import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { EMAIL_CODE } from '../../../common/api/auth.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { emailVerificationCodes, users } from '../../db/schema/index.ts';
import {
  assertCodeChecksAllowed,
  recordCodeFailure,
  recordResend,
  resendWaitSeconds,
} from '../../platform/auth/attempts.ts';
import { generateNumericCode, safeEqualHex, sha256 } from '../../platform/auth/crypto.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { createSession, type RequestMeta, revokeSession } from '../../platform/auth/sessions.ts';
import { AppError, tooManyRequests } from '../../platform/errors.ts';
import { verificationCodeMail } from '../../platform/mail/templates.ts';
import { mailFailureForLog } from '../../platform/mail/types.ts';
import { reissuePendingCode } from './registration.ts';
import { grantWelcomeCreditsOncePerEmail } from './welcome.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'mail' | 'log' | 'config'>;
const codes = emailVerificationCodes;

/** A new code for the user; older unused codes stop working. Only the SHA-256 of the code is stored. */
async function issueVerificationCode(db: DbOrTx, now: Date, userId: string): Promise<string> {
  const code = generateNumericCode(EMAIL_CODE.length);
  await db.delete(codes).where(and(eq(codes.userId, userId), isNull(codes.consumedAt)));
  try {
    await db.insert(codes).values({
      userId,
      codeHash: sha256(code),
      expiresAt: new Date(now.getTime() + EMAIL_CODE.expiresInSeconds * 1000),
      createdAt: now,
      updatedAt: now,
    });
  } catch (error) {
    // The failed query's parameters (and the database's "failing row") hold the hash, and the SHA-256 of
    // a six-digit code gives the code away: the error that gets logged must not carry them.
    throw new Error(`the verification code could not be stored (SQLSTATE ${sqlStateOf(error)})`);
  }
  return code;
}

function sqlStateOf(error: unknown): string {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if ('code' in e && typeof e.code === 'string') return e.code;
    e = 'cause' in e ? e.cause : undefined;
  }
  return 'unknown';
}

/**
 * POST /api/auth/resend-verification. Unknown, unverified and already-verified emails get the same answer:
 * 200, or within EMAIL_CODE.resendCooldownSeconds of the last request for that address (any account or none)
 * 429 with the seconds left, so the endpoint does not reveal accounts. Only an unverified account or a pending
 * registration (registration.ts) is sent a code, which replaces the old one.
 *
 * A failed delivery is only reported (502, the spec's 'Failed to send verification email') to the signed-in
 * owner of the address, who knows the account exists: the verification page. Anyone else gets the same 200;
 * the failure is logged and kept on the outbox row.
 */
export async function resendVerification(deps: Deps, email: string, asker: UserRow | null): Promise<void> {
  const now = deps.clock.now();
  const waitSeconds = await resendWaitSeconds(deps.db, now, email, EMAIL_CODE.resendCooldownSeconds);
  if (waitSeconds > 0) throw tooManyRequests(MESSAGES.verification.cooldown(waitSeconds), waitSeconds);
  const outcome = await deps.db.transaction(async (tx) => {
    await recordResend(tx, now, email);
    const [user] = await tx
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${normalizedEmail(email)}`)
      .limit(1)
      .for('update');
    if (!user) {
      const reissued = await reissuePendingCode(tx, now, email);
      return reissued && { user: null, to: normalizedEmail(email), ...reissued };
    }
    if (user.isVerified) return null;
    return { user, to: user.email, firstName: user.firstName, code: await issueVerificationCode(tx, now, user.id) };
  });
  if (!outcome) return;
  try {
    await deps.mail.send(verificationCodeMail(outcome.to, outcome.firstName, outcome.code));
  } catch (error) {
    if (outcome.user && asker?.id === outcome.user.id) {
      throw new AppError(502, 'mail_failed', MESSAGES.verification.sendFailed);
    }
    deps.log.warn({ ...mailFailureForLog(error), userId: outcome.user?.id }, 'verification mail could not be sent');
  }
}

const normalizedEmail = (email: string) => email.trim().toLowerCase();

export interface VerifiedSession {
  token: string;
  alreadyVerified: boolean;
}

/**
 * POST /api/auth/verify-code for the signed-in user (accounts left unverified: created before sign-up became a
 * pending registration, or whose email was reset to unverified); sign-ups use verifyRegistration. The newest unused code counts; it dies after
 * EMAIL_CODE.maxWrongTries wrong tries or EMAIL_CODE.expiresInSeconds. Success marks the email verified,
 * grants the welcome credits (once per mailbox ever, see welcome.ts), consumes the code and rotates
 * the session (the old token stops working).
 */
export async function verifyCode(
  deps: Deps,
  auth: { user: UserRow; sessionId: string },
  code: string,
  meta: RequestMeta,
): Promise<VerifiedSession> {
  const now = deps.clock.now();
  const { user } = auth;
  await assertCodeChecksAllowed(deps.db, now, user.id);
  if (user.isVerified) {
    return { token: await rotateSession(deps.db, now, auth, meta), alreadyVerified: true };
  }

  const [current] = await deps.db
    .select()
    .from(codes)
    .where(and(eq(codes.userId, user.id), isNull(codes.consumedAt)))
    .orderBy(desc(codes.createdAt))
    .limit(1);
  if (!current || current.expiresAt.getTime() <= now.getTime())
    throw codeError('code_expired', MESSAGES.verification.expired);
  if (current.wrongTries >= EMAIL_CODE.maxWrongTries) throw codeError('code_dead', MESSAGES.verification.tooManyWrong);

  if (!safeEqualHex(sha256(code), current.codeHash)) {
    await recordCodeFailure(deps.db, now, user.id);
    // Atomic and capped, so parallel guesses cannot spend more than maxWrongTries on one code.
    const [counted] = await deps.db
      .update(codes)
      .set({ wrongTries: sql`${codes.wrongTries} + 1`, updatedAt: now })
      .where(and(eq(codes.id, current.id), isNull(codes.consumedAt), lt(codes.wrongTries, EMAIL_CODE.maxWrongTries)))
      .returning({ wrongTries: codes.wrongTries });
    if (!counted || counted.wrongTries >= EMAIL_CODE.maxWrongTries) {
      throw codeError('code_dead', MESSAGES.verification.tooManyWrong);
    }
    throw codeError('invalid_code', MESSAGES.verification.invalidCode);
  }

  return deps.db.transaction(async (tx) => {
    const consumed = await tx
      .update(codes)
      .set({ consumedAt: now, updatedAt: now })
      .where(
        and(
          eq(codes.id, current.id),
          isNull(codes.consumedAt),
          lt(codes.wrongTries, EMAIL_CODE.maxWrongTries),
          gt(codes.expiresAt, now),
        ),
      )
      .returning({ id: codes.id });
    if (consumed.length === 0) throw codeError('invalid_code', MESSAGES.verification.invalidCode);
    await tx.update(users).set({ isVerified: true, updatedAt: now }).where(eq(users.id, user.id));
    await grantWelcomeCreditsOncePerEmail(tx, deps.config, user);
    return { token: await rotateSession(tx, now, auth, meta), alreadyVerified: false };
  });
}

async function rotateSession(
  db: DbOrTx,
  now: Date,
  auth: { user: UserRow; sessionId: string },
  meta: RequestMeta,
): Promise<string> {
  await revokeSession(db, now, auth.user.id, auth.sessionId);
  return (await createSession(db, now, auth.user.id, meta)).token;
}

function codeError(code: 'invalid_code' | 'code_expired' | 'code_dead', message: string): AppError {
  return new AppError(400, code, message);
}
