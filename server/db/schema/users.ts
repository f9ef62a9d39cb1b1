import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    phone: text('phone'),
    bio: text('bio'),
    location: text('location'),
    website: text('website'),
    timezone: text('timezone').notNull().default('UTC'),
    role: text('role', { enum: ['creator', 'brand', 'admin'] }).notNull(),
    userStatus: text('user_status', { enum: ['pending', 'approved_creator', 'regular_user'] }),
    creatorType: text('creator_type'),
    isVerified: boolean('is_verified').notNull().default(false),
    credits: integer('credits').notNull().default(0),
    /** Brand campaign wallet and creator earnings, euro cents (ledger: money_transactions). */
    walletCents: integer('wallet_cents').notNull().default(0),
    earningsCents: integer('earnings_cents').notNull().default(0),
    avatarUrl: text('avatar_url'),
    lastPasswordChange: timestamp('last_password_change', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [uniqueIndex('users_email_unique').on(sql`lower(${t.email})`)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    deviceType: text('device_type').notNull(),
    userAgent: text('user_agent'),
    ip: text('ip'),
    location: text('location').notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [uniqueIndex('sessions_token_hash_unique').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

export const emailVerificationCodes = pgTable(
  'email_verification_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    wrongTries: integer('wrong_tries').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index('email_codes_user_idx').on(t.userId)],
);

/** Failed log-ins and code checks, counted per account (and per IP) over a sliding window. */
export const authAttempts = pgTable(
  'auth_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /**
     * 'login' (failed passwords, 15-minute window), 'verify' (wrong email codes), 'resend' (code mails),
     * 'login_guard' and 'code_guard' (failed passwords and two-factor codes per account and per address and
     * account, ACCOUNT_GUARD's 24-hour window), 'reset_request' (reset mails per email), 'reset_check'
     * (reset codes checked per email).
     */
    kind: text('kind', {
      enum: ['login', 'verify', 'resend', 'login_guard', 'code_guard', 'reset_request', 'reset_check'],
    }).notNull(),
    subject: text('subject').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('auth_attempts_lookup_idx').on(t.kind, t.subject, t.createdAt)],
);

/**
 * Password reset codes (POST /api/auth/password-reset/*): only the SHA-256 of the mailed code is kept; the
 * newest unused code of a user counts, for PASSWORD_RESET.expiresInSeconds and maxWrongTries wrong tries.
 */
export const passwordResetCodes = pgTable(
  'password_reset_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    wrongTries: integer('wrong_tries').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('password_reset_codes_user_idx').on(t.userId)],
);

export const subscriptions = pgTable('subscriptions', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  planType: text('plan_type').notNull(),
  status: text('status').notNull(),
  trialEnd: timestamp('trial_end', { withTimezone: true }),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  provider: text('provider').notNull().default('local'),
  providerSubscriptionId: text('provider_subscription_id'),
  ...timestamps,
});

export { timestamps };

/**
 * Sign-ups waiting for their email code (issue 27): no account exists until the code mailed to the address is
 * given, so registering answers alike for new and taken emails. One row per (lower-cased) email; registering
 * again replaces the details and the code. Only the SHA-256 of the code is stored.
 */
export const pendingRegistrations = pgTable(
  'pending_registrations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['creator', 'brand'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    wrongTries: integer('wrong_tries').notNull().default(0),
    ...timestamps,
  },
  (t) => [uniqueIndex('pending_registrations_email_unique').on(t.email)],
);

/**
 * Keyed hashes (HMAC-SHA256, see features/auth/welcome.ts) of every normalized email that received the
 * welcome credits through sign-up. No foreign key: the rows outlive account deletion, so deleting the account
 * and registering the same email again grants nothing.
 */
export const welcomeCreditEmails = pgTable('welcome_credit_emails', {
  emailHash: text('email_hash').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
