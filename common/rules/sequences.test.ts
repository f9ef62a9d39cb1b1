import { describe, expect, it } from 'vitest';
import {
  alreadyPinnedMessage,
  canExportMaster,
  clampTimelineZoom,
  DEFAULT_SEQUENCE_VIDEO_MODE,
  dragHandle,
  hasFinishedVideo,
  isPinned,
  itemsWithoutVideo,
  pinImage,
  pinMessage,
  playableItems,
  reorderItems,
  SEQUENCE_MESSAGES,
  SEQUENCE_TIMEOUT_MS,
  SEQUENCE_VIDEO_MODES,
  SEQUENCE_VIDEO_STATUSES,
  type SequenceItem,
  sequenceItemState,
  sequenceOutcome,
  sequenceStartFrom,
  sequenceStatusFrom,
  stepTimelineZoom,
  truncatePrompt,
} from './sequences.ts';

describe('sequenceStatusFrom', () => {
  it('maps completed with a URL (data.url or videoUrl) to completed', () => {
    expect(sequenceStatusFrom({ success: true, data: { status: 'completed', url: '/m/a.mp4' } })).toEqual({
      videoStatus: 'completed',
      videoUrl: '/m/a.mp4',
    });
    expect(sequenceStatusFrom({ status: 'succeeded', videoUrl: '/m/b.mp4' })).toEqual({
      videoStatus: 'completed',
      videoUrl: '/m/b.mp4',
    });
  });
  it('maps a finished enhancement to enhanced', () => {
    expect(sequenceStatusFrom({ status: 'completed', url: '/m/c.mp4' }, { enhancement: true })).toEqual({
      videoStatus: 'enhanced',
      videoUrl: '/m/c.mp4',
    });
  });
  it('retries completed without a URL and running states', () => {
    for (const status of ['completed', 'processing', 'pending', 'running', 'queued']) {
      expect(sequenceStatusFrom({ data: { status } })).toEqual({ videoStatus: 'generating', retry: true });
    }
  });
  it('fails with the server error, the fallback, or the safety-filter text', () => {
    expect(sequenceStatusFrom({ status: 'failed', error: 'boom' })).toEqual({ videoStatus: 'failed', error: 'boom' });
    expect(sequenceStatusFrom({ data: { status: 'error' } })).toEqual({
      videoStatus: 'failed',
      error: 'Generation failed',
    });
    expect(sequenceStatusFrom({ status: 'failed', error: 'Sorry, no video was produced' })).toEqual({
      videoStatus: 'failed',
      error: 'Content blocked by safety filters',
    });
  });
  it('fails on an unexpected status or format', () => {
    expect(sequenceStatusFrom({ status: 'weird' })).toEqual({
      videoStatus: 'failed',
      error: 'Unexpected status: weird',
    });
    expect(sequenceStatusFrom({})).toEqual({
      videoStatus: 'failed',
      error: 'Video generation returned unexpected response structure',
    });
    expect(sequenceStatusFrom(null).videoStatus).toBe('failed');
  });
});

describe('sequenceOutcome', () => {
  it("finishes on a URL, fails with the reply's error, and ends as the time-out otherwise", () => {
    expect(sequenceOutcome({ status: 'completed', url: '/v.mp4' })).toEqual({
      kind: 'done',
      videoStatus: 'completed',
      videoUrl: '/v.mp4',
    });
    expect(sequenceOutcome({ status: 'failed', error: 'Model overloaded' })).toEqual({
      kind: 'failed',
      error: 'Model overloaded',
    });
    const timedOut = { kind: 'failed', error: SEQUENCE_MESSAGES.pollTimedOut };
    expect(sequenceOutcome({ status: 'processing' })).toEqual(timedOut);
    expect(sequenceOutcome(null)).toEqual(timedOut);
    expect(SEQUENCE_TIMEOUT_MS).toBe(300_000);
  });
});

describe('sequenceStartFrom', () => {
  it('reads a URL, a task id, or fails', () => {
    expect(sequenceStartFrom({ success: true, videoUrl: '/a.mp4' })).toEqual({
      videoStatus: 'completed',
      videoUrl: '/a.mp4',
    });
    expect(sequenceStartFrom({ success: true, data: { taskId: 't1' } })).toEqual({
      videoStatus: 'generating',
      taskId: 't1',
    });
    expect(sequenceStartFrom({ success: true })).toEqual({
      videoStatus: 'failed',
      error: 'Video generation returned unexpected response structure',
    });
    expect(sequenceStartFrom({ success: false, error: 'nope' })).toEqual({ videoStatus: 'failed', error: 'nope' });
  });
});

describe('modes and statuses', () => {
  it('lists the five statuses and the two modes with their credits', () => {
    expect(SEQUENCE_VIDEO_STATUSES).toEqual(['pending', 'generating', 'completed', 'failed', 'enhanced']);
    expect(DEFAULT_SEQUENCE_VIDEO_MODE).toBe('dream');
    expect(SEQUENCE_VIDEO_MODES.pro).toMatchObject({ model: 'veo-3.0-generate-001', credits: 101 });
    expect(SEQUENCE_VIDEO_MODES.dream).toMatchObject({ model: 'seedance', credits: 41, durationSeconds: 12 });
  });
});

describe('pin rules', () => {
  it('pins with the spec prompt and defaults, and refuses a duplicate', () => {
    expect(pinMessage('cat.png')).toBe('Manually pinned: cat.png');
    expect(alreadyPinnedMessage('cat.png')).toBe('"cat.png" is already in the sequence!');
    const first = pinImage([], { id: 'img1', url: '/i.png', name: 'cat.png' }, { id: 's1', timestamp: 1 });
    expect(first.pinned).toBe(true);
    if (!first.pinned) return;
    expect(first.item).toMatchObject({
      prompt: 'Manually pinned: cat.png',
      videoStatus: 'completed',
      startTime: 0,
      duration: 5,
      maxDuration: 8,
      originalImageId: 'img1',
    });
    expect(isPinned(first.items, 'img1')).toBe(true);
    expect(isPinned(first.items, 'img2')).toBe(false);
    const again = pinImage(first.items, { id: 'img1', url: '/i.png', name: 'cat.png' }, { id: 's2', timestamp: 2 });
    expect(again).toEqual({ pinned: false, items: first.items, message: '"cat.png" is already in the sequence!' });
  });
});

describe('timeline maths', () => {
  const item = { startTime: 0, duration: 5, maxDuration: 8 };
  it('moves the end handle within 1–8 s', () => {
    expect(dragHandle(item, 'end', 40, 20)).toEqual({ startTime: 0, duration: 7 });
    expect(dragHandle(item, 'end', 400, 20)).toEqual({ startTime: 0, duration: 8 });
    expect(dragHandle(item, 'end', -400, 20)).toEqual({ startTime: 0, duration: 1 });
  });
  it('moves the start handle keeping the end fixed', () => {
    expect(dragHandle(item, 'start', 20, 20)).toEqual({ startTime: 1, duration: 4 });
    expect(dragHandle(item, 'start', 400, 20)).toEqual({ startTime: 4, duration: 1 });
    expect(dragHandle({ startTime: 2, duration: 3, maxDuration: 8 }, 'start', -400, 20)).toEqual({
      startTime: 0,
      duration: 5,
    });
  });
  it('moves the body keeping the duration, within the clip', () => {
    expect(dragHandle(item, 'body', 30, 10)).toEqual({ startTime: 3, duration: 5 });
    expect(dragHandle(item, 'body', 1000, 20)).toEqual({ startTime: 3, duration: 5 });
    expect(dragHandle({ startTime: 2, duration: 5, maxDuration: 8 }, 'body', -1000, 20)).toEqual({
      startTime: 0,
      duration: 5,
    });
  });
  it('rounds to 0.1 s and uses the clamped scale', () => {
    expect(dragHandle(item, 'end', 7, 20)).toEqual({ startTime: 0, duration: 5.4 });
    expect(dragHandle(item, 'end', 20, 1)).toEqual({ startTime: 0, duration: 7 });
  });
  it('clamps and steps the zoom', () => {
    expect(clampTimelineZoom(20)).toBe(20);
    expect(clampTimelineZoom(3)).toBe(10);
    expect(clampTimelineZoom(99)).toBe(50);
    expect(clampTimelineZoom(22)).toBe(20);
    expect(clampTimelineZoom(Number.NaN)).toBe(20);
    expect(stepTimelineZoom(20, 1)).toBe(25);
    expect(stepTimelineZoom(10, -1)).toBe(10);
    expect(stepTimelineZoom(50, 1)).toBe(50);
  });
  it('reorders only when the position changes', () => {
    expect(reorderItems(['a', 'b', 'c'], 1, 1)).toBeNull();
    expect(reorderItems(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
  });
});

describe('master helpers', () => {
  const base = { id: 'x', imageUrl: '', prompt: '', timestamp: 0, originalImageId: 'o', startTime: 0, maxDuration: 8 };
  const items: SequenceItem[] = [
    { ...base, videoStatus: 'completed', videoUrl: '/a.mp4', duration: 5 },
    { ...base, videoStatus: 'generating', duration: 3 },
    { ...base, videoStatus: 'completed', duration: 2 },
  ];
  it('exports only when every item is completed', () => {
    expect(canExportMaster(items)).toBe(false);
    expect(canExportMaster([])).toBe(false);
    expect(canExportMaster([items[0] as SequenceItem])).toBe(true);
  });
  it('does not export freshly pinned items: completed but without a video', () => {
    const pinned = pinImage([], { id: 'img-1', url: '/i.png', name: 'Dusk' }, { id: 's1', timestamp: 1 });
    if (!pinned.pinned) throw new Error('not pinned');
    expect(pinned.item.videoStatus).toBe('completed');
    expect(hasFinishedVideo(pinned.item)).toBe(false);
    expect(sequenceItemState(pinned.item)).toBe('needsVideo');
    expect(canExportMaster(pinned.items)).toBe(false);
    expect(itemsWithoutVideo(pinned.items)).toBe(1);
    expect(canExportMaster([...pinned.items, items[0] as SequenceItem])).toBe(false);
  });
  it('counts an enhanced video as done, and a failed, generating or pending one as not', () => {
    const enhanced = { ...base, videoStatus: 'enhanced' as const, videoUrl: '/e.mp4', duration: 4 };
    expect(hasFinishedVideo(enhanced)).toBe(true);
    expect(sequenceItemState(enhanced)).toBe('enhanced');
    expect(canExportMaster([items[0] as SequenceItem, enhanced])).toBe(true);
    expect(itemsWithoutVideo([items[0] as SequenceItem, enhanced])).toBe(0);
    for (const videoStatus of ['failed', 'generating', 'pending'] as const) {
      const item = { ...base, videoStatus, videoUrl: '/old.mp4', duration: 4 };
      expect(hasFinishedVideo(item)).toBe(false);
      expect(canExportMaster([item])).toBe(false);
    }
    expect(sequenceItemState({ videoStatus: 'generating' })).toBe('generating');
    expect(sequenceItemState({ videoStatus: 'failed' })).toBe('failed');
    expect(sequenceItemState({ videoStatus: 'pending' })).toBe('needsVideo');
    expect(sequenceItemState({ videoStatus: 'pending', videoUrl: '/old.mp4' })).toBe('pending');
    expect(sequenceItemState({ videoStatus: 'completed', videoUrl: '/a.mp4' })).toBe('completed');
  });
  it('plays completed items with a URL', () => {
    expect(playableItems(items)).toHaveLength(1);
    expect(truncatePrompt('x'.repeat(120), 100)).toHaveLength(100);
    expect(truncatePrompt('short', 50)).toBe('short');
  });
});
