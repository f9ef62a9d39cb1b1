import {
  bigint,
  boolean,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';

// Tables that let several API and worker processes on one PostgreSQL act as one studio (docs/deploy.md).

/**
 * Secrets the studio generates when their variable is unset (APP_SECRET, MEDIA_URL_SECRET outside production):
 * created once, under the start-up advisory lock, and read by every process, so they never differ per machine.
 */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  /** base64url of the secret bytes. */
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One row per process that runs workers, beaten every few seconds; removed on a clean stop. */
export const workerHeartbeats = pgTable('worker_heartbeats', {
  /** `<hostname>:<pid>:<random>`, also written to tasks.worker_id by the attempts it runs. */
  id: text('id').primaryKey(),
  /** 'worker' (npm run worker) or 'api' (an API process with RUN_WORKERS=true). */
  role: text('role').notNull(),
  hostname: text('hostname').notNull(),
  pid: integer('pid').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  lastBeatAt: timestamp('last_beat_at', { withTimezone: true }).notNull(),
  /** Attempts running in the process at the last beat. */
  running: integer('running').notNull().default(0),
  /** Set once the process is draining (SIGTERM): it takes no new work. */
  stopping: boolean('stopping').notNull().default(false),
  lastTaskId: uuid('last_task_id'),
  lastTaskKind: text('last_task_kind'),
  lastTaskAt: timestamp('last_task_at', { withTimezone: true }),
  /** Anything else the process reports (version, concurrency, task kinds). */
  details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
});

/** How each engine's last call ended, written by whichever process made it (the admin Engines view reads it). */
export const engineCalls = pgTable(
  'engine_calls',
  {
    kind: text('kind').notNull(),
    engine: text('engine').notNull(),
    outcome: text('outcome', { enum: ['ok', 'failed'] }).notNull(),
    message: text('message'),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.engine] })],
);

/**
 * Rate-limit counters shared by every API process (rate-limiter-flexible's RateLimiterPostgres layout:
 * key, points, expire in epoch milliseconds).
 */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  expire: bigint('expire', { mode: 'number' }),
});
