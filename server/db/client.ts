import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Raw SQL runner with pg's reply shape; pg-boss and the health check use it. */
type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

export interface Database {
  kind: 'pglite' | 'postgres';
  /** The embedded engine itself, when kind is pglite (tests dump it to make templates). */
  pglite?: PGlite;
  db: Db;
  executeSql: ExecuteSql;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * LISTENs on `channel` and calls `onMessage` with each notification's payload. Resolves once listening;
   * the returned function stops. PostgreSQL: over a dedicated connection (re-opened after a loss), so a
   * notification arrives some time after the COMMIT that sent it. PGlite: its one session hears its own
   * NOTIFYs, delivered with the reply to the COMMIT, before the committing call's promise resolves.
   */
  listen?(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
}

const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export async function openPostgres(url: string, poolMax = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolMax });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    executeSql: async (text, values) => {
      const res = await pool.query(text, values as unknown[] | undefined);
      return { rows: Array.isArray(res) ? (res.at(-1)?.rows ?? []) : res.rows };
    },
    migrate: () => migratePg(drizzlePg(pool), { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => pool.end(),
    listen: (channel, onMessage) => listenPostgres(url, channel, onMessage),
  };
}

const RELISTEN_DELAY_MS = 1000;

async function listenPostgres(
  url: string,
  channel: string,
  onMessage: (payload: string) => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;
  const scheduleRetry = () => {
    if (!stopped) retry = setTimeout(() => void connect().catch(scheduleRetry), RELISTEN_DELAY_MS);
  };
  const connect = async (): Promise<void> => {
    if (stopped) return;
    const next = new pg.Client({ connectionString: url });
    const drop = () => {
      if (client !== next) return false;
      client = null;
      next.end().catch(() => undefined);
      return true;
    };
    const lost = () => {
      if (drop()) scheduleRetry();
    };
    next.on('error', lost);
    next.on('end', lost);
    next.on('notification', (message) => onMessage(message.payload ?? ''));
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      drop();
      throw error;
    }
  };
  try {
    await connect();
  } catch (error) {
    stopped = true;
    clearTimeout(retry);
    throw error;
  }
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const current = client;
    client = null;
    await current?.end().catch(() => undefined);
  };
}

export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob | File } = {}): Promise<Database> {
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  const client = await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
  return wrapPglite(client);
}

function wrapPglite(client: PGlite): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    pglite: client,
    db,
    executeSql: async (text, values) => {
      try {
        if (!values || values.length === 0) {
          const results = await client.exec(text);
          return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
        }
        const res = await client.query<Record<string, unknown>>(text, values);
        return { rows: res.rows };
      } catch (error) {
        // A failed statement inside a multi-statement BEGIN…COMMIT leaves PGlite's one session aborted.
        if (!client.closed) await client.exec('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER }),
    listen: async (channel, onMessage) => {
      const unlisten = await client.listen(channel, onMessage);
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

/**
 * PGlite runs no autovacuum: without VACUUM the visibility map is never set (a count of a user's 10 000
 * assets reads every heap page instead of the index alone), dead rows pile up and the planner has no
 * statistics. The studio's embedded database is vacuumed and analysed shortly after start, then periodically.
 */
const PGLITE_VACUUM_FIRST_MS = 3_000;
const PGLITE_VACUUM_EVERY_MS = 15 * 60_000;

function withPeriodicVacuum(database: Database): Database {
  let timer: NodeJS.Timeout | undefined;
  const vacuum = (delay: number) => {
    timer = setTimeout(() => {
      database
        .executeSql('VACUUM ANALYZE')
        .catch(() => undefined)
        .finally(() => {
          if (!database.pglite?.closed) vacuum(PGLITE_VACUUM_EVERY_MS);
        });
    }, delay);
    timer.unref();
  };
  vacuum(PGLITE_VACUUM_FIRST_MS);
  return {
    ...database,
    close: async () => {
      clearTimeout(timer);
      await database.close();
    },
  };
}

export async function openDatabase(config: { DATABASE_URL?: string; dataDir: string }): Promise<Database> {
  if (config.DATABASE_URL) return openPostgres(config.DATABASE_URL);
  return withPeriodicVacuum(await openPglite({ dataDir: path.join(config.dataDir, 'pg') }));
}
