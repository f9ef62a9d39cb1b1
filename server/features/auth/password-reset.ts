import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { PASSWORD_RESET } from '../../../common/api/auth.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { passwordResetCodes, users } from '../../db/schema/index.ts';
import {
  assertResetChecksAllowed,
  clearAccountGuard,
  recordResetCheckFailure,
  takeResetMailAllowance,
} from '../../platform/auth/attempts.ts';
import { generateNumericCode, hashPassword, safeEqualHex, sha256 } from '../../platform/auth/crypto.ts';
import { assertStrongPassword } from '../../platform/auth/password-strength.ts';
import { type RequestMeta, revokeAllSessions } from '../../platform/auth/sessions.ts';
import { AppError } from '../../platform/errors.ts';
import { passwordResetCodeMail } from '../../platform/mail/templates.ts';
import { mailFailureForLog } from '../../platform/mail/types.ts';
import { sendPasswordResetMail } from '../security/alerts.ts';
import { findUserByEmail } from './users.ts';

// Password reset by a code mailed to the account's address: POST /api/auth/password-reset/request, then
// /confirm with the code and the new password. Only the SHA-256 of a code is kept; the newest unused code
// of a user counts, for PASSWORD_RESET.expiresInSeconds and maxWrongTries wrong tries, once.

type Deps = Pick<AppContext, 'db' | 'clock' | 'mail' | 'log'>;
const codes = passwordResetCodes;
const m = MESSAGES.passwordReset;

/**
 * POST /api/auth/password-reset/request. Every email gets the same answer at the same pace: the request is
 * counted per email (PASSWORD_RESET.maxRequestsPerEmail mails per requestWindowMinutes, whether or not an
 * account has it) and, when it is an account's and under that count, a new code replaces its older unused
 * ones. The mail is handed to the mailer without waiting for it (an SMTP delivery would otherwise make the
 * answer slower for emails that have an account); a failure is logged (and kept on the outbox row).
 */
export async function requestPasswordReset(deps: Deps, email: string): Promise<void> {
  const now = deps.clock.now();
  const issued = await deps.db.transaction(async (tx) => {
    if (!(await takeResetMailAllowance(tx, now, email))) return null;
    const user = await findUserByEmail(tx, email);
    if (!user) return null;
    const code = generateNumericCode(PASSWORD_RESET.codeLength);
    await tx.delete(codes).where(and(eq(codes.userId, user.id), isNull(codes.consumedAt)));
    await tx.insert(codes).values({
      userId: user.id,
      codeHash: sha256(code),
      expiresAt: new Date(now.getTime() + PASSWORD_RESET.expiresInSeconds * 1000),
      createdAt: now,
    });
    return { user, code };
  });
  if (!issued) return;
  deps.mail
    .send(passwordResetCodeMail(issued.user.email, issued.user.firstName, issued.code))
    .catch((error: unknown) => {
      deps.log.warn({ ...mailFailureForLog(error), userId: issued.user.id }, 'password reset mail could not be sent');
    });
}

function codeError(code: 'invalid_code' | 'code_expired' | 'code_dead', message: string): AppError {
  return new AppError(400, code, message);
}

/**
 * POST /api/auth/password-reset/confirm. Unknown emails and wrong codes get the same 400 invalid_code; wrong
 * codes count per email (any account or none) and against the code. The code is checked before the new
 * password, which must then be strong (assertStrongPassword; the code stays usable for a better one). On
 * success the code is consumed, the password set, every session of the account revoked, the account's
 * failed-log-in guard cleared, and the owner mailed a notice.
 */
export async function confirmPasswordReset(
  deps: Deps,
  input: { email: string; code: string; newPassword: string },
  meta: RequestMeta,
): Promise<void> {
  const now = deps.clock.now();
  await assertResetChecksAllowed(deps.db, now, input.email);
  const user = await findUserByEmail(deps.db, input.email);
  const [current] = user
    ? await deps.db
        .select()
        .from(codes)
        .where(and(eq(codes.userId, user.id), isNull(codes.consumedAt)))
        .orderBy(desc(codes.createdAt))
        .limit(1)
    : [];
  if (!user || !current) {
    await recordResetCheckFailure(deps.db, now, input.email);
    throw codeError('invalid_code', m.invalidCode);
  }
  if (current.expiresAt.getTime() <= now.getTime()) throw codeError('code_expired', m.expired);
  if (current.wrongTries >= PASSWORD_RESET.maxWrongTries) throw codeError('code_dead', m.tooManyWrong);
  if (!safeEqualHex(sha256(input.code), current.codeHash)) {
    await recordResetCheckFailure(deps.db, now, input.email);
    // Atomic and capped, so parallel guesses cannot spend more than maxWrongTries on one code.
    const [counted] = await deps.db
      .update(codes)
      .set({ wrongTries: sql`${codes.wrongTries} + 1` })
      .where(
        and(eq(codes.id, current.id), isNull(codes.consumedAt), lt(codes.wrongTries, PASSWORD_RESET.maxWrongTries)),
      )
      .returning({ wrongTries: codes.wrongTries });
    if (!counted || counted.wrongTries >= PASSWORD_RESET.maxWrongTries) throw codeError('code_dead', m.tooManyWrong);
    throw codeError('invalid_code', m.invalidCode);
  }

  assertStrongPassword(input.newPassword, user, 'newPassword');
  const passwordHash = await hashPassword(input.newPassword);
  await deps.db.transaction(async (tx) => {
    const consumed = await tx
      .update(codes)
      .set({ consumedAt: now })
      .where(
        and(
          eq(codes.id, current.id),
          isNull(codes.consumedAt),
          lt(codes.wrongTries, PASSWORD_RESET.maxWrongTries),
          gt(codes.expiresAt, now),
        ),
      )
      .returning({ id: codes.id });
    if (consumed.length === 0) throw codeError('invalid_code', m.invalidCode);
    await tx.update(users).set({ passwordHash, lastPasswordChange: now, updatedAt: now }).where(eq(users.id, user.id));
    await revokeAllSessions(tx, now, user.id);
    await clearAccountGuard(tx, user.email);
  });
  await sendPasswordResetMail(deps, user, meta);
}
