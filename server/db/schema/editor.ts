import { bigint, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps, users } from './users.ts';

/** A saved state of an editor tool (spec: Editor session). */
export const editorSessions = pgTable(
  'editor_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    personaId: uuid('persona_id'),
    name: text('name').notNull(),
    componentType: text('component_type').notNull(),
    thumbnailUrl: text('thumbnail_url'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    ...timestamps,
  },
  (t) => [index('editor_sessions_user_idx').on(t.userId, t.componentType, t.updatedAt)],
);

/** A reusable character (spec: Character), kept per user across devices. */
export const characters = pgTable(
  'characters',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    style: text('style'),
    personality: text('personality'),
    backstory: text('backstory'),
    images: jsonb('images').$type<string[]>().notNull().default([]),
    ...timestamps,
  },
  (t) => [index('characters_user_idx').on(t.userId, t.createdAt)],
);
