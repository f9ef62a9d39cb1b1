// How a task reads in the generation status calls' vocabulary (POST /api/ai/status, the video status paths).
// The server answers those calls with it and the web reads the tasks it watches with it, so a user sees the
// same result and the same error text whichever way the task's state reached the page.

import type { z } from 'zod';
import type { aiStatusReply, GenerationStatus } from '../api/generation.ts';
import { type TaskView, taskOutputs } from '../api/tasks.ts';
import { MESSAGES } from '../messages.ts';

export const GENERATE_KINDS = {
  image: 'generate.image',
  video: 'generate.video',
  audio: 'generate.audio',
} as const;

/** The fields of a task the status vocabulary reads (a task row or a TaskView). */
type TaskState = Pick<TaskView, 'id' | 'kind' | 'status' | 'progress' | 'estimatedSecondsLeft'> & {
  result: Record<string, unknown> | null;
  error: { code: string; message: string } | null;
};

/**
 * Codes the clients act on keep their name and message; anything else is a generic generation failure.
 * vendor_rejected: the vendor refused the request or failed the task for a reason in the input (issue 21: the
 * user sees it, e.g. "Runway: The input image could not be read (ASSET.INVALID)"); a refusal of the studio's own
 * key is vendor_auth and stays generic.
 */
const KEPT_ERROR_CODES = new Set([
  'content_filtered',
  'vendor_rejected',
  'insufficient_credits',
  'invalid_input',
  'unsupported_type',
  'too_large',
  'not_found',
  'bad_request',
  'invalid_url',
  'url_not_allowed',
  'fetch_failed',
  'timeout',
  'interrupted',
]);

function failureMessage(kind: string): string {
  if (kind === GENERATE_KINDS.image) return MESSAGES.generation.imageFailed;
  if (kind === GENERATE_KINDS.audio) return MESSAGES.generation.audioFailed;
  if (kind === GENERATE_KINDS.video) return MESSAGES.generation.videoFailed;
  return MESSAGES.generation.generationFailed;
}

/** The error of a failed task as the clients read it: content_filtered / insufficient_credits / … / generation_failed. */
export function taskFailure(task: Pick<TaskState, 'kind' | 'error'>): { code: string; message: string } {
  const error = task.error;
  if (error && KEPT_ERROR_CODES.has(error.code)) return { code: error.code, message: error.message };
  return { code: 'generation_failed', message: failureMessage(task.kind) };
}

/** queued and processing read `processing`; completed and failed as they are. */
export function generationStatusOf(task: TaskState): GenerationStatus {
  const output = taskOutputs(task.result)[0] ?? null;
  const status = task.status === 'failed' ? 'failed' : task.status === 'completed' ? 'completed' : 'processing';
  const failure = status === 'failed' ? taskFailure(task) : null;
  return {
    taskId: task.id,
    status,
    progress: status === 'completed' ? 100 : Math.max(0, Math.min(99, task.progress)),
    estimatedSecondsLeft: status === 'processing' ? task.estimatedSecondsLeft : status === 'completed' ? 0 : null,
    url: status === 'completed' ? (output?.url ?? null) : null,
    thumbnail_url: status === 'completed' ? (output?.thumbnailUrl ?? null) : null,
    assetId: status === 'completed' ? (output?.assetId ?? null) : null,
    engine: status === 'completed' ? (output?.engine ?? null) : null,
    error: failure?.message ?? null,
    errorCode: failure?.code ?? null,
    taskStatus: task.status,
  };
}

/** POST /api/ai/status: the status plus top-level `status`, `url`, `videoUrl` (videos only) and `error`. */
export function aiStatusOf(task: TaskState): z.infer<typeof aiStatusReply> {
  const data = generationStatusOf(task);
  const output = taskOutputs(task.result)[0];
  const isVideo = output?.type === 'video' || task.kind === GENERATE_KINDS.video;
  return {
    success: true,
    data,
    status: data.status,
    url: data.url,
    videoUrl: isVideo ? data.url : null,
    error: data.error,
  };
}
