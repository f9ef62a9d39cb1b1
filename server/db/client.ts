import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
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
/** An open transaction of `Db`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** A database handle or an open transaction. */
export type DbOrTx = Db | Tx;

/** Raw SQL runner with pg's reply shape; pg-boss and the health check use it. */
type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

export interface Database {
  kind: 'pglite' | 'postgres';
  /** The embedded engine itself, when kind is pglite (tests dump it to make templates). */
  pglite?: PGlite;
  /** The connection pool, when kind is postgres (for libraries that take one: the rate-limit counters). */
  pgPool?: pg.Pool;
  db: Db;
  executeSql: ExecuteSql;
  /** Applies the pending migrations, under the start-up lock. */
  migrate(): Promise<void>;
  /**
   * Runs `work` under the start-up lock: one process at a time per database does start-up work (migrations,
   * the job queue's schema, generated secrets). PostgreSQL: a session advisory lock (STARTUP_LOCK_KEY) held
   * on one dedicated connection for the duration; PGlite (one process): one caller at a time in this process.
   * Re-entrant: work already under the lock (migrate() inside it) runs at once. `onWait` is called when
   * another process holds the lock, before waiting for it.
   */
  withStartupLock<T>(work: () => Promise<T>, onWait?: () => void): Promise<T>;
  close(): Promise<void>;
  /**
   * LISTENs on `channel` and calls `onMessage` with each notification's payload. Resolves once listening;
   * the returned function stops. PostgreSQL: over the Database's one listening connection (re-opened after a
   * loss, see `onGap`), so a notification arrives some time after the COMMIT that sent it (see `barrier`). PGlite: its one session hears its own
   * NOTIFYs, delivered with the reply to the COMMIT, before the committing call's promise resolves.
   */
  listen?(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Resolves once every notification of every transaction committed before the call has been delivered to
   * the `listen` handlers; rejects when that cannot be known (listening connection down, timeout). Absent
   * where that is always so already (PGlite, whose one session hears its NOTIFYs with the COMMIT's reply).
   * With `since` (a `performance.now()` reading), any barrier sent at or after it will do: one that has
   * already passed resolves the call at once (so a request pays at most one barrier, often none).
   */
  barrier?(since?: number): Promise<void>;
  /** Whether a barrier sent at or after `since` has already passed (`barrier(since)` would resolve at once). */
  barrierPassed?(since: number): boolean;
  /**
   * Calls `handler(false)` when the listening connection is lost (notifications may be missed from then on)
   * and `handler(true)` once it listens again. Returns the function that stops calling it.
   */
  onGap?(handler: (listening: boolean) => void): () => void;
  /** PostgreSQL: the pool's connections now (open, idle, callers waiting for one) and its size; for metrics. */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
}

const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Key of the start-up advisory lock (see withStartupLock). The demo seed takes it as a transaction lock
 * (server/features/auth/seed.ts), so it also waits for a migration in progress.
 */
export const STARTUP_LOCK_KEY = 7_117_000;

/**
 * `withStartupLock` over `acquire`, which takes the lock (calling `onWait` first when it is taken elsewhere)
 * and returns its release. Callers in one process queue up; work inside the lock runs at once.
 */
function startupLock(acquire: (onWait?: () => void) => Promise<() => Promise<void>>): Database['withStartupLock'] {
  const held = new AsyncLocalStorage<true>();
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>, onWait?: () => void): Promise<T> => {
    if (held.getStore()) return work();
    const run = tail.then(async () => {
      const release = await acquire(onWait);
      try {
        return await held.run(true, work);
      } finally {
        await release();
      }
    });
    tail = run.catch(() => undefined);
    return run;
  };
}

/** PostgreSQL's session advisory lock on a connection of its own, taken from the pool and closed after. */
function postgresStartupLock(pool: pg.Pool): Database['withStartupLock'] {
  return startupLock(async (onWait) => {
    const client = await pool.connect();
    // A connection lost while held releases the lock on the server; the work's own queries then fail.
    const ignore = () => undefined;
    client.on('error', ignore);
    const done = (destroy: boolean) => {
      client.off('error', ignore);
      client.release(destroy);
    };
    try {
      const tried = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
        STARTUP_LOCK_KEY,
      ]);
      if (!tried.rows[0]?.locked) {
        onWait?.();
        await client.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
      }
    } catch (error) {
      done(true);
      throw error;
    }
    return async () => {
      try {
        await client.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]);
        done(false);
      } catch {
        // Closing the connection releases the lock.
        done(true);
      }
    };
  });
}

export interface MigrationStatus {
  /** Migrations this code ships (server/db/migrations/meta/_journal.json). */
  total: number;
  /** How many of them the database has applied (drizzle.__drizzle_migrations). */
  applied: number;
  /** Tag of the newest migration applied (e.g. `0016_operations`), or null on an empty database. */
  current: string | null;
  /** Tag of the newest migration this code ships. */
  latest: string;
}

/**
 * Which of this code's migrations the database has applied. Drizzle's rule: every migration of the journal up
 * to the newest one recorded (a database migrated by newer code counts as up to date).
 */
export async function migrationStatus(database: Database): Promise<MigrationStatus> {
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string; when: number }>;
  };
  const [table] = (await database.executeSql("SELECT to_regclass('drizzle.__drizzle_migrations')::text AS name")).rows;
  let newest = Number.NEGATIVE_INFINITY;
  if (table?.name) {
    const [row] = (
      await database.executeSql('SELECT max(created_at)::text AS newest FROM drizzle.__drizzle_migrations')
    ).rows;
    if (row?.newest != null) newest = Number(row.newest);
  }
  const applied = journal.entries.filter((entry) => entry.when <= newest);
  return {
    total: journal.entries.length,
    applied: applied.length,
    current: applied.at(-1)?.tag ?? null,
    latest: journal.entries.at(-1)?.tag ?? '',
  };
}

/**
 * `applicationName` names the process role on every connection (pg_stat_activity.application_name), e.g.
 * `genpro-api`, `genpro-worker`; an `application_name` in the URL takes precedence.
 */
export async function openPostgres(url: string, poolMax = 10, applicationName = 'genpro'): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolMax, application_name: applicationName });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const hub = new NotificationHub(url, pool, applicationName);
  const withStartupLock = postgresStartupLock(pool);
  return {
    kind: 'postgres',
    pgPool: pool,
    db,
    executeSql: async (text, values) => {
      const res = await pool.query(text, values as unknown[] | undefined);
      return { rows: Array.isArray(res) ? (res.at(-1)?.rows ?? []) : res.rows };
    },
    migrate: () => withStartupLock(() => migratePg(drizzlePg(pool), { migrationsFolder: MIGRATIONS_FOLDER })),
    withStartupLock,
    close: async () => {
      await hub.close();
      await pool.end();
    },
    listen: (channel, onMessage) => hub.listen(channel, onMessage),
    barrier: (since) => hub.barrier(since),
    barrierPassed: (since) => hub.barrierPassed(since),
    onGap: (handler) => hub.onGap(handler),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolMax }),
  };
}

const RELISTEN_DELAY_MS = 1000;
const BARRIER_CHANNEL = 'genpro_cache_barrier';
const BARRIER_TIMEOUT_MS = 2000;
/**
 * Barriers go out at most this often, each serving every caller that came since the previous one: a barrier
 * costs this process and PostgreSQL a round trip, and one per request took a fifth of a core at 10 000
 * requests/s. A caller waits at most this long plus one round trip.
 */
const BARRIER_SPACING_MS = 2;

interface BarrierWaiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * One connection LISTENing on every channel of a Database: PostgreSQL delivers the notifications of
 * different transactions to one connection in commit order, which is what makes `barrier` possible — a
 * notification sent by a transaction committed after the call arrives after those of every transaction
 * committed before it.
 */
class NotificationHub {
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private readonly gapHandlers = new Set<(listening: boolean) => void>();
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private connected = false;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly tag = `${process.pid}-${randomUUID()}`;
  private sent = 0;
  /** Barrier notifications sent and not yet heard, oldest first, each with the waiters it serves. */
  private inFlight: Array<{ payload: string; waiters: BarrierWaiter[]; timer: NodeJS.Timeout; sentAt: number }> = [];
  /** When the latest barrier that arrived was sent (performance.now()); reset when listening stops. */
  private passedSentAt = Number.NEGATIVE_INFINITY;
  private lastSentAt = Number.NEGATIVE_INFINITY;
  private spacing: NodeJS.Timeout | undefined;
  /** Callers waiting for the next barrier to be sent. */
  private waiting: BarrierWaiter[] = [];

  constructor(
    private readonly url: string,
    private readonly pool: pg.Pool,
    private readonly applicationName: string,
  ) {}

  async listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>> {
    if (this.closed) throw new Error('database closed');
    let channelHandlers = this.handlers.get(channel);
    const firstOfChannel = !channelHandlers;
    if (!channelHandlers) {
      channelHandlers = new Set();
      this.handlers.set(channel, channelHandlers);
    }
    channelHandlers.add(onMessage);
    try {
      if (!this.client) {
        const reconnecting = this.retry !== undefined;
        clearTimeout(this.retry);
        this.retry = undefined;
        await this.connect().catch((error) => {
          if (reconnecting) this.scheduleReconnect();
          throw error;
        });
        if (reconnecting) for (const handler of this.gapHandlers) handler(true);
      } else if (this.connecting) {
        await this.connecting;
        // The connection may have listened before this channel had a handler; LISTEN is idempotent.
        if (firstOfChannel) await this.client?.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      } else if (firstOfChannel && this.connected) await this.client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      this.removeHandler(channel, onMessage);
      throw error;
    }
    return async () => {
      this.removeHandler(channel, onMessage);
      if (this.handlers.size === 0) await this.disconnect();
      else if (!this.handlers.has(channel) && this.connected) {
        await this.client?.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`).catch(() => undefined);
      }
    };
  }

  barrierPassed(since: number): boolean {
    return this.connected && this.passedSentAt >= since;
  }

  barrier(since?: number): Promise<void> {
    if (!this.connected) return Promise.reject(new Error('not listening'));
    if (since !== undefined && this.barrierPassed(since)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.scheduleBarrier();
    });
  }

  onGap(handler: (listening: boolean) => void): () => void {
    this.gapHandlers.add(handler);
    return () => this.gapHandlers.delete(handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.disconnect();
  }

  private removeHandler(channel: string, onMessage: (payload: string) => void): void {
    const channelHandlers = this.handlers.get(channel);
    channelHandlers?.delete(onMessage);
    if (channelHandlers?.size === 0) this.handlers.delete(channel);
  }

  /**
   * Sends a barrier for the waiting callers now, or once BARRIER_SPACING_MS have passed since the last one
   * went out. Barriers overlap: a caller never waits for an earlier barrier to come back first.
   */
  private scheduleBarrier(): void {
    if (this.spacing || this.waiting.length === 0) return;
    const wait = this.lastSentAt + BARRIER_SPACING_MS - performance.now();
    if (wait <= 0) {
      this.sendBarrier();
      return;
    }
    this.spacing = setTimeout(() => {
      this.spacing = undefined;
      if (this.connected) this.sendBarrier();
    }, wait);
  }

  private sendBarrier(): void {
    const waiters = this.waiting;
    this.waiting = [];
    if (waiters.length === 0) return;
    this.sent++;
    const payload = `${this.tag}:${this.sent}`;
    const timer = setTimeout(() => this.settleThrough(payload, new Error('barrier timed out')), BARRIER_TIMEOUT_MS);
    this.lastSentAt = performance.now();
    this.inFlight.push({ payload, waiters, timer, sentAt: this.lastSentAt });
    this.pool
      .query('SELECT pg_notify($1, $2)', [BARRIER_CHANNEL, payload])
      .catch((error: Error) => this.settleThrough(payload, error));
  }

  /** Settles the barrier `payload` and every one sent before it (notifications arrive in commit order). */
  private settleThrough(payload: string, error?: Error): void {
    const index = this.inFlight.findIndex((batch) => batch.payload === payload);
    if (index < 0) return;
    for (const batch of this.inFlight.splice(0, index + 1)) {
      clearTimeout(batch.timer);
      if (!error) this.passedSentAt = Math.max(this.passedSentAt, batch.sentAt);
      for (const waiter of batch.waiters) {
        if (error) waiter.reject(error);
        else waiter.resolve();
      }
    }
  }

  private failBarriers(error: Error): void {
    this.passedSentAt = Number.NEGATIVE_INFINITY;
    clearTimeout(this.spacing);
    this.spacing = undefined;
    const last = this.inFlight.at(-1);
    if (last) this.settleThrough(last.payload, error);
    const waiters = this.waiting;
    this.waiting = [];
    for (const waiter of waiters) waiter.reject(error);
  }

  private connect(): Promise<void> {
    const next = new pg.Client({ connectionString: this.url, application_name: this.applicationName });
    const lost = () => {
      if (this.client !== next) return;
      const wasConnected = this.connected;
      this.client = null;
      this.connected = false;
      next.end().catch(() => undefined);
      this.failBarriers(new Error('listening connection lost'));
      if (wasConnected) for (const handler of this.gapHandlers) handler(false);
      this.scheduleReconnect();
    };
    next.on('error', lost);
    next.on('end', lost);
    next.on('notification', (message) => {
      const payload = message.payload ?? '';
      if (message.channel === BARRIER_CHANNEL) {
        this.settleThrough(payload);
        return;
      }
      for (const handler of this.handlers.get(message.channel) ?? []) handler(payload);
    });
    this.client = next;
    const connecting = (async () => {
      try {
        await next.connect();
        for (const channel of [BARRIER_CHANNEL, ...this.handlers.keys()]) {
          await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        }
      } catch (error) {
        if (this.client === next) {
          this.client = null;
          next.end().catch(() => undefined);
        }
        throw error;
      }
      if (this.client !== next) throw new Error('listening connection lost');
      this.connected = true;
    })();
    this.connecting = connecting;
    const settled = () => {
      if (this.connecting === connecting) this.connecting = null;
    };
    connecting.then(settled, settled);
    return connecting;
  }

  private scheduleReconnect(): void {
    if (this.closed || this.handlers.size === 0) return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (this.closed || this.handlers.size === 0) return;
      this.connect().then(
        () => {
          for (const handler of this.gapHandlers) handler(true);
        },
        () => this.scheduleReconnect(),
      );
    }, RELISTEN_DELAY_MS);
  }

  private async disconnect(): Promise<void> {
    clearTimeout(this.retry);
    this.retry = undefined;
    const current = this.client;
    this.client = null;
    this.connected = false;
    this.failBarriers(new Error('not listening'));
    await current?.end().catch(() => undefined);
  }
}

export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob | File } = {}): Promise<Database> {
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  const client = await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
  return wrapPglite(client);
}

function wrapPglite(client: PGlite): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  // One process owns an embedded database: the lock only orders this process's callers.
  const withStartupLock = startupLock(async () => async () => undefined);
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
    migrate: () => withStartupLock(() => migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER })),
    withStartupLock,
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

/**
 * The configured database: PostgreSQL (DATABASE_URL, a pool of DATABASE_POOL_MAX connections named `role`
 * in pg_stat_activity) or the embedded PGlite under DATA_DIR.
 */
export async function openDatabase(
  config: { DATABASE_URL?: string; dataDir: string; DATABASE_POOL_MAX?: number },
  role = 'genpro',
): Promise<Database> {
  if (config.DATABASE_URL) return openPostgres(config.DATABASE_URL, config.DATABASE_POOL_MAX, role);
  return withPeriodicVacuum(await openPglite({ dataDir: path.join(config.dataDir, 'pg') }));
}
