// Accounts and sign-in: roles, statuses, codes, passwords, sessions, trial, lock-out. Named by the spec; server and web import them.

export const ROLES = ['creator', 'brand', 'admin'] as const;

export type Role = (typeof ROLES)[number];

export const USER_STATUSES = ['pending', 'approved_creator', 'regular_user'] as const;

export type UserStatus = (typeof USER_STATUSES)[number];

/** Roles a visitor may pick when registering; admins come from the seed or `npm run create-admin`. */
export const SELF_SERVICE_ROLES = ['creator', 'brand'] as const;

export const EMAIL_CODE = {
  length: 6,
  expiresInSeconds: 600,
  resendCooldownSeconds: 30,
  maxWrongTries: 5,
} as const;

export const WELCOME_CREDITS = 200;

export const TRIAL_DAYS = 14;

export const SESSION_TTL_DAYS = 30;

export const PASSWORD_MIN_LENGTH = 8;

export const PASSWORD_MAX_LENGTH = 128;

/**
 * The lowest zxcvbn score (0–4) a new password may have: 3 means about 10^8 guesses or more ('safely
 * unguessable' for an online attack, moderate protection offline). Common, breached and keyboard-walk
 * passwords score 0–2.
 */
export const PASSWORD_MIN_SCORE = 3;

/** Password reset by a mailed code (POST /api/auth/password-reset/request and /confirm). */
export const PASSWORD_RESET = {
  codeLength: 6,
  expiresInSeconds: 1800,
  /** Wrong codes before this code stops working (a new one can be requested). */
  maxWrongTries: 5,
  /** Reset mails per email address within requestWindowMinutes; further requests get the same answer and no mail. */
  maxRequestsPerEmail: 3,
  requestWindowMinutes: 60,
} as const;

export const NAME_MAX_LENGTH = 80;

export const SUBSCRIPTION_STATUSES = [
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'incomplete',
  'incomplete_expired',
  'paused',
] as const;

export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const SUBSCRIPTION_ACCESS_STATUSES: readonly SubscriptionStatus[] = ['trialing', 'active'];

export const DEVICE_TYPES = ['desktop', 'mobile', 'tablet'] as const;

export type DeviceType = (typeof DEVICE_TYPES)[number];

/** Limits on failed attempts, kept in auth_attempts (on top of the per-IP request rate RATE_LIMIT_AUTH_PER_MINUTE). */
export const AUTH_LOCKOUT = {
  windowMinutes: 15,
  /** Failed log-ins for one email from one client address within the window before that address gets 429 for it. */
  maxFailedLogins: 10,
  /** Failed log-ins from one client address, whatever the email, before that address gets 429 for every account. */
  maxFailedLoginsPerAddress: 50,
  /** Wrong verification codes for one account within the window before further checks answer 429. */
  maxFailedCodes: 15,
} as const;

/**
 * Guessing one account from many addresses (kept in auth_attempts, so it holds across API processes).
 * Failures are counted per account over guardWindowHours. From guardAfterFailures on, a correct password
 * alone no longer opens a session: the owner also gives a code mailed to the account's address (or the
 * TOTP code when two-factor is on). And every address that has failed for the account waits before its
 * next try, 2^(failures − guardAfterFailures) seconds up to maxDelaySeconds after the account's latest
 * failure; an address that has not failed for the account (the owner's, as a rule) is always checked, so
 * the owner is never locked out. Wrong two-factor codes follow the same rule per account.
 */
export const ACCOUNT_GUARD = {
  guardWindowHours: 24,
  guardAfterFailures: 5,
  maxDelaySeconds: 600,
  /** The mailed sign-in code of a guarded log-in. */
  loginCodeLength: 6,
  loginCodeExpiresInSeconds: 600,
} as const;

export const TRIAL_PLAN = 'trial';

/** Where the Contact Support page (/contact) sends people. */
export const SUPPORT_EMAIL = 'support@genpro.studio';
