// The film studio's long-running work, outside React so it goes on while the overlay is closed: one Veo video
// per shot (POST /api/ai/generate/video), then its task followed over the page's progress channel for at most
// 10 minutes. At most two shots run at a time; the others wait queued. Every change goes through the spec's
// state machine (common/rules/film.ts) and lands in the persisted store, so a reload resumes following them.
import type { QueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { toast } from 'sonner';
import { MESSAGES } from '../../../common/messages.ts';
import { FILM_MESSAGES, FILM_VIDEO, type FilmSequenceEvent } from '../../../common/rules/film.ts';
import { generationStatusOf } from '../../../common/rules/generation-status.ts';
import { isAbort, stopRunning } from '../../api/abort.ts';
import { assetsQueryKey } from '../../api/assets.ts';
import { meQueryKey } from '../../api/auth.ts';
import { ApiError } from '../../api/client.ts';
import { generateVideo } from '../../api/generation.ts';
import { TaskWatchTimeout, watchTask } from '../../api/tasks.ts';
import { applySequenceEvent, type FilmSequence, sequencesToStart, videoRequestFor } from './model.ts';
import { useFilm } from './store.ts';
import { filmError } from './text.ts';

const running = new Map<string, AbortController>();
let queryClient: QueryClient | undefined;

/** The query client whose balance and asset list are refreshed as videos start and finish. */
export function bindFilmQueryClient(client: QueryClient) {
  queryClient = client;
}

const find = (id: string) => useFilm.getState().sequences.find((s) => s.id === id);
const refreshBalance = () => void queryClient?.invalidateQueries({ queryKey: meQueryKey });

function dispatch(id: string, event: FilmSequenceEvent, extra: Partial<FilmSequence> = {}): FilmSequence | undefined {
  const before = find(id);
  if (!before) return undefined;
  useFilm.getState().updateSequence(id, (sequence) => ({ ...applySequenceEvent(sequence, event), ...extra }));
  const after = find(id);
  if (after && before.status !== after.status) announce(after);
  return after;
}

function announce(sequence: FilmSequence) {
  const shot = i18next.t('film.shotName', { scene: sequence.sceneNumber, shot: sequence.shotIndex });
  if (sequence.status === 'completed') {
    toast.success(i18next.t('film.toast.shotReady', { shot }));
    void queryClient?.invalidateQueries({ queryKey: assetsQueryKey });
  } else if (sequence.status === 'failed') {
    toast.error(`${shot}: ${filmError(sequence.error ?? FILM_MESSAGES.filmSequenceFailed)}`);
    refreshBalance();
  }
}

/** The error a refused generate call shows: the server's own, a safety block, or the spec's fallback. */
function startError(error: unknown): string {
  if (!(error instanceof ApiError)) return FILM_MESSAGES.filmSequenceFailed;
  if (error.code === 'content_filtered') return FILM_MESSAGES.safetyBlocked;
  // A 2xx reply saying success: false with no error of its own.
  if (error.status >= 200 && error.status < 300 && error.message === MESSAGES.generic.internal)
    return FILM_MESSAGES.sequenceFailed;
  if (error.message === MESSAGES.generic.internal || error.isNetwork) return FILM_MESSAGES.filmSequenceFailed;
  return error.message;
}

/** Stops the followed tasks and calls (one sequence's, or all of them for a reset or another user). */
export function stopFilmWork(id?: string) {
  stopRunning(running, id);
}

/** Takes queued shots off the queue (after a refusal that would refuse them all, e.g. too few credits). */
function unqueueAll() {
  const { sequences, setSequences } = useFilm.getState();
  if (sequences.some((s) => s.queued)) setSequences(sequences.map((s) => (s.queued ? { ...s, queued: false } : s)));
}

/** Starts queued shots while fewer than two are generating or processing. */
function pump() {
  for (const id of sequencesToStart(useFilm.getState().sequences)) void start(id);
}

/** Queues shots (ready ones, and failed ones as a retry) and starts what fits. */
export function queueShots(ids: readonly string[]) {
  const wanted = new Set(ids);
  const { sequences, setSequences } = useFilm.getState();
  setSequences(
    sequences.map((s) =>
      wanted.has(s.id) && (s.status === 'ready' || s.status === 'failed') ? { ...s, queued: true } : s,
    ),
  );
  pump();
}

/** Takes one shot off the queue before it starts. */
export function unqueueShot(id: string) {
  useFilm.getState().updateSequence(id, (s) => ({ ...s, queued: false }));
}

async function start(id: string) {
  const sequence = find(id);
  if (!sequence || running.has(id)) return;
  const after = dispatch(id, { type: sequence.status === 'failed' ? 'retry' : 'generate' });
  if (after?.status !== 'generating') return;
  const controller = new AbortController();
  running.set(id, controller);
  try {
    const reply = await generateVideo(videoRequestFor(after, useFilm.getState().production), controller.signal);
    refreshBalance();
    const data = reply.data as { taskId?: string | null; url?: string | null };
    const started = dispatch(id, { type: 'started', taskId: data.taskId ?? null, url: data.url ?? null });
    if (started?.status === 'processing') await follow(id, controller.signal);
  } catch (error) {
    if (isAbort(error)) return;
    if (error instanceof ApiError && error.status === 402) unqueueAll();
    dispatch(id, { type: 'error', error: startError(error) });
  } finally {
    if (running.get(id) === controller) running.delete(id);
    pump();
  }
}

/**
 * Follows one processing sequence until it completes or fails, or FILM_VIDEO.timeoutMs runs out. Progress is shown
 * as the progress channel pushes it. A task that cannot be read (spec 8) is waited out until the time-out ends it.
 */
async function follow(id: string, signal: AbortSignal) {
  const current = find(id);
  if (current?.status !== 'processing' || !current.veoTaskId) return;
  const deadline = Date.now() + FILM_VIDEO.timeoutMs;
  try {
    const task = await watchTask(current.veoTaskId, {
      signal,
      timeoutMs: FILM_VIDEO.timeoutMs,
      onProgress: (view) => dispatch(id, { type: 'progress', progress: generationStatusOf(view).progress }),
    }).catch(async (error: unknown) => {
      if (!(error instanceof ApiError)) throw error;
      await untilDeadline(deadline, signal);
      throw new TaskWatchTimeout();
    });
    const data = generationStatusOf(task);
    const blocked = data.status === 'failed' && data.errorCode === 'content_filtered';
    const next = dispatch(id, {
      type: 'finished',
      status: data.status,
      url: data.url,
      progress: data.progress,
      error: blocked ? FILM_MESSAGES.safetyBlocked : data.error,
    });
    if (next?.status === 'completed' && data.assetId) {
      const { assetId, engine } = data;
      useFilm.getState().updateSequence(id, (s) => ({ ...s, assetId, engine }));
    }
  } catch (error) {
    if (isAbort(error)) throw error;
    dispatch(id, error instanceof TaskWatchTimeout ? { type: 'timed-out' } : { type: 'follow-failed' });
  }
}

/** Resolves at `deadline`, or rejects with an AbortError when `signal` aborts first. */
function untilDeadline(deadline: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('Aborted', 'AbortError'));
      },
      { once: true },
    );
  });
}

/** After loading a saved wizard: follows again the shots still processing, and the queue. */
function resumeFilmWork() {
  for (const sequence of useFilm.getState().sequences) {
    if (sequence.status !== 'processing' || !sequence.veoTaskId || running.has(sequence.id)) continue;
    const controller = new AbortController();
    running.set(sequence.id, controller);
    void follow(sequence.id, controller.signal)
      .catch(() => undefined)
      .finally(() => {
        if (running.get(sequence.id) === controller) running.delete(sequence.id);
        pump();
      });
  }
  pump();
}

/** Loads the signed-in user's wizard (stopping another user's work first) and resumes it. */
export function openFilmFor(userId: string) {
  const state = useFilm.getState();
  if (state.ownerId !== userId) {
    stopFilmWork();
    state.load(userId);
  }
  resumeFilmWork();
}
