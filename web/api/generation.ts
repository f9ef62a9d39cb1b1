// Calls of the Creation Studio's generation (spec 7, "Generation and assets") and how a generation task is
// followed to its end. Types come from common/api.
import type { z } from 'zod';
import { VIDEO_POLL } from '../../common/api/generation.constants.ts';
import type {
  GenerateAudioBody,
  GenerateImageBody,
  GenerateVideoBody,
  GenerationStatus,
  generateAudioReply,
  generateImageReply,
  generateVideoReply,
  TaskAccepted,
} from '../../common/api/generation.ts';
import { MESSAGES } from '../../common/messages.ts';
import {
  decideVideoPoll,
  type VideoPollDecision,
  type VideoPollOutcome,
  videoPollAttempt,
} from '../../common/rules/generation-state.ts';
import { generationStatusOf } from '../../common/rules/generation-status.ts';
import { isAbort } from './abort.ts';
import { ApiError, apiRequest } from './client.ts';
import { TaskWatchTimeout, watchTask } from './tasks.ts';

export type { TaskAccepted };
export type GenerateImageReply = z.infer<typeof generateImageReply>;
export type GenerateVideoReply = z.infer<typeof generateVideoReply>;
export type GenerateAudioReply = z.infer<typeof generateAudioReply>;

export function generateImage(body: GenerateImageBody, signal?: AbortSignal) {
  return apiRequest<GenerateImageReply>('/api/ai/generate/image', { method: 'POST', body, signal });
}

export function generateVideo(body: GenerateVideoBody, signal?: AbortSignal) {
  return apiRequest<GenerateVideoReply>('/api/ai/generate/video', { method: 'POST', body, signal });
}

export function generateAudio(body: GenerateAudioBody, signal?: AbortSignal) {
  return apiRequest<GenerateAudioReply>('/api/ai/generate/audio', { method: 'POST', body, signal });
}

/** A reply's `data` is a running task (a task id and no url yet: poll it) rather than finished media. */
export function isTaskAccepted(data: unknown): data is TaskAccepted {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return false;
  const reply = data as { taskId?: unknown; url?: unknown };
  return typeof reply.taskId === 'string' && !(typeof reply.url === 'string' && reply.url);
}

type FinalDecision = Exclude<VideoPollDecision, { kind: 'wait' }>;

/**
 * Follows a generation task to its end over the page's progress channel, read in the status calls' vocabulary
 * (spec 4 "Video generation", 9 "Video polling"): `onProgress` gets each running state as the spec's poll would
 * show it; the spec's budget (40 attempts of 15 s) times it out. Ends with `done` (and the task's final status)
 * or `failed` with the text the user sees; a task that cannot be read fails with 'Polling failed: {status}'.
 */
export async function followGeneration(
  taskId: string,
  { signal, onProgress }: { signal: AbortSignal; onProgress: (progress: number, secondsLeft: number) => void },
): Promise<{ decision: FinalDecision; data: GenerationStatus | null }> {
  const started = Date.now();
  const decide = (outcome: VideoPollOutcome) => decideVideoPoll(videoPollAttempt(Date.now() - started), outcome);
  let outcome: VideoPollOutcome;
  let data: GenerationStatus | null = null;
  try {
    const final = await watchTask(taskId, {
      signal,
      timeoutMs: VIDEO_POLL.maxAttempts * VIDEO_POLL.intervalMs,
      onProgress: (task) => {
        const decision = decide({ ok: true, reply: generationStatusOf(task) });
        if (decision.kind === 'wait') onProgress(decision.progress, decision.secondsLeft);
      },
    });
    data = generationStatusOf(final);
    outcome = { ok: true, reply: data };
  } catch (error) {
    if (isAbort(error)) throw error;
    if (error instanceof TaskWatchTimeout)
      return { decision: { kind: 'failed', message: MESSAGES.generation.videoTimedOut }, data };
    outcome = {
      ok: false,
      status: error instanceof ApiError ? error.status : 0,
      message: error instanceof Error ? error.message : null,
      code: error instanceof ApiError ? error.code : undefined,
    };
  }
  const decision = decide(outcome);
  // Finished but not done (completed without a url) can only end as the spec's time-out would.
  return {
    decision: decision.kind === 'wait' ? { kind: 'failed', message: MESSAGES.generation.videoTimedOut } : decision,
    data,
  };
}

/** What an image or video task made: its url and the engine that made it. */
export interface GeneratedOutput {
  url: string;
  engine: string | null;
}

/**
 * The output of an image or video task, followed over the progress channel for at most `timeoutMs`; rejects with
 * an Error whose message the user sees (the task's own error, else `failedMessage`, also on the time-out), or with
 * the AbortError or ApiError of the watch.
 */
export async function generatedOutput(
  taskId: string,
  { signal, timeoutMs, failedMessage }: { signal?: AbortSignal; timeoutMs: number; failedMessage: string },
): Promise<GeneratedOutput> {
  const task = await watchTask(taskId, { signal, timeoutMs }).catch((error: unknown) => {
    if (error instanceof TaskWatchTimeout) throw new Error(failedMessage);
    throw error;
  });
  const status = generationStatusOf(task);
  if (status.status === 'completed' && status.url) return { url: status.url, engine: status.engine };
  throw new Error(status.error || failedMessage);
}

/**
 * The output a generate call answered as already finished (its url, and the engine from its first media's
 * metadata); null when its task is still running and must be followed with `generatedOutput`.
 */
export function finishedOutput(data: {
  url: string | null;
  media: ReadonlyArray<{ metadata: Record<string, unknown> }>;
}): GeneratedOutput | null {
  if (!data.url) return null;
  const engine = data.media[0]?.metadata.engine;
  return { url: data.url, engine: typeof engine === 'string' ? engine : null };
}
