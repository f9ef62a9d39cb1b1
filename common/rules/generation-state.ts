// Pure generation rules for the Creation Studio (spec 4, 8 and 9): error kinds, the video poll's
// attempts, progress and time-left figures, and what to do with each poll answer.
// No Node and no DOM imports: shared by web and tests.
import { VIDEO_POLL } from '../api/generation.constants.ts';
import { MESSAGES } from '../messages.ts';

/** Spec 4, "Generation state": retry is offered from `error`. */
export type GenerationPhase = 'initial' | 'loading' | 'success' | 'error';

/** Spec 4, "Generation error kinds". */
export type GenerationErrorKind = 'filtered' | 'credits' | 'generic';

export interface GenerationErrorFacts {
  /** HTTP status of the failed call (0 when there was no answer). */
  status?: number | null;
  /** Machine code from the reply (`content_filtered`, `insufficient_credits`, …). */
  code?: string | null;
  message?: string | null;
}

/** Spec 8: "the error mentions sensitive words, Responsible AI, content policy or violate". */
const FILTERED_TEXT = /sensitive word|responsible ai|content[\s_-]*polic|violat|content[\s_-]*filter/i;
/** Spec 8: "Insufficient balance (HTTP 402 or matching message)". */
const CREDITS_TEXT =
  /insufficient[\s_-]*(credit|balance|fund)|not enough credit|balance is insufficient|credits required|out of credits/i;

/** Content filtered, insufficient balance, or generic; content filtering wins when both match. */
export function generationErrorKind(error: GenerationErrorFacts): GenerationErrorKind {
  const code = error.code?.toLowerCase() ?? '';
  const message = error.message ?? '';
  if (code === 'content_filtered' || FILTERED_TEXT.test(message)) return 'filtered';
  if (error.status === 402 || code === 'insufficient_credits' || CREDITS_TEXT.test(message)) return 'credits';
  return 'generic';
}

// ---- video polling (spec 4 "Video generation", spec 9) ----

/**
 * Polling cadence. The spec polls every 15 s (VIDEO_POLL.intervalMs). Local engines often finish a clip in
 * well under a minute, so during the first minute the client also checks every 2 s. Attempts are still
 * counted in 15 s slots, so the spec's budget (40 attempts = 10 min), its fallback progress (5 + 2 per
 * attempt) and its time-left estimate (15 s × remaining attempts) hold unchanged.
 */
export const VIDEO_QUICK_POLL = { intervalMs: 2_000, windowMs: 60_000 } as const;

/** The attempt (1…maxAttempts, or more once the budget is spent) a poll made `elapsedMs` after the start belongs to. */
export function videoPollAttempt(elapsedMs: number): number {
  return Math.max(1, Math.ceil(Math.max(0, elapsedMs) / VIDEO_POLL.intervalMs));
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The reported progress (0–100) when there is one, else 5 + 2 per attempt, capped at 95. */
export function videoPollProgress(attempt: number, reported?: number | null): number {
  if (isNumber(reported)) return Math.min(100, Math.max(0, Math.round(reported)));
  return Math.min(VIDEO_POLL.progressCap, VIDEO_POLL.initialProgress + VIDEO_POLL.progressStep * Math.max(0, attempt));
}

/** Seconds left: the server's estimate when given, 180 s before the first poll, else 15 s × remaining attempts. */
export function videoPollSecondsLeft(attempt: number, serverEstimate?: number | null): number {
  if (isNumber(serverEstimate) && serverEstimate >= 0) return Math.round(serverEstimate);
  if (attempt <= 0) return VIDEO_POLL.initialEstimateSeconds;
  return Math.max(0, VIDEO_POLL.maxAttempts - attempt) * (VIDEO_POLL.intervalMs / 1000);
}

/** Width of the progress bar in percent: never narrower than 5% so it is visible from the start. */
export function progressBarWidth(progress: number): number {
  if (!isNumber(progress)) return VIDEO_POLL.minBarPercent;
  return Math.min(100, Math.max(VIDEO_POLL.minBarPercent, progress));
}

export type NormalisedTaskStatus = 'processing' | 'completed' | 'failed';

/** processing / completed / failed, also from Runway's PENDING / IN_PROGRESS / SUCCEEDED / FAILED and the task table's queued. */
export function normaliseTaskStatus(status: string | null | undefined): NormalisedTaskStatus {
  switch ((status ?? '').toLowerCase()) {
    case 'completed':
    case 'succeeded':
    case 'success':
    case 'done':
      return 'completed';
    case 'failed':
    case 'failure':
    case 'error':
    case 'cancelled':
    case 'canceled':
      return 'failed';
    default:
      return 'processing';
  }
}

/** What a video status call answered. */
export interface VideoPollReply {
  status: string;
  progress?: number | null;
  estimatedSecondsLeft?: number | null;
  url?: string | null;
  error?: string | null;
  errorCode?: string | null;
}

export type VideoPollOutcome =
  | { ok: true; reply: VideoPollReply }
  /** The call failed: `status` is the HTTP status (0 when there was no answer). */
  | { ok: false; status: number; message?: string | null; code?: string | null };

export type VideoPollDecision =
  | { kind: 'wait'; progress: number; secondsLeft: number }
  | { kind: 'done'; url: string }
  | { kind: 'failed'; message: string; code?: string | null; status?: number };

/**
 * Spec 4: completed with a url ends the generation; failed ends it with the server's error; processing,
 * completed without a url and an HTTP 400 count as an attempt and poll again; any other failed call ends it
 * with 'Polling failed: {status}'; once the 40th attempt has not finished it, the generation times out.
 */
export function decideVideoPoll(attempt: number, outcome: VideoPollOutcome): VideoPollDecision {
  const timedOut = attempt >= VIDEO_POLL.maxAttempts;
  if (!outcome.ok) {
    if (outcome.status === 400) {
      if (timedOut) return { kind: 'failed', message: MESSAGES.generation.videoTimedOut };
      return { kind: 'wait', progress: videoPollProgress(attempt), secondsLeft: videoPollSecondsLeft(attempt) };
    }
    return {
      kind: 'failed',
      message: MESSAGES.generation.pollingFailed(outcome.status > 0 ? outcome.status : (outcome.message ?? 0)),
      code: outcome.code,
      status: outcome.status,
    };
  }
  const { reply } = outcome;
  const status = normaliseTaskStatus(reply.status);
  if (status === 'completed' && reply.url) return { kind: 'done', url: reply.url };
  if (status === 'failed') {
    return { kind: 'failed', message: reply.error || MESSAGES.generation.videoFailed, code: reply.errorCode };
  }
  if (timedOut) return { kind: 'failed', message: MESSAGES.generation.videoTimedOut };
  // Still processing, or completed without a url yet: keep polling.
  const progress = videoPollProgress(attempt, status === 'completed' ? null : reply.progress);
  return { kind: 'wait', progress, secondsLeft: videoPollSecondsLeft(attempt, reply.estimatedSecondsLeft) };
}
