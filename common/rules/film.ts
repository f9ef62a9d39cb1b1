// Pure rules for the Film Production Studio (canvas spec 2, 3, 4, 5, 8 and 9): defaults, validation
// messages, the three-act page split, the runtime estimate and the film sequence state machine with
// its time-out. No Node and no DOM imports: shared by web, server and tests.

export const FILM_MESSAGES = {
  conceptRequired: 'Please fill in the film title and description first',
  charactersRequired: 'Please add at least one character first',
  scenesRequired: 'Please create scenes in your screenplay first',
  targetDurationRange: 'Target duration must be between 60 and 180 minutes',
  generationTypeUnsupported: "generationType must be 'screenplay'",
  screenplayFailed: 'FilmAgent screenplay generation failed',
  /** Client fallbacks when the server gives no error of its own (spec 8). */
  screenplayFallback: 'Screenplay generation failed',
  filmSequenceFailed: 'Film sequence generation failed',
  sequenceFailed: 'Sequence generation failed',
  safetyBlocked: 'Content blocked by safety filters',
  timedOut: 'Generation timed out after 10 minutes',
  pollingFailed: 'Polling failed',
  generationFailed: 'Generation failed',
  unexpectedResponse: 'Video generation returned unexpected response structure',
} as const;

/** Spec 9 film defaults and option lists. */
export const FILM_GENRES = [
  'drama',
  'action',
  'comedy',
  'horror',
  'sci-fi',
  'romance',
  'thriller',
  'documentary',
] as const;
export const FILM_TONES = ['dark', 'light', 'dramatic', 'comedic', 'suspenseful', 'inspirational'] as const;
export const FILM_ROLES = ['protagonist', 'antagonist', 'supporting', 'minor', 'narrator'] as const;
export const FILM_AGE_GROUPS = ['18-24', '25-35', '36-45', '46-55', '55+'] as const;
export const FILM_WIZARD_STEPS = ['concept', 'characters', 'screenplay', 'production', 'review'] as const;
export type FilmWizardStep = (typeof FILM_WIZARD_STEPS)[number];

export const FILM_DEFAULTS = {
  genre: 'drama',
  tone: 'dramatic',
  targetDuration: 90,
  minTargetDuration: 60,
  maxTargetDuration: 180,
  role: 'supporting',
  /** Act pages of the reference 120-page film. */
  actPages: [30, 60, 30] as const,
  production: {
    resolution: '4K',
    resolutions: ['1080p', '1440p', '4K', '8K'],
    aspectRatio: '16:9',
    aspectRatios: ['16:9', '21:9', '4:3', '1.85:1', '2.39:1'],
    fps: 24,
    fpsOptions: [24, 30, 60, 120],
    cameraTypes: ['professional', 'documentary', 'handheld', 'steady'],
    lighting: ['natural', 'dramatic', 'soft', 'hard', 'noir'],
    colorGrading: ['natural', 'cinematic', 'vintage', 'noir', 'vibrant'],
  },
  /** Film video: veo-3 with enhancePrompt on. */
  videoModel: 'veo-3',
  enhancePrompt: true,
} as const;

/**
 * Spec 9 film video: a shot unfinished after 10 minutes (the spec's 40 status reads of 15 s) fails as timed out;
 * progress starts at 5 and stays below 95 until the video is there.
 */
export const FILM_VIDEO = {
  timeoutMs: 40 * 15_000,
  initialProgress: 5,
  progressCap: 95,
  initialEstimateSeconds: 180,
} as const;

/** Pages (one page ≈ one minute) of the three acts in the 30/60/30 proportion, summing to the target. */
export function actPageSplit(targetMinutes: number): [number, number, number] {
  const total = Math.max(0, Math.round(targetMinutes));
  const first = Math.round(total / 4);
  const second = Math.round(total / 2);
  return [first, second, total - first - second];
}

/** Spec 5: what must be filled before the screenplay is generated; null when ready. */
export function screenplayBlocker(
  concept: { title?: string | null; description?: string | null },
  characters: readonly unknown[],
): string | null {
  if (!concept.title?.trim() || !concept.description?.trim()) return FILM_MESSAGES.conceptRequired;
  if (characters.length === 0) return FILM_MESSAGES.charactersRequired;
  return null;
}

/** Spec 5: sequence generation needs screenplay scenes; null when ready. */
export function sequenceBlocker(
  screenplay: { acts?: readonly { scenes?: readonly unknown[] }[] } | null,
): string | null {
  const scenes = screenplay?.acts?.reduce((n, act) => n + (act.scenes?.length ?? 0), 0) ?? 0;
  return scenes > 0 ? null : FILM_MESSAGES.scenesRequired;
}

/** Spec 4 wizard: generating the screenplay moves to screenplay; generating sequences moves to review. */
export function stepAfter(action: 'screenplay-generated' | 'sequences-generated'): FilmWizardStep {
  return action === 'screenplay-generated' ? 'screenplay' : 'review';
}

// ---- film sequence state machine (spec 4) ----

export type FilmSequenceStatus = 'ready' | 'generating' | 'processing' | 'completed' | 'failed';

export interface FilmSequenceState {
  status: FilmSequenceStatus;
  progress: number;
  taskId: string | null;
  url: string | null;
  error: string | null;
}

export const initialFilmSequence = (): FilmSequenceState => ({
  status: 'ready',
  progress: 0,
  taskId: null,
  url: null,
  error: null,
});

export type FilmSequenceEvent =
  | { type: 'generate' }
  | { type: 'retry' }
  /** The generate call's answer: a url (straight to completed), a task id (processing) or neither. */
  | { type: 'started'; url?: string | null; taskId?: string | null }
  /** The video task's final state, as a status reply reads it. */
  | {
      type: 'finished';
      status?: string | null;
      url?: string | null;
      progress?: number | null;
      error?: string | null;
      message?: string | null;
    }
  /** Progress pushed while the task runs (the progress channel). */
  | { type: 'progress'; progress: number }
  /** FILM_VIDEO.timeoutMs passed without the task finishing (or being readable). */
  | { type: 'timed-out' }
  | { type: 'error'; error?: string | null }
  /** Following the task broke off unexpectedly. */
  | { type: 'follow-failed' };

const fail = (state: FilmSequenceState, error: string): FilmSequenceState => ({ ...state, status: 'failed', error });

/** The film sequence state machine: ready → generating → processing → completed | failed (retryable). */
export function filmSequenceReducer(state: FilmSequenceState, event: FilmSequenceEvent): FilmSequenceState {
  switch (event.type) {
    case 'generate':
      if (state.status !== 'ready') return state;
      return { ...initialFilmSequence(), status: 'generating' };
    case 'retry':
      if (state.status !== 'failed') return state;
      return { ...initialFilmSequence(), status: 'generating' };
    case 'started':
      if (state.status !== 'generating') return state;
      if (event.url) return { ...state, status: 'completed', url: event.url, progress: 100 };
      if (event.taskId)
        return { ...state, status: 'processing', taskId: event.taskId, progress: FILM_VIDEO.initialProgress };
      return fail(state, FILM_MESSAGES.unexpectedResponse);
    case 'finished': {
      if (state.status !== 'processing') return state;
      const status = (event.status ?? '').toLowerCase();
      const text = `${event.message ?? ''} ${event.error ?? ''} ${event.status ?? ''}`.toLowerCase();
      if (text.includes('no video was produced')) return fail(state, FILM_MESSAGES.safetyBlocked);
      if (status === 'failed' || status === 'error') return fail(state, event.error || FILM_MESSAGES.generationFailed);
      if (event.url && (status === 'completed' || status === '' || status === 'succeeded'))
        return { ...state, status: 'completed', url: event.url, progress: 100 };
      // Finished without a video: it can only end as the time-out would.
      return fail(state, FILM_MESSAGES.timedOut);
    }
    case 'progress':
      if (state.status !== 'processing' || !Number.isFinite(event.progress)) return state;
      return { ...state, progress: Math.min(FILM_VIDEO.progressCap, Math.max(0, event.progress)) };
    case 'timed-out':
      return state.status === 'processing' ? fail(state, FILM_MESSAGES.timedOut) : state;
    case 'error':
      if (state.status !== 'generating' && state.status !== 'processing') return state;
      return fail(state, event.error || FILM_MESSAGES.generationFailed);
    case 'follow-failed':
      return state.status === 'processing' ? fail(state, FILM_MESSAGES.pollingFailed) : state;
  }
}

/** Seconds left by the spec's estimate: 180 s scaled by the progress still to go. */
export function estimatedTimeRemaining(progress: number): number {
  const left = Math.max(0, Math.min(100, 100 - progress)) / 100;
  return Math.round(FILM_VIDEO.initialEstimateSeconds * left);
}
