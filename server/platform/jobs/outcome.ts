// What a route answers for a generation task it waited for: its outputs, or its failure as an HTTP error.
// Here rather than in a feature because every feature that starts generations and answers their results
// (generation, characters, personas, canvas images, inpaint, multi-reference, sequences) reads tasks this way.

import { type GeneratedMedia, generatedMedia } from '../../../common/api/generation.ts';
import { taskFailure } from '../../../common/rules/generation-status.ts';
import { AppError } from '../errors.ts';
import type { Jobs, TaskRow } from './types.ts';

/** How long the image and audio routes wait for their task before answering with the task id. */
export const QUICK_WAIT_MS = 20_000;

/** The outputs a finished generation task stored in its result. */
export function generatedMediaOf(task: TaskRow): GeneratedMedia[] {
  const list = Array.isArray(task.result?.assets) ? task.result.assets : [];
  return list.flatMap((item) => {
    const parsed = generatedMedia.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

const FAILURE_STATUS: Record<string, number> = {
  content_filtered: 422,
  not_found: 404,
  too_large: 413,
  invalid_input: 400,
  unsupported_type: 400,
  bad_request: 400,
  invalid_url: 400,
  url_not_allowed: 400,
  fetch_failed: 422,
};

/** The error a route answers for a task that failed while it waited (its credits are already refunded). */
export function taskFailedError(task: TaskRow): AppError {
  const failure = taskFailure(task);
  return new AppError(FAILURE_STATUS[failure.code] ?? 500, failure.code, failure.message, {
    taskId: task.id,
    creditsRefunded: task.creditsReserved,
  });
}

/**
 * Waits for a quick task like the image route does; a task that failed meanwhile (already refunded) is
 * answered as its error, a generic engine failure with the calling feature's own message when given.
 */
export async function finishedTask(
  ctx: { jobs: Pick<Jobs, 'waitFor'> },
  userId: string,
  taskId: string,
  genericFailure?: string,
): Promise<TaskRow> {
  const task = await ctx.jobs.waitFor(userId, taskId, QUICK_WAIT_MS);
  if (task.status !== 'failed') return task;
  const error = taskFailedError(task);
  if (genericFailure && error.code === 'generation_failed') {
    throw new AppError(error.status, error.code, genericFailure, error.details);
  }
  throw error;
}
