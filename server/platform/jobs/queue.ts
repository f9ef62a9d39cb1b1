import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Config } from '../../config.ts';
import type { Database, Db } from '../../db/client.ts';
import type { Clock } from '../clock.ts';
import { runWithRequestId } from '../http/request-context.ts';
import type { Lifecycle } from '../lifecycle.ts';
import { assertStorageRoom } from '../media/quota.ts';
import { MediaStore } from '../media/store.ts';
import type { Metrics } from '../metrics/index.ts';
import type { ObjectStorage } from '../storage/types.ts';
import { retryingStorage } from '../storage/unavailable.ts';
import { isPermanent, observeAttempt, raceAbort, TaskTimeout, toTaskError, WorkerShutdown } from './attempts.ts';
import { type ProcessRole, WorkerHeartbeat } from './heartbeat.ts';
import { giveBack, holdLease, type RunningAttempt } from './lease.ts';
import { progressReporter } from './progress.ts';
import { failJobsOfDeadProcess, TaskRecovery } from './recovery.ts';
import {
  BOSS_SCHEMA,
  bossDb,
  createQueue,
  createScheduledQueue,
  isTaskQueue,
  MAINTENANCE_QUEUES,
  TASK_JOB_DEFAULTS,
  type TaskJobData,
  taskQueueName,
} from './schema.ts';
import { completeAttempt, failTask, insertTask, readTask, requeueAttempt, startAttempt } from './task-rows.ts';
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
  type TaskRow,
} from './types.ts';
import { TaskWaiter } from './wait.ts';
import { WakeUps } from './wake-ups.ts';

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
/** Embedded databases some queue of this process has started on (see failJobsOfDeadProcess). */
const startedDatabases = new WeakSet<Database>();

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
  private stopping = false;
  private detached = false;
  private readonly waiter: TaskWaiter;
  private readonly wakeUps: WakeUps;
  private readonly recovery: TaskRecovery;

  constructor(private readonly deps: JobQueueDeps) {
    this.scheduled = deps.kinds?.scheduled ?? [];
    this.wakeUps = new WakeUps({
      database: deps.database,
      log: deps.log,
      boss: () => this.boss,
      isStopping: () => this.stopping,
      workerIds: this.workerIds,
    });
    this.recovery = new TaskRecovery({
      database: deps.database,
      log: deps.log,
      definitions: this.definitions,
      staleWorkerSeconds: deps.staleWorkerSeconds,
      boss: () => this.boss,
      isStopping: () => this.stopping,
      isDraining: () => this.draining,
      heartbeat: () => this.heartbeat,
      send: (boss, definition, taskId) => this.send(boss, definition, taskId),
      finalizeFailure: (taskId, error) => this.finalizeFailure(taskId, error),
      wakeForRetry: (queue, delaySeconds) => this.wakeUps.wakeForRetry(queue, delaySeconds),
    });
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
      void this.wakeUps.wakeReadyQueues();
    });
    await boss.start();
    this.boss = boss;
    if (this.runWorkers) {
      // The row exists before any attempt writes its id into tasks.worker_id.
      await this.startHeartbeat();
      // Before any worker of this process fetches (a job it had just fetched would look left by the dead process).
      if (firstOnDatabase && this.deps.database.kind === 'pglite')
        await failJobsOfDeadProcess(this.deps.database, this.deps.log, boss);
    }
    for (const definition of this.definitions.values()) await this.activate(definition);
    if (this.runWorkers) await this.wakeUps.listenForWakeUps();
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
    this.wakeUps.notify(job.name);
    const timer = setInterval(() => {
      if (!this.boss || this.stopping) return;
      boss
        .sendThrottled(job.name, {}, options, seconds)
        .then(() => this.wakeUps.notify(job.name))
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
    this.wakeUps.clearRetryWakes();
    for (const timer of this.intervalTicks) clearInterval(timer);
    this.intervalTicks.clear();
    try {
      await this.wakeUps.unlisten();
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
      if (isTaskQueue(queue)) await giveBack(this.deps, queue, jobId, attempts.get(jobId));
      else await boss.fail(queue, jobId, { message: 'worker stopped' }).catch(() => undefined);
    }
    // From here pg-boss's own complete/fail of those attempts answer nothing (the jobs are no longer theirs).
    this.detached = true;
    for (const controller of this.running.keys()) controller.abort(new WorkerShutdown());
    for (const queue of new Set(left.map(([, queue]) => queue))) await this.wakeUps.wakeOtherProcesses(queue);
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
    const task = await insertTask(this.deps.database, input, id, credits, now);
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
    return readTask(this.deps.database, userId, id);
  }

  waitFor(userId: string, taskId: string, timeoutMs: number): Promise<TaskRow> {
    return this.waiter.waitFor(userId, taskId, timeoutMs);
  }

  /** Runs a maintenance or scheduled job now (instead of waiting for its schedule) and wakes its worker. */
  async runMaintenance(queue: string): Promise<string | null> {
    const boss = this.requireBoss();
    const id = await boss.send(queue, {}, { retryLimit: 0 });
    this.wakeUps.notify(queue);
    return id;
  }

  /**
   * Re-sends jobs of tasks whose job never reached pg-boss (a crash between commit and send) and
   * fails (with refund) tasks whose job failed or vanished without a worker recording it.
   */
  async recover(): Promise<{ resent: number; failed: number; takenOver: number }> {
    const boss = this.requireBoss();
    return this.recovery.recover(boss);
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
      retryLimit: definition.retryLimit ?? TASK_JOB_DEFAULTS.retryLimit,
      retryDelay: definition.retryDelaySeconds ?? TASK_JOB_DEFAULTS.retryDelaySeconds,
      expireInSeconds: definition.expireInSeconds ?? TASK_JOB_DEFAULTS.expireInSeconds,
    });
    this.wakeUps.notify(queue);
    await this.wakeUps.wakeOtherProcesses(queue);
  }

  private get pollingIntervalSeconds(): number {
    return this.deps.pollingIntervalSeconds ?? POLLING_INTERVAL_SECONDS;
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
      afterBeat: () => void this.recovery.takeOverFromStoppedWorkers(),
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
    const taskId = job.data?.taskId;
    if (!taskId) return { skipped: 'no task id' };
    const now = this.deps.clock.now();
    const task = await startAttempt(this.deps.database, taskId, now, this.workerId);
    if (!task) return { skipped: 'task already finished' };
    const attempt = task.attempts;
    const isFinalAttempt = job.retryCount >= job.retryLimit;
    const observed = observeAttempt(this.deps.log, ctx.metrics, definition.kind, task, job);

    const controller = new AbortController();
    this.attemptStarted(controller, task);
    const expireInSeconds = definition.expireInSeconds ?? TASK_JOB_DEFAULTS.expireInSeconds;
    const timer = setTimeout(() => controller.abort(new TaskTimeout()), Math.max(500, expireInSeconds * 1000 - 1000));
    const report = progressReporter(this.deps.database, this.deps.clock, taskId, attempt);
    const lease = holdLease(
      {
        database: this.deps.database,
        log: this.deps.log,
        isStopping: () => this.stopping,
        isDetached: () => this.detached,
      },
      definition,
      job,
    );
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
      await completeAttempt(this.deps.database, taskId, attempt, result as Record<string, unknown>, done);
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
        this.wakeUps.wakeForRetry(job.name, definition.retryDelaySeconds ?? TASK_JOB_DEFAULTS.retryDelaySeconds);
      }
      if (permanent || isFinalAttempt) {
        await this.finalizeFailure(taskId, error, attempt);
      } else {
        await requeueAttempt(this.deps.database, taskId, attempt, error, this.deps.clock.now());
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
    return failTask(this.deps.database, this.deps.clock, this.definitions, this.ctx, { taskId, error, attempt });
  }
}
