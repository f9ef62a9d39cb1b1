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

export const TRIAL_PLAN = 'trial';

/** Where the Contact Support page (/contact) sends people. */
export const SUPPORT_EMAIL = 'support@genpro.studio';
