import { and, desc, eq, inArray } from 'drizzle-orm';
import type { ListTasksQuery, RunningTask } from '../../../common/api/tasks.ts';
import type { AppContext } from '../../context.ts';
import { tasks } from '../../db/schema/index.ts';

const PROMPT_MAX = 200;

function promptOf(input: Record<string, unknown>): string | null {
  const params = input.params;
  const nested = typeof params === 'object' && params !== null ? (params as Record<string, unknown>).prompt : undefined;
  const prompt = typeof nested === 'string' ? nested : typeof input.prompt === 'string' ? input.prompt : null;
  const trimmed = prompt?.trim();
  return trimmed ? trimmed.slice(0, PROMPT_MAX) : null;
}

/** The user's queued and processing tasks, newest first (the workspace home shows them with progress). */
export async function listRunningTasks(ctx: AppContext, userId: string, query: ListTasksQuery): Promise<RunningTask[]> {
  const rows = await ctx.db
    .select({
      id: tasks.id,
      kind: tasks.kind,
      status: tasks.status,
      progress: tasks.progress,
      estimatedSecondsLeft: tasks.estimatedSecondsLeft,
      input: tasks.input,
      createdAt: tasks.createdAt,
      updatedAt: tasks.updatedAt,
    })
    .from(tasks)
    .where(and(eq(tasks.userId, userId), inArray(tasks.status, ['queued', 'processing'])))
    .orderBy(desc(tasks.createdAt), desc(tasks.id))
    .limit(query.limit);
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    status: row.status === 'queued' ? 'queued' : 'processing',
    progress: Math.max(0, Math.min(99, row.progress)),
    estimatedSecondsLeft: row.estimatedSecondsLeft,
    prompt: promptOf(row.input),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}
