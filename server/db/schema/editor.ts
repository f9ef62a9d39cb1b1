import { sql } from 'drizzle-orm';
import { bigint, boolean, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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
    /** The tool's autosave, kept by the editor itself (one per user and tool), not a session saved by hand. */
    autosave: boolean('autosave').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('editor_sessions_user_idx').on(t.userId, t.componentType, t.updatedAt),
    uniqueIndex('editor_sessions_autosave_idx').on(t.userId, t.componentType).where(sql`${t.autosave}`),
  ],
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
