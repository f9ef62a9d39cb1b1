import { eq } from 'drizzle-orm';
import type { SecurityState } from '../../../common/api/account.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { userSettings, users } from '../../db/schema/index.ts';
import { assertLoginAllowed, clearLoginFailures, recordLoginFailure } from '../../platform/auth/attempts.ts';
import { hashPassword, verifyPassword } from '../../platform/auth/crypto.ts';
import { assertStrongPassword } from '../../platform/auth/password-strength.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { listSessions, type RequestMeta, revokeOtherSessions } from '../../platform/auth/sessions.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { storedSettings } from '../../platform/user-settings.ts';
import { sendPasswordChangedMail } from './alerts.ts';
import { twoFactorRow } from './two-factor.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'mail' | 'log'>;
const m = MESSAGES.account;

/**
 * Checks the signed-in user's password before a sensitive change. Wrong answers count as failed
 * log-ins of the account from this address (same limits, same suspicious-activity count), so a stolen
 * session cannot be used to guess the password at leisure.
 */
export async function confirmPassword(
  deps: Pick<Deps, 'db' | 'clock'>,
  user: UserRow,
  password: string,
  message: string,
  ip: string,
): Promise<void> {
  const now = deps.clock.now();
  const origin = { ip, email: user.email };
  await assertLoginAllowed(deps.db, now, origin);
  if (!(await verifyPassword(password, user.passwordHash))) {
    await recordLoginFailure(deps.db, now, origin);
    throw new AppError(400, 'wrong_password', message);
  }
  await clearLoginFailures(deps.db, origin);
}

/** GET /api/users/security. */
export async function getSecurityState(
  deps: Pick<Deps, 'db' | 'clock'>,
  userId: string,
  currentSessionId: string | null,
): Promise<SecurityState> {
  const now = deps.clock.now();
  const [user] = await deps.db
    .select({ lastPasswordChange: users.lastPasswordChange })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  const twoFactor = await twoFactorRow(deps.db, userId);
  const enabled = twoFactor?.enabledAt != null;
  const prefs = await storedSettings(deps.db, userId);
  return {
    twoFactorEnabled: enabled,
    recoveryCodesLeft: enabled ? (twoFactor?.recoveryCodeHashes.length ?? 0) : 0,
    loginNotifications: prefs.loginNotifications,
    suspiciousActivityAlerts: prefs.suspiciousActivityAlerts,
    recentSessions: await listSessions(deps.db, now, userId, currentSessionId),
    lastPasswordChange: user?.lastPasswordChange?.toISOString() ?? null,
  };
}

/**
 * action 'change_password': the current password must be right and the new one different and strong
 * (assertStrongPassword); on
 * success last_password_change is set, every other session is revoked (this one stays) and a
 * notification mail goes out.
 */
export async function changePassword(
  deps: Deps,
  user: UserRow,
  sessionId: string,
  input: { currentPassword: string; newPassword: string },
  meta: RequestMeta,
): Promise<void> {
  await confirmPassword(deps, user, input.currentPassword, m.currentPasswordWrong, meta.ip);
  if (input.newPassword === input.currentPassword) throw badRequest(m.samePassword);
  assertStrongPassword(input.newPassword, user, 'newPassword');
  const passwordHash = await hashPassword(input.newPassword);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, lastPasswordChange: now, updatedAt: now }).where(eq(users.id, user.id));
    await revokeOtherSessions(tx, now, user.id, sessionId);
  });
  await sendPasswordChangedMail(deps, user, meta);
}

/** action 'update_alerts': the two alert toggles (kept with the other settings). */
export async function updateAlerts(
  deps: Pick<Deps, 'db' | 'clock'>,
  userId: string,
  input: { loginNotifications?: boolean; suspiciousActivityAlerts?: boolean },
): Promise<void> {
  const patch = {
    ...(input.loginNotifications === undefined ? {} : { loginNotifications: input.loginNotifications }),
    ...(input.suspiciousActivityAlerts === undefined
      ? {}
      : { suspiciousActivityAlerts: input.suspiciousActivityAlerts }),
  };
  if (Object.keys(patch).length === 0) return;
  const now = deps.clock.now();
  await deps.db
    .insert(userSettings)
    .values({ userId, ...patch, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: userSettings.userId, set: { ...patch, updatedAt: now } });
}
