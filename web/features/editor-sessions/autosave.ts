// Autosave timing (no React, no stores: tested with fake timers in autosave.test.ts). A change marks the state
// dirty; the save starts once changes pause for `quietMs`, or `maxWaitMs` after the first unsaved change while
// they go on, and never sooner than `minIntervalMs` after the previous save started. One request at a time;
// changes made during it are saved by the next one. Nothing is sent while nothing changes, nor when the state
// is the same as the one last saved. A failed save is retried after `retryMs` (and by any later change).

type AutosaveStatus = 'idle' | 'pending' | 'saving' | 'saved' | 'failed';

/** What the tool's state is now: data to save, nothing (an empty tool: its autosave is removed), or refused. */
export type AutosaveCapture =
  | { kind: 'data'; data: Record<string, unknown> }
  | { kind: 'empty' }
  | { kind: 'invalid'; message: string };

export interface AutosaveDeps {
  capture: () => AutosaveCapture;
  save: (data: Record<string, unknown>) => Promise<void>;
  remove: () => Promise<void>;
  /** The message of a failed save, shown beside the indicator. */
  describeError?: (error: unknown) => string;
}

export interface AutosaveTiming {
  quietMs: number;
  maxWaitMs: number;
  minIntervalMs: number;
  retryMs: number;
}

const AUTOSAVE_TIMING: AutosaveTiming = { quietMs: 1500, maxWaitMs: 5000, minIntervalMs: 3000, retryMs: 10_000 };

export interface AutosaveSnapshot {
  status: AutosaveStatus;
  /** Why the last save failed (status 'failed'). */
  error: string | null;
  /** When the last save (or removal) succeeded, ms since the epoch. */
  savedAt: number | null;
}

export interface Autosaver {
  /** The state changed (cheap: the state is only read when the save is due). */
  changed: () => void;
  /** Saves now if anything is unsaved (leaving, retry). Resolves when that save has ended. */
  flush: () => Promise<void>;
  /**
   * Takes the current state as the one saved: when starting, and after restoring it from the server (then
   * `savedAt`, the autosave's time, shows it as saved).
   */
  markSaved: (savedAt?: number) => void;
  /** True while a change is waiting to be saved or a save is under way. */
  hasUnsaved: () => boolean;
  snapshot: () => AutosaveSnapshot;
  subscribe: (listener: () => void) => () => void;
  dispose: () => void;
}

const EMPTY = '∅';

function serialise(capture: AutosaveCapture): string | null {
  if (capture.kind === 'empty') return EMPTY;
  if (capture.kind === 'data') return JSON.stringify(capture.data);
  return null;
}

export function createAutosaver(deps: AutosaveDeps, timing: AutosaveTiming = AUTOSAVE_TIMING): Autosaver {
  let snapshot: AutosaveSnapshot = { status: 'idle', error: null, savedAt: null };
  let lastSaved: string | null = null;
  let dirtySince: number | null = null;
  let lastChange = 0;
  let lastStart = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: Promise<void> | null = null;
  let disposed = false;
  const listeners = new Set<() => void>();

  // Listeners (the header indicator, the leave guard) hear only real changes.
  const publish = (next: Partial<AutosaveSnapshot>) => {
    const merged = { ...snapshot, ...next };
    if (merged.status === snapshot.status && merged.error === snapshot.error && merged.savedAt === snapshot.savedAt) {
      return;
    }
    snapshot = merged;
    for (const listener of listeners) listener();
  };

  const schedule = (delay?: number) => {
    if (disposed || inFlight || dirtySince === null) return;
    clearTimeout(timer);
    const now = Date.now();
    const due = Math.max(
      Math.min(lastChange + timing.quietMs, dirtySince + timing.maxWaitMs),
      lastStart + timing.minIntervalMs,
    );
    timer = setTimeout(run, delay ?? Math.max(0, due - now));
  };

  async function run(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    if (disposed || inFlight || dirtySince === null) return;
    const captured = deps.capture();
    if (captured.kind === 'invalid') {
      // Saving cannot help until the state changes again: no retry.
      dirtySince = null;
      publish({ status: 'failed', error: captured.message });
      return;
    }
    const serialised = serialise(captured);
    if (serialised === lastSaved) {
      dirtySince = null;
      publish({ status: snapshot.savedAt === null ? 'idle' : 'saved', error: null });
      return;
    }
    const startedAt = Date.now();
    lastStart = startedAt;
    dirtySince = null;
    publish({ status: 'saving', error: null });
    inFlight = (async () => {
      try {
        if (captured.kind === 'data') await deps.save(captured.data);
        else await deps.remove();
        lastSaved = serialised;
        if (!disposed) publish({ status: dirtySince === null ? 'saved' : 'pending', savedAt: Date.now() });
      } catch (error) {
        // What was being saved is unsaved again (from when this save started).
        dirtySince = Math.min(dirtySince ?? startedAt, startedAt);
        if (!disposed) publish({ status: 'failed', error: deps.describeError?.(error) ?? null });
      } finally {
        inFlight = null;
      }
    })();
    await inFlight;
    if (dirtySince === null || disposed) return;
    if (snapshot.status === 'failed') schedule(timing.retryMs);
    else schedule();
  }

  return {
    changed: () => {
      if (disposed) return;
      const now = Date.now();
      lastChange = now;
      dirtySince ??= now;
      if (!inFlight && snapshot.status !== 'failed') publish({ status: 'pending' });
      schedule();
    },
    flush: async () => {
      if (inFlight) await inFlight;
      if (dirtySince !== null) await run();
    },
    markSaved: (savedAt) => {
      lastSaved = serialise(deps.capture());
      dirtySince = null;
      clearTimeout(timer);
      if (savedAt !== undefined) publish({ status: 'saved', error: null, savedAt });
    },
    hasUnsaved: () => dirtySince !== null || inFlight !== null,
    snapshot: () => snapshot,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose: () => {
      disposed = true;
      clearTimeout(timer);
      listeners.clear();
    },
  };
}
