// One attempt's helpers: its log and metrics, its time limit, the abort race and how a thrown error is recorded.
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import { MESSAGES } from '../../../common/messages.ts';
import { AppError } from '../errors.ts';
import type { Metrics } from '../metrics/index.ts';
import type { TaskJobData } from './schema.ts';
import { PermanentTaskError, type TaskError, type TaskRow } from './types.ts';

/** Why stop() aborts an attempt it gave back to the queue: not a failure, nothing to record. */
export class WorkerShutdown extends Error {
  constructor() {
    super('worker shutting down');
    this.name = 'WorkerShutdown';
  }
}

/**
 * Logs an attempt's start ("task started": kind, task id, attempt, request id, time queued) and end ("task finished":
 * outcome, run time) with a child logger carrying those ids, which the handler logs with too; counts it in the
 * metrics (tasks by kind and outcome, queue wait, run time).
 */
export function observeAttempt(
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

export class TaskTimeout extends Error {
  constructor() {
    super(MESSAGES.tasks.timedOut);
    this.name = 'TaskTimeout';
  }
}

export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
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

export function isPermanent(error: unknown): boolean {
  if (error instanceof PermanentTaskError) return true;
  return error instanceof AppError && error.status >= 400 && error.status < 500 && error.status !== 429;
}

export function toTaskError(error: unknown): TaskError {
  if (error instanceof PermanentTaskError || error instanceof AppError)
    return { code: error.code, message: error.message };
  if (error instanceof TaskTimeout) return { code: 'timeout', message: error.message };
  return { code: 'task_failed', message: MESSAGES.generic.internal };
}
