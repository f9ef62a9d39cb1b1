import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EditorSession } from '../../../common/api/editor-sessions.ts';
import type { EditorSessionType } from '../../../common/rules/editor-sessions.ts';
import { ApiError } from '../../api/client.ts';
import { loadSession, waitForParticipant } from './load.ts';
import { registerSessionParticipant, type SessionParticipant } from './registry.ts';

function session(type: string, data: Record<string, unknown> = { prompt: 'a fox' }): EditorSession {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'Saved',
    component_type: type,
    persona_id: null,
    thumbnail_url: null,
    size_bytes: 10,
    autosave: false,
    created_at: '2026-11-21T10:00:00.000Z',
    updated_at: '2026-11-21T10:00:00.000Z',
    data,
  };
}

function participant(type: EditorSessionType) {
  const restore = vi.fn((_data: Record<string, unknown>) => undefined);
  return { type, capture: () => null, restore } satisfies SessionParticipant;
}

describe('waitForParticipant (spec 4, 9: every 100 ms, up to 20 times)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('after a switch looks exactly 20 times, 100 ms apart, then gives up', async () => {
    const times: number[] = [];
    const start = Date.now();
    const lookup = vi.fn(() => {
      times.push(Date.now() - start);
      return undefined;
    });
    let result: unknown = 'pending';
    void waitForParticipant('magic-selector', { afterSwitch: true, lookup }).then((r) => {
      result = r;
    });
    await vi.advanceTimersByTimeAsync(1999);
    expect(result).toBe('pending');
    expect(lookup).toHaveBeenCalledTimes(19);
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toBeUndefined();
    expect(lookup).toHaveBeenCalledTimes(20);
    expect(times).toEqual(Array.from({ length: 20 }, (_, i) => (i + 1) * 100));
    await vi.advanceTimersByTimeAsync(5000);
    expect(lookup).toHaveBeenCalledTimes(20);
  });

  it('finds a tool that registers on the last attempt', async () => {
    const tool = participant('magic-selector');
    const start = Date.now();
    const lookup = () => (Date.now() - start >= 2000 ? tool : undefined);
    const found = waitForParticipant('magic-selector', { afterSwitch: true, lookup });
    await vi.advanceTimersByTimeAsync(2000);
    await expect(found).resolves.toBe(tool);
  });

  it('reads the shared registry by default and sees a tool unregister', async () => {
    const tool = participant('multi-reference');
    const unregister = registerSessionParticipant(tool);
    await expect(waitForParticipant('multi-reference', { afterSwitch: false })).resolves.toBe(tool);
    unregister();
    const gone = waitForParticipant('multi-reference', { afterSwitch: false });
    await vi.advanceTimersByTimeAsync(2000);
    await expect(gone).resolves.toBeUndefined();
  });

  it('without a switch uses a registered tool at once', async () => {
    const tool = participant('multi-image-canvas');
    const lookup = vi.fn(() => tool);
    await expect(waitForParticipant('multi-image-canvas', { afterSwitch: false, lookup })).resolves.toBe(tool);
    expect(lookup).toHaveBeenCalledTimes(1);
  });
});

describe('loadSession', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('switches to the session’s tool, waits for it to mount and restores the data', async () => {
    const tool = participant('magic-selector');
    let mounted = false;
    const switchTo = vi.fn(() => {
      setTimeout(() => {
        mounted = true;
      }, 250);
    });
    const outcome = loadSession('id', {
      fetchSession: async () => session('magic-selector'),
      activeType: () => 'multi-image-canvas',
      switchTo,
      lookup: () => (mounted ? tool : undefined),
    });
    await vi.advanceTimersByTimeAsync(300);
    await expect(outcome).resolves.toMatchObject({ ok: true });
    expect(switchTo).toHaveBeenCalledWith('magic-selector');
    expect(tool.restore).toHaveBeenCalledWith({ prompt: 'a fox' });
  });

  it("reports 'Failed to load session - component not ready' when the tool never mounts", async () => {
    const outcome = loadSession('id', {
      fetchSession: async () => session('multi-reference'),
      activeType: () => 'multi-image-canvas',
      switchTo: () => undefined,
      lookup: () => undefined,
    });
    await vi.advanceTimersByTimeAsync(2000);
    await expect(outcome).resolves.toEqual({ ok: false, message: 'Failed to load session - component not ready' });
  });

  it('does not switch when the tool is showing', async () => {
    const tool = participant('multi-image-canvas');
    const switchTo = vi.fn();
    const outcome = await loadSession('id', {
      fetchSession: async () => session('multi-image-canvas', { canvasImages: [] }),
      activeType: () => 'multi-image-canvas',
      switchTo,
      lookup: () => tool,
    });
    expect(outcome.ok).toBe(true);
    expect(switchTo).not.toHaveBeenCalled();
  });

  it("maps a 404 to 'Session not found' and other failures to 'Failed to load session'", async () => {
    const deps = { activeType: () => 'multi-image-canvas' as const, switchTo: () => undefined };
    await expect(
      loadSession('id', {
        ...deps,
        fetchSession: () => Promise.reject(new ApiError(404, 'Session not found')),
      }),
    ).resolves.toEqual({ ok: false, message: 'Session not found' });
    await expect(
      loadSession('id', { ...deps, fetchSession: () => Promise.reject(new ApiError(500, 'boom')) }),
    ).resolves.toEqual({ ok: false, message: 'Failed to load session' });
  });

  it('refuses an unknown component type and reports a restore that throws', async () => {
    const deps = { activeType: () => 'multi-image-canvas' as const, switchTo: () => undefined };
    await expect(loadSession('id', { ...deps, fetchSession: async () => session('paint') })).resolves.toEqual({
      ok: false,
      message: 'Unsupported component type: paint',
    });
    const broken: SessionParticipant = {
      type: 'multi-image-canvas',
      capture: () => null,
      restore: () => {
        throw new Error('Invalid session data: canvasImages must be an array');
      },
    };
    await expect(
      loadSession('id', {
        ...deps,
        fetchSession: async () => session('multi-image-canvas'),
        lookup: () => broken,
      }),
    ).resolves.toEqual({ ok: false, message: 'Invalid session data: canvasImages must be an array' });
  });
});
