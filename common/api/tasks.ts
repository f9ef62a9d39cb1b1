import { z } from 'zod';
import { ok } from './envelope.ts';

/** GET /api/tasks?status=running: the signed-in user's tasks that are queued or processing, newest first. */
export const listTasksQuery = z.object({
  /** `running` is queued or processing, the only list the studio needs so far. */
  status: z.enum(['running']).default('running'),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type ListTasksQuery = z.infer<typeof listTasksQuery>;

const runningTask = z.object({
  id: z.string(),
  /** `generate.video`, `upscale.image`, `persona.images`, … */
  kind: z.string(),
  status: z.enum(['queued', 'processing']),
  /** 0–99 while it runs. */
  progress: z.number().int(),
  estimatedSecondsLeft: z.number().int().nullable(),
  /** The prompt the task works from, when it has one (for a readable label). */
  prompt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RunningTask = z.infer<typeof runningTask>;

export const listTasksReply = ok(z.array(runningTask));
export type ListTasksReply = z.infer<typeof listTasksReply>;
