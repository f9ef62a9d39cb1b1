import { describe, expect, it } from 'vitest';
import {
  actPageSplit,
  estimatedTimeRemaining,
  FILM_DEFAULTS,
  FILM_GENRES,
  FILM_MESSAGES,
  FILM_TONES,
  FILM_VIDEO,
  FILM_WIZARD_STEPS,
  type FilmSequenceState,
  type FilmSequenceStatus,
  initialFilmSequence,
  screenplayBlocker,
  sequenceBlocker,
  filmSequenceReducer as step,
  stepAfter,
} from './film.ts';

const processing = (): FilmSequenceState =>
  step(step(initialFilmSequence(), { type: 'generate' }), { type: 'started', taskId: 't1' });

describe('film defaults and page split', () => {
  it('has the spec defaults', () => {
    expect(FILM_DEFAULTS.genre).toBe('drama');
    expect(FILM_DEFAULTS.tone).toBe('dramatic');
    expect(FILM_DEFAULTS.targetDuration).toBe(90);
    expect(FILM_DEFAULTS.role).toBe('supporting');
    expect(FILM_DEFAULTS.actPages).toEqual([30, 60, 30]);
    expect(FILM_GENRES).toContain(FILM_DEFAULTS.genre);
    expect(FILM_TONES).toContain(FILM_DEFAULTS.tone);
    expect(FILM_WIZARD_STEPS).toEqual(['concept', 'characters', 'screenplay', 'production', 'review']);
    expect(FILM_VIDEO).toMatchObject({ timeoutMs: 600_000, initialProgress: 5, progressCap: 95 });
  });

  it('splits the acts 30/60/30 scaled to the target', () => {
    expect(actPageSplit(120)).toEqual([30, 60, 30]);
    expect(actPageSplit(90)).toEqual([23, 45, 22]);
    expect(actPageSplit(180)).toEqual([45, 90, 45]);
    expect(actPageSplit(60)).toEqual([15, 30, 15]);
    for (const t of [60, 75, 90, 101, 137, 180]) expect(actPageSplit(t).reduce((sum, pages) => sum + pages, 0)).toBe(t);
  });
});

describe('film validation', () => {
  it('needs title, description and a character before the screenplay', () => {
    expect(screenplayBlocker({ title: '', description: 'x' }, [{}])).toBe(FILM_MESSAGES.conceptRequired);
    expect(screenplayBlocker({ title: 'x', description: ' ' }, [{}])).toBe(FILM_MESSAGES.conceptRequired);
    expect(screenplayBlocker({ title: 'x', description: 'y' }, [])).toBe(FILM_MESSAGES.charactersRequired);
    expect(screenplayBlocker({ title: 'x', description: 'y' }, [{}])).toBeNull();
  });

  it('needs scenes before sequences', () => {
    expect(sequenceBlocker(null)).toBe('Please create scenes in your screenplay first');
    expect(sequenceBlocker({ acts: [{ scenes: [] }] })).toBe(FILM_MESSAGES.scenesRequired);
    expect(sequenceBlocker({ acts: [{ scenes: [{}] }] })).toBeNull();
  });

  it('moves the wizard', () => {
    expect(stepAfter('screenplay-generated')).toBe('screenplay');
    expect(stepAfter('sequences-generated')).toBe('review');
  });
});

describe('film sequence state machine', () => {
  it('goes ready → generating → processing (progress 5) → completed', () => {
    const s = processing();
    const status: FilmSequenceStatus = 'processing';
    expect(s).toMatchObject({ status, taskId: 't1', progress: 5 });
    const done = step(s, { type: 'finished', status: 'completed', url: 'https://x/v.mp4' });
    expect(done).toMatchObject({ status: 'completed', url: 'https://x/v.mp4', progress: 100 });
  });

  it('completes at once when the first answer has a url', () => {
    const s = step(step(initialFilmSequence(), { type: 'generate' }), { type: 'started', url: 'u' });
    expect(s.status).toBe('completed');
  });

  it('fails with neither task nor url', () => {
    const s = step(step(initialFilmSequence(), { type: 'generate' }), { type: 'started' });
    expect(s).toMatchObject({ status: 'failed', error: FILM_MESSAGES.unexpectedResponse });
  });

  it('shows pushed progress, capped at 95, and only while processing', () => {
    const s = step(processing(), { type: 'progress', progress: 42 });
    expect(s).toMatchObject({ status: 'processing', progress: 42 });
    expect(step(s, { type: 'progress', progress: 99 }).progress).toBe(95);
    const done = step(s, { type: 'finished', status: 'completed', url: 'https://x/v.mp4' });
    expect(step(done, { type: 'progress', progress: 10 })).toEqual(done);
  });

  it('blocks on "no video was produced"', () => {
    const s = step(processing(), {
      type: 'finished',
      status: 'processing',
      message: 'Done, but no video was produced.',
    });
    expect(s).toMatchObject({ status: 'failed', error: 'Content blocked by safety filters' });
  });

  it('fails on failed or error status with the server error or the fallback', () => {
    expect(step(processing(), { type: 'finished', status: 'failed', error: 'boom' }).error).toBe('boom');
    expect(step(processing(), { type: 'finished', status: 'error' }).error).toBe('Generation failed');
    expect(step(processing(), { type: 'follow-failed' }).error).toBe('Polling failed');
  });

  it('times out, also when the task finished without a video, and can be retried', () => {
    expect(step(processing(), { type: 'finished', status: 'completed' })).toMatchObject({
      status: 'failed',
      error: 'Generation timed out after 10 minutes',
    });
    const s = step(processing(), { type: 'timed-out' });
    expect(s).toMatchObject({ status: 'failed', error: 'Generation timed out after 10 minutes' });
    expect(step(s, { type: 'generate' })).toBe(s);
    const retried = step(s, { type: 'retry' });
    expect(retried).toMatchObject({ status: 'generating', progress: 0, error: null });
  });

  it('estimates the time left from 180 s', () => {
    expect(estimatedTimeRemaining(5)).toBe(171);
    expect(estimatedTimeRemaining(100)).toBe(0);
  });
});
