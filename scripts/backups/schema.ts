import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The studio's migrations (drizzle-kit): SQL files and meta/_journal.json. */
export const MIGRATIONS_FOLDER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'server',
  'db',
  'migrations',
);

export interface JournalEntry {
  idx: number;
  /** drizzle's folderMillis: what `drizzle.__drizzle_migrations.created_at` records for the migration. */
  when: number;
  tag: string;
}

/** The migrations this code knows, oldest first. */
export async function readJournal(folder = MIGRATIONS_FOLDER): Promise<JournalEntry[]> {
  const journal = JSON.parse(await readFile(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: JournalEntry[];
  };
  return journal.entries.map(({ idx, when, tag }) => ({ idx, when, tag }));
}

/** A database's schema version: its last applied migration. */
export interface SchemaVersion {
  /** The migration's tag (`0016_operations`), or null when this code does not know it (a newer studio made it). */
  tag: string | null;
  /** drizzle's created_at of that migration; drizzle applies every migration whose `when` is later. */
  when: number;
  /** How many migrations the database has applied. */
  applied: number;
}

type Query = (sql: string) => Promise<Array<Record<string, unknown>>>;

/**
 * The last migration applied to a database, read from drizzle's own table, as drizzle's migrator reads it;
 * null when the database has no studio schema.
 */
export async function appliedSchema(query: Query, journal: JournalEntry[]): Promise<SchemaVersion | null> {
  const [exists] = await query(`select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
  if (!exists?.present) return null;
  const [row] = await query(
    'select count(*)::int as applied, max(created_at)::text as last from drizzle.__drizzle_migrations',
  );
  if (!row || Number(row.applied) === 0 || row.last === null) return null;
  const when = Number(row.last);
  return { tag: journal.find((entry) => entry.when === when)?.tag ?? null, when, applied: Number(row.applied) };
}

/** Whether a schema is newer than the newest migration this code has (it cannot be run, nor migrated back). */
export function isNewerThanCode(schema: Pick<SchemaVersion, 'when'>, journal: JournalEntry[]): boolean {
  const newest = journal.at(-1);
  return newest !== undefined && schema.when > newest.when;
}

/** Rows the manifest counts (null where the table does not exist in that schema version). */
export interface StudioCounts {
  users: number | null;
  assets: number | null;
  mediaObjects: number | null;
}

export async function countStudioRows(query: Query): Promise<StudioCounts> {
  const count = async (table: string) => {
    const [exists] = await query(`select to_regclass('public.${table}') is not null as present`);
    if (!exists?.present) return null;
    const [row] = await query(`select count(*)::int as n from public.${table}`);
    return Number(row?.n ?? 0);
  };
  return { users: await count('users'), assets: await count('assets'), mediaObjects: await count('media_objects') };
}
