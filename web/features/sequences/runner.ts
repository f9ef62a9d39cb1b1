// The sequence panel's long-running work, outside React so it survives panels closing: one video per item
// (POST generate-video-sequence, then its task followed over the page's progress channel), the Movie Agent
// analysis and the master compile. Every outcome lands in the store and is announced with a toast.
import type { QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { GenerateVideoSequenceBody, GenerateVideoSequenceReply } from '../../../common/api/sequences.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { aiStatusOf, generationStatusOf } from '../../../common/rules/generation-status.ts';
import {
  playableItems,
  SEQUENCE_LIMITS,
  SEQUENCE_TIMEOUT_MS,
  SEQUENCE_VIDEO_MODES,
  sequenceOutcome,
  sequenceStartFrom,
  truncatePrompt,
} from '../../../common/rules/sequences.ts';
import { isAbort, stopRunning } from '../../api/abort.ts';
import { assetsQueryKey } from '../../api/assets.ts';
import { ApiError, errorMessage } from '../../api/client.ts';
import { watchTask } from '../../api/tasks.ts';
import { compileMasterVideo, generateSequenceVideo, runMovieAgent } from './api.ts';
import { type SequenceItem, useSequences } from './store.ts';
import { sequenceError, sequenceText } from './text.ts';

const running = new Map<string, AbortController>();

/** apiRequest's fallback texts: the server gave no error of its own. */
const isFallback = (message: string) =>
  message === MESSAGES.generic.internal || message === MESSAGES.generic.rateLimited;

const patch = (id: string, change: Partial<SequenceItem>) => useSequences.getState().patchItem(id, change);
const exists = (id: string) => useSequences.getState().items.some((item) => item.id === id);

function fail(id: string, error: string) {
  if (!exists(id)) return;
  patch(id, { videoStatus: 'failed', error, progress: 0 });
  toast.error(sequenceError(error));
}

/** Stops the poll of a removed item (or of everything when the sequence is cleared). */
export function stopSequenceWork(id?: string) {
  stopRunning(running, id);
}

/**
 * The item's video is ready. The server saves every finished sequence video as a campaign asset and names it
 * in the status reply (`data.assetId`); without one the save failed (logged on the server) and the flow goes on.
 */
function complete(
  id: string,
  video: { videoUrl: string; posterUrl: string | null },
  saved: boolean | null,
  queryClient?: QueryClient,
) {
  if (!exists(id)) return;
  patch(id, { videoStatus: 'completed', ...video, progress: 100, error: undefined });
  if (saved === null) return;
  if (saved) {
    toast.success(sequenceText('videoSaved'));
    void queryClient?.invalidateQueries({ queryKey: assetsQueryKey });
  } else toast.error(sequenceText('videoSaveFailed'));
}

/**
 * Follows the task until it finishes, fails or SEQUENCE_TIMEOUT_MS runs out (spec 8, 9), read as
 * POST /api/ai/status answers it; a task that cannot be read, or completed without a URL, ends as the time-out.
 */
async function follow(
  taskId: string,
  signal: AbortSignal,
  onProgress: (progress: number) => void,
): Promise<{ videoUrl: string; assetId: string | null; posterUrl: string | null }> {
  const task = await watchTask(taskId, {
    signal,
    timeoutMs: SEQUENCE_TIMEOUT_MS,
    onProgress: (view) => onProgress(Math.min(95, Math.round(generationStatusOf(view).progress))),
  }).catch((error: unknown) => {
    if (isAbort(error)) throw error;
    return null;
  });
  const reply = task ? aiStatusOf(task) : null;
  const outcome = sequenceOutcome(reply);
  if (outcome.kind === 'failed') throw new Error(outcome.error);
  return {
    videoUrl: outcome.videoUrl,
    assetId: reply?.data.assetId ?? null,
    posterUrl: reply?.data.thumbnail_url ?? null,
  };
}

/** Generate Video for one item in the current mode (disabled while it is generating). */
export async function generateItemVideo(id: string, queryClient?: QueryClient) {
  const { items, videoMode } = useSequences.getState();
  const item = items.find((entry) => entry.id === id);
  if (!item || item.videoStatus === 'generating') return;
  stopSequenceWork(id);
  const controller = new AbortController();
  running.set(id, controller);
  const mode = SEQUENCE_VIDEO_MODES[videoMode];
  patch(id, {
    videoStatus: 'generating',
    progress: 5,
    error: undefined,
    videoUrl: undefined,
    posterUrl: null,
    taskId: undefined,
  });

  try {
    let reply: GenerateVideoSequenceReply;
    try {
      reply = await generateSequenceVideo(
        {
          prompt: item.moviePrompt || item.prompt,
          imageUrl: item.imageUrl,
          itemId: item.id,
          model: mode.model as GenerateVideoSequenceBody['model'],
          aspectRatio: item.sourceAspectRatio ?? '16:9',
        },
        controller.signal,
      );
    } catch (error) {
      if (isAbort(error)) throw error;
      const status = error instanceof ApiError ? error.status : 0;
      const message = error instanceof Error ? error.message : '';
      if (videoMode === 'dream') {
        if (status >= 400 && isFallback(message)) throw new Error(sequenceText('dreamApiError', { status }));
        throw new Error(message && !isFallback(message) ? message : sequenceText('dreamFailed'));
      }
      throw new Error(message || sequenceText('generationFailed'));
    }
    const start = sequenceStartFrom(reply);
    if (start.videoStatus === 'failed') throw new Error(start.error);
    if (start.videoStatus === 'completed') {
      complete(id, { videoUrl: start.videoUrl, posterUrl: null }, null, queryClient);
      return;
    }
    patch(id, { taskId: start.taskId });
    const done = await follow(start.taskId, controller.signal, (progress) => {
      if (exists(id)) patch(id, { progress });
    });
    complete(id, { videoUrl: done.videoUrl, posterUrl: done.posterUrl }, done.assetId !== null, queryClient);
  } catch (error) {
    if (isAbort(error)) return;
    fail(id, errorMessage(error, sequenceText('generationFailed')));
  } finally {
    if (running.get(id) === controller) running.delete(id);
  }
}

/** Analyze with Movie Agent: cinematic prompts for every item from the script (spec 5, 8). */
export async function analyzeWithMovieAgent() {
  const { movieScript, items, setAnalyzing, setAnalysis, patchItem } = useSequences.getState();
  if (!movieScript.trim()) {
    toast.error(sequenceText('movieScriptRequired'));
    return;
  }
  setAnalyzing(true);
  const signal = AbortSignal.timeout(SEQUENCE_LIMITS.movieAgentTimeoutMs);
  try {
    const reply = await runMovieAgent(
      {
        movieScript,
        // The agent reads an image URL only to check it is the user's own; inline data would only weigh the call.
        images: items.map((item) => ({
          id: item.id,
          imageUrl: item.imageUrl.startsWith('data:') ? undefined : item.imageUrl,
          prompt: item.prompt,
        })),
        projectId: 'multi-image-canvas',
      },
      signal,
    );
    const prompts = reply.videoPrompts ?? [];
    if (!Array.isArray(prompts)) throw new Error(sequenceText('movieAgentEnhanceFailed'));
    let enhanced = 0;
    const current = useSequences.getState().items;
    const byId = prompts.some((entry) => current.some((item) => item.id === entry.id));
    current.forEach((item, index) => {
      const match = byId ? prompts.find((entry) => entry.id === item.id) : prompts[index];
      if (match?.prompt) {
        patchItem(item.id, { moviePrompt: match.prompt });
        enhanced++;
      }
    });
    setAnalysis({
      contentType: reply.contentType ?? '',
      sequenceCount: reply.sequenceCount ?? prompts.length,
      analysis: reply.analysis ?? null,
    });
    toast.success(sequenceText('movieAgentEnhanced', { n: enhanced }));
  } catch (error) {
    const timedOut =
      (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')) ||
      (error instanceof ApiError && (error.status === 504 || error.status === 408));
    if (timedOut) toast.error(sequenceText('movieAgentTimedOut'));
    else if (error instanceof ApiError && error.status >= 200 && error.status < 300)
      toast.error(isFallback(error.message) ? sequenceText('movieAgentEnhanceFailed') : sequenceError(error.message));
    else if (error instanceof ApiError && error.status >= 400)
      toast.error(
        error.status < 500 && !isFallback(error.message)
          ? sequenceError(error.message)
          : sequenceText('movieAgentRequestFailed'),
      );
    else if (error instanceof Error && error.message === sequenceText('movieAgentEnhanceFailed'))
      toast.error(error.message);
    else toast.error(sequenceText('movieAgentAnalysisFailed'));
  } finally {
    useSequences.getState().setAnalyzing(false);
  }
}

/** Export Master Video: compiles the completed items in timeline order (spec 5, 8). */
export async function exportMasterVideo(queryClient?: QueryClient) {
  const { items, movieScript, setMaster } = useSequences.getState();
  const ready = playableItems(items);
  if (ready.length === 0) {
    toast.error(sequenceText('noVideosToCompile'));
    return;
  }
  setMaster({ isGenerating: true });
  try {
    const reply = await compileMasterVideo({
      sequenceItems: ready.map((item) => ({
        id: item.id,
        prompt: truncatePrompt(item.moviePrompt || item.prompt, SEQUENCE_LIMITS.masterPromptChars),
        videoUrl: item.videoUrl,
        startTime: item.startTime,
        duration: item.duration,
      })),
      movieScript,
    });
    let masterVideoUrl = reply.masterVideoUrl;
    if (!masterVideoUrl && reply.status === 'processing' && reply.taskId) {
      // The compile outlived the request: follow its task like a sequence video.
      const done = await follow(reply.taskId, new AbortController().signal, () => undefined);
      masterVideoUrl = done.videoUrl;
    }
    if (!masterVideoUrl) throw new ApiError(200, sequenceText('generationFailed'));
    setMaster({ masterVideoUrl, duration: reply.duration ?? null, videoCount: reply.videoCount ?? ready.length });
    void queryClient?.invalidateQueries({ queryKey: assetsQueryKey });
  } catch (error) {
    if (error instanceof ApiError && error.isNetwork) toast.error(sequenceText('compileNetworkError'));
    else if (error instanceof ApiError && error.status >= 400 && isFallback(error.message))
      toast.error(sequenceText('compileApiError', { status: error.status, statusText: error.message }));
    else if (error instanceof ApiError)
      toast.error(sequenceText('compilationFailed', { error: sequenceError(error.message) }));
    else if (error instanceof Error && error.message)
      toast.error(sequenceText('compilationFailed', { error: sequenceError(error.message) }));
    else toast.error(sequenceText('compileNetworkError'));
  } finally {
    useSequences.getState().setMaster({ isGenerating: false });
  }
}
