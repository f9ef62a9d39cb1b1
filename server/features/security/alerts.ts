import { SUSPICIOUS_LOGIN_FAILURES } from '../../../common/api/account.constants.ts';
import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { deviceTypeFromUserAgent, locationLabelFromIp, type RequestMeta } from '../../platform/auth/sessions.ts';
import { type MailMessage, mailFailureForLog } from '../../platform/mail/types.ts';
import { storedSettings } from '../../platform/user-settings.ts';
import { newDeviceLoginMail, passwordChangedMail, passwordResetMail, suspiciousLoginMail } from './mails.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'mail' | 'log'>;

function details(meta: RequestMeta, at: Date) {
  return {
    deviceType: deviceTypeFromUserAgent(meta.userAgent),
    location: locationLabelFromIp(meta.ip),
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 200) ?? null,
    at,
  };
}

/** Security mails never fail the request that caused them: a delivery failure is logged (and kept on the outbox row). */
async function sendQuietly(deps: Deps, message: MailMessage, userId: string, kind: string): Promise<void> {
  try {
    await deps.mail.send(message);
  } catch (error) {
    deps.log.warn({ ...mailFailureForLog(error), userId, kind }, 'security mail could not be sent');
  }
}

export interface LoginFacts {
  /** No earlier session of the user had this device type and user agent. */
  newDevice: boolean;
  /** Failed password attempts for this account in the lockout window before this success. */
  failedAttempts: number;
}

/**
 * After a completed log-in: the new-device mail (when loginNotifications is on) and the
 * suspicious-activity mail after SUSPICIOUS_LOGIN_FAILURES or more failures (when
 * suspiciousActivityAlerts is on).
 */
export async function sendLoginAlerts(deps: Deps, user: UserRow, meta: RequestMeta, facts: LoginFacts): Promise<void> {
  const wantsNewDevice = facts.newDevice;
  const wantsSuspicious = facts.failedAttempts >= SUSPICIOUS_LOGIN_FAILURES;
  if (!wantsNewDevice && !wantsSuspicious) return;
  const prefs = await storedSettings(deps.db, user.id);
  const d = details(meta, deps.clock.now());
  if (wantsNewDevice && prefs.loginNotifications) {
    await sendQuietly(deps, newDeviceLoginMail(user.email, user.firstName, d), user.id, 'new_device');
  }
  if (wantsSuspicious && prefs.suspiciousActivityAlerts) {
    await sendQuietly(
      deps,
      suspiciousLoginMail(user.email, user.firstName, facts.failedAttempts, d),
      user.id,
      'suspicious',
    );
  }
}

export async function sendPasswordChangedMail(deps: Deps, user: UserRow, meta: RequestMeta): Promise<void> {
  await sendQuietly(
    deps,
    passwordChangedMail(user.email, user.firstName, details(meta, deps.clock.now())),
    user.id,
    'password_changed',
  );
}

export async function sendPasswordResetMail(deps: Deps, user: UserRow, meta: RequestMeta): Promise<void> {
  await sendQuietly(
    deps,
    passwordResetMail(user.email, user.firstName, details(meta, deps.clock.now())),
    user.id,
    'password_reset',
  );
}
