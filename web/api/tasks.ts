// One progress channel for the page. Every task a feature waits for is followed over one shared EventSource on
// GET /api/tasks/events, opened while something is watched and closed as soon as nothing is (a page that follows
// nothing sends no requests). While the stream is down, the watched tasks are read with GET /api/tasks/{id}, backing
// off, until it is back; when it (re)opens each watched task is read once, so nothing that changed meanwhile is
// missed. The signed-in dashboard also follows the changes of the user's own account on it (followAccount).

import { useEffect, useRef } from 'react';
import {
  ACCOUNT_CHANGED_EVENT,
  isTaskFinished,
  TASK_EVENTS_PATH,
  TASK_RECONNECT_EVENT,
} from '../../common/api/tasks.constants.ts';
import type { TaskStatusReply, TaskView } from '../../common/api/tasks.ts';
import { isAbort } from './abort.ts';
import { ApiError, apiRequest } from './client.ts';
import { useSession } from './session.ts';

export type { TaskView };

/** Fallback reads while the stream is down: 1 s, then doubling up to 15 s. */
const POLL_MIN_MS = 1_000;
const POLL_MAX_MS = 15_000;
/** After the server refused the stream (signed out, …), try it again this much later. */
const REOPEN_MS = 30_000;
/** After the server said it is stopping without saying how long to wait. */
const DRAIN_REOPEN_MS = 1_000;

interface Watcher {
  deliver(task: TaskView): void;
  /** `since`: when the stream that just opened began connecting (a change committed before may have been missed). */
  streamChanged(open: boolean, since: number): void;
  /** The user's own account changed (event `account`). */
  accountChanged?(): void;
}

/** Watchers by task id; EVERY_TASK's see every task of the user, ACCOUNT's hear the account events. */
const watchers = new Map<string, Set<Watcher>>();
const EVERY_TASK = '*';
const ACCOUNT = 'account';
let source: EventSource | null = null;
let streamOpen = false;
/** When the current stream began connecting (its first attempt, or the browser's reconnection after a drop). */
let connectingSince = 0;
let reopenTimer: ReturnType<typeof setTimeout> | undefined;
/**
 * The zod schemas that check each event, fetched when the stream first opens: zod is ~25 KB gzipped and this
 * module is in the entry chunk of every page, most of which never open the stream. Until they are here the stream
 * is simply not open yet, and the watchers read for themselves as they do whenever it is down.
 */
type EventSchemas = Pick<typeof import('../../common/api/tasks.ts'), 'taskView' | 'taskReconnectData'>;
let eventSchemas: EventSchemas | null = null;
let eventSchemasLoading = false;

function everyWatcher(): Watcher[] {
  return [...watchers.values()].flatMap((set) => [...set]);
}

function connect(): void {
  if (source || reopenTimer || typeof EventSource === 'undefined') return;
  const schemas = eventSchemas;
  if (!schemas) {
    if (eventSchemasLoading) return;
    eventSchemasLoading = true;
    void import('../../common/api/tasks.ts').then(
      ({ taskView, taskReconnectData }) => {
        eventSchemas = { taskView, taskReconnectData };
        eventSchemasLoading = false;
        if (watchers.size > 0) connect();
      },
      () => {
        // The chunk could not be fetched (offline): try again the next time something is watched.
        eventSchemasLoading = false;
      },
    );
    return;
  }
  const { taskView, taskReconnectData } = schemas;
  const stream = new EventSource(TASK_EVENTS_PATH);
  source = stream;
  connectingSince = Date.now();
  stream.addEventListener('open', () => {
    streamOpen = true;
    for (const watcher of everyWatcher()) watcher.streamChanged(true, connectingSince);
  });
  stream.addEventListener(ACCOUNT_CHANGED_EVENT, () => {
    for (const watcher of watchers.get(ACCOUNT) ?? []) watcher.accountChanged?.();
  });
  stream.addEventListener('task', (event) => {
    let parsed: ReturnType<typeof taskView.safeParse>;
    try {
      parsed = taskView.safeParse(JSON.parse((event as MessageEvent<string>).data));
    } catch {
      return;
    }
    if (!parsed.success) return;
    for (const watcher of watchers.get(parsed.data.id) ?? []) watcher.deliver(parsed.data);
    for (const watcher of watchers.get(EVERY_TASK) ?? []) watcher.deliver(parsed.data);
  });
  // The serving process is stopping (a deploy): the stream ends right after this. The page opens a new one itself
  // after the wait the server asked for (through the load balancer, to another process), rather than trusting the
  // browser's reconnection: a proxy may keep the ended stream open. Watched tasks are read meanwhile, and once more
  // when the new stream opens, so no change is missed.
  stream.addEventListener(TASK_RECONNECT_EVENT, (event) => {
    if (source !== stream) return;
    let retryMs = DRAIN_REOPEN_MS;
    try {
      const data = taskReconnectData.safeParse(JSON.parse((event as MessageEvent<string>).data));
      if (data.success) retryMs = Math.min(data.data.retryMs, REOPEN_MS);
    } catch {
      // An unreadable hint still means the stream is ending.
    }
    stream.close();
    source = null;
    streamOpen = false;
    connectingSince = Date.now();
    for (const watcher of everyWatcher()) watcher.streamChanged(false, connectingSince);
    reopenTimer = setTimeout(() => {
      reopenTimer = undefined;
      if (watchers.size > 0) connect();
    }, retryMs);
  });
  stream.addEventListener('error', () => {
    if (streamOpen) connectingSince = Date.now();
    streamOpen = false;
    // CONNECTING: the browser reconnects by itself (with Last-Event-ID). CLOSED: the server refused the stream.
    if (stream.readyState === EventSource.CLOSED) {
      stream.close();
      if (source === stream) source = null;
      reopenTimer = setTimeout(() => {
        reopenTimer = undefined;
        if (watchers.size > 0) connect();
      }, REOPEN_MS);
    }
    for (const watcher of everyWatcher()) watcher.streamChanged(false, connectingSince);
  });
}

function disconnect(): void {
  source?.close();
  source = null;
  streamOpen = false;
  clearTimeout(reopenTimer);
  reopenTimer = undefined;
}

function addWatcher(key: string, watcher: Watcher): void {
  let set = watchers.get(key);
  if (!set) {
    set = new Set();
    watchers.set(key, set);
  }
  set.add(watcher);
  connect();
}

function removeWatcher(key: string, watcher: Watcher): void {
  const set = watchers.get(key);
  set?.delete(watcher);
  if (set?.size === 0) watchers.delete(key);
  if (watchers.size === 0) disconnect();
}

/**
 * Hears every change of the user's tasks while subscribed (the workspace home's running list): `onTask` gets each
 * state pushed, `onStream` whether the stream is live (when it is not, the caller reads for itself). Returns the
 * function that unsubscribes; the stream closes when nothing else is watched.
 */
export function followTasks(onTask: (task: TaskView) => void, onStream: (live: boolean) => void): () => void {
  const watcher: Watcher = { deliver: onTask, streamChanged: onStream };
  addWatcher(EVERY_TASK, watcher);
  onStream(streamOpen);
  return () => removeWatcher(EVERY_TASK, watcher);
}

// The stream belongs to the session that opened it (its cookie): another session gets a stream of its own, and
// what is still watched is read at once meanwhile.
useSession.subscribe((state, previous) => {
  if (state.token === previous.token || !source) return;
  disconnect();
  for (const watcher of everyWatcher()) watcher.streamChanged(false, Date.now());
  connect();
});

/**
 * Hears every change of the signed-in user's own account (approval, role, credits, bank accounts, payouts…) while
 * subscribed: `onChange(before)` asks to read again what was read before `before` (ms; Infinity for an `account`
 * event). Each time the stream (re)opens it is called with the time the stream began connecting, since a change
 * committed before that may have been missed. Keeps the stream open; returns the function that unsubscribes.
 */
export function followAccount(onChange: (before: number) => void): () => void {
  const watcher: Watcher = {
    deliver: () => undefined,
    streamChanged: (open, since) => {
      if (open) onChange(since);
    },
    accountChanged: () => onChange(Number.POSITIVE_INFINITY),
  };
  addWatcher(ACCOUNT, watcher);
  return () => removeWatcher(ACCOUNT, watcher);
}

/** Listeners told once of each watched task that finishes (the browser alerts). */
const finishedListeners = new Set<(task: TaskView) => void>();
const announced = new Set<string>();

/** Hears each task a page was waiting for when it completes or fails, once per task. Returns the unsubscribe. */
export function onTaskFinished(listener: (task: TaskView) => void): () => void {
  finishedListeners.add(listener);
  return () => finishedListeners.delete(listener);
}

function announceFinished(task: TaskView): void {
  if (announced.has(task.id)) return;
  announced.add(task.id);
  for (const listener of finishedListeners) listener(task);
}

/** The watched task ran longer than the caller's `timeoutMs`. */
export class TaskWatchTimeout extends Error {
  constructor() {
    super('The task did not finish in time');
    this.name = 'TaskWatchTimeout';
  }
}

interface WatchTaskOptions {
  signal?: AbortSignal;
  /** Each new state of the task while it is queued or processing. */
  onProgress?: (task: TaskView) => void;
  /** Give up (reject with TaskWatchTimeout) after this long. */
  timeoutMs?: number;
}

/**
 * Follows one of the user's tasks until it completes or fails, and resolves with that final state (a failed
 * task resolves too: its `error` says why). Rejects with an AbortError when `signal` aborts, with the ApiError
 * of GET /api/tasks/{id} when the task cannot be read (404 not the user's, 401 signed out), or with
 * TaskWatchTimeout. Network errors and 5xx while reading are retried.
 */
export function watchTask(id: string, { signal, onProgress, timeoutMs }: WatchTaskOptions = {}): Promise<TaskView> {
  return new Promise<TaskView>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('Aborted', 'AbortError'));
      return;
    }
    let latest: TaskView | null = null;
    let done = false;
    let pollTimer: ReturnType<typeof setTimeout> | undefined;
    let pollDelay = POLL_MIN_MS;
    const reads = new AbortController();

    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(pollTimer);
      clearTimeout(deadline);
      reads.abort();
      signal?.removeEventListener('abort', onAbort);
      removeWatcher(id, watcher);
      settle();
    };

    const deliver = (task: TaskView) => {
      if (done || task.id !== id) return;
      // Events and reads may cross: an older state never replaces a newer one.
      if (latest && Date.parse(task.updatedAt) < Date.parse(latest.updatedAt)) return;
      latest = task;
      if (isTaskFinished(task)) {
        finish(() => resolve(task));
        announceFinished(task);
      } else onProgress?.(task);
    };

    const schedule = () => {
      clearTimeout(pollTimer);
      if (done || streamOpen) return;
      pollTimer = setTimeout(() => {
        pollTimer = undefined;
        void read();
      }, pollDelay);
    };

    const read = async () => {
      try {
        const reply = await apiRequest<TaskStatusReply>(`/api/tasks/${encodeURIComponent(id)}`, {
          signal: reads.signal,
        });
        pollDelay = POLL_MIN_MS;
        deliver(reply.data);
      } catch (error) {
        if (done || isAbort(error)) return;
        if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) {
          finish(() => reject(error));
          return;
        }
        pollDelay = Math.min(POLL_MAX_MS, pollDelay * 2);
      }
      schedule();
    };

    const watcher: Watcher = {
      deliver,
      streamChanged: (open) => {
        if (open) {
          clearTimeout(pollTimer);
          pollTimer = undefined;
          void read();
        } else if (!pollTimer) schedule(); // A read already waiting keeps its turn (the browser retries every 2 s).
      },
    };
    const onAbort = () => finish(() => reject(new DOMException('Aborted', 'AbortError')));
    signal?.addEventListener('abort', onAbort, { once: true });
    const deadline =
      timeoutMs === undefined ? undefined : setTimeout(() => finish(() => reject(new TaskWatchTimeout())), timeoutMs);

    addWatcher(id, watcher);
    // Read once now when the stream is already live (the task may have finished before this watch) or cannot
    // be had (no EventSource, or refused a moment ago); otherwise its `open` reads it.
    if (streamOpen || !source) void read();
  });
}

/**
 * While mounted, follows the tasks `ids` (in any order; null and repeated ids are skipped) and calls `onChange`
 * each time one of them moves on (new progress, finished, or no longer readable), so the caller reads again what
 * those tasks change (a persona's images, a post's row). Nothing is read on a timer while the stream is live.
 */
export function useTaskChanges(ids: readonly (string | null)[], onChange: () => void): void {
  const latest = useRef(onChange);
  latest.current = onChange;
  const key = [...new Set(ids.filter((id): id is string => Boolean(id)))].sort().join(',');
  useEffect(() => {
    if (!key) return;
    const controller = new AbortController();
    for (const id of key.split(',')) {
      watchTask(id, { signal: controller.signal, onProgress: () => latest.current() }).then(
        () => latest.current(),
        (error: unknown) => {
          if (!isAbort(error)) latest.current();
        },
      );
    }
    return () => controller.abort();
  }, [key]);
}
