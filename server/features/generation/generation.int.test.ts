import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset } from '../../../common/api/assets.ts';
import { LOCAL_PREVIEW_PRICES } from '../../../common/api/generation.constants.ts';
import type { GeneratedMedia, GenerationStatus, TaskAccepted } from '../../../common/api/generation.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { creditTransactions, tasks } from '../../db/schema/index.ts';
import { CONTENT_POLICY } from '../../engines/policy.ts';
import { probeMedia } from '../../platform/media/probe.ts';
import {
  authHeader,
  createTestUser,
  creditsOf,
  eventually,
  makeTestClip,
  solidPng,
  storeUpload,
  type TestUser,
} from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { STATUS_PATHS } from './status.ts';

let t: TestApp;
let user: TestUser;
let other: TestUser;
let broke: TestUser;
let workDir: string;
let png: Buffer;
let mp4: Buffer;

/** A term the local content policy refuses. */
const FILTERED_TERM = CONTENT_POLICY.find((rule) => !rule.requiresAlso)!.terms[0];

function post(url: string, payload: object, token?: string) {
  return t.app.inject({ method: 'POST', url, payload, headers: token ? authHeader(token) : {} });
}
function get(url: string, token?: string) {
  return t.app.inject({ method: 'GET', url, headers: token ? authHeader(token) : {} });
}

async function probeBytes(bytes: Buffer, ext: string) {
  const file = path.join(workDir, `${randomBytes(6).toString('hex')}.${ext}`);
  await writeFile(file, bytes);
  return probeMedia(t.config, file);
}

async function ledgerOf(userId: string) {
  return t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.userId, userId));
}

async function tasksOf(userId: string) {
  return t.ctx.db.select().from(tasks).where(eq(tasks.userId, userId));
}

/** Polls a POST status call until the task is finished; returns every reply seen. */
async function pollStatus(statusPath: string, taskId: string, token = user.token): Promise<GenerationStatus[]> {
  const seen: GenerationStatus[] = [];
  await eventually(
    async () => {
      const res = await post(statusPath, { taskId }, token);
      expect(res.statusCode).toBe(200);
      const data = (res.json() as { data: GenerationStatus }).data;
      seen.push(data);
      return data.status !== 'processing';
    },
    { timeoutMs: 60_000, intervalMs: 40, what: `task ${taskId} via ${statusPath}` },
  );
  return seen;
}

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db, { credits: 2000 });
  other = await createTestUser(t.ctx.db, { credits: 2000 });
  broke = await createTestUser(t.ctx.db, { credits: 0 });
  workDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-generation-test-'));
  png = await solidPng(320, 180, '#cc6633');
  mp4 = await makeTestClip(t.config, workDir, { seconds: 2, width: 320, height: 180, fps: 12 });
});
afterAll(async () => {
  await t?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('POST /api/ai/generate/image', () => {
  it('answers decodable images at the requested size, saved as assets with thumbnails, and charges per image', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await post(
      '/api/ai/generate/image',
      { prompt: 'a lighthouse on a cliff at sunset, warm orange sky', size: '512x288', variations: 2, seed: 7 },
      user.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { data: GeneratedMedia[]; creditsUsed: number };
    expect(body.creditsUsed).toBe(2 * LOCAL_PREVIEW_PRICES.image);
    expect(body.data).toHaveLength(2);
    for (const item of body.data) {
      expect(item).toMatchObject({ type: 'image', width: 512, height: 288 });
      expect(item.metadata).toMatchObject({ engine: 'local', source: 'generation' });
      const file = await get(item.url, user.token);
      expect(file.statusCode).toBe(200);
      const meta = await sharp(file.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([512, 288]);
      const thumb = await get(item.thumbnail_url!, user.token);
      expect(thumb.statusCode).toBe(200);
      expect((await sharp(thumb.rawPayload).metadata()).format).toBe('webp');
      expect((await get(item.url, other.token)).statusCode).toBe(404);
    }
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - 2 * LOCAL_PREVIEW_PRICES.image);
    const asset = (await get(`/api/ai/assets/${body.data[0].id}`, user.token)).json() as { data: Asset };
    expect(asset.data).toMatchObject({
      type: 'image',
      status: 'completed',
      model: 'nanobana',
      service: 'nanobana',
      credits_used: LOCAL_PREVIEW_PRICES.image,
      prompt: 'a lighthouse on a cliff at sunset, warm orange sky',
    });
    expect(asset.data.thumbnail_url).toBe(body.data[0].thumbnail_url);
    const deduction = (await ledgerOf(user.id)).find(
      (row) => row.type === 'deduction' && row.generationType === 'image',
    );
    expect(deduction).toMatchObject({ amount: 2 * LOCAL_PREVIEW_PRICES.image, source: 'generation' });
    expect(deduction?.taskId).toBe(asset.data.metadata.taskId);
  });

  it("makes the spec's default of 2 variations when the request names no count, and one when it asks for one", async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const unnamed = await post(
      '/api/ai/generate/image',
      { prompt: 'a red kite over dunes', size: '256x256' },
      user.token,
    );
    expect(unnamed.statusCode, unnamed.body).toBe(200);
    const two = unnamed.json() as { data: GeneratedMedia[]; creditsUsed: number };
    expect(two.data).toHaveLength(2);
    expect(two.creditsUsed).toBe(2 * LOCAL_PREVIEW_PRICES.image);
    const one = await post(
      '/api/ai/generate/image',
      { prompt: 'a red kite over dunes', size: '256x256', numberOfImages: 1 },
      user.token,
    );
    expect((one.json() as { data: GeneratedMedia[] }).data).toHaveLength(1);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - 3 * LOCAL_PREVIEW_PRICES.image);
  });

  it('autoUpscale brings each image to 4K by its long side and charges the upscale too', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await post(
      '/api/ai/generate/image',
      { prompt: 'a harbour at blue hour with boats', size: '512x288', numberOfImages: 1, autoUpscale: true },
      user.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { data: GeneratedMedia[]; creditsUsed: number };
    expect(body.creditsUsed).toBe(LOCAL_PREVIEW_PRICES.image + LOCAL_PREVIEW_PRICES.imageUpscale);
    expect(body.data[0]).toMatchObject({ width: 3840, height: 2160 });
    expect(body.data[0].metadata).toMatchObject({ autoUpscaled: true, generatedWidth: 512, generatedHeight: 288 });
    const file = await get(body.data[0].url, user.token);
    expect((await sharp(file.rawPayload).metadata()).width).toBe(3840);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(
      before - LOCAL_PREVIEW_PRICES.image - LOCAL_PREVIEW_PRICES.imageUpscale,
    );
  });

  it('takes reference images as data URIs and own media URLs; another user’s media is 404 with nothing spent', async () => {
    const mine = await storeUpload(t.ctx, user.id, png, 'image/png', 'png');
    const ok = await post(
      '/api/ai/generate/image',
      {
        prompt: 'a portrait in the colours of the reference',
        size: '256x256',
        model: 'seedream4',
        variations: 1,
        referenceImages: [`data:image/png;base64,${png.toString('base64')}`],
        characterImages: [mine.url],
      },
      user.token,
    );
    expect(ok.statusCode).toBe(200);
    expect((ok.json() as { data: GeneratedMedia[] }).data[0].metadata).toMatchObject({ referenceCount: 2 });

    const theirs = await storeUpload(t.ctx, other.id, png, 'image/png', 'png');
    const before = await creditsOf(t.ctx.db, user.id);
    const refused = await post(
      '/api/ai/generate/image',
      { prompt: 'a portrait', size: '256x256', referenceImages: [theirs.url] },
      user.token,
    );
    expect(refused.statusCode).toBe(404);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
    const privateUrl = await post(
      '/api/ai/generate/image',
      { prompt: 'a portrait', size: '256x256', referenceImages: ['http://10.0.0.7/a.png'] },
      user.token,
    );
    expect(privateUrl.statusCode).toBe(400);
    expect(privateUrl.json()).toMatchObject({ error: MESSAGES.remote.privateAddress });
  });

  it('checks the per-model image limit before spending anything', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const tasksBefore = (await tasksOf(user.id)).length;
    const refs = Array.from({ length: 3 }, (_, i) => `https://cdn.example.org/${i}.png`);
    const res = await post(
      '/api/ai/generate/image',
      {
        prompt: 'a group photo',
        model: 'runway',
        referenceImages: refs,
        characterImages: ['https://cdn.example.org/c.png'],
      },
      user.token,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      error: 'Image limit exceeded: runway supports maximum 3 images (you have 4). Please remove 1 image(s).',
    });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
    expect((await tasksOf(user.id)).length).toBe(tasksBefore);
  });

  it('answers 402 with required and balance when credits are short, spending nothing', async () => {
    const res = await post('/api/ai/generate/image', { prompt: 'a quiet lake', size: '256x256' }, broke.token);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({
      success: false,
      error: MESSAGES.credits.insufficient,
      code: 'insufficient_credits',
      // No count named: the spec's two variations are what it would cost.
      details: { required: 2 * LOCAL_PREVIEW_PRICES.image, balance: 0 },
    });
    expect(await creditsOf(t.ctx.db, broke.id)).toBe(0);
    expect(await ledgerOf(broke.id)).toHaveLength(0);
    expect(await tasksOf(broke.id)).toHaveLength(0);
  });

  it('refuses a filtered prompt with 422 content_filtered and spends nothing', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const ledgerBefore = (await ledgerOf(user.id)).length;
    const res = await post(
      '/api/ai/generate/image',
      { prompt: `a ${FILTERED_TERM} scene`, size: '256x256' },
      user.token,
    );
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ success: false, code: 'content_filtered' });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
    expect((await ledgerOf(user.id)).length).toBe(ledgerBefore);
  });

  it('refuses sizes beyond the model and unknown models', async () => {
    const big = await post(
      '/api/ai/generate/image',
      { prompt: 'x', aspectRatio: '16:9', sampleImageSize: '4K' },
      user.token,
    );
    expect(big.statusCode).toBe(400);
    const unknown = await post('/api/ai/generate/image', { prompt: 'x', model: 'no-such-model' }, user.token);
    expect(unknown.statusCode).toBe(400);
  });

  it('needs a session', async () => {
    expect((await post('/api/ai/generate/image', { prompt: 'x' })).statusCode).toBe(401);
    expect((await post('/api/ai/generate/video', { prompt: 'x' })).statusCode).toBe(401);
    expect((await post('/api/ai/generate/audio', { prompt: 'x' })).statusCode).toBe(401);
    expect((await post('/api/ai/image-agent', { prompt: 'x' })).statusCode).toBe(401);
    for (const p of [STATUS_PATHS.veo, STATUS_PATHS.video, STATUS_PATHS.seedream, STATUS_PATHS.ai]) {
      expect((await post(p, { taskId: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(401);
    }
    expect((await get(STATUS_PATHS.runway('00000000-0000-4000-8000-000000000000'))).statusCode).toBe(401);
  });
});

describe('POST /api/ai/generate/video and the status calls', () => {
  let videoTask: string;

  it('accepts a Seedance video, reports rising progress and completes with an MP4 of the requested duration', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await post(
      '/api/ai/generate/video',
      { prompt: 'waves rolling onto a beach at dawn', model: 'seedance', duration: 2, resolution: '360p', fps: 12 },
      user.token,
    );
    expect(res.statusCode).toBe(200);
    const accepted = (res.json() as { data: TaskAccepted }).data;
    expect(accepted).toMatchObject({
      status: 'processing',
      creditsReserved: LOCAL_PREVIEW_PRICES.videoDream,
      statusUrl: STATUS_PATHS.seedream,
      // The first reply names the engine making it, before any output says so.
      engine: 'local',
    });
    expect(accepted.id).toBe(accepted.taskId);
    videoTask = accepted.taskId;
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - LOCAL_PREVIEW_PRICES.videoDream);

    const seen = await pollStatus(STATUS_PATHS.seedream, videoTask);
    const done = seen.at(-1)!;
    expect(done).toMatchObject({ status: 'completed', progress: 100, error: null });
    const progress = seen.map((s) => s.progress);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]);
    expect(new Set(progress).size).toBeGreaterThanOrEqual(2);

    const file = await get(done.url!, user.token);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('video/mp4');
    const probe = await probeBytes(file.rawPayload, 'mp4');
    expect(probe.video?.codec).toBe('h264');
    expect(probe.durationMs! / 1000).toBeGreaterThan(1.5);
    expect(probe.durationMs! / 1000).toBeLessThan(2.6);
    expect(probe.video?.height).toBe(360);

    const asset = (await get(`/api/ai/assets/${done.assetId}`, user.token)).json() as { data: Asset };
    expect(asset.data).toMatchObject({
      type: 'video',
      model: 'seedance',
      credits_used: LOCAL_PREVIEW_PRICES.videoDream,
      url: done.url,
    });
    expect(asset.data.metadata).toMatchObject({ engine: 'local', mode: 'text-to-video', taskId: videoTask });
    expect(asset.data.thumbnail_url).not.toBeNull();
    expect((await get(asset.data.thumbnail_url!, user.token)).statusCode).toBe(200);
  });

  it('answers the same task in every vocabulary', async () => {
    for (const p of [STATUS_PATHS.veo, STATUS_PATHS.video, STATUS_PATHS.seedream]) {
      const res = await post(p, { taskId: videoTask }, user.token);
      expect(res.json()).toMatchObject({ success: true, data: { status: 'completed', taskStatus: 'completed' } });
    }
    const ai = (await post(STATUS_PATHS.ai, { taskId: videoTask }, user.token)).json() as {
      status: string;
      url: string;
      videoUrl: string;
      data: GenerationStatus;
    };
    expect(ai.status).toBe('completed');
    expect(ai.videoUrl).toBe(ai.data.url);
    expect(ai.url).toBe(ai.data.url);
    const runway = await get(STATUS_PATHS.runway(videoTask), user.token);
    expect(runway.statusCode).toBe(200);
    expect(runway.json()).toMatchObject({ id: videoTask, status: 'SUCCEEDED', progress: 1, output: [ai.url] });
  });

  it('answers 404 for another user’s task, an unknown id and a malformed id', async () => {
    for (const p of [STATUS_PATHS.veo, STATUS_PATHS.video, STATUS_PATHS.seedream, STATUS_PATHS.ai]) {
      expect((await post(p, { taskId: videoTask }, other.token)).statusCode).toBe(404);
      expect((await post(p, { taskId: '00000000-0000-4000-8000-000000000000' }, user.token)).statusCode).toBe(404);
      expect((await post(p, { taskId: 'nope' }, user.token)).statusCode).toBe(404);
    }
    expect((await get(STATUS_PATHS.runway(videoTask), other.token)).statusCode).toBe(404);
    expect((await get(STATUS_PATHS.runway('nope'), user.token)).statusCode).toBe(404);
  });

  it('prices Veo with audio as pro (local preview price while the local engine serves it) and polls via the Veo status call', async () => {
    const res = await post(
      '/api/ai/generate/video',
      {
        prompt: 'a city street in the rain with neon reflections',
        model: 'veo-3.0-fast-generate-preview',
        duration: 2,
        resolution: '360p',
        fps: 12,
        inputImage: `data:image/png;base64,${png.toString('base64')}`,
      },
      user.token,
    );
    expect(res.statusCode).toBe(200);
    const accepted = (res.json() as { data: TaskAccepted }).data;
    expect(accepted).toMatchObject({ creditsReserved: LOCAL_PREVIEW_PRICES.videoPro, statusUrl: STATUS_PATHS.veo });
    const done = (await pollStatus(STATUS_PATHS.veo, accepted.taskId)).at(-1)!;
    expect(done.status).toBe('completed');
    const probe = await probeBytes((await get(done.url!, user.token)).rawPayload, 'mp4');
    expect(probe.audio).not.toBeNull();
    const asset = (await get(`/api/ai/assets/${done.assetId}`, user.token)).json() as { data: Asset };
    expect(asset.data.metadata).toMatchObject({ mode: 'image-to-video', hasAudio: true });
  });

  it('runs FilmmakerPro (first and last frame) and ActStudio, polled in Runway’s vocabulary', async () => {
    const first = await storeUpload(t.ctx, user.id, png, 'image/png', 'png');
    const last = await solidPng(320, 180, '#2244cc');
    const film = await post(
      '/api/ai/generate/video',
      {
        prompt: 'the scene turns from dusk to night',
        model: 'veo-3.1-generate-preview',
        duration: 2,
        resolution: '360p',
        fps: 12,
        generateAudio: false,
        referenceImages: [first.url],
        characterImages: [`data:image/png;base64,${last.toString('base64')}`, first.url],
      },
      user.token,
    );
    expect(film.statusCode).toBe(200);
    const filmTask = (film.json() as { data: TaskAccepted }).data;
    expect(filmTask.creditsReserved).toBe(LOCAL_PREVIEW_PRICES.videoStandard);

    const video = await storeUpload(t.ctx, user.id, mp4, 'video/mp4', 'mp4');
    const act = await post(
      '/api/ai/generate/video',
      {
        prompt: 'the character repeats the performance',
        model: 'runway-act_two',
        duration: 2,
        resolution: '360p',
        videoUri: video.url,
        characterImages: [first.url],
      },
      user.token,
    );
    expect(act.statusCode).toBe(200);
    const actTask = (act.json() as { data: TaskAccepted }).data;
    expect(actTask).toMatchObject({
      creditsReserved: LOCAL_PREVIEW_PRICES.videoRunway,
      statusUrl: STATUS_PATHS.runway(actTask.taskId),
    });

    for (const [task, mode] of [
      [filmTask, 'first-last-frame'],
      [actTask, 'act-studio'],
    ] as const) {
      const final = await eventually(
        async () => {
          const res = await get(STATUS_PATHS.runway(task.taskId), user.token);
          const body = res.json() as { status: string; output: string[]; progress: number };
          expect(body.progress).toBeGreaterThanOrEqual(0);
          expect(body.progress).toBeLessThanOrEqual(1);
          return body.status === 'SUCCEEDED' || body.status === 'FAILED' ? body : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 100, what: `${mode} video` },
      );
      expect(final.status).toBe('SUCCEEDED');
      const ai = (await post(STATUS_PATHS.ai, { taskId: task.taskId }, user.token)).json() as {
        data: GenerationStatus;
      };
      const asset = (await get(`/api/ai/assets/${ai.data.assetId}`, user.token)).json() as { data: Asset };
      expect(asset.data.metadata.mode).toBe(mode);
      expect(final.output[0]).toBe(asset.data.url);
    }
  });

  it('MagicModify needs a video (400, nothing spent)', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await post(
      '/api/ai/generate/video',
      { prompt: 'make it snow', model: 'runway-gen4_aleph' },
      user.token,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: MESSAGES.generation.videoInputRequired('MagicModify') });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
  });

  it('refunds a task that fails (a corrupt input video) and reports it in each vocabulary', async () => {
    const corrupt = Buffer.concat([
      Buffer.from([0, 0, 0, 0x18]),
      Buffer.from('ftypmp42'),
      Buffer.alloc(12),
      randomBytes(4096),
    ]);
    const bad = await storeUpload(t.ctx, user.id, corrupt, 'video/mp4', 'mp4');
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await post(
      '/api/ai/generate/video',
      { prompt: 'make it snow', model: 'runway-gen4_aleph', duration: 2, resolution: '360p', videoUri: bad.url },
      user.token,
    );
    expect(res.statusCode).toBe(200);
    const accepted = (res.json() as { data: TaskAccepted }).data;
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - LOCAL_PREVIEW_PRICES.videoRunway);
    const final = await eventually(
      async () => {
        const body = (await get(STATUS_PATHS.runway(accepted.taskId), user.token)).json() as {
          status: string;
          failure: string | null;
          failureCode: string | null;
        };
        return body.status === 'FAILED' || body.status === 'SUCCEEDED' ? body : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 50, what: 'the failed task' },
    );
    expect(final).toMatchObject({
      status: 'FAILED',
      failureCode: 'invalid_input',
      failure: MESSAGES.inputs.unreadable,
    });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
    const rows = (await ledgerOf(user.id)).filter((r) => r.taskId === accepted.taskId);
    expect(rows.map((r) => [r.type, r.amount, r.source]).sort()).toEqual([
      ['addition', LOCAL_PREVIEW_PRICES.videoRunway, 'refund'],
      ['deduction', LOCAL_PREVIEW_PRICES.videoRunway, 'generation'],
    ]);
    const status = (await post(STATUS_PATHS.video, { taskId: accepted.taskId }, user.token)).json() as {
      data: GenerationStatus;
    };
    expect(status.data).toMatchObject({ status: 'failed', errorCode: 'invalid_input', url: null });
    const [row] = await t.ctx.db
      .select()
      .from(tasks)
      .where(and(eq(tasks.id, accepted.taskId), eq(tasks.userId, user.id)));
    expect(row.attempts).toBe(1);
  });
});

describe('POST /api/ai/generate/audio', () => {
  it('answers a finished MP3 of the requested duration and charges for music', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await post(
      '/api/ai/generate/audio',
      { prompt: 'calm ambient pads for a sunrise', type: 'music', duration: 15, genre: 'Ambient', mood: 'calm' },
      user.token,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: GeneratedMedia; creditsUsed: number };
    expect(body.creditsUsed).toBe(LOCAL_PREVIEW_PRICES.music);
    expect(body.data).toMatchObject({ type: 'audio' });
    const file = await get(body.data.url, user.token);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('audio/mpeg');
    const probe = await probeBytes(file.rawPayload, 'mp3');
    expect(probe.audio?.codec).toBe('mp3');
    expect(Math.abs(probe.durationMs! / 1000 - 15)).toBeLessThan(1);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - LOCAL_PREVIEW_PRICES.music);
    const asset = (await get(`/api/ai/assets/${body.data.id}`, user.token)).json() as { data: Asset };
    expect(asset.data).toMatchObject({
      type: 'audio',
      model: 'suno-v3.5',
      service: 'suno',
      credits_used: LOCAL_PREVIEW_PRICES.music,
    });
  });

  it('speaks a voice-over for the voice price', async () => {
    const res = await post('/api/ai/generate/audio', { prompt: 'Welcome to the studio.', type: 'voice' }, user.token);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: GeneratedMedia; creditsUsed: number };
    expect(body.creditsUsed).toBe(LOCAL_PREVIEW_PRICES.voice);
    expect((await get(body.data.url, user.token)).statusCode).toBe(200);
  });

  it('refuses durations outside the list', async () => {
    const res = await post('/api/ai/generate/audio', { prompt: 'x', duration: 17 }, user.token);
    expect(res.statusCode).toBe(400);
  });
});

describe('POST /api/ai/image-agent', () => {
  it('enhances a prompt for free', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await post(
      '/api/ai/image-agent',
      { prompt: 'a cat on a windowsill', style: 'watercolor', context: 'children’s book' },
      user.token,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json() as {
      success: boolean;
      enhancedPrompt: string;
      analysis: { engine: string; wordCount: number };
    };
    expect(body.success).toBe(true);
    expect(body.enhancedPrompt.length).toBeGreaterThan('a cat on a windowsill'.length);
    expect(body.analysis.engine).toBe('local');
    expect(body.analysis.wordCount).toBeGreaterThan(4);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
  });

  it('refuses a filtered prompt', async () => {
    const res = await post('/api/ai/image-agent', { prompt: `a ${FILTERED_TERM} poster` }, user.token);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'content_filtered' });
  });
});
