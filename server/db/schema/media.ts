import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { timestamps, users } from './users.ts';

/** One row per stored object: who owns it, its class, its tags, and when a temporary one expires. */
export const mediaObjects = pgTable(
  'media_objects',
  {
    key: text('key').primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    personaId: uuid('persona_id'),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    storageClass: text('storage_class').notNull(),
    tags: jsonb('tags').$type<Record<string, string>>().notNull().default({}),
    /** What ffprobe read from a video or audio object (see MediaFacts in platform/media/probe.ts); null when not probed. */
    probe: jsonb('probe').$type<Record<string, unknown>>(),
    isPublic: boolean('is_public').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('media_objects_user_idx').on(t.userId), index('media_objects_expiry_idx').on(t.expiresAt)],
);

/** A file a user uploaded (spec: Uploaded media). Thumbnail and metadata are filled by a task. */
export const uploadedMedia = pgTable(
  'uploaded_media',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    key: text('key').notNull(),
    type: text('type', { enum: ['image', 'video', 'audio'] }).notNull(),
    mimeType: text('mime_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    purpose: text('purpose').notNull().default('ai-asset'),
    status: text('status', { enum: ['processing', 'ready', 'failed'] })
      .notNull()
      .default('processing'),
    width: integer('width'),
    height: integer('height'),
    durationMs: integer('duration_ms'),
    thumbnailKey: text('thumbnail_key'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    taskId: uuid('task_id'),
    ...timestamps,
  },
  (t) => [index('uploaded_media_user_idx').on(t.userId, t.createdAt)],
);
