// A running attempt's hold on its job: the lease renewed while it runs (a dead worker's job expires soon), the give-back on stop.

import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Database } from '../../db/client.ts';
import { tasks } from '../../db/schema/index.ts';
import type { Clock } from '../clock.ts';
import { BOSS_SCHEMA, type TaskJobData, taskQueueName } from './schema.ts';
import type { AnyTaskDefinition } from './types.ts';

/**
 * A running attempt renews its job's lease this often; pg-boss expires (and retries) a job whose lease ran
 * out, so a worker that died (SIGKILL, lost host) is noticed within the lease, not the kind's full
 * expireInSeconds. The lease is long enough to survive a busy event loop.
 */
export const LEASE_SECONDS = 30;
const LEASE_RENEW_MS = 5_000;

/** A task attempt running in this process. */
export interface RunningAttempt {
  taskId: string;
  attempt: number;
}

interface LeaseDeps {
  database: Database;
  log: FastifyBaseLogger;
  /** The queue is stopping: a lost lease is expected then. */
  isStopping: () => boolean;
  /** The queue has stopped: the pool may be closed, a failed renewal is expected. */
  isDetached: () => boolean;
}

/**
 * Keeps the attempt's job alive: its expiry becomes now + LEASE_SECONDS (never later than the kind's own
 * expiry), renewed every LEASE_RENEW_MS while the attempt runs. pg-boss reads only `started_on +
 * expire_in` to expire an active job, and `expire_in` stays as sent (it is the handler's time limit).
 */
export function holdLease(
  deps: LeaseDeps,
  definition: AnyTaskDefinition,
  job: PgBoss.JobWithMetadata<TaskJobData>,
): NodeJS.Timeout {
  const renew = () =>
    deps.database
      .executeSql(
        `UPDATE ${BOSS_SCHEMA}.job
            SET started_on = LEAST($3::timestamptz, now() - expire_in + make_interval(secs => $4))
          WHERE name = $1 AND id = $2 AND state = 'active'
          RETURNING id`,
        [taskQueueName(definition.kind), job.id, job.startedOn, LEASE_SECONDS],
      )
      .then(({ rows }) => {
        if (rows.length === 0 && !deps.isStopping())
          deps.log.warn({ taskId: job.id }, 'task job lease lost; another worker may retry it');
      })
      .catch((error: unknown) => {
        if (!deps.isDetached()) deps.log.warn({ err: error, taskId: job.id }, 'task job lease not renewed');
      });
  void renew();
  const timer = setInterval(() => void renew(), LEASE_RENEW_MS);
  timer.unref();
  return timer;
}

/**
 * Puts an attempt's job back as if never fetched (pending, no retry used, available now) and its task back to
 * queued. The attempt itself is aborted right after; whatever it still writes is guarded by its attempt number.
 */
export async function giveBack(
  deps: { database: Database; clock: Clock; log: FastifyBaseLogger },
  queue: string,
  jobId: string,
  attempt: RunningAttempt | undefined,
): Promise<void> {
  try {
    await deps.database.executeSql(
      `UPDATE ${BOSS_SCHEMA}.job SET state = 'created', started_on = NULL, start_after = now()
        WHERE name = $1 AND id = $2 AND state = 'active'`,
      [queue, jobId],
    );
    if (!attempt) return;
    await deps.database.db
      .update(tasks)
      .set({ status: 'queued', updatedAt: deps.clock.now() })
      .where(and(eq(tasks.id, attempt.taskId), eq(tasks.attempts, attempt.attempt), eq(tasks.status, 'processing')));
  } catch (error) {
    deps.log.warn(
      { err: error, taskId: jobId },
      'task not given back; another worker retries it when its lease runs out',
    );
  }
}
