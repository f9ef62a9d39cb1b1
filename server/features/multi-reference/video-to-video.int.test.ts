import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_PREVIEW_PRICES } from '../../../common/api/generation.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { assets } from '../../db/schema/index.ts';
import { probeMedia } from '../../platform/media/probe.ts';
import { ffmpegPath, runTool } from '../../platform/media/tools.ts';
import {
  authHeader,
  createTestUser,
  creditsOf,
  makeTestClip,
  solidPng,
  storeUpload,
  type TestUser,
  waitForTask,
} from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

// POST /api/ai/generate/multi-reference with type 'video-to-video' (canvas spec 7): videos (mp4, mov,
// webm, avi) and images up to 100 MB; the first video restyled by the image references; other types
// and over-size files refused with the spec's messages. Also the 10 MB image limit of the image mode.

let t: TestApp;
let user: TestUser;
let dir: string;
let clipUrl: string;
let red: string;
const URL = '/api/ai/generate/multi-reference';

function post(payload: object, token = user.token) {
  return t.app.inject({ method: 'POST', url: URL, payload, headers: authHeader(token) });
}

function videoBody(referenceImages: object[], extra: object = {}) {
  return {
    service: 'runway',
    type: 'video-to-video',
    prompt: 'restyle the clip in the colours of the image',
    referenceImages,
    blendMode: 'weighted',
    strength: 0.75,
    numImages: 1,
    aspectRatio: '16:9',
    quality: 'draft',
    compositionMode: 'multi-image-composition',
    preserveDetails: true,
    multiReference: true,
    ...extra,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db, { credits: 1000 });
  dir = await mkdtemp(join(tmpdir(), 'mr-v2v-'));
  const clip = await makeTestClip(t.ctx.config, dir, { seconds: 2, width: 320, height: 240, fps: 12 });
  clipUrl = (await storeUpload(t.ctx, user.id, clip, 'video/mp4', 'mp4')).url;
  red = `data:image/png;base64,${(await solidPng(64, 64, '#ff2020')).toString('base64')}`;
});
afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('multi-reference video-to-video', () => {
  it('restyles the uploaded mp4 with the image references: an H.264 mp4 of the asked aspect, charged at the documented price', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await post(
      videoBody([
        { url: clipUrl, weight: 0.5, type: 'composition', mediaType: 'video' },
        { url: red, weight: 0.9, type: 'color', mediaType: 'image' },
      ]),
    );
    expect(res.statusCode).toBe(200);
    const reply = res.json();
    expect(reply.creditsUsed).toBe(LOCAL_PREVIEW_PRICES.videoRunway);
    let url: string = reply.data.url;
    if (reply.data.status !== 'completed') {
      const task = await waitForTask(t.ctx.db, reply.data.taskId, { timeoutMs: 60_000 });
      expect(task.status).toBe('completed');
      const [row] = await t.ctx.db.select().from(assets).where(eq(assets.userId, user.id));
      url = row?.url ?? '';
    }
    expect(url).toMatch(/^\/api\/videos\//);
    expect(reply.data.images[0]).toMatchObject({ type: 'video' });
    const file = await t.app.inject({ method: 'GET', url, headers: authHeader(user.token) });
    expect(file.statusCode).toBe(200);
    const path = join(dir, 'out.mp4');
    await writeFile(path, file.rawPayload);
    const probe = await probeMedia(t.ctx.config, path);
    expect(probe.video?.codec).toBe('h264');
    const w = probe.video?.width ?? 0;
    const h = probe.video?.height ?? 1;
    expect(Math.abs(w / h - 16 / 9)).toBeLessThan(0.02);
    expect((probe.durationMs ?? 0) / 1000).toBeGreaterThan(1.5);
    expect((probe.durationMs ?? 0) / 1000).toBeLessThan(2.6);
    // the red reference shows: a frame of the output is redder than the test pattern it came from
    const frame = join(dir, 'frame.png');
    await runTool(ffmpegPath(t.ctx.config), [
      '-loglevel',
      'error',
      '-ss',
      '1',
      '-i',
      path,
      '-frames:v',
      '1',
      '-y',
      frame,
    ]);
    const stats = await sharp(frame).stats();
    expect(stats.channels[0].mean).toBeGreaterThan(stats.channels[2].mean + 30);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - LOCAL_PREVIEW_PRICES.videoRunway);
    const [row] = await t.ctx.db.select().from(assets).where(eq(assets.url, url));
    expect(row?.metadata).toMatchObject({ source: 'multi-reference', mode: 'video-to-video' });
  });

  it('refuses a GIF sent as a video, a wrong type and a mode without a video, with the spec messages, spending nothing', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const gif = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#00ff00' } })
      .gif()
      .toBuffer();
    const gifRef = `data:video/mp4;base64,${gif.toString('base64')}`;
    const asVideo = await post(videoBody([{ url: gifRef, weight: 0.5, type: 'style', mediaType: 'video' }]));
    expect(asVideo.statusCode).toBe(400);
    expect(asVideo.json().error).toBe(MESSAGES.multiReference.unsupportedType);
    const text = `data:text/plain;base64,${Buffer.from('not media at all').toString('base64')}`;
    const wrong = await post(
      videoBody([
        { url: clipUrl, weight: 0.5, type: 'style' },
        { url: text, weight: 0.5, type: 'style' },
      ]),
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe(MESSAGES.multiReference.unsupportedType);
    const mkv = await storeUpload(t.ctx, user.id, Buffer.from('matroska'), 'video/x-matroska', 'mkv');
    const badContainer = await post(videoBody([{ url: mkv.url, weight: 0.5, type: 'style', mediaType: 'video' }]));
    expect(badContainer.statusCode).toBe(400);
    expect(badContainer.json().error).toBe(MESSAGES.multiReference.unsupportedType);
    const noVideo = await post(videoBody([{ url: red, weight: 0.5, type: 'style' }]));
    expect(noVideo.statusCode).toBe(400);
    expect(noVideo.json().error).toBe(MESSAGES.multiReference.videoRequired);
    // a video in the image mode
    const inImageMode = await post(
      videoBody([{ url: clipUrl, weight: 0.5, type: 'style', mediaType: 'video' }], { type: 'image-to-image' }),
    );
    expect(inImageMode.statusCode).toBe(400);
    expect(inImageMode.json().error).toBe(MESSAGES.multiReference.unsupportedType);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
  });

  it('refuses a 101 MB video with the 100 MB message', async () => {
    const clip = await makeTestClip(t.ctx.config, dir, { seconds: 1, width: 64, height: 64, fps: 4 });
    const big = Buffer.concat([clip, Buffer.alloc(101 * 1024 * 1024 - clip.length)]);
    const stored = await storeUpload(t.ctx, user.id, big, 'video/mp4', 'mp4');
    const res = await post(videoBody([{ url: stored.url, weight: 0.5, type: 'style', mediaType: 'video' }]));
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe(MESSAGES.upload.tooLarge(100));
  });
});

describe('multi-reference image mode: the 10 MB image limit', () => {
  it('answers an over-size image with 413 and the spec message, not a schema message', async () => {
    const side = 1900;
    const noise = Buffer.alloc(side * side * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const png = await sharp(noise, { raw: { width: side, height: side, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(png.length).toBeGreaterThan(10 * 1024 * 1024);
    const res = await post({
      prompt: 'blend',
      referenceImages: [{ url: `data:image/png;base64,${png.toString('base64')}`, weight: 0.5, type: 'style' }],
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe(MESSAGES.upload.tooLarge(10));
  });
});
