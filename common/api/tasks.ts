import { z } from 'zod';
import { ok } from './envelope.ts';
import { TASK_STATUSES } from './tasks.constants.ts';

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

/** GET /api/tasks/{id}. */
export const taskParams = z.object({ id: z.string().max(64) });

/** A file a task made: generation tasks list them in `result.assets` (stored assets, their media urls). */
const taskResultAsset = z
  .object({
    id: z.string().nullish(),
    url: z.string().nullish(),
    thumbnail_url: z.string().nullish(),
    type: z.string().nullish(),
    metadata: z.record(z.string(), z.unknown()).nullish(),
  })
  .catchall(z.unknown());

/**
 * What a finished task stored as its result. Every kind keeps its own fields; the ones the studio's clients read
 * are either `assets` (generation tasks) or a single `url` with its `thumbnail_url`, `assetId` and `engine`
 * (enhancements, persona media, sequences, films). `taskOutputs` reads both.
 */
const taskResult = z
  .object({
    assets: z.array(taskResultAsset).optional(),
    url: z.string().nullish(),
    thumbnail_url: z.string().nullish(),
    assetId: z.string().nullish(),
    engine: z.string().nullish(),
  })
  .catchall(z.unknown());

/**
 * One task as GET /api/tasks/{id} answers it and as GET /api/tasks/events pushes it (event `task`): its status,
 * progress (0–99 while it runs, 100 once completed), the worker's estimate, then its result or error.
 */
export const taskView = z.object({
  id: z.string(),
  kind: z.string(),
  status: z.enum(TASK_STATUSES),
  progress: z.number().int(),
  estimatedSecondsLeft: z.number().int().nullable(),
  result: taskResult.nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TaskView = z.infer<typeof taskView>;
export const taskStatusReply = ok(taskView);
export type TaskStatusReply = z.infer<typeof taskStatusReply>;

/** The data of the stream's TASK_RECONNECT_EVENT (tasks.constants.ts). */
export const taskReconnectData = z.object({ reason: z.literal('draining'), retryMs: z.number().int().min(0) });

/** `?ids=a,b`: only these tasks (at most 50); without it, every task of the user. */
export const taskEventsQuery = z.object({
  ids: z
    .string()
    .max(50 * 37)
    .optional()
    .transform((value) =>
      value
        ? [
            ...new Set(
              value
                .split(',')
                .map((id) => id.trim())
                .filter(Boolean),
            ),
          ]
        : null,
    )
    .pipe(z.array(z.uuid()).max(50).nullable()),
});

/** The first thing a task produced, as the status calls report it. */
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

/** What a task produced: `result.assets` (generation tasks), else `result.url`. Read leniently (old rows). */
export function taskOutputs(result: Record<string, unknown> | null | undefined): TaskOutput[] {
  const record = asRecord(result);
  if (!record) return [];
  const list = Array.isArray(record.assets) ? record.assets : [];
  const outputs: TaskOutput[] = [];
  for (const item of list) {
    const asset = asRecord(item);
    const url = asset ? str(asset.url) : null;
    if (!asset || !url) continue;
    outputs.push({
      url,
      thumbnailUrl: str(asset.thumbnail_url),
      assetId: str(asset.id),
      type: str(asset.type),
      engine: str(asRecord(asset.metadata)?.engine),
    });
  }
  const url = str(record.url);
  if (outputs.length === 0 && url) {
    outputs.push({
      url,
      thumbnailUrl: str(record.thumbnail_url),
      assetId: str(record.assetId),
      type: null,
      engine: str(record.engine),
    });
  }
  return outputs;
}
