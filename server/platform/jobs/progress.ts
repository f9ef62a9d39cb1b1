// Progress reports of a running attempt, written to its task row at most every PROGRESS_WRITE_INTERVAL_MS.
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { tasks } from '../../db/schema/index.ts';
import type { Clock } from '../clock.ts';
import type { TaskProgress } from './types.ts';

const PROGRESS_WRITE_INTERVAL_MS = 500;

export function progressReporter(
  database: Database,
  clock: Clock,
  taskId: string,
  attempt: number,
): (progress: TaskProgress) => Promise<void> {
  let lastWrite = 0;
  let lastProgress = -1;
  // A report that arrives within the write interval waits here; the newest one is written when the
  // interval is over, so the last value of a burst (an engine's final step) is never dropped.
  let pending: TaskProgress | null = null;
  let trailing: NodeJS.Timeout | null = null;
  const report = async ({ progress, estimatedSecondsLeft }: TaskProgress): Promise<void> => {
    const value = Math.max(0, Math.min(99, Math.round(progress)));
    const nowMs = Date.now();
    if (value === lastProgress && estimatedSecondsLeft === undefined) return;
    if (nowMs - lastWrite < PROGRESS_WRITE_INTERVAL_MS && value - lastProgress < 10) {
      pending = { progress, estimatedSecondsLeft };
      trailing ??= setTimeout(
        () => {
          trailing = null;
          const next = pending;
          pending = null;
          if (next) void report(next).catch(() => undefined);
        },
        PROGRESS_WRITE_INTERVAL_MS - (nowMs - lastWrite),
      );
      trailing.unref();
      return;
    }
    pending = null;
    lastWrite = nowMs;
    lastProgress = value;
    await database.db
      .update(tasks)
      .set({
        progress: value,
        ...(estimatedSecondsLeft === undefined
          ? {}
          : {
              estimatedSecondsLeft:
                estimatedSecondsLeft === null ? null : Math.max(0, Math.round(estimatedSecondsLeft)),
            }),
        updatedAt: clock.now(),
      })
      .where(and(eq(tasks.id, taskId), eq(tasks.attempts, attempt), eq(tasks.status, 'processing')));
  };
  return report;
}
