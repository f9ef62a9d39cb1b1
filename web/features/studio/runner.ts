// Runs one generation: the POST, then (for a task) its progress over the page's progress channel, moving the mode's generation through
// loading → success | error. Lives outside React so a video keeps being followed while the user switches mode
// or view; a new run of the same mode aborts the previous one.
import type { QueryClient } from '@tanstack/react-query';
import { AUDIO_MODEL } from '../../../common/api/generation.constants.ts';
import type { GeneratedMedia } from '../../../common/api/generation.ts';
import { MESSAGES } from '../../../common/messages.ts';
import {
  generationErrorKind,
  videoPollProgress,
  videoPollSecondsLeft,
} from '../../../common/rules/generation-state.ts';
import { GENERATE_KINDS } from '../../../common/rules/generation-status.ts';
import { imageDimensions } from '../../../common/rules/pricing.ts';
import { parseRatio, type StudioMode } from '../../../common/rules/studio.ts';
import { isAbort } from '../../api/abort.ts';
import { assetsQueryKey } from '../../api/assets.ts';
import { meQueryKey } from '../../api/auth.ts';
import { ApiError, errorMessage } from '../../api/client.ts';
import {
  followGeneration,
  generateAudio,
  generateImage,
  generateVideo,
  isTaskAccepted,
  type TaskAccepted,
} from '../../api/generation.ts';
import { useSession } from '../../api/session.ts';
import { followTasks } from '../../api/tasks.ts';
import { engineOf } from '../../ui/EngineBadge.tsx';
import type { BuiltRequest } from './requests.ts';
import { type GeneratedItem, type GenerationResult, initialGeneration, useStudio } from './store.ts';

type ReadyRequest = Extract<BuiltRequest, { ok: true }>;

const running = new Map<StudioMode, AbortController>();
/** The last request of each mode, for Retry. */
const lastRequests = new Map<StudioMode, ReadyRequest>();

const FAILED: Record<StudioMode, string> = {
  image: MESSAGES.generation.imageFailed,
  video: MESSAGES.generation.videoFailed,
  audio: MESSAGES.generation.audioFailed,
};

class GenerationFailure extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string | null,
  ) {
    super(message);
  }
}

const toItem = (media: GeneratedMedia): GeneratedItem => ({
  id: media.id,
  url: media.url,
  thumbnailUrl: media.thumbnail_url,
  engine: engineOf(media.metadata),
  type: media.type,
  width: media.width,
  height: media.height,
  duration: media.duration,
});

function isMedia(value: unknown): value is GeneratedMedia {
  return typeof value === 'object' && value !== null && typeof (value as { url?: unknown }).url === 'string';
}

/** The credits a 402 from our own ledger says are missing (its details carry `required` and `balance`). */
function ledgerShortfall(error: ApiError): number | undefined {
  if (error.status !== 402 || error.code !== 'insufficient_credits') return undefined;
  const details = error.details as { required?: unknown; balance?: unknown } | undefined;
  const { required, balance } = details ?? {};
  if (typeof required !== 'number' || typeof balance !== 'number') return undefined;
  return Math.max(1, Math.ceil(required - balance));
}

/** Reads finished media of any mode into a result; anything unexpected goes to the generic view. */
function resultOf(mode: StudioMode, data: unknown): GenerationResult {
  if (mode === 'image') {
    const list = Array.isArray(data) ? data : isMedia(data) ? [data] : null;
    if (list && list.length > 0 && list.every(isMedia)) return { kind: 'images', items: list.map(toItem) };
  } else if (isMedia(data)) {
    const item = toItem(data);
    if (mode === 'video' && (data.type === 'video' || !data.type)) return { kind: 'video', item };
    if (mode === 'audio' && (data.type === 'audio' || !data.type)) return { kind: 'audio', item };
  }
  return { kind: 'generic', data };
}

/**
 * Follows a task until it finishes (spec 4 "Video generation", 9 "Video polling") over the page's progress
 * channel: its progress as it comes, the spec's budget of 40 attempts of 15 s, after which it times out; a task
 * that cannot be read (404, signed out) ends it with 'Polling failed: {status}'.
 */
async function followTask(mode: StudioMode, task: TaskAccepted, signal: AbortSignal): Promise<GeneratedItem> {
  const { setGeneration } = useStudio.getState();
  // The bar only moves forward: the spec's starting 5% is not taken back when the server's first real
  // figure is lower (a task that has just loaded its inputs reports 2%).
  let shown = videoPollProgress(0, task.progress > 0 ? task.progress : null);
  setGeneration(mode, {
    progress: { value: shown, secondsLeft: videoPollSecondsLeft(0, task.estimatedSecondsLeft) },
  });
  const { decision, data } = await followGeneration(task.taskId, {
    signal,
    onProgress: (progress, secondsLeft) => {
      shown = Math.max(shown, progress);
      setGeneration(mode, { progress: { value: shown, secondsLeft } });
    },
  });
  if (decision.kind === 'failed') {
    const message =
      mode !== 'video' && decision.message === MESSAGES.generation.videoTimedOut
        ? MESSAGES.tasks.timedOut
        : decision.message;
    throw new GenerationFailure(message, decision.status, decision.code);
  }
  setGeneration(mode, { progress: { value: 100, secondsLeft: 0 } });
  return {
    id: data?.assetId ?? null,
    url: decision.url,
    thumbnailUrl: data?.thumbnail_url ?? null,
    type: mode,
  };
}

/**
 * Image and audio requests wait (up to ~20 s) for their task and answer the finished media, so the task id comes
 * only with the answer. Meanwhile the page's progress channel pushes every task of the user: the first task of the
 * mode's kind that runs after the request went out is taken as this one, and its progress shown.
 */
function followQuickTask(mode: StudioMode, signal: AbortSignal): () => void {
  const kind = GENERATE_KINDS[mode];
  let taskId: string | null = null;
  let shown = 0;
  const stop = followTasks(
    (task) => {
      if (signal.aborted || task.kind !== kind || (task.status !== 'queued' && task.status !== 'processing')) return;
      taskId ??= task.id;
      if (task.id !== taskId) return;
      shown = Math.max(shown, videoPollProgress(0, task.progress > 0 ? task.progress : null));
      useStudio.getState().setGeneration(mode, {
        progress: { value: shown, secondsLeft: videoPollSecondsLeft(0, task.estimatedSecondsLeft) },
      });
    },
    () => undefined,
  );
  signal.addEventListener('abort', stop, { once: true });
  return stop;
}

async function execute(request: ReadyRequest, signal: AbortSignal): Promise<GenerationResult> {
  const { mode } = request;
  let data: unknown;
  const stopFollowing = mode === 'video' ? () => undefined : followQuickTask(mode, signal);
  try {
    data = await post(request, signal);
  } finally {
    stopFollowing();
  }
  if (isTaskAccepted(data)) {
    const item = await followTask(mode, data, signal);
    if (mode === 'image') return { kind: 'images', items: [item] };
    return mode === 'video' ? { kind: 'video', item } : { kind: 'audio', item };
  }
  if (data === undefined || data === null) throw new GenerationFailure(FAILED[mode]);
  return resultOf(mode, data);
}

async function post(request: ReadyRequest, signal: AbortSignal): Promise<unknown> {
  switch (request.mode) {
    case 'image':
      return (await generateImage(request.body, signal)).data;
    case 'video':
      return (await generateVideo(request.body, signal)).data;
    case 'audio':
      return (await generateAudio(request.body, signal)).data;
  }
}

/** The model a request runs on and the shape (width / height) of what it will make. */
function requestShape(request: ReadyRequest): { model: string; aspect: number | null } {
  switch (request.mode) {
    case 'image': {
      const { width, height } = imageDimensions(request.body);
      return { model: request.body.model ?? '', aspect: width / height };
    }
    case 'video':
      return { model: request.body.model ?? '', aspect: parseRatio(request.body.aspectRatio ?? '') };
    case 'audio':
      return { model: AUDIO_MODEL, aspect: null };
  }
}

/** Starts a generation for the request's mode. */
export async function runGeneration(request: ReadyRequest, queryClient: QueryClient): Promise<void> {
  const { mode } = request;
  running.get(mode)?.abort();
  const controller = new AbortController();
  running.set(mode, controller);
  lastRequests.set(mode, request);
  const { setGeneration } = useStudio.getState();
  setGeneration(mode, {
    ...initialGeneration(),
    ...requestShape(request),
    phase: 'loading',
    expected: request.expected,
  });
  // The viewer turns to the new result.
  useStudio.getState().setViewing(null);

  try {
    const result = await execute(request, controller.signal);
    if (controller.signal.aborted) return;
    setGeneration(mode, { phase: 'success', result, error: null, progress: null });
    void queryClient.invalidateQueries({ queryKey: assetsQueryKey });
  } catch (error) {
    if (controller.signal.aborted || isAbort(error)) return;
    const status = error instanceof ApiError || error instanceof GenerationFailure ? error.status : undefined;
    const code = error instanceof ApiError || error instanceof GenerationFailure ? error.code : undefined;
    const raw = errorMessage(error, FAILED[mode]);
    // The server's error, else the spec's per-mode failure text.
    const message = raw === MESSAGES.generic.internal && status !== undefined && status >= 500 ? FAILED[mode] : raw;
    setGeneration(mode, {
      phase: 'error',
      result: null,
      progress: null,
      error: {
        kind: generationErrorKind({ status, code, message }),
        message,
        status,
        code,
        shortfall: error instanceof ApiError ? ledgerShortfall(error) : undefined,
      },
    });
  } finally {
    if (running.get(mode) === controller) running.delete(mode);
    // Credits were reserved, spent or refunded: show the new balance.
    void queryClient.invalidateQueries({ queryKey: meQueryKey });
  }
}

/** Runs the mode's last request again (Retry / Retry Action). */
export function retryGeneration(mode: StudioMode, queryClient: QueryClient): boolean {
  const request = lastRequests.get(mode);
  if (!request) return false;
  void runGeneration(request, queryClient);
  return true;
}

// A different session (log-out, another user) must not see or keep polling the previous user's work.
useSession.subscribe((state, previous) => {
  if (state.token === previous.token) return;
  for (const controller of running.values()) controller.abort();
  running.clear();
  lastRequests.clear();
  useStudio.getState().resetAll();
});

/** Back to the initial state (Try Different Prompt), stopping any poll of that mode. */
export function resetGeneration(mode: StudioMode): void {
  running.get(mode)?.abort();
  running.delete(mode);
  useStudio.getState().resetGeneration(mode);
}
