// pg-boss's schema and queues: installing and checking the schema, queue names, creating queues, its db connection.
import { createRequire } from 'node:module';
import PgBoss from 'pg-boss';
import type { Database } from '../../db/client.ts';
import type { JobKinds, ScheduledJob } from './types.ts';

/** pg-boss lives in its own schema of the studio's database. */
export const BOSS_SCHEMA = 'pgboss';
export const TASK_QUEUE_PREFIX = 'task.';
/** The platform's own queues driven by pg-boss schedules (features bring theirs as ScheduledJob). */
export const MAINTENANCE_QUEUES = {
  mediaCleanup: 'maintenance.media-cleanup',
  taskRecovery: 'maintenance.task-recovery',
} as const;

/** What a task kind's jobs are sent with unless its definition says otherwise. */
export const TASK_JOB_DEFAULTS = { retryLimit: 2, retryDelaySeconds: 5, expireInSeconds: 900 };

export interface TaskJobData {
  taskId: string;
}

/**
 * pg-boss's connection to the studio database. Once `isDetached()` (the queue has stopped), late calls
 * from attempts that outlived the stop answer nothing instead of failing on a closed pool: their jobs stay
 * active and expire, so another worker retries them.
 */
// pg-boss's complete/fail/cancel commands end in "SELECT COUNT(*) FROM results" and read rows[0].count.
const COUNT_COMMAND = /select\s+count\(\*\)\s+from\s+results\s*$/i;

/**
 * pg-boss's database. Once the queue is stopped (detached) nothing reaches the pool any more: a handler
 * that settles after the stop gets an empty answer, shaped as pg-boss reads it.
 */
export function bossDb(database: Database, isDetached: () => boolean = () => false): PgBoss.Db {
  return {
    executeSql: (text, values) => {
      if (!isDetached()) return database.executeSql(text, values);
      return Promise.resolve({ rows: COUNT_COMMAND.test(text.trim()) ? [{ count: '0' }] : [] });
    },
  };
}

export function taskQueueName(kind: string): string {
  return `${TASK_QUEUE_PREFIX}${kind}`;
}

export function isTaskQueue(queue: string): boolean {
  return queue.startsWith(TASK_QUEUE_PREFIX);
}

/**
 * pg-boss 10 creates a queue (a row and a partition of its job table) without a lock: processes starting at
 * once on a database that lacks the queue may deadlock on PostgreSQL. PostgreSQL aborts one of them; trying
 * again finds the queue made by the other.
 */
export async function createQueue(boss: PgBoss, name: string, options?: PgBoss.Queue): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await boss.createQueue(name, options);
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
    }
  }
}

/** An `everySeconds` job's queue is stately: at most one run waiting and one running, across processes. */
export function createScheduledQueue(boss: PgBoss, job: ScheduledJob): Promise<void> {
  return createQueue(boss, job.name, 'cron' in job ? undefined : { name: job.name, policy: 'stately' });
}

/**
 * Installs pg-boss's schema (and the queues of every known kind) into a database. Used by the test
 * template so per-test copies start without migrating pg-boss; start() does the same when needed.
 */
export async function installJobSchema(database: Database, kinds?: JobKinds): Promise<void> {
  const boss = new PgBoss({
    db: bossDb(database),
    schema: BOSS_SCHEMA,
    migrate: true,
    supervise: false,
    schedule: false,
  });
  boss.on('error', () => undefined);
  await boss.start();
  try {
    for (const definition of kinds?.tasks ?? []) await boss.createQueue(taskQueueName(definition.kind));
    for (const queue of Object.values(MAINTENANCE_QUEUES)) await boss.createQueue(queue);
    for (const job of kinds?.scheduled ?? []) await createScheduledQueue(boss, job);
  } finally {
    await boss.stop({ graceful: false, wait: true, close: false });
  }
}

/** The schema version this pg-boss needs (its package's version.json). */
const BOSS_SCHEMA_VERSION = (createRequire(import.meta.url)('pg-boss/version.json') as { schema: number }).schema;

/**
 * Whether pg-boss's schema is installed at the version this pg-boss needs (a process with MIGRATE_ON_START=false
 * waits for it; `npm run migrate` installs it with installJobSchema).
 */
export async function jobSchemaReady(database: Database): Promise<boolean> {
  const [table] = (await database.executeSql(`SELECT to_regclass('${BOSS_SCHEMA}.version')::text AS name`)).rows;
  if (!table?.name) return false;
  const [row] = (await database.executeSql(`SELECT version FROM ${BOSS_SCHEMA}.version`)).rows;
  return Number(row?.version) >= BOSS_SCHEMA_VERSION;
}
