import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CompleteTextRequest } from '../types.ts';
import type { ScriptScene } from './script-scenes.ts';

// The local text writer's worker threads (issue 27): long scripts and whole screenplays are written off the
// event loop, so a burst of text agent calls cannot hold the process's other requests (health, sign-in,
// media). A few threads, started on first use and kept; each writes one request at a time, the rest wait
// in order. An idle pool never keeps the process alive.

/** What the local writer answers: the text, and the parsed JSON when a schema was asked for. */
export interface LocalAnswer {
  text: string;
  json?: unknown;
}

/** What crosses to a thread: the request without image buffers (the local writer ignores them). */
export type ThreadRequest = Omit<CompleteTextRequest, 'images'>;

/** The work a thread does: a local writer's answer, or a script read into scenes (script-scenes.ts). */
export type ThreadTask = { kind: 'answer'; request: ThreadRequest } | { kind: 'scenes'; script: string };

export type ThreadReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; message: string };

interface Job {
  id: number;
  task: ThreadTask;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

/** At most two threads, one fewer than the machine's cores (at least one). */
const POOL_SIZE = Math.max(1, Math.min(2, os.availableParallelism() - 1));

// A plain-JavaScript entry that loads the TypeScript thread through tsx (Node's worker threads do not get
// the parent's --import hooks for their entry module).
const ENTRY = new URL('./text-thread.mjs', import.meta.url);

const slots: Slot[] = [];
const waiting: Job[] = [];
let nextId = 1;

function settle(job: Job): void {
  if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
}

function startSlot(): Slot {
  const slot: Slot = { worker: new Worker(ENTRY), job: null };
  slot.worker.on('message', (reply: ThreadReply) => {
    const job = slot.job;
    if (!job || job.id !== reply.id) return;
    slot.job = null;
    slot.worker.unref();
    settle(job);
    if (reply.ok) job.resolve(reply.result);
    else job.reject(new Error(reply.message));
    dispatch();
  });
  const lost = (error: unknown) => {
    const index = slots.indexOf(slot);
    if (index >= 0) slots.splice(index, 1);
    const job = slot.job;
    slot.job = null;
    if (job) {
      settle(job);
      job.reject(error);
    }
    dispatch();
  };
  slot.worker.on('error', lost);
  slot.worker.on('exit', (code) => lost(new Error(`the text writer thread exited (${code})`)));
  // After the listeners (adding a 'message' listener refs the thread's port again): idle until dispatched.
  slot.worker.unref();
  slots.push(slot);
  return slot;
}

function dispatch(): void {
  while (waiting.length > 0) {
    const slot = slots.find((s) => s.job === null) ?? (slots.length < POOL_SIZE ? startSlot() : undefined);
    if (!slot) return;
    const job = waiting.shift() as Job;
    slot.job = job;
    // Busy, the thread keeps the process alive (its answer is awaited); idle, it does not.
    slot.worker.ref();
    slot.worker.postMessage({ id: job.id, task: job.task });
  }
}

/**
 * Writes `request` with the local writer on one of the pool's threads. Aborting `signal` rejects at once:
 * a waiting request is dropped, a running one's thread is ended (a new one starts for the next request).
 */
export function runOnTextPool(request: ThreadRequest, signal?: AbortSignal): Promise<LocalAnswer> {
  return run({ kind: 'answer', request }, signal) as Promise<LocalAnswer>;
}

/** Reads a long script into scenes (scriptScenes) on one of the pool's threads. */
export function scenesOnTextPool(script: string, signal?: AbortSignal): Promise<ScriptScene[]> {
  return run({ kind: 'scenes', script }, signal) as Promise<ScriptScene[]>;
}

function run(task: ThreadTask, signal?: AbortSignal): Promise<unknown> {
  return new Promise<unknown>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const job: Job = { id: nextId++, task, resolve, reject, signal };
    if (signal) {
      job.onAbort = () => {
        const queued = waiting.indexOf(job);
        if (queued >= 0) waiting.splice(queued, 1);
        const slot = slots.find((s) => s.job === job);
        if (slot) {
          slot.job = null;
          const index = slots.indexOf(slot);
          if (index >= 0) slots.splice(index, 1);
          void slot.worker.terminate();
        }
        settle(job);
        reject(signal.reason);
        dispatch();
      };
      signal.addEventListener('abort', job.onAbort, { once: true });
    }
    waiting.push(job);
    dispatch();
  });
}
