import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { PersonaImageState, PersonaImageType } from '../../../common/rules/personas.ts';
import { assets } from './assets.ts';
import { timestamps, users } from './users.ts';

/** One of a persona's five images as stored. A placeholder has no file (`key` null) and can be regenerated. */
export interface PersonaImageRecord {
  status: PersonaImageState;
  /** Storage key of the image (class `persona`, under `persona/<personaId>/…`), or of the user's media. */
  key: string | null;
  url: string | null;
  thumbnailKey: string | null;
  /** The asset the pipeline registered for it (persona_id set); null for images given by update-images. */
  assetId: string | null;
  /** The task that made it, so a retried attempt skips images it already made. */
  taskId: string | null;
  error: string | null;
}

export type PersonaImages = Record<PersonaImageType, PersonaImageRecord>;

/** An AI persona (spec: Persona). */
export const personas = pgTable(
  'personas',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull(),
    personality: text('personality').notNull(),
    targetAudience: text('target_audience'),
    nationality: text('nationality'),
    language: text('language').notNull(),
    characterImages: jsonb('character_images').$type<string[]>().notNull().default([]),
    basedOn: text('based_on'),
    avatarUrl: text('avatar_url'),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    isPublic: boolean('is_public').notNull().default(false),
    images: jsonb('images').$type<PersonaImages>().notNull(),
    licenseType: text('license_type', { enum: ['free', 'premium', 'exclusive'] })
      .notNull()
      .default('free'),
    licensePriceCents: integer('license_price_cents').notNull().default(0),
    status: text('status', { enum: ['generating', 'ready', 'failed'] })
      .notNull()
      .default('generating'),
    generationProgress: integer('generation_progress').notNull().default(0),
    generationTaskId: uuid('generation_task_id'),
    generationError: text('generation_error'),
    ...timestamps,
  },
  (t) => [index('personas_user_idx').on(t.userId, t.createdAt), index('personas_public_idx').on(t.isPublic)],
);

/**
 * The campaign workspace: personas and video assets a user keeps for their campaigns. Exactly one of
 * `personaId` / `assetId` is set (by `assetType`); deleting the persona or the asset removes the item.
 */
export const campaignWorkspaceItems = pgTable(
  'campaign_workspace_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    assetType: text('asset_type', { enum: ['persona', 'video'] }).notNull(),
    personaId: uuid('persona_id').references(() => personas.id, { onDelete: 'cascade' }),
    assetId: uuid('asset_id').references(() => assets.id, { onDelete: 'cascade' }),
    campaignId: text('campaign_id'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('workspace_user_persona_uq').on(t.userId, t.personaId),
    uniqueIndex('workspace_user_asset_uq').on(t.userId, t.assetId),
    index('workspace_user_idx').on(t.userId, t.createdAt),
    index('workspace_persona_idx').on(t.personaId),
  ],
);
