import { and, eq, gte, inArray, or, type SQL } from 'drizzle-orm';
import { TASK_RECONNECT_EVENT } from '../../../common/api/tasks.constants.ts';
import type { TaskView } from '../../../common/api/tasks.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { tasks } from '../../db/schema/index.ts';
import { USERS_CHANGED_CHANNEL } from '../../platform/auth/account-changes.ts';
import { toTaskView } from '../../platform/jobs/task-view.ts';
import { TASK_CHANGED_CHANNEL } from '../../platform/jobs/wait.ts';

const HEARTBEAT_MS = 15_000;
/**
 * A resumed stream (Last-Event-ID) is sent every task changed since this long before its last event too: event ids
 * are update times, and a change committed a little after a later-stamped one would otherwise be skipped.
 */
const RESUME_MARGIN_MS = 5_000;
const SNAPSHOT_LIMIT = 100;

/** One open event stream: a signed-in user, optionally narrowed to some task ids. */
export interface TaskSubscriber {
  userId: string;
  ids: ReadonlySet<string> | null;
  /** Receives each task's new state; the hub calls it only for the subscriber's own tasks. */
  send(task: TaskView): void;
  /**
   * Something of the user's own account changed (approval, role, credits, bank accounts, payouts…): the page reads
   * it again. Only streams of every task (no `ids`) are told.
   */
  accountChanged(): void;
  /** A heartbeat (comment line) so proxies and the browser keep the connection. */
  ping(): void;
  /**
   * Ends the stream: the hub can no longer vouch for it (notifications may have been missed), or, with `draining`,
   * the process is stopping and the browser should reconnect (to another process) at once.
   */
  end(reason?: 'draining'): void;
}

/**
 * The last words of a stream ended because the process is stopping: reconnect after about a second (spread so the
 * browsers of a busy process do not all come back at once), and an event the page reads as "the stream is down".
 */
export function drainingEvent(random = Math.random): string {
  const retryMs = 500 + Math.floor(random() * 1_000);
  return `retry: ${retryMs}\nevent: ${TASK_RECONNECT_EVENT}\ndata: {"reason":"draining","retryMs":${retryMs}}\n\n`;
}

/**
 * Fans task changes out to the open event streams of one studio. It LISTENs only while a stream is open: each
 * notification names the user and the task, the row is read once (however many of the user's streams are open)
 * and sent to the streams of that user. It also LISTENs for changes of the users' accounts (USERS_CHANGED_CHANNEL,
 * the user's id) and tells that user's streams. On PostgreSQL, when the listening connection is lost every stream is ended;
 * the browsers reconnect with Last-Event-ID and get what changed meanwhile.
 */
export class TaskEventHub {
  private readonly byUser = new Map<string, Set<TaskSubscriber>>();
  private stopListening: (() => Promise<void>) | null = null;
  private stopAccountListening: (() => Promise<void>) | null = null;
  private stopGaps: (() => void) | null = null;
  private listening: Promise<void> | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  /** Tasks whose row is being read; `true` when another change came meanwhile (read once more after). */
  private readonly reading = new Map<string, boolean>();

  private draining = false;

  constructor(
    private readonly ctx: Pick<AppContext, 'db' | 'log'> & Partial<Pick<AppContext, 'lifecycle'>>,
    private readonly database: Database,
  ) {
    ctx.lifecycle?.onDrain(() => void this.drain());
  }

  /** Open streams (for tests and metrics). */
  get subscribers(): number {
    let count = 0;
    for (const set of this.byUser.values()) count += set.size;
    return count;
  }

  /** Whether the hub holds a LISTEN (only while a stream is open). */
  get isListening(): boolean {
    return this.stopListening !== null;
  }

  /** Adds a stream once the hub listens (every change committed after this resolves reaches it). */
  async subscribe(subscriber: TaskSubscriber): Promise<() => Promise<void>> {
    if (this.draining) {
      subscriber.end('draining');
      return async () => undefined;
    }
    let set = this.byUser.get(subscriber.userId);
    if (!set) {
      set = new Set();
      this.byUser.set(subscriber.userId, set);
    }
    set.add(subscriber);
    try {
      await this.listen();
    } catch (error) {
      await this.remove(subscriber);
      throw error;
    }
    return () => this.remove(subscriber);
  }

  /** The user's tasks a new stream starts with: the running ones, and those changed since `since` (ms). */
  async snapshot(userId: string, ids: ReadonlySet<string> | null, since: number | null): Promise<TaskView[]> {
    const active: SQL = inArray(tasks.status, ['queued', 'processing']);
    const changed = since === null ? undefined : gte(tasks.updatedAt, new Date(since - RESUME_MARGIN_MS));
    const rows = await this.ctx.db
      .select()
      .from(tasks)
      .where(
        and(
          eq(tasks.userId, userId),
          ids ? inArray(tasks.id, [...ids]) : undefined,
          // A stream for named tasks gets their state whatever it is (one may have finished before it opened).
          ids ? undefined : changed ? or(active, changed) : active,
        ),
      )
      .orderBy(tasks.updatedAt)
      .limit(SNAPSHOT_LIMIT);
    return rows.map(toTaskView);
  }

  /** The process is stopping: every stream ends with the reconnect hint, and streams opened from now on too. */
  async drain(): Promise<void> {
    this.draining = true;
    for (const set of this.byUser.values()) for (const subscriber of set) subscriber.end('draining');
    this.byUser.clear();
    await this.unlisten();
  }

  async close(): Promise<void> {
    for (const set of this.byUser.values()) for (const subscriber of set) subscriber.end();
    this.byUser.clear();
    await this.unlisten();
  }

  private async remove(subscriber: TaskSubscriber): Promise<void> {
    const set = this.byUser.get(subscriber.userId);
    set?.delete(subscriber);
    if (set?.size === 0) this.byUser.delete(subscriber.userId);
    if (this.byUser.size === 0) await this.unlisten();
  }

  private listen(): Promise<void> {
    this.listening ??= (async () => {
      const listen = this.database.listen;
      if (!listen) throw new Error('this database cannot notify');
      this.stopGaps =
        this.database.onGap?.((listening) => {
          if (listening) return;
          for (const set of this.byUser.values()) for (const subscriber of set) subscriber.end();
        }) ?? null;
      this.stopListening = await listen.call(this.database, TASK_CHANGED_CHANNEL, (payload) => this.changed(payload));
      try {
        this.stopAccountListening = await listen.call(this.database, USERS_CHANGED_CHANNEL, (userId) =>
          this.accountChanged(userId),
        );
      } catch (error) {
        await this.stopListening().catch(() => undefined);
        this.stopListening = null;
        throw error;
      }
      this.heartbeat = setInterval(() => {
        for (const set of this.byUser.values()) for (const subscriber of set) subscriber.ping();
      }, HEARTBEAT_MS);
      this.heartbeat.unref();
    })().catch((error: unknown) => {
      this.listening = null;
      this.stopGaps?.();
      this.stopGaps = null;
      throw error;
    });
    return this.listening;
  }

  private async unlisten(): Promise<void> {
    const starting = this.listening;
    if (!starting) return;
    await starting.catch(() => undefined);
    // A stream that opened while the LISTEN was being set up keeps it.
    if (this.byUser.size > 0 || this.listening !== starting) return;
    this.listening = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.stopGaps?.();
    this.stopGaps = null;
    const stops = [this.stopListening, this.stopAccountListening];
    this.stopListening = null;
    this.stopAccountListening = null;
    for (const stop of stops)
      await stop?.().catch((error: unknown) => this.ctx.log.warn({ err: error }, 'task events: UNLISTEN failed'));
  }

  private accountChanged(userId: string): void {
    for (const subscriber of this.byUser.get(userId) ?? []) if (!subscriber.ids) subscriber.accountChanged();
  }

  private changed(payload: string): void {
    const [userId, taskId] = payload.split(':');
    if (!userId || !taskId || !this.byUser.has(userId)) return;
    if (this.reading.has(taskId)) {
      this.reading.set(taskId, true);
      return;
    }
    this.reading.set(taskId, false);
    void this.push(userId, taskId);
  }

  /** Reads the task and sends it to the user's streams; reads again if it changed during the read. */
  private async push(userId: string, taskId: string): Promise<void> {
    try {
      for (;;) {
        const [row] = await this.ctx.db
          .select()
          .from(tasks)
          .where(and(eq(tasks.id, taskId), eq(tasks.userId, userId)))
          .limit(1);
        if (row) {
          const view = toTaskView(row);
          for (const subscriber of this.byUser.get(userId) ?? []) {
            if (!subscriber.ids || subscriber.ids.has(taskId)) subscriber.send(view);
          }
        }
        if (!this.reading.get(taskId)) break;
        this.reading.set(taskId, false);
      }
    } catch (error) {
      this.ctx.log.warn({ err: error, taskId }, 'task events: the changed task could not be read');
    } finally {
      this.reading.delete(taskId);
    }
  }
}

const hubs = new WeakMap<Database, TaskEventHub>();

/** The hub of the studio that owns `ctx.database` (one per database handle: tests run several studios). */
export function taskEventHubOf(
  ctx: Pick<AppContext, 'db' | 'log' | 'database'> & Partial<Pick<AppContext, 'lifecycle'>>,
): TaskEventHub {
  let hub = hubs.get(ctx.database);
  if (!hub) {
    hub = new TaskEventHub(ctx, ctx.database);
    hubs.set(ctx.database, hub);
  }
  return hub;
}
