// What status calls and task events show of a task.
import type { TaskError, TaskRow } from './types.ts';

/** What status calls return for a task. */
interface TaskView {
  id: string;
  kind: string;
  status: TaskRow['status'];
  progress: number;
  estimatedSecondsLeft: number | null;
  result: Record<string, unknown> | null;
  error: TaskError | null;
  createdAt: string;
  updatedAt: string;
}

export function toTaskView(task: TaskRow): TaskView {
  return {
    id: task.id,
    kind: task.kind,
    status: task.status,
    progress: task.progress,
    estimatedSecondsLeft: task.estimatedSecondsLeft,
    result: task.result ?? null,
    error: task.error ?? null,
    createdAt: task.createdAt.toISOString(),
    updatedAt: task.updatedAt.toISOString(),
  };
}
