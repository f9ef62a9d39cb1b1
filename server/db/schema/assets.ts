import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps, users } from './users.ts';

/** A piece of media in a user's library (spec: Asset). */
export const assets = pgTable(
  'assets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    personaId: uuid('persona_id'),
    type: text('type', {
      enum: ['image', 'video', 'audio', 'persona', 'enhancement', 'video_enhancement'],
    }).notNull(),
    /** The storage key behind `url`; null only for assets that point at nothing stored yet. */
    key: text('key'),
    url: text('url').notNull(),
    thumbnailKey: text('thumbnail_key'),
    prompt: text('prompt'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status', { enum: ['processing', 'completed', 'failed'] })
      .notNull()
      .default('completed'),
    service: text('service'),
    model: text('model'),
    creditsUsed: integer('credits_used').notNull().default(0),
    taskId: uuid('task_id'),
    ...timestamps,
  },
  (t) => [index('assets_user_idx').on(t.userId, t.createdAt), index('assets_user_type_idx').on(t.userId, t.type)],
);
