import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { tasks } from '../../db/schema/index.ts';

/**
 * What task handlers and scheduled jobs receive as `ctx`: the app's context. The platform does not import the
 * app; the process wiring declares it (server/context.ts merges `AppContext` into this interface), so the
 * layers point one way: features and the wiring import the platform, never the other way round.
 */
// biome-ignore lint/suspicious/noEmptyInterface: declared by server/context.ts (declaration merging)
export interface JobContext {}

export type TaskRow = typeof tasks.$inferSelect;
export type TaskError = { code: string; message: string };

export interface TaskProgress {
  /** 0–100; kept below 100 until the task completes. */
  progress: number;
  estimatedSecondsLeft?: number | null;
}

/** What a task handler receives for one attempt. */
interface TaskRun<Input> {
  task: TaskRow;
  /** `task.input`, parsed with the definition's schema. */
  input: Input;
  ctx: JobContext;
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: number;
  /** Aborted when the attempt runs out of time or the process stops. Pass it to ffmpeg, fetch, … */
  signal: AbortSignal;
  /** Writes progress into the task row (throttled; cheap to call often). */
  report(progress: TaskProgress): Promise<void>;
}

/** Called once, in the transaction that marks the task failed and refunds it. Use only `tx`. */
interface TaskFailure {
  task: TaskRow;
  ctx: JobContext;
  tx: Db;
  error: TaskError;
}

/**
 * A kind of long work. The handler returns the result object stored on the task; throwing fails the
 * attempt (retried up to `retryLimit` times, then the task fails and its credits are refunded).
 * Throw a `PermanentTaskError` (or an AppError with a 4xx status) to fail at once without retries.
 */
export interface TaskDefinition<Input = Record<string, unknown>, Result extends object = Record<string, unknown>> {
  kind: string;
  input: z.ZodType<Input>;
  handler(run: TaskRun<Input>): Promise<Result>;
  onFailed?(failure: TaskFailure): Promise<void>;
  /** Retries after the first attempt. Default 2. */
  retryLimit?: number;
  /** Default 5. */
  retryDelaySeconds?: number;
  /** How long one attempt may run before it is stopped (and, if its worker died, retried). Default 900. */
  expireInSeconds?: number;
}

/** Any definition, whatever its input and result (the queue stores them together). */
export type AnyTaskDefinition = TaskDefinition<unknown, object>;

/** A failure that retrying cannot fix (bad input, unsupported file, …). */
export class PermanentTaskError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PermanentTaskError';
  }
}

/** Keeps the handler's input type while letting the queue store every definition together. */
export function defineTask<Input, Result extends object>(
  definition: TaskDefinition<Input, Result>,
): TaskDefinition<Input, Result> {
  return definition;
}

/**
 * A sweep the job queue runs on a schedule, in one worker at a time across every process with workers
 * (RUN_WORKERS): either pg-boss cron (minute granularity) or every `everySeconds` seconds.
 */
export type ScheduledJob = {
  /** The pg-boss queue, e.g. `maintenance.subscription-renewal`. */
  name: string;
  run(ctx: JobContext): Promise<object>;
} & (
  | { cron: string }
  | {
      /** Read once when workers start. Each process starts one run at once, then one per interval. */
      everySeconds(ctx: JobContext): number;
    }
);

/** What a process hands to the job queue: every task kind and scheduled job of the app (server/jobs.ts). */
export interface JobKinds {
  tasks: readonly AnyTaskDefinition[];
  scheduled: readonly ScheduledJob[];
}

export interface CreateTaskInput {
  userId: string;
  kind: string;
  input: Record<string, unknown>;
  /** Credits reserved now and refunded if the task fails. Default 0. */
  credits?: number;
  /** Initial estimate shown before the worker reports. */
  estimatedSeconds?: number;
  /** Ledger row description for the reservation. */
  description?: string;
  /** Ledger `generation_type` of the reservation (and its refund). */
  generationType?: string;
  /** Ledger `source` of the reservation. Default 'generation'. */
  creditSource?: string;
  /** Use a pre-generated task id (e.g. to reference it from a row written before the task). */
  id?: string;
}

/** `AppContext.jobs`: what features and routes use of the job queue (implemented by JobQueue). */
export interface Jobs {
  /**
   * Reserves the credits and writes the task row in one transaction (402 when the balance is short), then
   * sends its job and wakes the workers.
   */
  createTask(input: CreateTaskInput): Promise<TaskRow>;
  /** The user's task; 404 for an unknown id or another user's task. */
  getTask(userId: string, id: string): Promise<TaskRow>;
  /**
   * The user's task once it has completed or failed, or as it stands after `timeoutMs`; woken by the task's change
   * notifications, not by re-reading the row on a timer. 404 for an unknown id or another user's task.
   */
  waitFor(userId: string, taskId: string, timeoutMs: number): Promise<TaskRow>;
  /** Adds a task kind (tests and plug-ins; the app's kinds are handed over when the queue is made). */
  register<Input, Result extends object>(definition: TaskDefinition<Input, Result>): Promise<void>;
  /** Runs a scheduled or maintenance job now instead of waiting for its schedule. */
  runMaintenance(queue: string): Promise<string | null>;
  /** Re-sends lost task jobs and fails tasks whose job ended without a worker recording it. */
  recover(): Promise<{ resent: number; failed: number }>;
  /** For /healthz. */
  health(): Promise<boolean>;
  readonly kinds: string[];
  /** Lets running attempts finish (up to 15 s), then stops. */
  stop(): Promise<void>;
}
