import type { z } from 'zod';
import type { aiStatusReply, GenerationStatus, runwayTaskReply, TaskAccepted } from '../../../common/api/generation.ts';
import { ACT_STUDIO_MODEL, MAGIC_MODIFY_MODEL } from '../../../common/constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { videoFamily } from '../../../common/rules/pricing.ts';
import type { TaskRow } from '../../platform/jobs/types.ts';

// The status calls the studio's clients poll all read the tasks table; each speaks the vocabulary
// its client expects. These pure functions turn one task row into each vocabulary.

export const GENERATE_KINDS = {
  image: 'generate.image',
  video: 'generate.video',
  audio: 'generate.audio',
} as const;

/** The first thing a task produced: `result.assets[0]` (generation tasks) or `result.url`. */
interface TaskOutput {
  url: string;
  thumbnailUrl: string | null;
  assetId: string | null;
  type: string | null;
  engine: string | null;
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

const str = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

function taskOutputs(task: Pick<TaskRow, 'result'>): TaskOutput[] {
  const result = asRecord(task.result);
  if (!result) return [];
  const list = Array.isArray(result.assets) ? result.assets : [];
  const outputs: TaskOutput[] = [];
  for (const item of list) {
    const record = asRecord(item);
    const url = record ? str(record.url) : null;
    if (!record || !url) continue;
    outputs.push({
      url,
      thumbnailUrl: str(record.thumbnail_url),
      assetId: str(record.id),
      type: str(record.type),
      engine: str(asRecord(record.metadata)?.engine),
    });
  }
  const url = str(result.url);
  if (outputs.length === 0 && url) {
    outputs.push({
      url,
      thumbnailUrl: str(result.thumbnail_url),
      assetId: str(result.assetId),
      type: null,
      engine: str(result.engine),
    });
  }
  return outputs;
}

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
export function taskFailure(task: Pick<TaskRow, 'kind' | 'error'>): { code: string; message: string } {
  const error = task.error;
  if (error && KEPT_ERROR_CODES.has(error.code)) return { code: error.code, message: error.message };
  return { code: 'generation_failed', message: failureMessage(task.kind) };
}

/** queued and processing read `processing`; completed and failed as they are. */
export function generationStatusOf(task: TaskRow): GenerationStatus {
  const output = taskOutputs(task)[0] ?? null;
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
export function aiStatusOf(task: TaskRow): z.infer<typeof aiStatusReply> {
  const data = generationStatusOf(task);
  const output = taskOutputs(task)[0];
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

/** GET /api/proxy/runway/tasks/{id}: PENDING, IN_PROGRESS, SUCCEEDED, FAILED; progress 0–1. */
export function runwayTaskOf(task: TaskRow): z.infer<typeof runwayTaskReply> {
  const general = generationStatusOf(task);
  const status =
    general.status === 'completed'
      ? 'SUCCEEDED'
      : general.status === 'failed'
        ? 'FAILED'
        : task.status === 'queued' && task.attempts === 0
          ? 'PENDING'
          : 'IN_PROGRESS';
  return {
    id: task.id,
    status,
    progress: Math.round(general.progress) / 100,
    output: status === 'SUCCEEDED' ? taskOutputs(task).map((o) => o.url) : [],
    failure: general.error,
    failureCode: general.errorCode,
    createdAt: task.createdAt.toISOString(),
  };
}

export const STATUS_PATHS = {
  veo: '/api/proxy/google/veo/status',
  seedream: '/api/proxy/seedream/status',
  video: '/api/ai/generate/video/status',
  ai: '/api/ai/status',
  runway: (taskId: string) => `/api/proxy/runway/tasks/${taskId}`,
} as const;

/** Where a client polls a task: the vocabulary of the model's vendor for videos, /api/ai/status otherwise. */
export function statusPathFor(kind: string, model: string | null, taskId: string): string {
  if (kind !== GENERATE_KINDS.video || !model) return STATUS_PATHS.ai;
  if (model === MAGIC_MODIFY_MODEL || model === ACT_STUDIO_MODEL) return STATUS_PATHS.runway(taskId);
  switch (videoFamily(model)) {
    case 'veo':
      return STATUS_PATHS.veo;
    case 'dream':
      return STATUS_PATHS.seedream;
    case 'runway':
      return STATUS_PATHS.runway(taskId);
    default:
      return STATUS_PATHS.video;
  }
}

/** The reply for work that is still running. */
export function taskAcceptedOf(task: TaskRow, model: string | null): TaskAccepted {
  return {
    taskId: task.id,
    id: task.id,
    status: 'processing',
    progress: Math.max(0, Math.min(99, task.progress)),
    estimatedSecondsLeft: task.estimatedSecondsLeft,
    creditsReserved: task.creditsReserved,
    statusUrl: statusPathFor(task.kind, model, task.id),
  };
}
