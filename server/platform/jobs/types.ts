import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import type { tasks } from '../../db/schema/index.ts';

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
  ctx: AppContext;
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
  ctx: AppContext;
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
