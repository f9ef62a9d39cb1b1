// Recovery of tasks whose job was lost, failed unrecorded or held by a worker that died, and takeover from stopped workers.
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import { MESSAGES } from '../../../common/messages.ts';
import type { Database } from '../../db/client.ts';
import { forgetStaleHeartbeats, HEARTBEAT_STALE_SECONDS, type WorkerHeartbeat } from './heartbeat.ts';
import { LEASE_SECONDS } from './lease.ts';
import { BOSS_SCHEMA, TASK_JOB_DEFAULTS, TASK_QUEUE_PREFIX } from './schema.ts';
import type { AnyTaskDefinition, TaskError } from './types.ts';

/**
 * A queued task with no pg-boss job for this long is re-sent by the recovery sweep. Re-sending is harmless
 * (the job id is the task id, pg-boss ignores a duplicate), so this only needs to cover commit-then-send.
 */
const ORPHAN_AFTER_SECONDS = 15;

interface RecoveryDeps {
  database: Database;
  log: FastifyBaseLogger;
  /** The queue's task kinds (its own map, filled as kinds register). */
  definitions: ReadonlyMap<string, AnyTaskDefinition>;
  /** A worker whose last beat is older is taken for dead; default HEARTBEAT_STALE_SECONDS. */
  staleWorkerSeconds?: number;
  /** The queue's pg-boss while it is started. */
  boss: () => PgBoss | null;
  isStopping: () => boolean;
  isDraining: () => boolean;
  /** This process's heartbeat (null without workers). */
  heartbeat: () => WorkerHeartbeat | null;
  /** Sends a task's job and wakes its workers. */
  send: (boss: PgBoss, definition: AnyTaskDefinition, taskId: string) => Promise<void>;
  /** Marks a task failed and refunds it; false when it had already finished. */
  finalizeFailure: (taskId: string, error: TaskError) => Promise<boolean>;
  wakeForRetry: (queue: string, delaySeconds: number) => void;
}

export class TaskRecovery {
  private takeoverRunning = false;

  constructor(private readonly deps: RecoveryDeps) {}

  /**
   * Re-sends jobs of tasks whose job never reached pg-boss (a crash between commit and send) and
   * fails (with refund) tasks whose job failed or vanished without a worker recording it.
   */
  async recover(boss: PgBoss): Promise<{ resent: number; failed: number; takenOver: number }> {
    await failUnleasedJobs(this.deps.database, this.deps.log, boss);
    const takenOver = await this.takeOverFromStoppedWorkers();
    await forgetStaleHeartbeats(this.deps.database);
    const { rows: orphans } = await this.deps.database.executeSql(
      `SELECT t.id, t.kind FROM tasks t
        WHERE t.status IN ('queued', 'processing')
          AND t.created_at < now() - make_interval(secs => $1)
          AND NOT EXISTS (SELECT 1 FROM ${BOSS_SCHEMA}.job j WHERE j.id = t.id)
          AND NOT EXISTS (SELECT 1 FROM ${BOSS_SCHEMA}.archive a WHERE a.id = t.id)
        LIMIT 500`,
      [ORPHAN_AFTER_SECONDS],
    );
    let resent = 0;
    for (const row of orphans) {
      const definition = this.deps.definitions.get(String(row.kind));
      if (!definition) continue;
      await this.deps.send(boss, definition, String(row.id));
      resent++;
    }
    const { rows: dead } = await this.deps.database.executeSql(
      `SELECT t.id, t.kind FROM tasks t
        JOIN (SELECT id, state FROM ${BOSS_SCHEMA}.job UNION ALL SELECT id, state FROM ${BOSS_SCHEMA}.archive) j
          ON j.id = t.id
        WHERE t.status IN ('queued', 'processing') AND j.state IN ('failed', 'cancelled', 'completed')
        LIMIT 500`,
    );
    let failed = 0;
    for (const row of dead) {
      const error = { code: 'interrupted', message: MESSAGES.tasks.interrupted };
      if (await this.deps.finalizeFailure(String(row.id), error)) failed++;
    }
    if (resent > 0 || failed > 0) this.deps.log.info({ resent, failed }, 'task recovery');
    return { resent, failed, takenOver };
  }

  /**
   * Runs at each beat of this process (so it does not wait for this process's turn at pg-boss maintenance, which
   * one process of the cluster gets every 10 s) and in recover(); one pass at a time.
   */
  async takeOverFromStoppedWorkers(): Promise<number> {
    const boss = this.deps.boss();
    if (!boss || this.deps.isStopping() || this.deps.isDraining() || this.takeoverRunning) return 0;
    this.takeoverRunning = true;
    try {
      return await this.failJobsOfStoppedWorkers(boss);
    } catch (error) {
      if (!this.deps.isStopping()) this.deps.log.warn({ err: error }, 'takeover of stopped workers’ tasks failed');
      return 0;
    } finally {
      this.takeoverRunning = false;
    }
  }

  /**
   * Fails for retry the task jobs of workers that stopped beating, so that another worker takes them within about
   * HEARTBEAT_STALE_SECONDS of a crash rather than when their lease runs out. A job qualifies when its task's
   * attempt was started by a worker (tasks.worker_id) with no beat for that long, its lease has not been renewed
   * for that long either, and it was not fetched just now (by a live worker that has yet to write its id). Only a
   * process whose own beats have been written for that long judges others: after a database outage every
   * heartbeat looks stale until the processes beat again.
   */
  private async failJobsOfStoppedWorkers(boss: PgBoss): Promise<number> {
    const heartbeat = this.deps.heartbeat();
    const stale = this.deps.staleWorkerSeconds ?? HEARTBEAT_STALE_SECONDS;
    if (!heartbeat?.beatingFor(stale)) return 0;
    const { rows } = await this.deps.database.executeSql(
      `SELECT j.name, j.id, t.worker_id FROM tasks t
         JOIN ${BOSS_SCHEMA}.job j ON j.name = $1 || t.kind AND j.id = t.id
        WHERE t.status = 'processing' AND t.worker_id IS NOT NULL AND t.worker_id <> $2
          AND j.state = 'active'
          AND j.started_on < now() - make_interval(secs => $3)
          AND j.started_on + j.expire_in < now() + make_interval(secs => $4)
          AND NOT EXISTS (SELECT 1 FROM worker_heartbeats h
                           WHERE h.id = t.worker_id AND h.last_beat_at > now() - make_interval(secs => $3))
        LIMIT 500`,
      [TASK_QUEUE_PREFIX, heartbeat.id, stale, Math.max(0, LEASE_SECONDS - stale)],
    );
    for (const row of rows) await boss.fail(String(row.name), String(row.id), { message: 'worker stopped beating' });
    if (rows.length === 0) return 0;
    this.deps.log.warn(
      { taskIds: rows.map((row) => String(row.id)), workerIds: [...new Set(rows.map((row) => String(row.worker_id)))] },
      'tasks of a worker that stopped beating failed for retry',
    );
    for (const name of new Set(rows.map((row) => String(row.name)))) {
      const definition = this.deps.definitions.get(name.slice(TASK_QUEUE_PREFIX.length));
      this.deps.wakeForRetry(name, definition?.retryDelaySeconds ?? TASK_JOB_DEFAULTS.retryDelaySeconds);
    }
    return rows.length;
  }
}

/**
 * An embedded database belongs to one process, and no queue of this process has fetched a job from it
 * yet: every active job is left by a process that died (SIGKILL, power loss). Failing them now retries
 * them (or, without retries left, lets recover() fail and refund their tasks) instead of waiting for
 * their leases to run out.
 */
export async function failJobsOfDeadProcess(database: Database, log: FastifyBaseLogger, boss: PgBoss): Promise<void> {
  const { rows } = await database.executeSql(`SELECT name, id FROM ${BOSS_SCHEMA}.job WHERE state = 'active'`);
  for (const row of rows) await boss.fail(String(row.name), String(row.id), { message: 'worker process died' });
  if (rows.length > 0) log.warn({ jobs: rows.length }, 'jobs left active by an earlier process failed for retry');
}

/**
 * A worker takes its lease (holdLease) right after fetching a job; a task job fetched longer than a lease
 * ago whose expiry is still the kind's full expireInSeconds was fetched by a worker that died before it
 * started the attempt. Failing it retries it now rather than when that expiry runs out.
 */
async function failUnleasedJobs(database: Database, log: FastifyBaseLogger, boss: PgBoss): Promise<void> {
  const { rows } = await database.executeSql(
    `SELECT name, id FROM ${BOSS_SCHEMA}.job
      WHERE state = 'active' AND name LIKE $1
        AND started_on < now() - make_interval(secs => $2)
        AND started_on + expire_in > now() + make_interval(secs => $2)
      LIMIT 500`,
    [`${TASK_QUEUE_PREFIX}%`, LEASE_SECONDS],
  );
  for (const row of rows) await boss.fail(String(row.name), String(row.id), { message: 'worker lost' });
  if (rows.length > 0) log.warn({ jobs: rows.length }, 'jobs fetched by a lost worker failed for retry');
}
