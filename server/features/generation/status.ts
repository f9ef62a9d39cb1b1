import type { z } from 'zod';
import { ACT_STUDIO_MODEL, MAGIC_MODIFY_MODEL } from '../../../common/api/generation.constants.ts';
import type { runwayTaskReply, TaskAccepted } from '../../../common/api/generation.ts';
import { taskOutputs } from '../../../common/api/tasks.ts';
import { GENERATE_KINDS, generationStatusOf } from '../../../common/rules/generation-status.ts';
import { videoFamily } from '../../../common/rules/pricing.ts';
import type { TaskRow } from '../../platform/jobs/types.ts';

// The status calls the studio's clients poll all read the tasks table; each speaks the vocabulary
// its client expects. These pure functions turn one task row into each vocabulary.

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
    output: status === 'SUCCEEDED' ? taskOutputs(task.result).map((o) => o.url) : [],
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
export function taskAcceptedOf(task: TaskRow, started: { model: string | null; engine: string }): TaskAccepted {
  const { model } = started;
  return {
    engine: started.engine,
    taskId: task.id,
    id: task.id,
    status: 'processing',
    progress: Math.max(0, Math.min(99, task.progress)),
    estimatedSecondsLeft: task.estimatedSecondsLeft,
    creditsReserved: task.creditsReserved,
    statusUrl: statusPathFor(task.kind, model, task.id),
  };
}
