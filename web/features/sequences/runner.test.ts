// The sequence store and runner against a stubbed fetch: pin rules, following an item's task through the
// progress channel (web/api/tasks.ts; without EventSource it reads GET /api/tasks/{id} with back-off) within
// the spec's 60 attempts of 5 s, the Movie Agent prompts and the master compile body. The spec's back-off
// rule itself is tested in common/rules/sequences.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../i18n/index.ts';
import { SEQUENCE_TIMEOUT_MS } from '../../../common/rules/sequences.ts';
import { analyzeWithMovieAgent, exportMasterVideo, generateItemVideo } from './runner.ts';
import { pinToSequence, useSequences } from './store.ts';

const toasts = vi.hoisted(() => [] as Array<[string, string]>);
vi.mock('sonner', () => ({
  toast: {
    success: (m: string) => toasts.push(['success', m]),
    error: (m: string) => toasts.push(['error', m]),
    info: (m: string) => toasts.push(['info', m]),
  },
}));

type Reply = { status: number; body: unknown } | 'network';
let replies: Reply[] = [];
const calls: Array<{ url: string; body: Record<string, unknown> }> = [];

beforeEach(() => {
  vi.useFakeTimers();
  toasts.length = 0;
  calls.length = 0;
  replies = [];
  useSequences.setState({ items: [], movieScript: '', videoMode: 'dream', analysis: null });
  useSequences.getState().clear();
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, body: JSON.parse(String(init.body ?? '{}')) });
    const next = replies.shift();
    if (!next || next === 'network') throw new TypeError('fetch failed');
    return new Response(JSON.stringify(next.body), { status: next.status });
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const ok = (body: unknown): Reply => ({ status: 200, body });
const image = { id: 'img-1', url: '/img.png', name: 'Hero', width: 3840, height: 2160 };

/** Lets pending promises run, then moves the clock. */
async function advance(ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
}

describe('pinToSequence', () => {
  it('adds a completed item with the spec defaults and refuses a second pin', () => {
    expect(pinToSequence(image)).toBe(true);
    expect(pinToSequence(image)).toBe(false);
    const [item] = useSequences.getState().items;
    expect(useSequences.getState().items).toHaveLength(1);
    expect(item).toMatchObject({
      prompt: 'Manually pinned: Hero',
      videoStatus: 'completed',
      startTime: 0,
      duration: 5,
      maxDuration: 8,
      sourceAspectRatio: '16:9',
      originalImageId: 'img-1',
    });
    expect(toasts).toEqual([['info', '"Hero" is already in the sequence!']]);
  });

  it('reorders only when the position changes', () => {
    pinToSequence(image);
    pinToSequence({ ...image, id: 'img-2', name: 'Two' });
    const { reorder } = useSequences.getState();
    expect(reorder(0, 0)).toBe(false);
    expect(reorder(0, 1)).toBe(true);
    expect(useSequences.getState().items.map((i) => i.originalImageId)).toEqual(['img-2', 'img-1']);
  });
});

describe('generateItemVideo', () => {
  const task = (state: Partial<{ status: string; progress: number; result: unknown; at: number }>) =>
    ok({
      success: true,
      data: {
        id: 'task-1',
        kind: 'generate.video',
        status: state.status ?? 'processing',
        progress: state.progress ?? 0,
        estimatedSecondsLeft: null,
        result: state.result ?? null,
        error: null,
        createdAt: new Date(0).toISOString(),
        updatedAt: new Date(state.at ?? 1000).toISOString(),
      },
    });

  it('follows the task through the progress channel (read back while the stream is down) until its video is ready', async () => {
    pinToSequence(image);
    const id = useSequences.getState().items[0].id;
    replies = [
      ok({ success: true, videoUrl: null, data: { taskId: 'task-1' } }),
      task({ progress: 10, at: 1000 }),
      { status: 502, body: { success: false, error: 'Bad gateway' } },
      'network',
      task({ progress: 30, at: 2000 }),
      task({
        status: 'completed',
        progress: 100,
        at: 3000,
        result: { url: '/v.mp4', assetId: 'a1', assets: [{ id: 'a1', type: 'video', url: '/v.mp4' }] },
      }),
    ];
    const run = generateItemVideo(id);
    await advance(0);
    expect(calls[0].url).toBe('/api/ai/generate-video-sequence');
    expect(calls[0].body).toMatchObject({ model: 'seedance', itemId: id, prompt: 'Manually pinned: Hero' });
    expect(useSequences.getState().items[0].videoStatus).toBe('generating');
    // Node has no EventSource: the task is read at once, then with back-off (1 s, doubling on a failed read).
    expect(calls).toHaveLength(2);
    expect(calls[1].url).toBe('/api/tasks/task-1');
    expect(useSequences.getState().items[0].progress).toBe(10);
    await advance(1_000); // 502: read again after 2 s
    expect(calls).toHaveLength(3);
    await advance(2_000); // network error: then 4 s
    expect(calls).toHaveLength(4);
    await advance(3_999);
    expect(calls).toHaveLength(4);
    await advance(1);
    expect(calls).toHaveLength(5);
    expect(useSequences.getState().items[0].progress).toBe(30);
    await advance(1_000);
    await run;
    expect(useSequences.getState().items[0]).toMatchObject({ videoStatus: 'completed', videoUrl: '/v.mp4' });
    expect(calls.slice(1).every((c) => c.url === '/api/tasks/task-1')).toBe(true);
    expect(toasts).toContainEqual(['success', 'Sequence video saved to campaign assets']);
  });

  it('fails the item with the time-out once the 60 attempts of 5 s have passed', async () => {
    pinToSequence(image);
    const id = useSequences.getState().items[0].id;
    replies = [ok({ success: true, videoUrl: null, data: { taskId: 'task-1' } })];
    for (let i = 0; i < 400; i++) replies.push(task({ progress: 40, at: 1000 + i }));
    const run = generateItemVideo(id);
    await advance(SEQUENCE_TIMEOUT_MS - 1);
    expect(useSequences.getState().items[0].videoStatus).toBe('generating');
    await advance(1);
    await run;
    expect(useSequences.getState().items[0].videoStatus).toBe('failed');
    expect(toasts.some(([kind]) => kind === 'error')).toBe(true);
  });

  it('finishes at once when the start reply has the video URL; a failed start marks the item failed', async () => {
    pinToSequence(image);
    const id = useSequences.getState().items[0].id;
    replies = [ok({ success: true, videoUrl: '/now.mp4', data: { taskId: 't' } })];
    await generateItemVideo(id);
    expect(useSequences.getState().items[0]).toMatchObject({ videoStatus: 'completed', videoUrl: '/now.mp4' });
    replies = [{ status: 500, body: { success: false } }];
    await generateItemVideo(id);
    expect(useSequences.getState().items[0].videoStatus).toBe('failed');
    expect(toasts).toContainEqual(['error', 'Dream mode API error: 500']);
  });
});

describe('Movie Agent and master', () => {
  it('applies the cinematic prompts by item id', async () => {
    pinToSequence(image);
    const id = useSequences.getState().items[0].id;
    useSequences.getState().setMovieScript('A hero rises.');
    replies = [
      ok({
        success: true,
        contentType: 'narrative',
        sequenceCount: 1,
        analysis: {},
        videoPrompts: [{ id, prompt: 'Slow dolly in on the hero', duration: 5 }],
      }),
    ];
    await analyzeWithMovieAgent();
    expect(useSequences.getState().items[0].moviePrompt).toBe('Slow dolly in on the hero');
    expect(toasts).toContainEqual(['success', 'Enhanced 1 sequences with cinematic prompts!']);
  });

  it('needs a completed video to compile and sends the items in order with their timing', async () => {
    pinToSequence(image);
    await exportMasterVideo();
    expect(toasts).toContainEqual(['error', 'No completed videos available to compile.']);
    expect(calls).toHaveLength(0);

    const id = useSequences.getState().items[0].id;
    useSequences.getState().patchItem(id, { videoUrl: '/a.mp4', startTime: 1, duration: 3, prompt: 'x'.repeat(150) });
    replies = [ok({ success: true, status: 'completed', masterVideoUrl: '/m.mp4', duration: 3, videoCount: 1 })];
    await exportMasterVideo();
    expect(calls[0].url).toBe('/api/ai/compile-master-video');
    expect(calls[0].body.sequenceItems).toEqual([
      { id, prompt: 'x'.repeat(100), videoUrl: '/a.mp4', startTime: 1, duration: 3 },
    ]);
    expect(useSequences.getState().master).toMatchObject({ masterVideoUrl: '/m.mp4', isGenerating: false });

    replies = [{ status: 500, body: { success: false, error: 'ffmpeg exploded' } }];
    await exportMasterVideo();
    expect(toasts).toContainEqual(['error', 'Compilation failed: ffmpeg exploded']);
  });
});
