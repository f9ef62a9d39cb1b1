// Campaign marketplace tables (issue 8; accounts spec 3, 4, 6): campaigns and their materials,
// creators' applications, collaborations, and the admin audit log.
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { assets } from './assets.ts';
import { timestamps, users } from './users.ts';

export interface CampaignDeliverable {
  type: string;
  quantity: number;
}

export const campaigns = pgTable(
  'campaigns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    brandUserId: uuid('brand_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    objective: text('objective').notNull(),
    thumbnailUrl: text('thumbnail_url'),
    status: text('status', { enum: ['draft', 'open', 'running', 'completed'] })
      .notNull()
      .default('draft'),
    /** The whole budget in euro cents; held from the wallet while the campaign is open or running. */
    budgetCents: integer('budget_cents').notNull(),
    /** What is still held for this campaign (budget minus payouts); released when it completes. */
    heldCents: integer('held_cents').notNull().default(0),
    budgetType: text('budget_type').notNull().default('fixed'),
    category: text('category').notNull().default('PROMOTION'),
    platforms: jsonb('platforms').$type<string[]>().notNull().default([]),
    contentTypes: jsonb('content_types').$type<string[]>().notNull().default([]),
    kpis: jsonb('kpis').$type<string[]>().notNull().default([]),
    deliverables: jsonb('deliverables').$type<CampaignDeliverable[]>().notNull().default([]),
    /** Audience: age range 13–70, description, generation label. */
    targetAudience: jsonb('target_audience').$type<Record<string, unknown>>().notNull().default({}),
    durationDays: integer('duration_days'),
    startDate: text('start_date'),
    endDate: text('end_date'),
    /** The plan the text engine wrote (title, schedule, budget split, estimated reach and its basis). */
    plan: jsonb('plan').$type<Record<string, unknown>>(),
    sessionMaterials: jsonb('session_materials').$type<unknown[]>().notNull().default([]),
    ...timestamps,
  },
  (t) => [index('campaigns_brand_idx').on(t.brandUserId, t.createdAt), index('campaigns_status_idx').on(t.status)],
);

export const campaignMaterials = pgTable(
  'campaign_materials',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    assetId: uuid('asset_id').references(() => assets.id, { onDelete: 'set null' }),
    type: text('type', { enum: ['image', 'video'] }).notNull(),
    url: text('url').notNull(),
    prompt: text('prompt'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('campaign_materials_campaign_idx').on(t.campaignId)],
);

export const campaignApplications = pgTable(
  'campaign_applications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    creatorUserId: uuid('creator_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    message: text('message').notNull(),
    /** The creator's proposed rate, euro cents. */
    rateCents: integer('rate_cents').notNull(),
    status: text('status', { enum: ['pending', 'accepted', 'declined', 'withdrawn'] })
      .notNull()
      .default('pending'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('campaign_applications_one_per_creator').on(t.campaignId, t.creatorUserId),
    index('campaign_applications_creator_idx').on(t.creatorUserId),
  ],
);

export const collaborations = pgTable(
  'collaborations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    creatorUserId: uuid('creator_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    applicationId: uuid('application_id').references(() => campaignApplications.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['active', 'completed', 'cancelled'] })
      .notNull()
      .default('active'),
    /** The amount paid from the campaign's held budget to the creator's earnings on completion. */
    agreedCents: integer('agreed_cents').notNull(),
    deliverables: jsonb('deliverables').$type<CampaignDeliverable[]>().notNull().default([]),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('collaborations_one_per_creator').on(t.campaignId, t.creatorUserId),
    index('collaborations_creator_idx').on(t.creatorUserId, t.status),
  ],
);

/** Every admin action: who, what, on whom, with the details needed to review it later. */
export const adminAuditLog = pgTable(
  'admin_audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    adminUserId: uuid('admin_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The admin's email at the time, kept when the admin account is later deleted. */
    adminEmail: text('admin_email').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('admin_audit_log_created_idx').on(t.createdAt)],
);
