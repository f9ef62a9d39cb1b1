import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AutosaveCapture, createAutosaver } from './autosave.ts';

const timing = { quietMs: 1500, maxWaitMs: 5000, minIntervalMs: 3000, retryMs: 10_000 };

function harness(initial: AutosaveCapture = { kind: 'data', data: { n: 0 } }) {
  let state = initial;
  const saved: unknown[] = [];
  let removed = 0;
  let fail = false;
  let hold: (() => void) | null = null;
  const autosaver = createAutosaver(
    {
      capture: () => state,
      save: async (data) => {
        if (hold) await new Promise<void>((resolve) => (hold = resolve));
        if (fail) throw new Error('offline');
        saved.push(data);
      },
      remove: async () => {
        removed += 1;
      },
      describeError: (error) => (error instanceof Error ? error.message : 'failed'),
    },
    timing,
  );
  return {
    autosaver,
    saved,
    removed: () => removed,
    set: (next: AutosaveCapture) => {
      state = next;
      autosaver.changed();
    },
    failNext: (on: boolean) => {
      fail = on;
    },
    holdSaves: () => {
      hold = () => undefined;
    },
    release: () => {
      const resolve = hold;
      hold = null;
      resolve?.();
    },
  };
}

const data = (n: number): AutosaveCapture => ({ kind: 'data', data: { n } });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('autosave timing', () => {
  it('sends nothing while nothing changes', async () => {
    const h = harness();
    h.autosaver.markSaved();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.saved).toEqual([]);
    expect(h.autosaver.snapshot().status).toBe('idle');
    expect(h.autosaver.hasUnsaved()).toBe(false);
  });

  it('saves once changes pause, debounced', async () => {
    const h = harness();
    h.autosaver.markSaved();
    h.set(data(1));
    await vi.advanceTimersByTimeAsync(500);
    h.set(data(2));
    expect(h.autosaver.snapshot().status).toBe('pending');
    expect(h.autosaver.hasUnsaved()).toBe(true);
    await vi.advanceTimersByTimeAsync(1400);
    expect(h.saved).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(h.saved).toEqual([{ n: 2 }]);
    expect(h.autosaver.snapshot().status).toBe('saved');
    expect(h.autosaver.hasUnsaved()).toBe(false);
  });

  it('saves at most every few seconds while changes go on', async () => {
    const h = harness();
    h.autosaver.markSaved();
    // A change every 500 ms for 12 s: never quiet, so saves come from the 5 s maximum wait.
    for (let i = 1; i <= 24; i++) {
      h.set(data(i));
      await vi.advanceTimersByTimeAsync(500);
    }
    expect(h.saved.length).toBeGreaterThanOrEqual(2);
    expect(h.saved.length).toBeLessThanOrEqual(3);
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.saved.at(-1)).toEqual({ n: 24 });
  });

  it('skips a save when the state is back to the one saved', async () => {
    const h = harness();
    h.autosaver.markSaved();
    h.set(data(5));
    h.set(data(0));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(h.saved).toEqual([]);
  });

  it('removes the autosave when the tool is emptied, once', async () => {
    const h = harness();
    h.autosaver.markSaved();
    h.set({ kind: 'empty' });
    await vi.advanceTimersByTimeAsync(2000);
    expect(h.removed()).toBe(1);
    h.set({ kind: 'empty' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.removed()).toBe(1);
  });

  it('keeps changes made during a save for the next one, and reports them as unsaved meanwhile', async () => {
    const h = harness();
    h.autosaver.markSaved();
    h.holdSaves();
    h.set(data(1));
    await vi.advanceTimersByTimeAsync(1500);
    expect(h.autosaver.snapshot().status).toBe('saving');
    h.set(data(2));
    h.release();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.saved).toEqual([{ n: 1 }]);
    expect(h.autosaver.hasUnsaved()).toBe(true);
    await vi.advanceTimersByTimeAsync(3000);
    expect(h.saved).toEqual([{ n: 1 }, { n: 2 }]);
    expect(h.autosaver.snapshot().status).toBe('saved');
  });

  it('reports a failure with its message, retries later, and a flush saves at once', async () => {
    const h = harness();
    h.autosaver.markSaved();
    h.failNext(true);
    h.set(data(1));
    await vi.advanceTimersByTimeAsync(1500);
    expect(h.autosaver.snapshot()).toMatchObject({ status: 'failed', error: 'offline' });
    expect(h.autosaver.hasUnsaved()).toBe(true);
    h.failNext(false);
    await vi.advanceTimersByTimeAsync(9000);
    expect(h.saved).toEqual([]);
    await vi.advanceTimersByTimeAsync(1500);
    expect(h.saved).toEqual([{ n: 1 }]);
    expect(h.autosaver.snapshot().status).toBe('saved');

    h.set(data(2));
    await h.autosaver.flush();
    expect(h.saved).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('refuses state it cannot save (too large) without retrying', async () => {
    const h = harness();
    h.autosaver.markSaved();
    h.set({ kind: 'invalid', message: 'Session data too large: 12.00MB (max: 10MB)' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.autosaver.snapshot()).toMatchObject({ status: 'failed', error: expect.stringContaining('too large') });
    expect(h.saved).toEqual([]);
    expect(h.autosaver.hasUnsaved()).toBe(false);
  });
});
