import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import { MESSAGES } from '../../../common/messages.ts';
import type { Config } from '../../config.ts';
import type { Database, Db } from '../../db/client.ts';
import { tasks } from '../../db/schema/index.ts';
import type { Clock } from '../clock.ts';
import { refundTask, reserveCredits } from '../credits/ledger.ts';
import { AppError, notFound } from '../errors.ts';
import { currentRequestId, runWithRequestId } from '../http/request-context.ts';
import type { Lifecycle } from '../lifecycle.ts';
import { assertStorageRoom } from '../media/quota.ts';
import { MediaStore } from '../media/store.ts';
import type { Metrics } from '../metrics/index.ts';
import type { ObjectStorage } from '../storage/types.ts';
import { retryingStorage } from '../storage/unavailable.ts';
import { forgetStaleHeartbeats, HEARTBEAT_STALE_SECONDS, type ProcessRole, WorkerHeartbeat } from './heartbeat.ts';
import {
  type AnyTaskDefinition,
  type CreateTaskInput,
  type JobContext,
  type JobKinds,
  type Jobs,
  PermanentTaskError,
  type ScheduledJob,
  type TaskDefinition,
  type TaskError,
  type TaskProgress,
  type TaskRow,
} from './types.ts';
import { TaskWaiter } from './wait.ts';

/** pg-boss lives in its own schema of the studio's database. */
const BOSS_SCHEMA = 'pgboss';
const TASK_QUEUE_PREFIX = 'task.';
/** The platform's own queues driven by pg-boss schedules (features bring theirs as ScheduledJob). */
export const MAINTENANCE_QUEUES = {
  mediaCleanup: 'maintenance.media-cleanup',
  taskRecovery: 'maintenance.task-recovery',
} as const;
const SCHEDULES: Record<(typeof MAINTENANCE_QUEUES)[keyof typeof MAINTENANCE_QUEUES], string> = {
  [MAINTENANCE_QUEUES.mediaCleanup]: '7 * * * *',
  [MAINTENANCE_QUEUES.taskRecovery]: '* * * * *',
};
/**
 * A run of an `everySeconds` job left active by a process that died blocks the next runs (its queue is
 * stately: one run at a time) until pg-boss expires it; runs take well under this.
 */
const INTERVAL_RUN_EXPIRE_SECONDS = 60;
/**
 * How often an idle worker polls pg-boss when nothing woke it. Workers are woken at once by every send (in
 * this process, or via JOB_WAKE_CHANNEL), by a timer when a failed attempt's retry delay runs out, and after
 * each maintenance pass (which expires the jobs of dead workers) for any queue with a job ready; polling is
 * only the fallback. (26 workers polling every second cost an idle PGlite studio a tenth of a core.)
 */
const POLLING_INTERVAL_SECONDS = 30;
/** A retry is woken this long after its delay, so that its start_after has surely passed. */
const RETRY_WAKE_MARGIN_MS = 250;
/** PostgreSQL: each send NOTIFYs this channel with the queue name; worker processes LISTEN and fetch at once. */
const JOB_WAKE_CHANNEL = 'genpro_job_wake';
const DEFAULTS = { retryLimit: 2, retryDelaySeconds: 5, expireInSeconds: 900 };
const PROGRESS_WRITE_INTERVAL_MS = 500;
/**
 * A queued task with no pg-boss job for this long is re-sent by the recovery sweep. Re-sending is harmless
 * (the job id is the task id, pg-boss ignores a duplicate), so this only needs to cover commit-then-send.
 */
const ORPHAN_AFTER_SECONDS = 15;
/**
 * A running attempt renews its job's lease this often; pg-boss expires (and retries) a job whose lease ran
 * out, so a worker that died (SIGKILL, lost host) is noticed within the lease, not the kind's full
 * expireInSeconds. The lease is long enough to survive a busy event loop.
 */
const LEASE_SECONDS = 30;
const LEASE_RENEW_MS = 5_000;

/** Embedded databases some queue of this process has started on (see failJobsOfDeadProcess). */
const startedDatabases = new WeakSet<Database>();

interface TaskJobData {
  taskId: string;
}

/** What the queue itself reads from the context it hands to handlers. */
type QueueContext = JobContext & {
  config: Pick<Config, 'RUN_WORKERS' | 'WORKER_CONCURRENCY' | 'STORAGE_QUOTA_MB' | 'WORKER_SHUTDOWN_GRACE_S'>;
  db: Db;
  storage: ObjectStorage;
  clock: Clock;
  /** Task counters and timings (absent in tests that attach a bare context). */
  metrics?: Metrics;
  /** The process's drain (SIGTERM): workers stop fetching at once. */
  lifecycle?: Pick<Lifecycle, 'onDrain'>;
};

/** A task attempt running in this process. */
interface RunningAttempt {
  taskId: string;
  attempt: number;
}

/** Why stop() aborts an attempt it gave back to the queue: not a failure, nothing to record. */
class WorkerShutdown extends Error {
  constructor() {
    super('worker shutting down');
    this.name = 'WorkerShutdown';
  }
}

/** What status calls return for a task. */
interface TaskView {
  id: string;
  kind: string;
  status: TaskRow['status'];
  progress: number;
  estimatedSecondsLeft: number | null;
  result: Record<string, unknown> | null;
  error: TaskError | null;
  createdAt: string;
  updatedAt: string;
}

export function toTaskView(task: TaskRow): TaskView {
  return {
    id: task.id,
    kind: task.kind,
    status: task.status,
    progress: task.progress,
    estimatedSecondsLeft: task.estimatedSecondsLeft,
    result: task.result ?? null,
    error: task.error ?? null,
    createdAt: task.createdAt.toISOString(),
    updatedAt: task.updatedAt.toISOString(),
  };
}

export interface JobQueueDeps {
  database: Database;
  log: FastifyBaseLogger;
  clock: Clock;
  /** Workers per task kind; default config.WORKER_CONCURRENCY. */
  concurrency?: number;
  /** How often pg-boss expires jobs of dead workers (and recovery runs after it); default 10 s. */
  maintenanceIntervalSeconds?: number;
  /** How often idle workers poll when nothing woke them; default 30 s. */
  pollingIntervalSeconds?: number;
  /** The app's task kinds and scheduled jobs, handed over by the process wiring (server/jobs.ts). */
  kinds?: JobKinds;
  /** What the process is, in its heartbeat row: 'worker' for `npm run worker`; default 'api'. */
  role?: ProcessRole;
  /** Heartbeat interval; default HEARTBEAT_INTERVAL_SECONDS (tests shorten it). */
  heartbeatIntervalSeconds?: number;
  /** A worker whose last beat is older is taken for dead; default HEARTBEAT_STALE_SECONDS (tests shorten it). */
  staleWorkerSeconds?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
function bossDb(database: Database, isDetached: () => boolean = () => false): PgBoss.Db {
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

function isTaskQueue(queue: string): boolean {
  return queue.startsWith(TASK_QUEUE_PREFIX);
}

/**
 * Tasks on pg-boss. Each task is a `tasks` row (what users see) and a pg-boss job with the same id
 * (what workers pick up). The row is written and credits reserved in one transaction; the job is
 * sent right after and the local workers are woken at once. A worker marks the row processing, runs
 * the kind's handler, writes progress and the result. A failed attempt goes back to `queued` with
 * its error until pg-boss has no retries left; then the row is marked failed and its credits
 * refunded in one transaction. A worker that dies mid-task leaves an active job that pg-boss expires
 * and retries; a scheduled recovery sweep re-sends lost jobs and fails tasks whose job failed without
 * a worker to record it.
 */
export class JobQueue implements Jobs {
  private boss: PgBoss | null = null;
  private ctx: QueueContext | null = null;
  private readonly definitions = new Map<string, AnyTaskDefinition>();
  private readonly scheduled: readonly ScheduledJob[];
  private readonly intervalTicks = new Set<NodeJS.Timeout>();
  private readonly workerIds = new Map<string, string[]>();
  private readonly running = new Map<AbortController, RunningAttempt>();
  /** Every job a worker of this process is handling (task attempts and scheduled runs): job id → queue. */
  private readonly inFlight = new Map<string, string>();
  private lastTask: { id: string; kind: string; at: Date } | null = null;
  private heartbeat: WorkerHeartbeat | null = null;
  private runWorkers = false;
  /** Set by drain(): the workers fetch nothing more; tasks can still be created (an API process drains HTTP). */
  private draining = false;
  private drainStartedAt = 0;
  private stopListening: (() => Promise<void>) | null = null;
  private readonly retryWakes = new Set<NodeJS.Timeout>();
  private readyCheckRunning = false;
  private takeoverRunning = false;
  private stopping = false;
  private detached = false;
  private readonly waiter: TaskWaiter;

  constructor(private readonly deps: JobQueueDeps) {
    this.scheduled = deps.kinds?.scheduled ?? [];
    this.waiter = new TaskWaiter({
      database: deps.database,
      log: deps.log,
      read: (userId, taskId) => this.getTask(userId, taskId),
    });
  }

  /** Binds the context handlers receive and registers the task kinds the queue was made with. */
  attach(ctx: QueueContext): void {
    this.ctx = ctx;
    for (const definition of this.deps.kinds?.tasks ?? []) void this.register(definition);
    ctx.lifecycle?.onDrain(() => this.drain());
  }

  /** The id this process's attempts write into tasks.worker_id (null without workers). */
  get workerId(): string | null {
    return this.heartbeat?.id ?? null;
  }

  /** Adds a task kind. Before start() it only records it; after, it creates the queue (and workers). */
  async register<Input, Result extends object>(definition: TaskDefinition<Input, Result>): Promise<void> {
    const existing = this.definitions.get(definition.kind);
    if (existing === (definition as unknown as AnyTaskDefinition)) return;
    if (existing) throw new Error(`task kind ${definition.kind} is already registered`);
    this.definitions.set(definition.kind, definition as unknown as AnyTaskDefinition);
    if (this.boss) await this.activate(definition as unknown as AnyTaskDefinition);
  }

  get kinds(): string[] {
    return [...this.definitions.keys()];
  }

  /** Starts pg-boss; workers and schedules run only when `config.RUN_WORKERS` is on. */
  async start(): Promise<void> {
    if (this.boss) return;
    this.stopping = false;
    this.detached = false;
    this.draining = false;
    this.runWorkers = this.ctx?.config.RUN_WORKERS ?? false;
    const firstOnDatabase = !startedDatabases.has(this.deps.database);
    startedDatabases.add(this.deps.database);
    const boss = new PgBoss({
      db: bossDb(this.deps.database, () => this.detached),
      schema: BOSS_SCHEMA,
      migrate: true,
      supervise: true,
      schedule: this.runWorkers,
      maintenanceIntervalSeconds: this.deps.maintenanceIntervalSeconds ?? 10,
      pollingIntervalSeconds: this.pollingIntervalSeconds,
    });
    boss.on('error', (error) => {
      if (!this.stopping) this.deps.log.error({ err: error }, 'job queue error');
    });
    // Right after pg-boss expired the jobs of dead workers: fail (and refund) those that had no retry left,
    // and wake the workers of queues with a job ready (retries of expired jobs, scheduled maintenance).
    boss.on('maintenance', () => {
      if (!this.runWorkers || this.stopping) return;
      this.recover().catch((error: unknown) => this.deps.log.warn({ err: error }, 'task recovery failed'));
      void this.wakeReadyQueues();
    });
    await boss.start();
    this.boss = boss;
    if (this.runWorkers) {
      // The row exists before any attempt writes its id into tasks.worker_id.
      await this.startHeartbeat();
      // Before any worker of this process fetches (a job it had just fetched would look left by the dead process).
      if (firstOnDatabase && this.deps.database.kind === 'pglite') await this.failJobsOfDeadProcess(boss);
    }
    for (const definition of this.definitions.values()) await this.activate(definition);
    if (this.runWorkers) await this.listenForWakeUps();
    for (const queue of Object.values(MAINTENANCE_QUEUES)) await createQueue(boss, queue);
    for (const job of this.scheduled) await createScheduledQueue(boss, job);
    if (this.runWorkers) {
      await this.work(MAINTENANCE_QUEUES.mediaCleanup, 1, async () => {
        const deleted = await this.mediaStore().deleteExpired();
        if (deleted > 0) this.deps.log.info({ deleted }, 'expired temporary media removed');
        return { deleted };
      });
      await this.work(MAINTENANCE_QUEUES.taskRecovery, 1, async () => this.recover());
      for (const [queue, cron] of Object.entries(SCHEDULES)) await boss.schedule(queue, cron, {}, { retryLimit: 0 });
      await this.recover().catch((error: unknown) => this.deps.log.warn({ err: error }, 'task recovery failed'));
      for (const job of this.scheduled) await this.startScheduled(boss, job);
    }
  }

  /**
   * One worker per process for the job; cron jobs are pg-boss schedules (pg-boss sends one job per minute
   * across every process). An `everySeconds` job is sent once now (a process that starts runs it at once:
   * whatever fell due while no worker ran), then by every process every interval, throttled to one job per
   * interval of the clock across processes (pg-boss singletonSeconds); its stately queue runs one at a time.
   */
  private async startScheduled(boss: PgBoss, job: ScheduledJob): Promise<void> {
    const ctx = this.attachedContext();
    await this.work(job.name, 1, () => job.run(ctx));
    if ('cron' in job) {
      await boss.schedule(job.name, job.cron, {}, { retryLimit: 0 });
      return;
    }
    const seconds = job.everySeconds(ctx);
    const options = { retryLimit: 0, expireInSeconds: INTERVAL_RUN_EXPIRE_SECONDS };
    await boss.send(job.name, {}, options);
    this.notify(job.name);
    const timer = setInterval(() => {
      if (!this.boss || this.stopping) return;
      boss
        .sendThrottled(job.name, {}, options, seconds)
        .then(() => this.notify(job.name))
        .catch((error: unknown) => {
          if (!this.stopping) this.deps.log.warn({ err: error, queue: job.name }, 'scheduled job not sent');
        });
    }, seconds * 1000);
    timer.unref();
    this.intervalTicks.add(timer);
  }

  /**
   * The process is asked to stop (its lifecycle drains, or stop() is called): the workers fetch no new job from
   * now on and the heartbeat row says `stopping`. Running attempts go on; stop() ends them.
   */
  private drain(): void {
    if (this.draining || !this.boss) return;
    this.draining = true;
    this.drainStartedAt = Date.now();
    if (!this.runWorkers) return;
    const boss = this.boss;
    for (const queue of this.workerIds.keys()) {
      boss.offWork(queue).catch((error: unknown) => this.deps.log.warn({ err: error, queue }, 'worker not stopped'));
    }
    const running = this.running.size;
    const grace = this.graceSeconds;
    this.deps.log.info(
      { running, graceSeconds: grace, workerId: this.workerId },
      `worker stopping: finishing ${running} running tasks (grace ${grace}s)`,
    );
    this.heartbeat
      ?.markStopping()
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'worker heartbeat not marked stopping'));
  }

  /** WORKER_SHUTDOWN_GRACE_S: how long running attempts may go on once the process drains. */
  private get graceSeconds(): number {
    return this.ctx?.config.WORKER_SHUTDOWN_GRACE_S ?? 120;
  }

  /**
   * Drains (no new job), lets running attempts finish until WORKER_SHUTDOWN_GRACE_S after the drain began, gives
   * back the ones still running then (another worker takes them at once), stops pg-boss and removes the
   * heartbeat row.
   */
  async stop(): Promise<void> {
    await this.waiter.close();
    const boss = this.boss;
    if (!boss || this.stopping) return;
    this.drain();
    this.stopping = true;
    for (const timer of this.retryWakes) clearTimeout(timer);
    this.retryWakes.clear();
    for (const timer of this.intervalTicks) clearInterval(timer);
    this.intervalTicks.clear();
    try {
      await this.stopListening?.();
      this.stopListening = null;
      if (this.runWorkers) await this.finishOrGiveBack(boss);
      await boss.stop({ graceful: false, wait: true });
    } finally {
      for (const controller of this.running.keys()) controller.abort(new WorkerShutdown());
      this.detached = true;
      this.boss = null;
      this.workerIds.clear();
      await this.heartbeat?.stop();
      this.heartbeat = null;
    }
  }

  /** Waits for the jobs in hand until the grace ends; then gives back the task attempts and fails the rest. */
  private async finishOrGiveBack(boss: PgBoss): Promise<void> {
    const deadline = this.drainStartedAt + this.graceSeconds * 1000;
    const waited = this.inFlight.size > 0;
    while (this.inFlight.size > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(100, Math.max(1, deadline - Date.now()))));
    }
    if (this.inFlight.size === 0) {
      if (waited) this.deps.log.info('worker stopping: running tasks finished');
      return;
    }
    const left = [...this.inFlight];
    const attempts = new Map([...this.running.values()].map((attempt) => [attempt.taskId, attempt]));
    const taskIds = left.filter(([, queue]) => isTaskQueue(queue)).map(([id]) => id);
    this.deps.log.warn(
      { taskIds, scheduledRuns: left.length - taskIds.length, graceSeconds: this.graceSeconds },
      `worker stopping: grace over, giving back ${taskIds.length} running tasks`,
    );
    for (const [jobId, queue] of left) {
      if (isTaskQueue(queue)) await this.giveBack(queue, jobId, attempts.get(jobId));
      else await boss.fail(queue, jobId, { message: 'worker stopped' }).catch(() => undefined);
    }
    // From here pg-boss's own complete/fail of those attempts answer nothing (the jobs are no longer theirs).
    this.detached = true;
    for (const controller of this.running.keys()) controller.abort(new WorkerShutdown());
    for (const queue of new Set(left.map(([, queue]) => queue))) await this.wakeOtherProcesses(queue);
  }

  /**
   * Puts an attempt's job back as if never fetched (pending, no retry used, available now) and its task back to
   * queued. The attempt itself is aborted right after; whatever it still writes is guarded by its attempt number.
   */
  private async giveBack(queue: string, jobId: string, attempt: RunningAttempt | undefined): Promise<void> {
    try {
      await this.deps.database.executeSql(
        `UPDATE ${BOSS_SCHEMA}.job SET state = 'created', started_on = NULL, start_after = now()
          WHERE name = $1 AND id = $2 AND state = 'active'`,
        [queue, jobId],
      );
      if (!attempt) return;
      await this.deps.database.db
        .update(tasks)
        .set({ status: 'queued', updatedAt: this.deps.clock.now() })
        .where(and(eq(tasks.id, attempt.taskId), eq(tasks.attempts, attempt.attempt), eq(tasks.status, 'processing')));
    } catch (error) {
      this.deps.log.warn(
        { err: error, taskId: jobId },
        'task not given back; another worker retries it when its lease runs out',
      );
    }
  }

  /** For /healthz: pg-boss is started and its schema answers. */
  async health(): Promise<boolean> {
    if (!this.boss || this.stopping) return false;
    try {
      await this.deps.database.executeSql(`SELECT version FROM ${BOSS_SCHEMA}.version LIMIT 1`);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Reserves the credits and writes the task row in one transaction (402 AppError when the balance
   * is short, 403 subscription_required without subscription access), then sends its job and wakes the
   * local workers. A paid task of a user whose storage is full is refused first (413 storage_full).
   */
  async createTask(input: CreateTaskInput): Promise<TaskRow> {
    const definition = this.definition(input.kind);
    const boss = this.requireBoss();
    const credits = input.credits ?? 0;
    if (!Number.isInteger(credits) || credits < 0) throw new RangeError('credits must be a non-negative integer');
    // Every paid task stores its output: a user whose storage is full is refused before anything is spent.
    if (credits > 0 && this.ctx) await assertStorageRoom(this.ctx, input.userId, 0);
    const id = input.id ?? randomUUID();
    const now = this.deps.clock.now();
    const task = await this.deps.database.db.transaction(async (tx) => {
      if (credits > 0) {
        await reserveCredits(tx, {
          userId: input.userId,
          amount: credits,
          source: input.creditSource ?? 'generation',
          description: input.description ?? input.kind,
          generationType: input.generationType ?? null,
          taskId: id,
          now,
        });
      }
      const [row] = await tx
        .insert(tasks)
        .values({
          id,
          userId: input.userId,
          kind: input.kind,
          status: 'queued',
          progress: 0,
          estimatedSecondsLeft: input.estimatedSeconds ?? null,
          input: input.input,
          creditsReserved: credits,
          // The request that made it (X-Request-Id), followed into the worker's logs.
          requestId: currentRequestId() ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return row;
    });
    try {
      await this.send(boss, definition, task.id);
    } catch (error) {
      // The row is committed; the recovery sweep re-sends its job.
      this.deps.log.warn({ err: error, taskId: task.id }, 'task job could not be sent; recovery will retry');
    }
    return task;
  }

  /** The user's task; 404 for an unknown id or another user's task. */
  async getTask(userId: string, id: string): Promise<TaskRow> {
    if (!UUID.test(id)) throw notFound(MESSAGES.tasks.notFound);
    const [task] = await this.deps.database.db
      .select()
      .from(tasks)
      .where(and(eq(tasks.id, id), eq(tasks.userId, userId)))
      .limit(1);
    if (!task) throw notFound(MESSAGES.tasks.notFound);
    return task;
  }

  waitFor(userId: string, taskId: string, timeoutMs: number): Promise<TaskRow> {
    return this.waiter.waitFor(userId, taskId, timeoutMs);
  }

  /** Runs a maintenance or scheduled job now (instead of waiting for its schedule) and wakes its worker. */
  async runMaintenance(queue: string): Promise<string | null> {
    const boss = this.requireBoss();
    const id = await boss.send(queue, {}, { retryLimit: 0 });
    this.notify(queue);
    return id;
  }

  /**
   * Re-sends jobs of tasks whose job never reached pg-boss (a crash between commit and send) and
   * fails (with refund) tasks whose job failed or vanished without a worker recording it.
   */
  async recover(): Promise<{ resent: number; failed: number; takenOver: number }> {
    const boss = this.requireBoss();
    await this.failUnleasedJobs(boss);
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
      const definition = this.definitions.get(String(row.kind));
      if (!definition) continue;
      await this.send(boss, definition, String(row.id));
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
      if (await this.finalizeFailure(String(row.id), error)) failed++;
    }
    if (resent > 0 || failed > 0) this.deps.log.info({ resent, failed }, 'task recovery');
    return { resent, failed, takenOver };
  }

  /**
   * Runs at each beat of this process (so it does not wait for this process's turn at pg-boss maintenance, which
   * one process of the cluster gets every 10 s) and in recover(); one pass at a time.
   */
  private async takeOverFromStoppedWorkers(): Promise<number> {
    const boss = this.boss;
    if (!boss || this.stopping || this.draining || this.takeoverRunning) return 0;
    this.takeoverRunning = true;
    try {
      return await this.failJobsOfStoppedWorkers(boss);
    } catch (error) {
      if (!this.stopping) this.deps.log.warn({ err: error }, 'takeover of stopped workers’ tasks failed');
      return 0;
    } finally {
      this.takeoverRunning = false;
    }
  }

  private get staleWorkerSeconds(): number {
    return this.deps.staleWorkerSeconds ?? HEARTBEAT_STALE_SECONDS;
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
    const heartbeat = this.heartbeat;
    const stale = this.staleWorkerSeconds;
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
      const definition = this.definitions.get(name.slice(TASK_QUEUE_PREFIX.length));
      this.wakeForRetry(name, definition?.retryDelaySeconds ?? DEFAULTS.retryDelaySeconds);
    }
    return rows.length;
  }

  /**
   * An embedded database belongs to one process, and no queue of this process has fetched a job from it
   * yet: every active job is left by a process that died (SIGKILL, power loss). Failing them now retries
   * them (or, without retries left, lets recover() fail and refund their tasks) instead of waiting for
   * their leases to run out.
   */
  private async failJobsOfDeadProcess(boss: PgBoss): Promise<void> {
    const { rows } = await this.deps.database.executeSql(
      `SELECT name, id FROM ${BOSS_SCHEMA}.job WHERE state = 'active'`,
    );
    for (const row of rows) await boss.fail(String(row.name), String(row.id), { message: 'worker process died' });
    if (rows.length > 0)
      this.deps.log.warn({ jobs: rows.length }, 'jobs left active by an earlier process failed for retry');
  }

  /**
   * A worker takes its lease (holdLease) right after fetching a job; a task job fetched longer than a lease
   * ago whose expiry is still the kind's full expireInSeconds was fetched by a worker that died before it
   * started the attempt. Failing it retries it now rather than when that expiry runs out.
   */
  private async failUnleasedJobs(boss: PgBoss): Promise<void> {
    const { rows } = await this.deps.database.executeSql(
      `SELECT name, id FROM ${BOSS_SCHEMA}.job
        WHERE state = 'active' AND name LIKE $1
          AND started_on < now() - make_interval(secs => $2)
          AND started_on + expire_in > now() + make_interval(secs => $2)
        LIMIT 500`,
      [`${TASK_QUEUE_PREFIX}%`, LEASE_SECONDS],
    );
    for (const row of rows) await boss.fail(String(row.name), String(row.id), { message: 'worker lost' });
    if (rows.length > 0) this.deps.log.warn({ jobs: rows.length }, 'jobs fetched by a lost worker failed for retry');
  }

  private definition(kind: string): AnyTaskDefinition {
    const definition = this.definitions.get(kind);
    if (!definition) throw new Error(`unknown task kind: ${kind}`);
    return definition;
  }

  private requireBoss(): PgBoss {
    if (!this.boss || this.stopping) throw new Error('the job queue is not started');
    return this.boss;
  }

  private mediaStore(): MediaStore {
    const ctx = this.attachedContext();
    return new MediaStore({ db: ctx.db, storage: ctx.storage, clock: this.deps.clock });
  }

  private attachedContext(): QueueContext {
    if (!this.ctx) throw new Error('the job queue has no context');
    return this.ctx;
  }

  private async send(boss: PgBoss, definition: AnyTaskDefinition, taskId: string): Promise<void> {
    const queue = taskQueueName(definition.kind);
    const data: TaskJobData = { taskId };
    await boss.send(queue, data, {
      id: taskId,
      retryLimit: definition.retryLimit ?? DEFAULTS.retryLimit,
      retryDelay: definition.retryDelaySeconds ?? DEFAULTS.retryDelaySeconds,
      expireInSeconds: definition.expireInSeconds ?? DEFAULTS.expireInSeconds,
    });
    this.notify(queue);
    await this.wakeOtherProcesses(queue);
  }

  private get pollingIntervalSeconds(): number {
    return this.deps.pollingIntervalSeconds ?? POLLING_INTERVAL_SECONDS;
  }

  /** Wakes the queue's workers when pg-boss makes the retry of a failed attempt available. */
  private wakeForRetry(queue: string, delaySeconds: number): void {
    if (this.stopping) return;
    const timer = setTimeout(
      () => {
        this.retryWakes.delete(timer);
        this.notify(queue);
      },
      delaySeconds * 1000 + RETRY_WAKE_MARGIN_MS,
    );
    timer.unref();
    this.retryWakes.add(timer);
  }

  /** Wakes the workers of every queue this process works that has a job ready now. */
  private async wakeReadyQueues(): Promise<void> {
    const queues = [...this.workerIds.keys()];
    if (this.readyCheckRunning || this.stopping || queues.length === 0) return;
    this.readyCheckRunning = true;
    try {
      // Served by pg-boss's partial index job_i5 (name, start_after) WHERE state < 'active': pending jobs only.
      const { rows } = await this.deps.database.executeSql(
        `SELECT DISTINCT name FROM ${BOSS_SCHEMA}.job
          WHERE state < 'active' AND start_after < now() AND name = ANY($1::text[])`,
        [queues],
      );
      for (const row of rows as Array<{ name: string }>) this.notify(row.name);
    } catch (error) {
      if (!this.stopping) this.deps.log.warn({ err: error }, 'ready job check failed; workers fall back to polling');
    } finally {
      this.readyCheckRunning = false;
    }
  }

  /** PostgreSQL: tells worker processes elsewhere that `queue` has a job (else they would wait for polling). */
  private async wakeOtherProcesses(queue: string): Promise<void> {
    if (this.deps.database.kind !== 'postgres') return;
    try {
      await this.deps.database.executeSql('SELECT pg_notify($1, $2)', [JOB_WAKE_CHANNEL, queue]);
    } catch (error) {
      this.deps.log.warn({ err: error, queue }, 'job wake-up not sent; workers will poll for it');
    }
  }

  /** Worker processes on PostgreSQL fetch as soon as any process sends a job to one of their queues. */
  private async listenForWakeUps(): Promise<void> {
    if (this.deps.database.kind !== 'postgres' || !this.deps.database.listen) return;
    try {
      this.stopListening = await this.deps.database.listen(JOB_WAKE_CHANNEL, (queue) => this.notify(queue));
    } catch (error) {
      this.deps.log.warn({ err: error }, 'cannot listen for job wake-ups; workers will poll');
    }
  }

  private notify(queue: string): void {
    if (!this.boss) return;
    for (const workerId of this.workerIds.get(queue) ?? []) this.boss.notifyWorker(workerId);
  }

  private async activate(definition: AnyTaskDefinition): Promise<void> {
    const boss = this.requireBoss();
    const queue = taskQueueName(definition.kind);
    await createQueue(boss, queue);
    if (!this.runWorkers) return;
    const concurrency = this.deps.concurrency ?? this.ctx?.config.WORKER_CONCURRENCY ?? 1;
    await this.work(queue, concurrency, (job) => this.runJob(definition, job));
  }

  private async work(
    queue: string,
    concurrency: number,
    run: (job: PgBoss.JobWithMetadata<TaskJobData>) => Promise<object>,
  ): Promise<void> {
    const boss = this.requireBoss();
    const ids = this.workerIds.get(queue) ?? [];
    for (let i = 0; i < concurrency; i++) {
      let id = '';
      id = await boss.work<TaskJobData>(
        queue,
        { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: this.pollingIntervalSeconds },
        async ([job]) => {
          if (!job) return {};
          this.inFlight.set(job.id, queue);
          try {
            return await run(job);
          } finally {
            this.inFlight.delete(job.id);
            // Fetch again right after this job instead of sleeping out the (long) polling interval.
            if (this.boss && !this.stopping && !this.draining) this.boss.notifyWorker(id);
          }
        },
      );
      ids.push(id);
    }
    this.workerIds.set(queue, ids);
  }

  private async startHeartbeat(): Promise<void> {
    const heartbeat = new WorkerHeartbeat({
      database: this.deps.database,
      log: this.deps.log,
      role: this.deps.role ?? 'api',
      intervalSeconds: this.deps.heartbeatIntervalSeconds,
      details: {
        concurrency: this.deps.concurrency ?? this.ctx?.config.WORKER_CONCURRENCY ?? 1,
        kinds: this.definitions.size,
      },
      state: () => ({ running: this.running.size, lastTask: this.lastTask }),
      afterBeat: () => void this.takeOverFromStoppedWorkers(),
    });
    this.heartbeat = heartbeat;
    await heartbeat.start();
  }

  /** Bookkeeping of an attempt that starts: stop() and the heartbeat (running count, last task) read it. */
  private attemptStarted(controller: AbortController, task: TaskRow): void {
    this.running.set(controller, { taskId: task.id, attempt: task.attempts });
    this.lastTask = { id: task.id, kind: task.kind, at: this.deps.clock.now() };
  }

  /** One attempt of one task. Throwing hands the failure to pg-boss (retry or final failure). */
  private async runJob(definition: AnyTaskDefinition, job: PgBoss.JobWithMetadata<TaskJobData>): Promise<object> {
    const ctx = this.ctx;
    if (!ctx) throw new Error('the job queue has no context');
    const db = this.deps.database.db;
    const taskId = job.data?.taskId;
    if (!taskId) return { skipped: 'no task id' };
    const now = this.deps.clock.now();
    const [task] = await db
      .update(tasks)
      .set({
        status: 'processing',
        attempts: sql`${tasks.attempts} + 1`,
        startedAt: now,
        updatedAt: now,
        workerId: this.workerId,
      })
      .where(and(eq(tasks.id, taskId), inArray(tasks.status, ['queued', 'processing'])))
      .returning();
    if (!task) return { skipped: 'task already finished' };
    const attempt = task.attempts;
    const isFinalAttempt = job.retryCount >= job.retryLimit;
    const observed = observeAttempt(this.deps.log, ctx.metrics, definition.kind, task, job);

    const controller = new AbortController();
    this.attemptStarted(controller, task);
    const expireInSeconds = definition.expireInSeconds ?? DEFAULTS.expireInSeconds;
    const timer = setTimeout(() => controller.abort(new TaskTimeout()), Math.max(500, expireInSeconds * 1000 - 1000));
    const report = this.progressReporter(taskId, attempt);
    const lease = this.holdLease(definition, job);
    try {
      const parsed = definition.input.safeParse(task.input);
      if (!parsed.success) throw new PermanentTaskError('invalid_input', 'The task input is not valid');
      // A storage outage while the attempt reads or saves media is waited out for a few seconds (bounded) before
      // the attempt fails; then the task's own retry, or its refund, takes over.
      const storage = retryingStorage(ctx.storage, {
        signal: controller.signal,
        onRetry: (error, waitMs) =>
          observed.log.warn(
            { err: (error as { cause?: unknown }).cause, waitMs },
            'media storage unavailable: the task waits and tries again',
          ),
      });
      // The handler logs with the attempt's logger, and tasks it creates carry the same request id.
      const handlerCtx = { ...ctx, storage, log: observed.log };
      const result = await raceAbort(
        runWithRequestId(task.requestId ?? undefined, () =>
          definition.handler({ task, input: parsed.data, ctx: handlerCtx, attempt, signal: controller.signal, report }),
        ),
        controller.signal,
      );
      const done = this.deps.clock.now();
      await db
        .update(tasks)
        .set({
          status: 'completed',
          progress: 100,
          estimatedSecondsLeft: 0,
          result: result as Record<string, unknown>,
          error: null,
          finishedAt: done,
          updatedAt: done,
        })
        .where(and(eq(tasks.id, taskId), eq(tasks.attempts, attempt), eq(tasks.status, 'processing')));
      observed.finished('completed');
      return { taskId, status: 'completed' };
    } catch (thrown) {
      // Given back to the queue by stop(): not a failure of the task.
      if (controller.signal.reason instanceof WorkerShutdown) throw thrown;
      const error = toTaskError(thrown);
      const permanent = isPermanent(thrown);
      observed.log.warn({ err: thrown, final: permanent || isFinalAttempt }, 'task attempt failed');
      observed.finished(permanent || isFinalAttempt ? 'failed' : 'retried');
      // pg-boss makes a retry available after the delay whenever retries are left (a permanent failure's
      // retry finds the task finished and is skipped).
      if (job.retryCount < job.retryLimit) {
        this.wakeForRetry(job.name, definition.retryDelaySeconds ?? DEFAULTS.retryDelaySeconds);
      }
      if (permanent || isFinalAttempt) {
        await this.finalizeFailure(taskId, error, attempt);
      } else {
        await db
          .update(tasks)
          .set({ status: 'queued', error, updatedAt: this.deps.clock.now() })
          .where(and(eq(tasks.id, taskId), eq(tasks.attempts, attempt), eq(tasks.status, 'processing')));
      }
      throw thrown instanceof Error ? thrown : new Error(error.message);
    } finally {
      clearTimeout(timer);
      clearInterval(lease);
      this.running.delete(controller);
    }
  }

  /** Marks the task failed, refunds its credits and runs the kind's onFailed, in one transaction. */
  private async finalizeFailure(taskId: string, error: TaskError, attempt?: number): Promise<boolean> {
    const ctx = this.ctx;
    return this.deps.database.db.transaction(async (tx) => {
      const now = this.deps.clock.now();
      const [task] = await tx
        .update(tasks)
        .set({ status: 'failed', error, estimatedSecondsLeft: null, finishedAt: now, updatedAt: now })
        .where(
          and(
            eq(tasks.id, taskId),
            inArray(tasks.status, ['queued', 'processing']),
            attempt === undefined ? undefined : eq(tasks.attempts, attempt),
          ),
        )
        .returning();
      if (!task) return false;
      await refundTask(tx, taskId, `Refund: ${task.kind} failed`);
      const definition = this.definitions.get(task.kind);
      if (definition?.onFailed && ctx) await definition.onFailed({ task, ctx, tx, error });
      return true;
    });
  }

  /**
   * Keeps the attempt's job alive: its expiry becomes now + LEASE_SECONDS (never later than the kind's own
   * expiry), renewed every LEASE_RENEW_MS while the attempt runs. pg-boss reads only `started_on +
   * expire_in` to expire an active job, and `expire_in` stays as sent (it is the handler's time limit).
   */
  private holdLease(definition: AnyTaskDefinition, job: PgBoss.JobWithMetadata<TaskJobData>): NodeJS.Timeout {
    const renew = () =>
      this.deps.database
        .executeSql(
          `UPDATE ${BOSS_SCHEMA}.job
              SET started_on = LEAST($3::timestamptz, now() - expire_in + make_interval(secs => $4))
            WHERE name = $1 AND id = $2 AND state = 'active'
            RETURNING id`,
          [taskQueueName(definition.kind), job.id, job.startedOn, LEASE_SECONDS],
        )
        .then(({ rows }) => {
          if (rows.length === 0 && !this.stopping)
            this.deps.log.warn({ taskId: job.id }, 'task job lease lost; another worker may retry it');
        })
        .catch((error: unknown) => {
          if (!this.detached) this.deps.log.warn({ err: error, taskId: job.id }, 'task job lease not renewed');
        });
    void renew();
    const timer = setInterval(() => void renew(), LEASE_RENEW_MS);
    timer.unref();
    return timer;
  }

  private progressReporter(taskId: string, attempt: number): (progress: TaskProgress) => Promise<void> {
    let lastWrite = 0;
    let lastProgress = -1;
    // A report that arrives within the write interval waits here; the newest one is written when the
    // interval is over, so the last value of a burst (an engine's final step) is never dropped.
    let pending: TaskProgress | null = null;
    let trailing: NodeJS.Timeout | null = null;
    const report = async ({ progress, estimatedSecondsLeft }: TaskProgress): Promise<void> => {
      const value = Math.max(0, Math.min(99, Math.round(progress)));
      const nowMs = Date.now();
      if (value === lastProgress && estimatedSecondsLeft === undefined) return;
      if (nowMs - lastWrite < PROGRESS_WRITE_INTERVAL_MS && value - lastProgress < 10) {
        pending = { progress, estimatedSecondsLeft };
        trailing ??= setTimeout(
          () => {
            trailing = null;
            const next = pending;
            pending = null;
            if (next) void report(next).catch(() => undefined);
          },
          PROGRESS_WRITE_INTERVAL_MS - (nowMs - lastWrite),
        );
        trailing.unref();
        return;
      }
      pending = null;
      lastWrite = nowMs;
      lastProgress = value;
      await this.deps.database.db
        .update(tasks)
        .set({
          progress: value,
          ...(estimatedSecondsLeft === undefined
            ? {}
            : {
                estimatedSecondsLeft:
                  estimatedSecondsLeft === null ? null : Math.max(0, Math.round(estimatedSecondsLeft)),
              }),
          updatedAt: this.deps.clock.now(),
        })
        .where(and(eq(tasks.id, taskId), eq(tasks.attempts, attempt), eq(tasks.status, 'processing')));
    };
    return report;
  }
}

/**
 * Logs an attempt's start ("task started": kind, task id, attempt, request id, time queued) and end ("task finished":
 * outcome, run time) with a child logger carrying those ids, which the handler logs with too; counts it in the
 * metrics (tasks by kind and outcome, queue wait, run time).
 */
function observeAttempt(
  log: FastifyBaseLogger,
  metrics: Metrics | undefined,
  kind: string,
  task: TaskRow,
  job: PgBoss.JobWithMetadata<TaskJobData>,
) {
  const attemptLog = log.child({
    taskId: task.id,
    kind,
    attempt: task.attempts,
    ...(task.requestId ? { requestId: task.requestId } : {}),
  });
  // Queued since the job was created, or since its retry fell due.
  const queuedSince = Math.max(new Date(job.createdOn).getTime(), new Date(job.startAfter).getTime());
  const queueWaitMs = Number.isFinite(queuedSince) ? Math.max(0, Date.now() - queuedSince) : undefined;
  if (queueWaitMs !== undefined) metrics?.taskQueueWait.observe({ kind }, queueWaitMs / 1000);
  attemptLog.info({ queueWaitMs }, 'task started');
  const startedAt = performance.now();
  return {
    log: attemptLog,
    finished(outcome: 'completed' | 'failed' | 'retried') {
      const runMs = Math.round(performance.now() - startedAt);
      metrics?.tasks.inc({ kind, outcome });
      metrics?.taskRunTime.observe({ kind }, runMs / 1000);
      attemptLog.info({ outcome, runMs }, 'task finished');
    },
  };
}

class TaskTimeout extends Error {
  constructor() {
    super(MESSAGES.tasks.timedOut);
    this.name = 'TaskTimeout';
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function isPermanent(error: unknown): boolean {
  if (error instanceof PermanentTaskError) return true;
  return error instanceof AppError && error.status >= 400 && error.status < 500 && error.status !== 429;
}

function toTaskError(error: unknown): TaskError {
  if (error instanceof PermanentTaskError || error instanceof AppError)
    return { code: error.code, message: error.message };
  if (error instanceof TaskTimeout) return { code: 'timeout', message: error.message };
  return { code: 'task_failed', message: MESSAGES.generic.internal };
}

/**
 * pg-boss 10 creates a queue (a row and a partition of its job table) without a lock: processes starting at
 * once on a database that lacks the queue may deadlock on PostgreSQL. PostgreSQL aborts one of them; trying
 * again finds the queue made by the other.
 */
async function createQueue(boss: PgBoss, name: string, options?: PgBoss.Queue): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await boss.createQueue(name, options);
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
    }
  }
}

/** An `everySeconds` job's queue is stately: at most one run waiting and one running, across processes. */
function createScheduledQueue(boss: PgBoss, job: ScheduledJob): Promise<void> {
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
