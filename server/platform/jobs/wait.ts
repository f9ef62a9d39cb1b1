import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { TaskRow } from './types.ts';

/** The migration 0014 trigger NOTIFYs `<user id>:<task id>` here on every committed change of a task row. */
export const TASK_CHANGED_CHANNEL = 'genpro_task_changed';
/**
 * A waiting task is read again this long after its last read even when no notification came: one may be missed
 * (the listening connection was lost, or LISTEN could not be set up at all).
 */
const SAFETY_READ_MS = 2_000;
/**
 * The LISTEN stays this long after the last wait ended, so a burst of quick generations shares one (on PostgreSQL
 * the first LISTEN opens the process's listening connection).
 */
const LISTEN_LINGER_MS = 30_000;

function isFinishedTask(task: TaskRow): boolean {
  return task.status === 'completed' || task.status === 'failed';
}

export interface TaskWaiterDeps {
  database: Pick<Database, 'listen' | 'onGap'>;
  /** The user's task; throws (404) for an unknown id or another user's task. */
  read(userId: string, taskId: string): Promise<TaskRow>;
  log: Pick<FastifyBaseLogger, 'warn'>;
  safetyReadMs?: number;
  lingerMs?: number;
}

/** One caller waiting for one task: `changed` is called for every notification of that task. */
interface Waiting {
  userId: string;
  changed(): void;
}

/**
 * Waits for tasks to finish, woken by the database's task notifications instead of re-reading the rows on a
 * timer. One LISTEN serves every wait of the process; each notification wakes only the waits of its task,
 * which read the row once.
 */
export class TaskWaiter {
  private readonly byTask = new Map<string, Set<Waiting>>();
  /** Resolves, once listening, to the function that stops (null when this database cannot notify). */
  private listening: Promise<(() => Promise<void>) | null> | null = null;
  private linger: NodeJS.Timeout | undefined;

  constructor(private readonly deps: TaskWaiterDeps) {}

  /**
   * The task once it has completed or failed, or as it stands when `timeoutMs` has passed (read once more then).
   * 404 (from `read`) for an unknown id or another user's task.
   */
  async waitFor(userId: string, taskId: string, timeoutMs: number): Promise<TaskRow> {
    const deadline = performance.now() + timeoutMs;
    const safetyReadMs = this.deps.safetyReadMs ?? SAFETY_READ_MS;
    let changedMeanwhile = false;
    let wake: (() => void) | null = null;
    const waiting: Waiting = {
      userId,
      changed: () => {
        changedMeanwhile = true;
        wake?.();
      },
    };
    this.add(taskId, waiting);
    try {
      await this.listen();
      // Read only once listening: a change committed before the LISTEN is in this read, any later one notifies.
      for (;;) {
        changedMeanwhile = false;
        const task = await this.deps.read(userId, taskId);
        const left = deadline - performance.now();
        if (isFinishedTask(task) || left <= 0) return task;
        if (changedMeanwhile) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, safetyReadMs));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    } finally {
      this.remove(taskId, waiting);
    }
  }

  /** Stops listening now (the queue is stopping); a later wait listens again. */
  async close(): Promise<void> {
    clearTimeout(this.linger);
    this.linger = undefined;
    await this.unlisten();
  }

  private add(taskId: string, waiting: Waiting): void {
    clearTimeout(this.linger);
    this.linger = undefined;
    let set = this.byTask.get(taskId);
    if (!set) {
      set = new Set();
      this.byTask.set(taskId, set);
    }
    set.add(waiting);
  }

  private remove(taskId: string, waiting: Waiting): void {
    const set = this.byTask.get(taskId);
    set?.delete(waiting);
    if (set?.size === 0) this.byTask.delete(taskId);
    if (this.byTask.size > 0 || !this.listening) return;
    clearTimeout(this.linger);
    this.linger = setTimeout(() => {
      this.linger = undefined;
      if (this.byTask.size === 0) void this.unlisten();
    }, this.deps.lingerMs ?? LISTEN_LINGER_MS);
    this.linger.unref();
  }

  /** Listens if not yet; a failure is logged and the waits go on with their safety reads. */
  private async listen(): Promise<void> {
    this.listening ??= this.startListening().catch((error: unknown) => {
      this.listening = null;
      throw error;
    });
    await this.listening.catch((error: unknown) =>
      this.deps.log.warn({ err: error }, 'task waits: cannot listen for task changes; reading on a timer'),
    );
  }

  private async startListening(): Promise<(() => Promise<void>) | null> {
    const { database } = this.deps;
    if (!database.listen) return null;
    // After the listening connection was lost and restored, notifications may have been missed: read again.
    const stopGaps = database.onGap?.((listening) => {
      if (listening) this.wakeAll();
    });
    try {
      const stop = await database.listen(TASK_CHANGED_CHANNEL, (payload) => this.changed(payload));
      return async () => {
        stopGaps?.();
        await stop();
      };
    } catch (error) {
      stopGaps?.();
      throw error;
    }
  }

  private async unlisten(): Promise<void> {
    const starting = this.listening;
    if (!starting) return;
    this.listening = null;
    const stop = await starting.catch(() => null);
    await stop?.().catch((error: unknown) => this.deps.log.warn({ err: error }, 'task waits: UNLISTEN failed'));
  }

  private changed(payload: string): void {
    const [userId, taskId] = payload.split(':');
    for (const waiting of this.byTask.get(taskId ?? '') ?? []) if (waiting.userId === userId) waiting.changed();
  }

  private wakeAll(): void {
    for (const set of this.byTask.values()) for (const waiting of set) waiting.changed();
  }
}
