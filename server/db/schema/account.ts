// Account, billing and security tables (issue 6; accounts spec 3): role profiles, bank accounts,
// settings, two-factor authentication, payment orders and the euro ledgers of wallets and earnings.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamps, users } from './users.ts';

const owner = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

export const creatorProfiles = pgTable('creator_profiles', {
  userId: owner().primaryKey(),
  displayName: text('display_name'),
  bio: text('bio'),
  location: text('location'),
  website: text('website'),
  primaryPlatform: text('primary_platform'),
  skills: jsonb('skills').$type<string[]>().notNull().default([]),
  niches: jsonb('niches').$type<string[]>().notNull().default([]),
  isVerified: boolean('is_verified').notNull().default(false),
  /** youtube, instagram, tiktok … profile URLs (creator card). */
  socialLinks: jsonb('social_links').$type<Record<string, string>>().notNull().default({}),
  /** Creator card pricing.starting_rate, in euro cents. */
  startingRateCents: integer('starting_rate_cents'),
  ...timestamps,
});

export const brandProfiles = pgTable('brand_profiles', {
  userId: owner().primaryKey(),
  companyName: text('company_name'),
  industry: text('industry'),
  companyWebsite: text('company_website'),
  companyDescription: text('company_description'),
  targetAudience: text('target_audience'),
  marketingObjectives: text('marketing_objectives'),
  budgetRange: text('budget_range'),
  companySize: text('company_size'),
  headquartersLocation: text('headquarters_location'),
  logoUrl: text('logo_url'),
  verificationStatus: text('verification_status', { enum: ['pending', 'verified', 'rejected'] })
    .notNull()
    .default('pending'),
  ...timestamps,
});

export const bankAccounts = pgTable(
  'bank_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: owner(),
    accountHolderName: text('account_holder_name').notNull(),
    /** Electronic format: upper case, no spaces. */
    iban: text('iban').notNull(),
    bicSwift: text('bic_swift'),
    bankName: text('bank_name'),
    isPrimary: boolean('is_primary').notNull().default(false),
    isVerified: boolean('is_verified').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('bank_accounts_user_idx').on(t.userId),
    uniqueIndex('bank_accounts_one_primary').on(t.userId).where(sql`${t.isPrimary}`),
  ],
);

/** Spec 3 Settings (timezone lives on users; twoFactorAuth mirrors user_two_factor.enabled_at). */
export const userSettings = pgTable('user_settings', {
  userId: owner().primaryKey(),
  emailNotifications: boolean('email_notifications').notNull().default(true),
  pushNotifications: boolean('push_notifications').notNull().default(true),
  marketingEmails: boolean('marketing_emails').notNull().default(false),
  weeklyReports: boolean('weekly_reports').notNull().default(true),
  profileVisibility: text('profile_visibility', { enum: ['public', 'private', 'friends', 'connections'] })
    .notNull()
    .default('public'),
  autoPublish: boolean('auto_publish').notNull().default(false),
  crossPostOptimization: boolean('cross_post_optimization').notNull().default(true),
  /** Who may see a video published to YouTube (its status.privacyStatus); private until the user chooses. */
  youtubePrivacy: text('youtube_privacy', { enum: ['private', 'unlisted', 'public'] })
    .notNull()
    .default('private'),
  languagePreference: text('language_preference', { enum: ['en', 'ar'] })
    .notNull()
    .default('en'),
  themePreference: text('theme_preference', { enum: ['dark', 'light', 'auto'] })
    .notNull()
    .default('dark'),
  notificationFrequency: text('notification_frequency').notNull().default('instant'),
  loginNotifications: boolean('login_notifications').notNull().default(true),
  suspiciousActivityAlerts: boolean('suspicious_activity_alerts').notNull().default(true),
  ...timestamps,
});

/** TOTP two-factor authentication (RFC 6238). Secrets are encrypted at rest with the app secret. */
export const userTwoFactor = pgTable('user_two_factor', {
  userId: owner().primaryKey(),
  secretEncrypted: text('secret_encrypted').notNull(),
  /** Null while enrolment waits for the first code. */
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  /** SHA-256 hashes of the unused recovery codes. */
  recoveryCodeHashes: jsonb('recovery_code_hashes').$type<string[]>().notNull().default([]),
  /** The last accepted time step: a code is never accepted twice. */
  lastUsedStep: integer('last_used_step'),
  ...timestamps,
});

/** A password log-in that still owes its second factor. */
export const twoFactorChallenges = pgTable(
  'two_factor_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: owner(),
    tokenHash: text('token_hash').notNull(),
    /**
     * Set for a guarded log-in of an account without two-factor (ACCOUNT_GUARD): the SHA-256 of the code
     * mailed to the account, which the challenge then takes instead of a TOTP code.
     */
    emailCodeHash: text('email_code_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    wrongTries: integer('wrong_tries').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('two_factor_challenges_token_unique').on(t.tokenHash)],
);

/** One checkout (local or Stripe): what is bought, for whom, and whether it was fulfilled. */
export const paymentOrders = pgTable(
  'payment_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: owner(),
    kind: text('kind', { enum: ['credits_topup', 'wallet_topup', 'subscription'] }).notNull(),
    provider: text('provider', { enum: ['local', 'stripe'] }).notNull(),
    /** Stripe Checkout Session id (cs_…); null for the local checkout. */
    providerSessionId: text('provider_session_id'),
    status: text('status', { enum: ['open', 'completed', 'cancelled', 'expired'] })
      .notNull()
      .default('open'),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('eur'),
    /** credits_topup: the package and its credits. */
    packageId: text('package_id'),
    credits: integer('credits'),
    planType: text('plan_type'),
    successUrl: text('success_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    fulfilledAt: timestamp('fulfilled_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('payment_orders_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('payment_orders_provider_session_unique').on(t.providerSessionId),
  ],
);

/** Webhook events already handled (Stripe event ids): a replay changes nothing. */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The euro ledgers, in integer cents: a brand's campaign wallet and a creator's earnings. The balances
 * live on users.wallet_cents / users.earnings_cents and change in the same transaction as their row.
 */
export const moneyTransactions = pgTable(
  'money_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: owner(),
    account: text('account', { enum: ['wallet', 'earnings'] }).notNull(),
    type: text('type', { enum: ['credit', 'debit'] }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    balanceAfterCents: integer('balance_after_cents').notNull(),
    /** 'topup', 'campaign_hold', 'campaign_release', 'collaboration_payout', 'payout', … */
    source: text('source').notNull(),
    /** The order, campaign or collaboration the change belongs to. */
    referenceId: text('reference_id'),
    description: text('description').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('money_tx_user_idx').on(t.userId, t.account, t.createdAt),
    uniqueIndex('money_tx_reference_unique').on(t.account, t.source, t.referenceId),
  ],
);
