import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_PREVIEW_PRICES } from '../../../common/api/generation.constants.ts';
import type { CompileMasterReply, GenerateVideoSequenceReply, MovieAgentReply } from '../../../common/api/sequences.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { SEQUENCE_MESSAGES } from '../../../common/rules/sequences.ts';
import type { AppContext } from '../../context.ts';
import { assets, mediaObjects, tasks } from '../../db/schema/index.ts';
import type { TextEngine } from '../../engines/types.ts';
import { storedKeyOf } from '../../platform/media/inputs.ts';
import { type MediaFacts, probeMedia } from '../../platform/media/probe.ts';
import { ffprobePath, runTool } from '../../platform/media/tools.ts';
import {
  authHeader,
  createTestUser,
  creditsOf,
  eventually,
  makeLavfiMedia,
  makeTestClip,
  solidPng,
  storeUpload,
  type TestUser,
} from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { runMovieAgent } from './service.ts';

let t: TestApp;
let user: TestUser;
let other: TestUser;
let broke: TestUser;
let workDir: string;
let imageUrl: string;
let theirImageUrl: string;

function post(url: string, payload: object, token?: string) {
  return t.app.inject({ method: 'POST', url, payload, headers: token ? authHeader(token) : {} });
}

async function tasksOf(userId: string) {
  return t.ctx.db.select().from(tasks).where(eq(tasks.userId, userId));
}

/** Polls POST /api/ai/status until the task is finished; returns the last reply. */
async function finished(taskId: string, token = user.token) {
  return eventually(
    async () => {
      const res = await post('/api/ai/status', { taskId }, token);
      expect(res.statusCode).toBe(200);
      const body = res.json() as { status: string; videoUrl: string | null; error: string | null };
      return body.status === 'processing' ? undefined : body;
    },
    { timeoutMs: 90_000, intervalMs: 100, what: `task ${taskId}` },
  );
}

interface StreamInfo {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
}

async function streamsOf(bytes: Buffer): Promise<StreamInfo[]> {
  const file = path.join(workDir, `${randomBytes(6).toString('hex')}.mp4`);
  await writeFile(file, bytes);
  const { stdout } = await runTool(ffprobePath(t.config), ['-v', 'error', '-show_streams', '-of', 'json', file]);
  return (JSON.parse(stdout.toString('utf8')) as { streams: StreamInfo[] }).streams;
}

async function durationOf(bytes: Buffer): Promise<number> {
  const file = path.join(workDir, `${randomBytes(6).toString('hex')}.mp4`);
  await writeFile(file, bytes);
  return ((await probeMedia(t.config, file)).durationMs ?? 0) / 1000;
}

async function download(url: string, token = user.token): Promise<Buffer> {
  const res = await t.app.inject({ method: 'GET', url, headers: authHeader(token) });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

/** A test-pattern clip with a 440 Hz tone (H.264 + AAC). */
function clipWithAudio(seconds: number, width: number, height: number, fps: number): Promise<Buffer> {
  return makeLavfiMedia(
    t.config,
    path.join(workDir, `av-${randomBytes(4).toString('hex')}.mp4`),
    `testsrc=duration=${seconds}:size=${width}x${height}:rate=${fps}[out0];sine=frequency=440:duration=${seconds}[out1]`,
    [
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-g',
      String(fps),
      '-c:a',
      'aac',
      '-ar',
      '48000',
      '-ac',
      '2',
    ],
  );
}

async function storeVideo(owner: TestUser, bytes: Buffer): Promise<string> {
  return (await storeUpload(t.ctx, owner.id, bytes, 'video/mp4', 'mp4')).url;
}

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db, { credits: 1000 });
  other = await createTestUser(t.ctx.db, { credits: 1000 });
  broke = await createTestUser(t.ctx.db, { credits: 0 });
  workDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-seq-test-'));
  const png = await solidPng(320, 180, '#336699');
  imageUrl = (await storeUpload(t.ctx, user.id, png, 'image/png', 'png')).url;
  theirImageUrl = (await storeUpload(t.ctx, other.id, png, 'image/png', 'png')).url;
});

afterAll(async () => {
  await t?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('POST /api/ai/generate-video-sequence', () => {
  const body = () => ({ prompt: 'a lighthouse at dusk', imageUrl, itemId: 'item-1', aspectRatio: '16:9' });

  it('needs a signed-in user', async () => {
    expect((await post('/api/ai/generate-video-sequence', body())).statusCode).toBe(401);
  });

  it('validates the body', async () => {
    const noImage = await post('/api/ai/generate-video-sequence', { prompt: 'x' }, user.token);
    expect(noImage.statusCode).toBe(400);
    const badModel = await post('/api/ai/generate-video-sequence', { ...body(), model: 'sora' }, user.token);
    expect(badModel.statusCode).toBe(400);
    expect(badModel.json().error).toBe('Model must be veo-3.0-generate-001 or seedance');
    const noPrompt = await post('/api/ai/generate-video-sequence', { ...body(), prompt: '  ' }, user.token);
    expect(noPrompt.json().error).toBe('Prompt is required');
  });

  it('refuses another user’s image with nothing spent', async () => {
    const before = await creditsOf(t.ctx.db, other.id);
    const res = await post('/api/ai/generate-video-sequence', { ...body(), imageUrl: imageUrl }, other.token);
    expect(res.statusCode).toBe(404);
    expect(await creditsOf(t.ctx.db, other.id)).toBe(before);
    expect(await tasksOf(other.id)).toHaveLength(0);
  });

  it('answers 402 without credits and spends nothing', async () => {
    const png = await solidPng(64, 64, '#ff0000');
    const own = (await storeUpload(t.ctx, broke.id, png, 'image/png', 'png')).url;
    const res = await post('/api/ai/generate-video-sequence', { ...body(), imageUrl: own }, broke.token);
    expect(res.statusCode).toBe(402);
    expect(await creditsOf(t.ctx.db, broke.id)).toBe(0);
    expect(await tasksOf(broke.id)).toHaveLength(0);
  });

  it('pro: Veo image-to-video with audio for the pro price (the local preview one here), saved with the item id', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await post('/api/ai/generate-video-sequence', body(), user.token);
    expect(res.statusCode).toBe(200);
    const reply = res.json() as GenerateVideoSequenceReply;
    expect(reply.success).toBe(true);
    expect(reply.data).toMatchObject({
      mode: 'pro',
      model: 'veo-3.0-generate-001',
      itemId: 'item-1',
      creditsReserved: LOCAL_PREVIEW_PRICES.videoPro,
    });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - LOCAL_PREVIEW_PRICES.videoPro);
    const done = await finished(reply.data.taskId);
    expect(done.status).toBe('completed');
    expect(done.videoUrl).toBeTruthy();
    const [asset] = await t.ctx.db.select().from(assets).where(eq(assets.taskId, reply.data.taskId));
    expect(asset?.metadata).toMatchObject({ sequenceItemId: 'item-1', mode: 'image-to-video', hasAudio: true });
    const streams = await streamsOf(await download(done.videoUrl ?? ''));
    expect(streams.some((s) => s.codec_type === 'audio')).toBe(true);
  });

  it('dream: seedance, 12 s, for the dream price (the local preview one here)', { timeout: 90_000 }, async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await post(
      '/api/ai/generate-video-sequence',
      { ...body(), model: 'seedance', itemId: 'item-2' },
      user.token,
    );
    expect(res.statusCode).toBe(200);
    const reply = res.json() as GenerateVideoSequenceReply;
    expect(reply.data).toMatchObject({
      mode: 'dream',
      model: 'seedance',
      durationSeconds: 12,
      creditsReserved: LOCAL_PREVIEW_PRICES.videoDream,
    });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - LOCAL_PREVIEW_PRICES.videoDream);
    const done = await finished(reply.data.taskId);
    expect(done.status).toBe('completed');
    const [asset] = await t.ctx.db.select().from(assets).where(eq(assets.taskId, reply.data.taskId));
    expect(asset?.metadata).toMatchObject({ sequenceItemId: 'item-2', quality: 'high' });
    expect(Number(asset?.metadata.duration)).toBeCloseTo(12, 0);
  });
});

describe('POST /api/ai/generate/video (dream-mode form)', () => {
  // Encodes a real 12 s video: on a busy 2-core machine that alone can take most of the default 30 s.
  it('accepts the canvas dream form and records the item id', { timeout: 90_000 }, async () => {
    const res = await post(
      '/api/ai/generate/video',
      {
        prompt: 'waves on a beach',
        model: 'seedance',
        duration: 12,
        quality: 'high',
        aspectRatio: '16:9',
        characterImages: [],
        referenceImages: [imageUrl],
        itemId: 'item-dream',
      },
      user.token,
    );
    expect(res.statusCode).toBe(200);
    const taskId = (res.json() as { data: { taskId: string } }).data.taskId;
    const done = await finished(taskId);
    expect(done.status).toBe('completed');
    const [asset] = await t.ctx.db.select().from(assets).where(eq(assets.taskId, taskId));
    expect(asset?.metadata.sequenceItemId).toBe('item-dream');
    expect(asset?.metadata.sequence_item_id).toBe('item-dream');
  });
});

describe('POST /api/ai/movie-agent', () => {
  const script = `INT. LIGHTHOUSE - NIGHT
The keeper climbs the spiral stairs. A storm hammers the glass. He lights the lamp.

EXT. HARBOUR - DAWN
A small boat drifts home through the fog. The crew waves at the tower.`;

  it('needs a signed-in user', async () => {
    expect((await post('/api/ai/movie-agent', { movieScript: script })).statusCode).toBe(401);
  });

  it('refuses an empty script with a clear message', async () => {
    const res = await post('/api/ai/movie-agent', { movieScript: '   ', images: [] }, user.token);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(SEQUENCE_MESSAGES.movieScriptRequired);
    const missing = await post('/api/ai/movie-agent', { images: [] }, user.token);
    expect(missing.statusCode).toBe(400);
  });

  it('writes one prompt per image, deterministic and free', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const images = [
      { id: 'a', imageUrl, prompt: 'Manually pinned: a.png' },
      { id: 'b', imageUrl, prompt: 'stormy sea' },
      { id: 'c', imageUrl, prompt: '' },
    ];
    const res = await post('/api/ai/movie-agent', { movieScript: script, images, projectId: 'p1' }, user.token);
    expect(res.statusCode).toBe(200);
    const reply = res.json() as MovieAgentReply;
    expect(reply).toMatchObject({ success: true, contentType: 'screenplay', sequenceCount: 3 });
    expect(reply.videoPrompts.map((p) => p.id)).toEqual(['a', 'b', 'c']);
    for (const p of reply.videoPrompts) {
      expect(p.prompt.length).toBeGreaterThan(10);
      expect(p.duration).toBeGreaterThanOrEqual(1);
      expect(p.duration).toBeLessThanOrEqual(8);
      expect(p.shotType).toBeTruthy();
      expect(p.cameraMovement).toBeTruthy();
    }
    expect(reply.videoPrompts[1]?.prompt).toContain('stormy sea');
    expect(reply.analysis.sceneCount).toBe(2);
    expect(reply.analysis.scenes[0]?.heading).toBe('INT. LIGHTHOUSE - NIGHT');
    const again = (await post('/api/ai/movie-agent', { movieScript: script, images }, user.token)).json();
    expect(again.videoPrompts).toEqual(reply.videoPrompts);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
  });

  it('without images writes one prompt per shot', async () => {
    const res = await post(
      '/api/ai/movie-agent',
      { movieScript: 'A girl finds a lost dog. They walk home in the rain.' },
      user.token,
    );
    const reply = res.json() as MovieAgentReply;
    expect(reply.contentType).toBe('narrative');
    expect(reply.sequenceCount).toBe(reply.videoPrompts.length);
    expect(reply.sequenceCount).toBeGreaterThanOrEqual(1);
  });

  it('stops after its time limit with the spec message', async () => {
    const hanging: TextEngine = {
      name: 'hanging',
      complete: () => new Promise(() => undefined),
      stream: async function* () {},
    };
    const engines: AppContext['engines'] = Object.create(t.ctx.engines);
    engines.text = () => ({ model: 'hanging', engine: hanging, capabilities: undefined });
    const ctx: AppContext = { ...t.ctx, engines };
    await expect(
      runMovieAgent(ctx, user.id, { movieScript: 'A walk.', images: [] }, { timeoutMs: 50 }),
    ).rejects.toMatchObject({
      status: 504,
      message: 'Movie Agent timed out. Try with fewer sequences or a shorter script.',
    });
  });

  it('refuses another user’s image', async () => {
    const res = await post(
      '/api/ai/movie-agent',
      { movieScript: script, images: [{ id: 'x', imageUrl: theirImageUrl, prompt: '' }] },
      user.token,
    );
    expect(res.statusCode).toBe(404);
  });
});

describe('POST /api/ai/compile-master-video', () => {
  it('needs a signed-in user', async () => {
    expect((await post('/api/ai/compile-master-video', { sequenceItems: [] })).statusCode).toBe(401);
  });

  it('needs at least one completed video', async () => {
    const res = await post(
      '/api/ai/compile-master-video',
      { sequenceItems: [{ id: 'a', prompt: 'x', videoUrl: null, startTime: 0, duration: 5 }] },
      user.token,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('No completed videos available to compile.');
    const bad = await post('/api/ai/compile-master-video', { sequenceItems: 'nope' }, user.token);
    expect(bad.statusCode).toBe(400);
  });

  it('only compiles the user’s own videos, with nothing spent', async () => {
    const theirs = await storeVideo(
      other,
      await makeTestClip(t.config, workDir, { seconds: 1, width: 160, height: 90, fps: 10 }),
    );
    const before = await creditsOf(t.ctx.db, user.id);
    for (const videoUrl of [theirs, 'https://example.com/clip.mp4', imageUrl]) {
      const res = await post(
        '/api/ai/compile-master-video',
        { sequenceItems: [{ id: 'a', prompt: 'x', videoUrl, startTime: 0, duration: 1 }] },
        user.token,
      );
      expect(res.statusCode).toBe(400);
    }
    const theirsRes = await post(
      '/api/ai/compile-master-video',
      { sequenceItems: [{ id: 'a', prompt: 'x', videoUrl: theirs, startTime: 0, duration: 1 }] },
      user.token,
    );
    expect(theirsRes.json().error).toBe(MESSAGES.assets.notYourMedia);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
  });

  it('cuts three clips of different sizes (one silent) into one H.264/AAC master', async () => {
    const a = await storeVideo(user, await clipWithAudio(4, 640, 360, 25));
    const b = await storeVideo(
      user,
      await makeTestClip(t.config, workDir, { seconds: 3, width: 320, height: 240, fps: 30 }),
    );
    const c = await storeVideo(user, await clipWithAudio(5, 480, 480, 24));
    const before = await creditsOf(t.ctx.db, user.id);
    const long = 'p'.repeat(150);
    const sequenceItems = [
      { id: 's1', prompt: long, videoUrl: a, startTime: 1, duration: 2 },
      { id: 's2', prompt: 'second', videoUrl: b, startTime: 0.5, duration: 1.5 },
      { id: 'pending', prompt: 'not done', videoUrl: null, startTime: 0, duration: 5 },
      { id: 's3', prompt: 'third', videoUrl: c, startTime: 0, duration: 2.5 },
    ];
    const res = await post('/api/ai/compile-master-video', { sequenceItems, movieScript: 'A short film.' }, user.token);
    expect(res.statusCode).toBe(200);
    const reply = res.json() as CompileMasterReply;
    expect(reply).toMatchObject({ success: true, status: 'completed', videoCount: 3, streamCopy: false });
    expect(reply.duration).toBeCloseTo(6, 0);
    expect(Math.abs((reply.duration ?? 0) - 6)).toBeLessThanOrEqual(0.1);
    const bytes = await download(reply.masterVideoUrl ?? '');
    expect(Math.abs((await durationOf(bytes)) - 6)).toBeLessThanOrEqual(0.1);
    const streams = await streamsOf(bytes);
    const video = streams.filter((s) => s.codec_type === 'video');
    const audio = streams.filter((s) => s.codec_type === 'audio');
    expect(video).toHaveLength(1);
    expect(video[0]).toMatchObject({ codec_name: 'h264', width: 640, height: 360 });
    expect(audio).toHaveLength(1);
    expect(audio[0]?.codec_name).toBe('aac');
    // +faststart: the index comes before the media data.
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
    const [asset] = await t.ctx.db
      .select()
      .from(assets)
      .where(eq(assets.id, reply.assetId ?? ''));
    expect(asset?.type).toBe('video');
    expect(asset?.metadata).toMatchObject({ sequenceCount: 4, videoCount: 3, movieScript: 'A short film.' });
    const saved = asset?.metadata.sequenceItems as { id: string; prompt: string }[];
    expect(saved.map((s) => s.id)).toEqual(['s1', 's2', 's3']);
    expect(saved[0]?.prompt).toHaveLength(100);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
  });

  it('joins matching clips by stream copy', async () => {
    const a = await storeVideo(user, await clipWithAudio(2, 320, 240, 25));
    const b = await storeVideo(user, await clipWithAudio(3, 320, 240, 25));
    const res = await post(
      '/api/ai/compile-master-video',
      {
        sequenceItems: [
          { id: 'x', prompt: 'one', videoUrl: a, startTime: 0, duration: 2 },
          { id: 'y', prompt: 'two', videoUrl: b, startTime: 1, duration: 2 },
        ],
      },
      user.token,
    );
    expect(res.statusCode).toBe(200);
    const reply = res.json() as CompileMasterReply;
    expect(reply, JSON.stringify(reply)).toMatchObject({ streamCopy: true });
    const bytes = await download(reply.masterVideoUrl ?? '');
    expect(Math.abs((await durationOf(bytes)) - 4)).toBeLessThanOrEqual(0.15);
    const streams = await streamsOf(bytes);
    expect(streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);
  });

  it('refuses an item whose start lies past the end of its clip, naming the item and saving nothing', async () => {
    const first = await storeVideo(user, await clipWithAudio(2, 160, 90, 10));
    const short = await storeVideo(user, await clipWithAudio(3, 160, 90, 10));
    const before = await assetCount(user.id);
    const res = await post(
      '/api/ai/compile-master-video',
      {
        sequenceItems: [
          { id: 'opening', prompt: 'one', videoUrl: first, startTime: 0, duration: 2 },
          { id: 'late-start', prompt: 'two', videoUrl: short, startTime: 7, duration: 1 },
        ],
      },
      user.token,
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      code: 'invalid_input',
      error: SEQUENCE_MESSAGES.startBeyondClip('late-start', 7, 3),
    });
    expect(res.json().error).toContain('"late-start"');
    expect(await assetCount(user.id)).toBe(before);
  });

  it('refuses a clip ffprobe cannot read, saving nothing', async () => {
    const good = await storeVideo(user, await clipWithAudio(1, 160, 90, 10));
    // An MP4 cut short: the ftyp box says video, but the index (moov, written last) is gone.
    const whole = await makeTestClip(t.config, workDir, { seconds: 2, width: 160, height: 90, fps: 10 });
    const truncated = await storeVideo(user, whole.subarray(0, 2048));
    const before = await assetCount(user.id);
    const res = await post(
      '/api/ai/compile-master-video',
      {
        sequenceItems: [
          { id: 'a', prompt: 'one', videoUrl: good, startTime: 0, duration: 1 },
          { id: 'b', prompt: 'two', videoUrl: truncated, startTime: 0, duration: 1 },
        ],
      },
      user.token,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(MESSAGES.inputs.unreadable);
    expect(await assetCount(user.id)).toBe(before);
  });
});

describe('media facts kept for the master compile', () => {
  function keyOf(url: string | null | undefined): string {
    const key = storedKeyOf(t.config, url ?? '');
    if (!key) throw new Error(`not a stored media URL: ${url}`);
    return key;
  }
  async function factsOf(url: string | null | undefined): Promise<MediaFacts | null> {
    const [row] = await t.ctx.db
      .select()
      .from(mediaObjects)
      .where(eq(mediaObjects.key, keyOf(url)));
    return (row?.probe ?? null) as MediaFacts | null;
  }
  async function setFacts(url: string, facts: MediaFacts | null) {
    await t.ctx.db
      .update(mediaObjects)
      .set({ probe: facts })
      .where(eq(mediaObjects.key, keyOf(url)));
  }
  async function compile(items: { videoUrl: string; startTime: number; duration: number }[]) {
    const sequenceItems = items.map((item, i) => ({ id: `c${i}`, prompt: `clip ${i}`, ...item }));
    const res = await post('/api/ai/compile-master-video', { sequenceItems }, user.token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as CompileMasterReply;
  }

  it('records a stored video’s probe, fills in rows without one and keeps keyframes once read', async () => {
    const a = await storeVideo(user, await clipWithAudio(2, 320, 240, 25));
    const b = await storeVideo(user, await clipWithAudio(3, 320, 240, 25));
    expect(await factsOf(a)).toMatchObject({
      durationMs: 2000,
      video: { codec: 'h264', width: 320, height: 240, fps: 25, rotation: 0 },
      audio: { codec: 'aac', sampleRate: 48_000, channels: 2 },
    });
    expect((await factsOf(b))?.keyframes).toBeUndefined();
    // A row stored before facts were kept.
    await setFacts(a, null);
    const reply = await compile([
      { videoUrl: a, startTime: 0, duration: 2 },
      { videoUrl: b, startTime: 1, duration: 2 },
    ]);
    expect(reply).toMatchObject({ streamCopy: true });
    expect(await factsOf(a)).toMatchObject({ video: { codec: 'h264', width: 320, height: 240 } });
    expect((await factsOf(b))?.keyframes).toContain(1);
    // The master itself can be a clip later: its row has its facts too.
    const master = await factsOf(reply.masterVideoUrl);
    expect(master).toMatchObject({ video: { codec: 'h264', width: 320, height: 240 }, audio: { codec: 'aac' } });
    expect(Math.abs((master?.durationMs ?? 0) - 4000)).toBeLessThanOrEqual(150);
  });

  it('plans from the stored facts instead of probing again', async () => {
    const a = await storeVideo(user, await clipWithAudio(1, 320, 240, 25));
    const b = await storeVideo(user, await clipWithAudio(1, 320, 240, 25));
    const items = [
      { videoUrl: a, startTime: 0, duration: 1 },
      { videoUrl: b, startTime: 0, duration: 1 },
    ];
    expect(await compile(items)).toMatchObject({ streamCopy: true });
    const facts = await factsOf(b);
    if (!facts?.video) throw new Error('no stored facts');
    await setFacts(b, { ...facts, video: { ...facts.video, codec: 'hevc' } });
    expect(await compile(items)).toMatchObject({ streamCopy: false });
  });
});

async function assetCount(userId: string): Promise<number> {
  return (await t.ctx.db.select().from(assets).where(eq(assets.userId, userId))).length;
}
