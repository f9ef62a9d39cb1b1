// Publishing and scheduling tables (issue 9; accounts spec 3, 4, 5): connected social accounts (tokens sealed
// at rest), pending OAuth flows, posts (published now or scheduled), and the embedded sandbox networks.
import {
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { collaborations } from './marketplace.ts';
import { timestamps, users } from './users.ts';

export const socialAccounts = pgTable(
  'social_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    mode: text('mode', { enum: ['sandbox', 'live'] }).notNull(),
    externalId: text('external_id'),
    username: text('username'),
    /**
     * The followers the network reports (X users/me, LinkedIn memberFollowersCount, the sandbox's follows),
     * refreshed by social/metrics.ts; null while the network has not reported any.
     */
    followerCount: integer('follower_count'),
    /** When follower_count was last read from the network. */
    metricsUpdatedAt: timestamp('metrics_updated_at', { withTimezone: true }),
    /** AES-GCM sealed (server/features/security/secret-box.ts). */
    accessTokenSealed: text('access_token_sealed').notNull(),
    refreshTokenSealed: text('refresh_token_sealed'),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    status: text('status', { enum: ['connected', 'error'] })
      .notNull()
      .default('connected'),
    errorMessage: text('error_message'),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
    ...timestamps,
  },
  (t) => [uniqueIndex('social_accounts_user_platform_idx').on(t.userId, t.platform)],
);

/**
 * An authorization in progress: the state sent to the provider, the PKCE verifier (sealed), and the SHA-256 of the
 * nonce in the cookie of the browser that started it (the callback must come from that browser).
 */
export const socialOauthStates = pgTable('social_oauth_states', {
  state: text('state').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  platform: text('platform').notNull(),
  codeVerifierSealed: text('code_verifier_sealed').notNull(),
  browserNonceHash: text('browser_nonce_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const socialPosts = pgTable(
  'social_posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    message: text('message').notNull(),
    mediaUrls: jsonb('media_urls').$type<string[]>().notNull().default([]),
    scheduledTime: timestamp('scheduled_time', { withTimezone: true }).notNull(),
    timezone: text('timezone').notNull().default('UTC'),
    status: text('status', { enum: ['scheduled', 'published', 'failed', 'cancelled'] })
      .notNull()
      .default('scheduled'),
    /** 'now': POST /api/social/publish; 'scheduled': a scheduled post. */
    origin: text('origin', { enum: ['now', 'scheduled'] })
      .notNull()
      .default('scheduled'),
    /** The publish task (and pg-boss job) once the post is due; null while it waits. */
    taskId: uuid('task_id'),
    collaborationId: uuid('collaboration_id').references(() => collaborations.id, { onDelete: 'set null' }),
    /** image, video or text: which deliverables the post counts for. */
    mediaType: text('media_type').notNull().default('text'),
    errorMessage: text('error_message'),
    shareUrl: text('share_url'),
    externalId: text('external_id'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    /** Views the network reports (the sandbox counts unique visitors a day); null where a network reports none. */
    views: integer('views'),
    /** Likes, comments and shares (reposts, quotes) the network reports; null where it reports none. */
    likes: integer('likes'),
    comments: integer('comments'),
    shares: integer('shares'),
    /** When the figures above were last read from the network (social/metrics.ts). */
    metricsUpdatedAt: timestamp('metrics_updated_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('social_posts_due_idx').on(t.status, t.scheduledTime),
    index('social_posts_user_idx').on(t.userId, t.scheduledTime),
    index('social_posts_collaboration_idx').on(t.collaborationId),
  ],
);

/** The sandbox networks' side: grants (codes and tokens, hashed) of the local consent pages. */
export const sandboxGrants = pgTable(
  'sandbox_grants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    platform: text('platform').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    username: text('username').notNull(),
    codeHash: text('code_hash'),
    codeChallenge: text('code_challenge').notNull(),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }),
    accessTokenHash: text('access_token_hash'),
    accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }),
    refreshTokenHash: text('refresh_token_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sandbox_grants_code_idx').on(t.codeHash),
    uniqueIndex('sandbox_grants_access_idx').on(t.accessTokenHash),
    uniqueIndex('sandbox_grants_refresh_idx').on(t.refreshTokenHash),
  ],
);

/** Posts on a sandbox network: a public page at the share URL that counts its views. */
export const sandboxPosts = pgTable(
  'sandbox_posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    platform: text('platform').notNull(),
    grantId: uuid('grant_id').references(() => sandboxGrants.id, { onDelete: 'set null' }),
    username: text('username').notNull(),
    /** The client's idempotency key (our social post id): a retried publish returns the same post. */
    idempotencyKey: text('idempotency_key').notNull(),
    message: text('message').notNull(),
    mediaUrls: jsonb('media_urls').$type<string[]>().notNull().default([]),
    views: integer('views').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sandbox_posts_idempotency_idx').on(t.platform, t.idempotencyKey)],
);

/**
 * Unique views of sandbox posts: one row per post, visitor and UTC day. The visitor is an HMAC of the client
 * address and user agent under a server key (never stored in the clear); known bots are not recorded.
 */
export const sandboxPostViews = pgTable(
  'sandbox_post_views',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => sandboxPosts.id, { onDelete: 'cascade' }),
    visitorHash: text('visitor_hash').notNull(),
    day: date('day').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.visitorHash, t.day] })],
);

/** Likes on sandbox posts: one per post and visitor (the Like button of the share page). */
export const sandboxPostLikes = pgTable(
  'sandbox_post_likes',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => sandboxPosts.id, { onDelete: 'cascade' }),
    visitorHash: text('visitor_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.visitorHash] })],
);

/**
 * Followers of a sandbox account (a platform and the studio user who holds it): one per visitor (the Follow
 * button of the share page).
 */
export const sandboxFollows = pgTable(
  'sandbox_follows',
  {
    platform: text('platform').notNull(),
    ownerUserId: uuid('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    visitorHash: text('visitor_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.platform, t.ownerUserId, t.visitorHash] })],
);

/**
 * The publish journal of the live connectors (issue 28): per network, account and idempotency key (our post id),
 * what a publish started at the network and what the network answered (a container id, a publish_id, an upload
 * session, the final outcome), so that a retried publish in any process, after any restart, resumes it instead of
 * posting again. Never tokens. `claimed_by`/`claimed_until` keep one process at a time on a publish (a lease it
 * renews while it runs). Rows not updated for three days are swept (social/publish-journal.ts).
 */
export const socialPublishJournal = pgTable(
  'social_publish_journal',
  {
    platform: text('platform').notNull(),
    /** The account's id on the network (the author: Page id, IG user id, open_id, channel id). */
    accountId: text('account_id').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** The connector's resumable state (JSON); null before anything was recorded. */
    state: jsonb('state').$type<Record<string, unknown>>(),
    /** The attempt holding the publish now, and until when its lease runs (database time). */
    claimedBy: text('claimed_by'),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.platform, t.accountId, t.idempotencyKey] }),
    index('social_publish_journal_updated_idx').on(t.updatedAt),
  ],
);
