import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages.ts';
import {
  aiStatusOf,
  GENERATE_KINDS,
  generationStatusOf,
  taskFailure,
} from '../../../common/rules/generation-status.ts';
import type { TaskRow } from '../../platform/jobs/types.ts';
import { runwayTaskOf, STATUS_PATHS, statusPathFor, taskAcceptedOf } from './status.ts';

const created = new Date('2025-01-02T03:04:05.000Z');

function task(overrides: Partial<TaskRow> = {}): TaskRow {
  return {
    id: '11111111-2222-4333-8444-555555555555',
    userId: '99999999-2222-4333-8444-555555555555',
    kind: GENERATE_KINDS.video,
    status: 'queued',
    progress: 0,
    estimatedSecondsLeft: 20,
    input: {},
    result: null,
    error: null,
    creditsReserved: 101,
    attempts: 0,
    workerId: null,
    requestId: null,
    startedAt: null,
    finishedAt: null,
    createdAt: created,
    updatedAt: created,
    ...overrides,
  };
}

const video = {
  id: 'a1',
  url: '/api/videos/generated/2025/01/x.mp4',
  thumbnail_url: '/api/images/thumbnail/2025/01/x.webp',
  type: 'video',
  metadata: { engine: 'local', model: 'veo-3.0-generate-001' },
};

describe('generationStatusOf', () => {
  it('reads queued and processing as processing with the reported progress', () => {
    expect(generationStatusOf(task())).toMatchObject({
      status: 'processing',
      progress: 0,
      url: null,
      taskStatus: 'queued',
    });
    expect(generationStatusOf(task({ status: 'processing', progress: 42, estimatedSecondsLeft: 7 }))).toMatchObject({
      status: 'processing',
      progress: 42,
      estimatedSecondsLeft: 7,
      error: null,
      errorCode: null,
    });
  });

  it('gives the first output of a completed task', () => {
    const s = generationStatusOf(task({ status: 'completed', progress: 100, result: { assets: [video] } }));
    expect(s).toMatchObject({
      status: 'completed',
      progress: 100,
      url: video.url,
      thumbnail_url: video.thumbnail_url,
      assetId: 'a1',
      engine: 'local',
      estimatedSecondsLeft: 0,
    });
  });

  it('keeps the codes clients act on and turns anything else into generation_failed', () => {
    const filtered = task({ status: 'failed', error: { code: 'content_filtered', message: 'blocked' } });
    expect(generationStatusOf(filtered)).toMatchObject({
      status: 'failed',
      error: 'blocked',
      errorCode: 'content_filtered',
    });
    const crashed = task({ status: 'failed', error: { code: 'task_failed', message: MESSAGES.generic.internal } });
    expect(taskFailure(crashed)).toEqual({ code: 'generation_failed', message: MESSAGES.generation.videoFailed });
    expect(taskFailure({ kind: GENERATE_KINDS.image, error: null })).toEqual({
      code: 'generation_failed',
      message: MESSAGES.generation.imageFailed,
    });
    expect(taskFailure({ kind: GENERATE_KINDS.audio, error: { code: 'x', message: 'y' } }).message).toBe(
      MESSAGES.generation.audioFailed,
    );
  });
});

describe('aiStatusOf', () => {
  it('adds top-level status, url, videoUrl and error', () => {
    const done = aiStatusOf(task({ status: 'completed', result: { assets: [video] } }));
    expect(done).toMatchObject({
      success: true,
      status: 'completed',
      url: video.url,
      videoUrl: video.url,
      error: null,
    });
    const image = aiStatusOf(
      task({ kind: GENERATE_KINDS.image, status: 'completed', result: { assets: [{ ...video, type: 'image' }] } }),
    );
    expect(image.videoUrl).toBeNull();
    expect(image.url).toBe(video.url);
    const failed = aiStatusOf(task({ status: 'failed', error: { code: 'content_filtered', message: 'no' } }));
    expect(failed).toMatchObject({ status: 'failed', url: null, error: 'no' });
  });
});

describe('runwayTaskOf', () => {
  it('speaks PENDING, IN_PROGRESS, SUCCEEDED and FAILED with progress 0–1', () => {
    expect(runwayTaskOf(task())).toMatchObject({ status: 'PENDING', progress: 0, output: [], failure: null });
    expect(runwayTaskOf(task({ status: 'processing', progress: 40, attempts: 1 }))).toMatchObject({
      status: 'IN_PROGRESS',
      progress: 0.4,
    });
    // queued again for a retry: still in progress
    expect(runwayTaskOf(task({ status: 'queued', attempts: 1 })).status).toBe('IN_PROGRESS');
    expect(runwayTaskOf(task({ status: 'completed', result: { assets: [video] } }))).toEqual({
      id: '11111111-2222-4333-8444-555555555555',
      status: 'SUCCEEDED',
      progress: 1,
      output: [video.url],
      failure: null,
      failureCode: null,
      createdAt: created.toISOString(),
    });
    expect(runwayTaskOf(task({ status: 'failed', error: { code: 'content_filtered', message: 'no' } }))).toMatchObject({
      status: 'FAILED',
      failure: 'no',
      failureCode: 'content_filtered',
      output: [],
    });
  });
});

describe('statusPathFor / taskAcceptedOf', () => {
  it('points each video model at its vendor vocabulary', () => {
    const id = 't1';
    expect(statusPathFor(GENERATE_KINDS.video, 'veo-3.0-generate-001', id)).toBe(STATUS_PATHS.veo);
    expect(statusPathFor(GENERATE_KINDS.video, 'seedance', id)).toBe(STATUS_PATHS.seedream);
    expect(statusPathFor(GENERATE_KINDS.video, 'runway-gen4_aleph', id)).toBe('/api/proxy/runway/tasks/t1');
    expect(statusPathFor(GENERATE_KINDS.video, 'something-else', id)).toBe(STATUS_PATHS.video);
    expect(statusPathFor(GENERATE_KINDS.image, 'nanobana', id)).toBe(STATUS_PATHS.ai);
  });
  it('answers a running task with its id, progress, estimate, reserved credits and the engine making it', () => {
    expect(taskAcceptedOf(task({ progress: 12 }), { model: 'veo-3.0-generate-001', engine: 'local' })).toEqual({
      engine: 'local',
      taskId: '11111111-2222-4333-8444-555555555555',
      id: '11111111-2222-4333-8444-555555555555',
      status: 'processing',
      progress: 12,
      estimatedSecondsLeft: 20,
      creditsReserved: 101,
      statusUrl: STATUS_PATHS.veo,
    });
  });
});
