// Pure rules for the canvas's cinema sequences (canvas spec 3, 4, 5, 8 and 9): the outcome of a finished video
// task and its time-out, the mapping from a status reply to an item's videoStatus, pinning, the timeline handle maths and
// the master-video helpers. No Node and no DOM imports: shared by web, server and tests.
import { keyedCatalogue, withParams } from '../message-keys.ts';

/** Spec 3 "Sequence item" videoStatus values (spec 4). */
export const SEQUENCE_VIDEO_STATUSES = ['pending', 'generating', 'completed', 'failed', 'enhanced'] as const;
export type SequenceVideoStatus = (typeof SEQUENCE_VIDEO_STATUSES)[number];

/** Spec 9 figures for the sequence panel and timeline. */
export const SEQUENCE_LIMITS = {
  /** Item defaults (spec 9): startTime 0, duration 5, maxDuration 8, min 1. */
  defaultStartTime: 0,
  defaultDuration: 5,
  maxDuration: 8,
  minDuration: 1,
  /** Timeline scale in px per second: default 20, zoom 10–50 in steps of 5. */
  defaultPxPerSecond: 20,
  minPxPerSecond: 10,
  maxPxPerSecond: 50,
  pxPerSecondStep: 5,
  /** 'Timeline timing updated!' shows for 1 s. */
  timingToastMs: 1_000,
  /** Prompts truncated to 50 characters for playback and 100 for the saved master prompt. */
  playbackPromptChars: 50,
  masterPromptChars: 100,
  /** Movie agent time limit: 10 minutes. */
  movieAgentTimeoutMs: 600_000,
  /** A sequence video's prompt (POST /api/ai/generate-video-sequence) and so each movie-agent prompt. */
  videoPromptMaxChars: 4000,
  /** The master video estimate text says 30 s when unknown. */
  masterEstimateSeconds: 30,
} as const;

/** A sequence video unfinished after 5 minutes (the spec's 60 status reads of 5 s) fails (spec 9). */
export const SEQUENCE_TIMEOUT_MS = 60 * 5_000;

/** Pro: Veo image-to-video with audio (101 credits). Dream: seedance, 12 s, high quality (41 credits). */
export const SEQUENCE_VIDEO_MODES = {
  pro: { model: 'veo-3.0-generate-001', credits: 101, durationSeconds: 8, generateAudio: true },
  dream: { model: 'seedance', credits: 41, durationSeconds: 12, quality: 'high' },
} as const;
export type SequenceVideoMode = keyof typeof SEQUENCE_VIDEO_MODES;
/** The video mode the panel shows first (spec 4: default shown dream). */
export const DEFAULT_SEQUENCE_VIDEO_MODE: SequenceVideoMode = 'dream';

// Keyed as group 'sequences' (common/message-keys.ts); the web translates them under sequences.messages.*.
export const SEQUENCE_MESSAGES = keyedCatalogue({
  sequences: {
    pinned: withParams(['name'], (name: string) => `Manually pinned: ${name}`),
    alreadyPinned: withParams(['name'], (name: string) => `"${name}" is already in the sequence!`),
    dreamFailed: 'Dream mode generation failed',
    dreamApiError: withParams(['status'], (status: number) => `Dream mode API error: ${status}`),
    unexpectedResponse: 'Video generation returned unexpected response structure',
    generationFailed: 'Generation failed',
    safetyBlocked: 'Content blocked by safety filters',
    pollTimedOut: 'Video generation timed out. Please try again.',
    unexpectedStatus: withParams(['status'], (status: string) => `Unexpected status: ${status}`),
    timingUpdated: 'Timeline timing updated!',
    reordered: 'Sequence reordered successfully!',
    playbackCompleted: 'Timeline playback completed!',
    noVideosToPlay: 'No completed videos to play',
    noVideosToCompile: 'No completed videos available to compile.',
    compilationFailed: withParams(['error'], (error: string) => `Compilation failed: ${error}`),
    compileApiError: withParams(
      ['status', 'statusText'],
      (status: number, statusText: string) => `API Error: ${status} - ${statusText}`,
    ),
    compileNetworkError: 'A network or unexpected error occurred during compilation.',
    /** A compile item whose trim window starts at or past the end of its clip: nothing of it would play. */
    startBeyondClip: withParams(
      ['itemId', 'startTime', 'clipSeconds'],
      (itemId: string, startTime: number, clipSeconds: number) =>
        `Sequence item "${itemId}" starts at ${startTime} s, but its video is only ${clipSeconds} s long`,
    ),
    movieAgentEnhanceFailed: 'Failed to enhance sequences with Movie Agent',
    movieAgentRequestFailed: 'Movie Agent request failed',
    movieAgentTimedOut: 'Movie Agent timed out. Try with fewer sequences or a shorter script.',
    movieAgentAnalysisFailed: 'Movie Agent analysis failed. Please try again.',
    movieAgentEnhanced: withParams(['n'], (n: number) => `Enhanced ${n} sequences with cinematic prompts!`),
    movieScriptRequired: 'Please enter a movie script',
    videoSaved: 'Sequence video saved to campaign assets',
    videoSaveFailed: 'Failed to save sequence video to campaign assets',
  } as const,
}).sequences;

// ---- status mapping (spec 4) ----

/** What POST /api/ai/status (or the Veo status proxy) answered; every field optional, read defensively. */
export interface SequenceStatusReply {
  success?: boolean;
  status?: string | null;
  url?: string | null;
  videoUrl?: string | null;
  error?: string | null;
  data?: { status?: string | null; url?: string | null; videoUrl?: string | null; error?: string | null } | null;
}

export type SequenceStatusResult =
  /** Still running (processing, pending, running) or completed without a URL yet: poll again. */
  | { videoStatus: 'generating'; retry: true }
  | { videoStatus: 'completed' | 'enhanced'; videoUrl: string }
  | { videoStatus: 'failed'; error: string };

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value : null);

/**
 * Maps one status reply to the item's videoStatus. completed / succeeded with a URL → completed (or
 * enhanced when the task was a video enhancement); completed without a URL → generating, retried;
 * processing / pending / running / queued → generating; failed / error → failed with the server's error or
 * 'Generation failed' ('no video was produced' → 'Content blocked by safety filters'); anything else is an
 * unexpected format → failed.
 */
export function sequenceStatusFrom(
  reply: SequenceStatusReply | null | undefined,
  options: { enhancement?: boolean } = {},
): SequenceStatusResult {
  if (!reply || typeof reply !== 'object') {
    return { videoStatus: 'failed', error: SEQUENCE_MESSAGES.unexpectedResponse };
  }
  const data = reply.data ?? {};
  const rawStatus = text(data.status) ?? text(reply.status);
  const url = text(data.url) ?? text(data.videoUrl) ?? text(reply.videoUrl) ?? text(reply.url);
  const error = text(data.error) ?? text(reply.error);
  const status = (rawStatus ?? '').toLowerCase();
  if (status === 'completed' || status === 'succeeded' || status === 'success') {
    if (url) return { videoStatus: options.enhancement ? 'enhanced' : 'completed', videoUrl: url };
    return { videoStatus: 'generating', retry: true };
  }
  if (status === 'failed' || status === 'error') {
    if (error && /no video was produced/i.test(error)) {
      return { videoStatus: 'failed', error: SEQUENCE_MESSAGES.safetyBlocked };
    }
    return { videoStatus: 'failed', error: error ?? SEQUENCE_MESSAGES.generationFailed };
  }
  if (status === 'processing' || status === 'pending' || status === 'running' || status === 'queued') {
    return { videoStatus: 'generating', retry: true };
  }
  if (!rawStatus && url) return { videoStatus: options.enhancement ? 'enhanced' : 'completed', videoUrl: url };
  return {
    videoStatus: 'failed',
    error: rawStatus ? SEQUENCE_MESSAGES.unexpectedStatus(rawStatus) : SEQUENCE_MESSAGES.unexpectedResponse,
  };
}

export type SequenceOutcome =
  | { kind: 'done'; videoStatus: 'completed' | 'enhanced'; videoUrl: string }
  | { kind: 'failed'; error: string };

/**
 * How a sequence video's task ended, read as its status reply (`null`: it could not be followed to its end, or
 * ran past SEQUENCE_TIMEOUT_MS). A reply still generating, or finished without a URL, ends as the time-out.
 */
export function sequenceOutcome(
  reply: SequenceStatusReply | null,
  options: { enhancement?: boolean } = {},
): SequenceOutcome {
  if (!reply) return { kind: 'failed', error: SEQUENCE_MESSAGES.pollTimedOut };
  const result = sequenceStatusFrom(reply, options);
  if (result.videoStatus === 'failed') return { kind: 'failed', error: result.error };
  if (result.videoStatus === 'generating') return { kind: 'failed', error: SEQUENCE_MESSAGES.pollTimedOut };
  return { kind: 'done', videoStatus: result.videoStatus, videoUrl: result.videoUrl };
}

/** What a generate call answered (pro or dream): a URL finishes at once, a taskId starts polling. */
export interface SequenceStartReply {
  success?: boolean;
  videoUrl?: string | null;
  error?: string | null;
  data?: { taskId?: string | null; url?: string | null; videoUrl?: string | null } | null;
}

export type SequenceStartResult =
  | { videoStatus: 'completed'; videoUrl: string }
  | { videoStatus: 'generating'; taskId: string }
  | { videoStatus: 'failed'; error: string };

/** Spec 4 and 8: a returned URL → completed; a taskId → generating; no success, or neither → failed. */
export function sequenceStartFrom(reply: SequenceStartReply | null | undefined): SequenceStartResult {
  if (!reply || reply.success === false) {
    return { videoStatus: 'failed', error: text(reply?.error) ?? SEQUENCE_MESSAGES.generationFailed };
  }
  const url = text(reply.videoUrl) ?? text(reply.data?.videoUrl) ?? text(reply.data?.url);
  if (url) return { videoStatus: 'completed', videoUrl: url };
  const taskId = text(reply.data?.taskId);
  if (taskId) return { videoStatus: 'generating', taskId };
  return { videoStatus: 'failed', error: SEQUENCE_MESSAGES.unexpectedResponse };
}

// ---- pinning (spec 5, 9) ----

export const pinMessage = (name: string): string => SEQUENCE_MESSAGES.pinned(name);
export const alreadyPinnedMessage = (name: string): string => SEQUENCE_MESSAGES.alreadyPinned(name);

/** The fields of spec 3 "Sequence item". */
export interface SequenceItem {
  id: string;
  imageUrl: string;
  prompt: string;
  moviePrompt?: string;
  timestamp: number;
  originalImageId: string;
  videoStatus: SequenceVideoStatus;
  videoUrl?: string;
  taskId?: string;
  sourceAspectRatio?: string;
  startTime: number;
  duration: number;
  maxDuration: number;
}

/** Whether the canvas image is already in the sequence (by originalImageId). */
export function isPinned(items: readonly Pick<SequenceItem, 'originalImageId'>[], imageId: string): boolean {
  return items.some((item) => item.originalImageId === imageId);
}

export type PinResult =
  | { pinned: true; items: SequenceItem[]; item: SequenceItem; message: string }
  | { pinned: false; items: SequenceItem[]; message: string };

/**
 * Pins a canvas image: a new item with prompt 'Manually pinned: {name}', status completed (spec 4), startTime 0,
 * duration 5, maxDuration 8; an image already pinned gives the info '"{name}" is already in the sequence!'.
 */
export function pinImage(
  items: readonly SequenceItem[],
  image: { id: string; url: string; name: string },
  extra: { id: string; timestamp: number; sourceAspectRatio?: string },
): PinResult {
  if (isPinned(items, image.id)) {
    return { pinned: false, items: [...items], message: alreadyPinnedMessage(image.name) };
  }
  const item: SequenceItem = {
    id: extra.id,
    imageUrl: image.url,
    prompt: pinMessage(image.name),
    timestamp: extra.timestamp,
    originalImageId: image.id,
    videoStatus: 'completed',
    startTime: SEQUENCE_LIMITS.defaultStartTime,
    duration: SEQUENCE_LIMITS.defaultDuration,
    maxDuration: SEQUENCE_LIMITS.maxDuration,
    ...(extra.sourceAspectRatio ? { sourceAspectRatio: extra.sourceAspectRatio } : {}),
  };
  return { pinned: true, items: [...items, item], item, message: pinMessage(image.name) };
}

// ---- timeline maths (spec 4, 5, 9) ----

export type TimelineHandle = 'start' | 'end' | 'body';
export interface TimelineTiming {
  startTime: number;
  duration: number;
  maxDuration: number;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/**
 * New startTime and duration after dragging a handle by `deltaPx` at `pxPerSecond`. The item plays the
 * window [startTime, startTime + duration] of its clip; the window stays within [0, maxDuration] and its
 * length within 1…min(8, maxDuration) s. Start handle: moves the start, the end stays. End handle: moves the
 * end. Body: moves the window, the length stays. Results are rounded to 0.1 s.
 */
export function dragHandle(
  timing: TimelineTiming,
  handle: TimelineHandle,
  deltaPx: number,
  pxPerSecond: number,
): { startTime: number; duration: number } {
  const limit = Math.max(SEQUENCE_LIMITS.minDuration, Math.min(SEQUENCE_LIMITS.maxDuration, timing.maxDuration));
  const min = SEQUENCE_LIMITS.minDuration;
  const startTime = clamp(timing.startTime, 0, limit - min);
  const duration = clamp(timing.duration, min, limit - startTime);
  const end = startTime + duration;
  const delta = Number.isFinite(deltaPx) ? deltaPx / clampTimelineZoom(pxPerSecond) : 0;
  if (handle === 'start') {
    const next = clamp(startTime + delta, Math.max(0, end - limit), end - min);
    return { startTime: round1(next), duration: round1(end - round1(next)) };
  }
  if (handle === 'end') {
    const nextEnd = clamp(end + delta, startTime + min, limit);
    return { startTime: round1(startTime), duration: round1(nextEnd - startTime) };
  }
  const next = clamp(startTime + delta, 0, limit - duration);
  return { startTime: round1(next), duration: round1(duration) };
}

/** Timeline zoom within 10–50 px/s, snapped to steps of 5; anything unreadable is the default 20. */
export function clampTimelineZoom(pxPerSecond: number): number {
  if (!Number.isFinite(pxPerSecond)) return SEQUENCE_LIMITS.defaultPxPerSecond;
  const step = SEQUENCE_LIMITS.pxPerSecondStep;
  return clamp(Math.round(pxPerSecond / step) * step, SEQUENCE_LIMITS.minPxPerSecond, SEQUENCE_LIMITS.maxPxPerSecond);
}

/** Zoom in (+1) or out (−1) by one 5 px/s step. */
export function stepTimelineZoom(pxPerSecond: number, direction: 1 | -1): number {
  return clampTimelineZoom(clampTimelineZoom(pxPerSecond) + direction * SEQUENCE_LIMITS.pxPerSecondStep);
}

/** Moves the item at `from` to `to`; null when the position does not change (no reorder, no toast). */
export function reorderItems<T>(items: readonly T[], from: number, to: number): T[] | null {
  if (from === to || from < 0 || to < 0 || from >= items.length || to >= items.length) return null;
  const next = [...items];
  const [moved] = next.splice(from, 1);
  if (moved === undefined) return null;
  next.splice(to, 0, moved);
  return next;
}

// ---- master video (spec 5, 9) ----

/** Cuts a prompt to `max` characters (50 for playback, 100 for the saved master prompt). */
export function truncatePrompt(prompt: string, max: number): string {
  return prompt.length <= max ? prompt : prompt.slice(0, max);
}

/**
 * Whether an item's video is done: it has a video URL and is completed, or enhanced (an enhancement replaces
 * the URL). A newly pinned item is completed (spec 4) but has no video yet, so it is not done.
 */
export function hasFinishedVideo(item: Pick<SequenceItem, 'videoStatus' | 'videoUrl'>): boolean {
  return (item.videoStatus === 'completed' || item.videoStatus === 'enhanced') && !!item.videoUrl;
}

/**
 * What an item card shows: `needsVideo` for an item with no video yet (a freshly pinned item reads completed
 * in the spec's vocabulary, but there is nothing to compile), otherwise its videoStatus.
 */
export type SequenceItemState = SequenceVideoStatus | 'needsVideo';
export function sequenceItemState(item: Pick<SequenceItem, 'videoStatus' | 'videoUrl'>): SequenceItemState {
  if (item.videoStatus === 'generating' || item.videoStatus === 'failed') return item.videoStatus;
  if (!item.videoUrl) return 'needsVideo';
  return item.videoStatus;
}

/**
 * Export Master Video is enabled only when there are items and every one is completed (spec 4), which here
 * means every item has its video: completed or enhanced, with a video URL.
 */
export function canExportMaster(items: readonly Pick<SequenceItem, 'videoStatus' | 'videoUrl'>[]): boolean {
  return items.length > 0 && items.every(hasFinishedVideo);
}

/** How many items still need a video before the master can be exported. */
export function itemsWithoutVideo(items: readonly Pick<SequenceItem, 'videoStatus' | 'videoUrl'>[]): number {
  return items.filter((item) => !hasFinishedVideo(item)).length;
}

/** The items compile and playback use: completed (or enhanced) with a video URL, in timeline order. */
export function playableItems<T extends Pick<SequenceItem, 'videoStatus' | 'videoUrl'>>(
  items: readonly T[],
): (T & { videoUrl: string })[] {
  return items.filter((item): item is T & { videoUrl: string } => hasFinishedVideo(item));
}
