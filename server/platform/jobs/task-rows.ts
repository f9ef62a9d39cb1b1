// The task rows the queue writes: a new task with its credits, an attempt's start, end and retry, a failure with its refund.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { MESSAGES } from '../../../common/messages.ts';
import type { Database } from '../../db/client.ts';
import { tasks } from '../../db/schema/index.ts';
import type { Clock } from '../clock.ts';
import { refundTask, reserveCredits } from '../credits/ledger.ts';
import { notFound } from '../errors.ts';
import { currentRequestId } from '../http/request-context.ts';
import type { AnyTaskDefinition, CreateTaskInput, JobContext, TaskError, TaskRow } from './types.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reserves the credits and writes the task row in one transaction. */
export function insertTask(
  database: Database,
  input: CreateTaskInput,
  id: string,
  credits: number,
  now: Date,
): Promise<TaskRow> {
  return database.db.transaction(async (tx) => {
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
}

/** The user's task; 404 for an unknown id or another user's task. */
export async function readTask(database: Database, userId: string, id: string): Promise<TaskRow> {
  if (!UUID.test(id)) throw notFound(MESSAGES.tasks.notFound);
  const [task] = await database.db
    .select()
    .from(tasks)
    .where(and(eq(tasks.id, id), eq(tasks.userId, userId)))
    .limit(1);
  if (!task) throw notFound(MESSAGES.tasks.notFound);
  return task;
}

/** Marks the task processing for a new attempt by this worker; undefined when it has already finished. */
export async function startAttempt(
  database: Database,
  taskId: string,
  now: Date,
  workerId: string | null,
): Promise<TaskRow | undefined> {
  const [task] = await database.db
    .update(tasks)
    .set({
      status: 'processing',
      attempts: sql`${tasks.attempts} + 1`,
      startedAt: now,
      updatedAt: now,
      workerId,
    })
    .where(and(eq(tasks.id, taskId), inArray(tasks.status, ['queued', 'processing'])))
    .returning();
  return task;
}

/** The attempt's result, unless the task moved on meanwhile (another attempt, a failure). */
export async function completeAttempt(
  database: Database,
  taskId: string,
  attempt: number,
  result: Record<string, unknown>,
  done: Date,
): Promise<void> {
  await database.db
    .update(tasks)
    .set({
      status: 'completed',
      progress: 100,
      estimatedSecondsLeft: 0,
      result,
      error: null,
      finishedAt: done,
      updatedAt: done,
    })
    .where(and(eq(tasks.id, taskId), eq(tasks.attempts, attempt), eq(tasks.status, 'processing')));
}

/** A failed attempt with retries left: the task is queued again, with its error. */
export async function requeueAttempt(
  database: Database,
  taskId: string,
  attempt: number,
  error: TaskError,
  now: Date,
): Promise<void> {
  await database.db
    .update(tasks)
    .set({ status: 'queued', error, updatedAt: now })
    .where(and(eq(tasks.id, taskId), eq(tasks.attempts, attempt), eq(tasks.status, 'processing')));
}

/** Marks the task failed, refunds its credits and runs the kind's onFailed, in one transaction. */
export function failTask(
  database: Database,
  clock: Clock,
  definitions: ReadonlyMap<string, AnyTaskDefinition>,
  ctx: JobContext | null,
  { taskId, error, attempt }: { taskId: string; error: TaskError; attempt?: number },
): Promise<boolean> {
  return database.db.transaction(async (tx) => {
    const now = clock.now();
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
    const definition = definitions.get(task.kind);
    if (definition?.onFailed && ctx) await definition.onFailed({ task, ctx, tx, error });
    return true;
  });
}
