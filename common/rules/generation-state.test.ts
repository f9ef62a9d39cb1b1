import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages.ts';
import {
  decideVideoPoll,
  generationErrorKind,
  normaliseTaskStatus,
  progressBarWidth,
  type VideoPollOutcome,
  type VideoPollReply,
  videoPollAttempt,
  videoPollProgress,
  videoPollSecondsLeft,
} from './generation-state.ts';

describe('generationErrorKind', () => {
  it('422 content_filtered is content filtered', () => {
    expect(generationErrorKind({ status: 422, code: 'content_filtered', message: 'Blocked' })).toBe('filtered');
  });

  it.each([
    'Your prompt contains sensitive words',
    'Rejected by Responsible AI practices',
    'This request goes against our content policy',
    'The prompt may violate our guidelines',
    'Prompt violates the usage rules',
    MESSAGES.generation.contentPolicy,
  ])('a message mentioning the filter is content filtered: %s', (message) => {
    expect(generationErrorKind({ status: 500, message })).toBe('filtered');
  });

  it('402 or a balance message is insufficient balance', () => {
    expect(generationErrorKind({ status: 402, message: 'Payment required' })).toBe('credits');
    expect(generationErrorKind({ status: 400, message: MESSAGES.credits.insufficient })).toBe('credits');
    expect(generationErrorKind({ status: 500, message: MESSAGES.generation.videoBalanceText })).toBe('credits');
    expect(generationErrorKind({ code: 'insufficient_credits' })).toBe('credits');
  });

  it('content filtering wins over a 402', () => {
    expect(generationErrorKind({ status: 402, code: 'content_filtered' })).toBe('filtered');
  });

  it('anything else is generic', () => {
    expect(generationErrorKind({ status: 500, message: 'Video generation failed' })).toBe('generic');
    expect(generationErrorKind({ status: 0, message: MESSAGES.verification.network })).toBe('generic');
    expect(generationErrorKind({})).toBe('generic');
    expect(generationErrorKind({ status: 422, code: 'validation' })).toBe('generic');
  });
});

describe('video poll figures', () => {
  it('progress is the reported value, else 5 + 2 per attempt capped at 95', () => {
    expect(videoPollProgress(0)).toBe(5);
    expect(videoPollProgress(1)).toBe(7);
    expect(videoPollProgress(10)).toBe(25);
    expect(videoPollProgress(45)).toBe(95);
    expect(videoPollProgress(40)).toBe(85);
    expect(videoPollProgress(3, 62.4)).toBe(62);
    expect(videoPollProgress(3, 0)).toBe(0);
    expect(videoPollProgress(3, 140)).toBe(100);
    expect(videoPollProgress(3, null)).toBe(11);
    expect(videoPollProgress(3, Number.NaN)).toBe(11);
  });

  it('time left is the server estimate, 180 s at first, else 15 s × remaining attempts', () => {
    expect(videoPollSecondsLeft(0)).toBe(180);
    expect(videoPollSecondsLeft(1)).toBe(39 * 15);
    expect(videoPollSecondsLeft(40)).toBe(0);
    expect(videoPollSecondsLeft(50)).toBe(0);
    expect(videoPollSecondsLeft(5, 12.4)).toBe(12);
    expect(videoPollSecondsLeft(5, 0)).toBe(0);
    expect(videoPollSecondsLeft(5, -1)).toBe(35 * 15);
  });

  it('the bar is never narrower than 5%', () => {
    expect(progressBarWidth(0)).toBe(5);
    expect(progressBarWidth(3)).toBe(5);
    expect(progressBarWidth(42)).toBe(42);
    expect(progressBarWidth(120)).toBe(100);
    expect(progressBarWidth(Number.NaN)).toBe(5);
  });

  it('attempts are 15 s slots', () => {
    expect(videoPollAttempt(0)).toBe(1);
    expect(videoPollAttempt(2_000)).toBe(1);
    expect(videoPollAttempt(15_000)).toBe(1);
    expect(videoPollAttempt(15_001)).toBe(2);
    expect(videoPollAttempt(600_000)).toBe(40);
  });
});

describe('normaliseTaskStatus', () => {
  it('reads every status vocabulary', () => {
    expect(normaliseTaskStatus('processing')).toBe('processing');
    expect(normaliseTaskStatus('queued')).toBe('processing');
    expect(normaliseTaskStatus('IN_PROGRESS')).toBe('processing');
    expect(normaliseTaskStatus('PENDING')).toBe('processing');
    expect(normaliseTaskStatus('completed')).toBe('completed');
    expect(normaliseTaskStatus('SUCCEEDED')).toBe('completed');
    expect(normaliseTaskStatus('failed')).toBe('failed');
    expect(normaliseTaskStatus('FAILED')).toBe('failed');
    expect(normaliseTaskStatus(undefined)).toBe('processing');
  });
});

describe('decideVideoPoll', () => {
  const reply = (fields: Partial<VideoPollReply> = {}): VideoPollOutcome => ({
    ok: true,
    reply: { ...fields, status: fields.status ?? 'processing' },
  });

  it('completed with a url is done', () => {
    expect(decideVideoPoll(3, reply({ status: 'completed', url: '/api/videos/a.mp4' }))).toEqual({
      kind: 'done',
      url: '/api/videos/a.mp4',
    });
  });

  it('completed without a url is polled again', () => {
    expect(decideVideoPoll(3, reply({ status: 'completed', url: null })).kind).toBe('wait');
  });

  it('processing waits with the reported progress and estimate', () => {
    expect(decideVideoPoll(2, reply({ progress: 40, estimatedSecondsLeft: 9 }))).toEqual({
      kind: 'wait',
      progress: 40,
      secondsLeft: 9,
    });
    expect(decideVideoPoll(2, reply({ progress: null, estimatedSecondsLeft: null }))).toEqual({
      kind: 'wait',
      progress: 9,
      secondsLeft: 38 * 15,
    });
  });

  it('failed carries the server error and code, else "Video generation failed"', () => {
    expect(decideVideoPoll(2, reply({ status: 'failed', error: 'Blocked', errorCode: 'content_filtered' }))).toEqual({
      kind: 'failed',
      message: 'Blocked',
      code: 'content_filtered',
    });
    expect(decideVideoPoll(2, reply({ status: 'failed' }))).toMatchObject({
      kind: 'failed',
      message: MESSAGES.generation.videoFailed,
    });
  });

  it('an HTTP 400 counts as an attempt and retries; other errors fail with "Polling failed: {status}"', () => {
    expect(decideVideoPoll(4, { ok: false, status: 400 })).toEqual({
      kind: 'wait',
      progress: 13,
      secondsLeft: 36 * 15,
    });
    expect(decideVideoPoll(4, { ok: false, status: 500 })).toMatchObject({
      kind: 'failed',
      message: 'Polling failed: 500',
      status: 500,
    });
    expect(decideVideoPoll(4, { ok: false, status: 404 })).toMatchObject({ message: 'Polling failed: 404' });
    expect(decideVideoPoll(4, { ok: false, status: 0, message: 'offline' })).toMatchObject({
      message: 'Polling failed: offline',
    });
  });

  it('after 40 attempts without a result it times out', () => {
    expect(decideVideoPoll(39, reply()).kind).toBe('wait');
    expect(decideVideoPoll(40, reply())).toEqual({ kind: 'failed', message: MESSAGES.generation.videoTimedOut });
    expect(decideVideoPoll(40, { ok: false, status: 400 })).toEqual({
      kind: 'failed',
      message: 'Video generation timed out. Please try again.',
    });
    expect(decideVideoPoll(40, reply({ status: 'completed', url: '/v.mp4' })).kind).toBe('done');
  });
});
