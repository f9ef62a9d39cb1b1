import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset } from '../../../common/api/assets.ts';
import { LOCAL_PREVIEW_PRICES } from '../../../common/api/generation.constants.ts';
import type { EnhanceQueuedReply, TopazModelsReply } from '../../../common/api/upscale.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { creditTransactions, mediaObjects, tasks } from '../../db/schema/index.ts';
import { probeMedia } from '../../platform/media/probe.ts';
import {
  authHeader,
  createTestUser,
  creditsOf,
  eventually,
  makeTestClip,
  storeUpload,
  type TestUser,
  waitForTask,
} from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { createAsset } from '../assets/service.ts';
import { scaleTowards4K } from './tasks.ts';

let t: TestApp;
let user: TestUser;
let other: TestUser;
let workDir: string;
let png: Buffer;
let mp4: Buffer;

/** Stores bytes as the user's upload and registers them as an asset, as the library would. */
async function assetOf(owner: TestUser, data: Buffer, contentType: string, type: 'image' | 'video') {
  const stored = await storeUpload(t.ctx, owner.id, data, contentType, contentType.split('/')[1] ?? 'bin');
  const row = await createAsset(t.ctx, { userId: owner.id, type, key: stored.key, contentType, url: stored.url });
  return { id: row.id, url: stored.url, key: stored.key };
}

function post(url: string, payload: object, token: string | null = user.token) {
  return t.app.inject({ method: 'POST', url, payload, headers: token ? authHeader(token) : {} });
}

async function getAssetDto(id: string, token = user.token): Promise<Asset> {
  const res = await t.app.inject({ method: 'GET', url: `/api/ai/assets/${id}`, headers: authHeader(token) });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: Asset }).data;
}

/** What the asset card does: poll the asset until it says it was replaced. */
function waitUntilReplaced(id: string): Promise<Asset> {
  return eventually(
    async () => {
      const asset = await getAssetDto(id);
      if (asset.metadata.enhancement_status === 'failed')
        throw new Error(`enhancement failed: ${asset.metadata.enhancement_error}`);
      return asset.metadata.replaced_by_enhancement === true ? asset : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 200, what: `asset ${id} to be replaced` },
  );
}

function finishedTask(id: string) {
  return waitForTask(t.ctx.db, id, { timeoutMs: 60_000, intervalMs: 200 });
}

async function fetchBytes(url: string, token = user.token): Promise<Buffer> {
  const res = await t.app.inject({ method: 'GET', url, headers: authHeader(token) });
  expect(res.statusCode, url).toBe(200);
  return res.rawPayload;
}

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db, { credits: 500 });
  other = await createTestUser(t.ctx.db, { credits: 500 });
  workDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-upscale-test-'));
  png = await sharp({
    create: { width: 480, height: 270, channels: 3, background: '#224466' },
  })
    .composite([
      {
        input: await sharp({ create: { width: 120, height: 90, channels: 3, background: '#ffcc00' } })
          .png()
          .toBuffer(),
        left: 60,
        top: 40,
      },
    ])
    .png()
    .toBuffer();
  mp4 = await makeTestClip(t.config, workDir, { seconds: 1, width: 160, height: 120, fps: 10 });
});
afterAll(async () => {
  await t?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('GET /api/topaz/models', () => {
  it('lists upscaling, interpolation and enhancement models with Proteus v4 recommended', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/topaz/models', headers: authHeader(user.token) });
    expect(res.statusCode).toBe(200);
    const { models } = res.json() as TopazModelsReply;
    expect(new Set(models.map((m) => m.category))).toEqual(new Set(['upscaling', 'interpolation', 'enhancement']));
    const proteus = models.find((m) => m.id === 'proteus');
    expect(proteus).toMatchObject({ recommended: true, category: 'upscaling' });
    expect(proteus?.options.map((o) => o.id)).toContain('prob-4');
    expect(models.filter((m) => m.recommended)).toHaveLength(1);
    for (const model of models) {
      expect(model.name.length).toBeGreaterThan(0);
      expect(model.description.length).toBeGreaterThan(20);
      expect(model.options.length).toBeGreaterThan(0);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/topaz/models' })).statusCode).toBe(401);
  });
});

describe('OpenAPI', () => {
  it('documents the upload and enhancement calls', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys((res.json() as { paths: Record<string, unknown> }).paths);
    for (const route of [
      '/api/upload',
      '/api/upload/base64-to-url',
      '/api/temp-upload',
      '/api/topaz/models',
      '/api/topaz/enhance',
      '/api/proxy/enhancor/{kind}/queue',
    ]) {
      expect(paths).toContain(route);
    }
  });
});

describe('POST /api/proxy/enhancor/:kind/queue', () => {
  it('upscales an image asset to 4K in place: the asset now serves a 3840-wide file', async () => {
    const asset = await assetOf(user, png, 'image/png', 'image');
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await post('/api/proxy/enhancor/image-upscaler/queue', {
      img_url: asset.url,
      original_asset_id: asset.id,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as EnhanceQueuedReply;
    expect(body).toMatchObject({
      success: true,
      status: 'queued',
      credits_reserved: LOCAL_PREVIEW_PRICES.imageUpscale,
    });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - LOCAL_PREVIEW_PRICES.imageUpscale);
    const queued = await getAssetDto(asset.id);
    expect(queued.metadata.enhancor_request_id).toBe(body.requestId);
    expect(['processing', 'completed']).toContain(queued.metadata.enhancement_status);

    const done = await waitUntilReplaced(asset.id);
    expect(done.metadata).toMatchObject({
      replaced_by_enhancement: true,
      enhancement_status: 'completed',
      enhancor_request_id: body.requestId,
      original_url: asset.url,
      width: 3840,
      height: 2160,
    });
    expect(done.url).not.toBe(asset.url);
    expect(done.url).toMatch(/^\/api\/images\/enhancement\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.png$/);
    const meta = await sharp(await fetchBytes(done.url)).metadata();
    expect(meta).toMatchObject({ width: 3840, height: 2160, format: 'png' });
    // The thumbnail is a small WebP of the new file; the original is still there.
    const thumb = await sharp(await fetchBytes(String(done.thumbnail_url))).metadata();
    expect(thumb).toMatchObject({ format: 'webp', width: 480 });
    expect((await fetchBytes(asset.url)).equals(png)).toBe(true);

    const task = await finishedTask(body.requestId);
    expect(task).toMatchObject({
      kind: 'upscale.image',
      status: 'completed',
      creditsReserved: LOCAL_PREVIEW_PRICES.imageUpscale,
    });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - LOCAL_PREVIEW_PRICES.imageUpscale);
    const [spend] = await t.ctx.db
      .select()
      .from(creditTransactions)
      .where(eq(creditTransactions.taskId, body.requestId));
    expect(spend).toMatchObject({
      type: 'deduction',
      amount: LOCAL_PREVIEW_PRICES.imageUpscale,
      generationType: 'image_upscale',
    });
  });

  it('takes persona image paths and, without an asset, saves a new enhancement asset', async () => {
    const { key } = await assetOf(user, png, 'image/png', 'image');
    const res = await post('/api/proxy/enhancor/portrait-upscaler/queue', { img_url: `/api/personas/image/${key}` });
    expect(res.statusCode).toBe(200);
    const { requestId } = res.json() as EnhanceQueuedReply;
    const task = await finishedTask(requestId);
    expect(task.status).toBe('completed');
    const result = task.result as { asset_id: string; width: number; replaced: boolean };
    expect(result).toMatchObject({ width: 3840, replaced: false });
    const created = await getAssetDto(result.asset_id);
    expect(created).toMatchObject({
      type: 'enhancement',
      service: 'portrait-upscaler',
      credits_used: LOCAL_PREVIEW_PRICES.imageUpscale,
      status: 'completed',
    });
    expect(created.metadata).toMatchObject({
      enhanced_from: `/api/images/${key}`,
      enhancor_request_id: requestId,
      enhancement: { service: 'portrait-upscaler', mode: 'fast' },
    });
  });

  it('copies a data URI source into temporary enhancement_source storage before queueing', async () => {
    const res = await post('/api/proxy/enhancor/image-upscaler/queue', {
      img_url: `data:image/png;base64,${png.toString('base64')}`,
    });
    expect(res.statusCode).toBe(200);
    const { requestId } = res.json() as EnhanceQueuedReply;
    const [task] = await t.ctx.db.select().from(tasks).where(eq(tasks.id, requestId));
    const sourceKey = String(task.input.sourceKey);
    expect(sourceKey).toMatch(/^temp\/enhancement_source\/[0-9a-f-]{36}\.png$/);
    const [source] = await t.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.key, sourceKey));
    expect(source).toMatchObject({ userId: user.id, storageClass: 'enhancement_source' });
    expect(source.expiresAt).not.toBeNull();
    expect((await finishedTask(requestId)).status).toBe('completed');
  });

  it("answers 404 for another user's media or asset and for an unknown service, 401 without a session", async () => {
    const mine = await assetOf(user, png, 'image/png', 'image');
    const theirs = await assetOf(other, png, 'image/png', 'image');
    const before = await creditsOf(t.ctx.db, user.id);
    const media = await post('/api/proxy/enhancor/image-upscaler/queue', { img_url: theirs.url });
    expect(media.statusCode).toBe(404);
    expect(media.json()).toMatchObject({ error: MESSAGES.assets.notYourMedia });
    const asset = await post('/api/proxy/enhancor/image-upscaler/queue', {
      img_url: mine.url,
      original_asset_id: theirs.id,
    });
    expect(asset.statusCode).toBe(404);
    expect((await post('/api/proxy/enhancor/magic-wand/queue', { img_url: mine.url })).statusCode).toBe(404);
    expect((await post('/api/proxy/enhancor/image-upscaler/queue', { img_url: mine.url }, null)).statusCode).toBe(401);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
    expect((await getAssetDto(theirs.id, other.token)).metadata).toEqual({});
  });

  it('answers 400 for a private URL and for a video', async () => {
    const privateUrl = await post('/api/proxy/enhancor/image-upscaler/queue', {
      img_url: 'http://169.254.169.254/latest/meta-data/iam',
    });
    expect(privateUrl.statusCode).toBe(400);
    expect(privateUrl.json()).toMatchObject({ code: 'url_not_allowed' });
    const video = await assetOf(user, mp4, 'video/mp4', 'video');
    const wrongKind = await post('/api/proxy/enhancor/image-upscaler/queue', { img_url: video.url });
    expect(wrongKind.statusCode).toBe(400);
    expect(wrongKind.json()).toMatchObject({ error: MESSAGES.assets.enhanceImageOnly });
  });

  it('answers 402 with nothing spent and the asset untouched when credits are short', async () => {
    const poor = await createTestUser(t.ctx.db, { credits: LOCAL_PREVIEW_PRICES.imageUpscale - 1 });
    const asset = await assetOf(poor, png, 'image/png', 'image');
    const res = await post(
      '/api/proxy/enhancor/image-upscaler/queue',
      { img_url: asset.url, original_asset_id: asset.id },
      poor.token,
    );
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ error: MESSAGES.credits.insufficient });
    expect(await creditsOf(t.ctx.db, poor.id)).toBe(LOCAL_PREVIEW_PRICES.imageUpscale - 1);
    expect(await t.ctx.db.select().from(tasks).where(eq(tasks.userId, poor.id))).toHaveLength(0);
    expect(await t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.userId, poor.id))).toHaveLength(
      0,
    );
    expect((await getAssetDto(asset.id, poor.token)).metadata).toEqual({});
  });

  it('refunds and marks the asset failed when the source cannot be decoded', async () => {
    // PNG magic bytes over noise: typed as PNG, but no decoder can read it.
    const corrupt = Buffer.concat([png.subarray(0, 33), randomBytes(4096)]);
    const asset = await assetOf(user, corrupt, 'image/png', 'image');
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await post('/api/proxy/enhancor/detailed/queue', {
      img_url: asset.url,
      original_asset_id: asset.id,
    });
    expect(res.statusCode).toBe(200);
    const { requestId } = res.json() as EnhanceQueuedReply;
    const task = await finishedTask(requestId);
    expect(task).toMatchObject({ status: 'failed', error: { code: 'unreadable_media' }, attempts: 1 });
    // The service's default from the spec travels with the task.
    expect(task.input).toMatchObject({ service: 'detailed', enhancementLevel: 0.8 });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
    const refund = await t.ctx.db
      .select()
      .from(creditTransactions)
      .where(and(eq(creditTransactions.taskId, requestId), eq(creditTransactions.source, 'refund')));
    expect(refund).toHaveLength(1);
    const failed = await getAssetDto(asset.id);
    expect(failed.metadata).toMatchObject({
      enhancement_status: 'failed',
      enhancement_error: MESSAGES.inputs.unreadable,
      replaced_by_enhancement: false,
    });
    expect(failed.url).toBe(asset.url);
  });
});

describe('POST /api/topaz/enhance', () => {
  it('enhances a video asset: output is scale × input, the asset is replaced', async () => {
    const asset = await assetOf(user, mp4, 'video/mp4', 'video');
    const before = await creditsOf(t.ctx.db, user.id);
    const res = await post('/api/topaz/enhance', {
      videoUrl: asset.url,
      model: 'proteus',
      options: { original_asset_id: asset.id, scale: 3, quality: 'low', category: 'upscaling', option: 'prob-4' },
    });
    expect(res.statusCode).toBe(200);
    const { requestId, credits_reserved } = res.json() as EnhanceQueuedReply;
    expect(credits_reserved).toBe(LOCAL_PREVIEW_PRICES.videoEnhancement);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before - LOCAL_PREVIEW_PRICES.videoEnhancement);

    const done = await waitUntilReplaced(asset.id);
    expect(done.metadata).toMatchObject({
      topaz_request_id: requestId,
      enhancement_status: 'completed',
      original_url: asset.url,
      enhancement: {
        model: 'proteus',
        option: 'prob-4',
        scale: 3,
        quality: 'low',
        denoise: 0.5,
        sharpen: 0.4,
        enhance: 0.6,
      },
    });
    expect(done.url).toMatch(/^\/api\/videos\/enhancement\/.+\.mp4$/);
    const out = path.join(workDir, `${requestId}.mp4`);
    await writeFile(out, await fetchBytes(done.url));
    const probe = await probeMedia(t.config, out);
    expect(probe.video).toMatchObject({ width: 480, height: 360, codec: 'h264' });
    expect(done.thumbnail_url).toMatch(/\.webp$/);
  });

  it("upscale_4k without videoUrl enhances the asset's own file towards 4K; interpolation changes the frame rate", async () => {
    expect(scaleTowards4K(1920, 1080)).toBe(2);
    expect(scaleTowards4K(1280, 720)).toBe(3);
    expect(scaleTowards4K(160, 120)).toBe(4);
    expect(scaleTowards4K(1080, 1920)).toBe(2);
    const asset = await assetOf(user, mp4, 'video/mp4', 'video');
    const res = await post('/api/topaz/enhance', { model: 'upscale_4k', options: { original_asset_id: asset.id } });
    expect(res.statusCode).toBe(200);
    const done = await waitUntilReplaced(asset.id);
    expect(done.metadata).toMatchObject({ width: 640, height: 480, enhancement: { model: 'proteus', scale: 4 } });

    const other4 = await assetOf(user, mp4, 'video/mp4', 'video');
    const fps = await post('/api/topaz/enhance', {
      videoUrl: other4.url,
      model: 'chronos',
      options: { scale: 2, fps: 24, category: 'interpolation' },
    });
    expect(fps.statusCode).toBe(200);
    const task = await finishedTask((fps.json() as EnhanceQueuedReply).requestId);
    expect(task.status).toBe('completed');
    const result = task.result as { asset_id: string };
    const created = await getAssetDto(result.asset_id);
    expect(created).toMatchObject({ type: 'video_enhancement', service: 'topaz', model: 'chronos' });
    const out = path.join(workDir, `${task.id}.mp4`);
    await writeFile(out, await fetchBytes(created.url));
    const probe = await probeMedia(t.config, out);
    expect(probe.video).toMatchObject({ width: 320, height: 240 });
    expect(probe.video?.fps).toBeCloseTo(24, 0);
  });

  it('validates model, option and category, ownership, credits and the session', async () => {
    const asset = await assetOf(user, mp4, 'video/mp4', 'video');
    const badModel = await post('/api/topaz/enhance', { videoUrl: asset.url, model: 'mystery' });
    expect(badModel.statusCode).toBe(400);
    expect(badModel.json()).toMatchObject({ error: MESSAGES.assets.selectModelAndOption });
    const badOption = await post('/api/topaz/enhance', {
      videoUrl: asset.url,
      model: 'proteus',
      options: { option: 'apo-8' },
    });
    expect(badOption.json()).toMatchObject({ error: MESSAGES.assets.selectModelAndOption });
    const badScale = await post('/api/topaz/enhance', { videoUrl: asset.url, model: 'proteus', options: { scale: 5 } });
    expect(badScale.statusCode).toBe(400);
    const image = await assetOf(user, png, 'image/png', 'image');
    const notVideo = await post('/api/topaz/enhance', { videoUrl: image.url, model: 'upscale_4k' });
    expect(notVideo.json()).toMatchObject({ error: MESSAGES.assets.enhanceVideoOnly });

    const theirs = await assetOf(other, mp4, 'video/mp4', 'video');
    expect((await post('/api/topaz/enhance', { videoUrl: theirs.url, model: 'upscale_4k' })).statusCode).toBe(404);
    expect(
      (await post('/api/topaz/enhance', { model: 'upscale_4k', options: { original_asset_id: theirs.id } })).statusCode,
    ).toBe(404);
    expect((await post('/api/topaz/enhance', { videoUrl: asset.url, model: 'upscale_4k' }, null)).statusCode).toBe(401);

    const poor = await createTestUser(t.ctx.db, { credits: LOCAL_PREVIEW_PRICES.videoEnhancement - 1 });
    const poorAsset = await assetOf(poor, mp4, 'video/mp4', 'video');
    const short = await post(
      '/api/topaz/enhance',
      { videoUrl: poorAsset.url, model: 'upscale_4k', options: { original_asset_id: poorAsset.id } },
      poor.token,
    );
    expect(short.statusCode).toBe(402);
    expect(await creditsOf(t.ctx.db, poor.id)).toBe(LOCAL_PREVIEW_PRICES.videoEnhancement - 1);
    expect(await t.ctx.db.select().from(tasks).where(eq(tasks.userId, poor.id))).toHaveLength(0);
    expect((await getAssetDto(poorAsset.id, poor.token)).metadata).toEqual({});
  });
});
