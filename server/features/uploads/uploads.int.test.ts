import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD } from '../../../common/api/media.constants.ts';
import type { MultiUploadReply, UploadReply, UploadStatus } from '../../../common/api/uploads.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { mediaObjects, tasks } from '../../db/schema/index.ts';
import { SESSION_COOKIE } from '../../platform/auth/session.ts';
import {
  authHeader,
  createTestUser,
  eventually,
  type FilePart,
  makeLavfiMedia,
  makeTestClip,
  multipart,
  solidPng,
  type TestUser,
} from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let user: TestUser;
let other: TestUser;
let workDir: string;
let png: Buffer;
let mp4: Buffer;
let mp3: Buffer;

async function upload(
  token: string,
  file: FilePart | FilePart[],
  fields: Record<string, string> = { type: 'ai-asset' },
  app = t,
) {
  const body = multipart(fields, file);
  return app.app.inject({
    method: 'POST',
    url: '/api/upload',
    payload: body.payload,
    headers: { ...body.headers, ...authHeader(token) },
  });
}

async function waitUntilProcessed(id: string, token = user.token): Promise<UploadStatus> {
  return eventually(
    async () => {
      const res = await t.app.inject({ method: 'GET', url: `/api/upload/${id}`, headers: authHeader(token) });
      const data = (res.json() as { data: UploadStatus }).data;
      return data.status !== 'processing' ? data : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 100, what: `upload ${id} to be processed` },
  );
}

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db);
  other = await createTestUser(t.ctx.db);
  workDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-upload-test-'));
  png = await solidPng(800, 600, '#aa3355');
  mp4 = await makeTestClip(t.config, workDir, { seconds: 1, width: 320, height: 240, fps: 10 });
  mp3 = await makeLavfiMedia(t.config, path.join(workDir, 'tone.mp3'), 'sine=frequency=440:duration=1');
});
afterAll(async () => {
  await t?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('POST /api/upload', () => {
  it('stores a PNG, then the task adds its size and a 480 px WebP thumbnail', async () => {
    const res = await upload(user.token, { filename: 'holiday photo.png', contentType: 'image/png', data: png });
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as UploadReply;
    expect(data).toMatchObject({
      filename: 'holiday photo.png',
      size: png.length,
      type: 'image',
      mime_type: 'image/png',
      thumbnail_url: null,
    });
    expect(data.url).toMatch(/^\/api\/images\/upload\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.png$/);

    const original = await t.app.inject({ method: 'GET', url: data.url, headers: authHeader(user.token) });
    expect(original.statusCode).toBe(200);
    expect(original.rawPayload.equals(png)).toBe(true);

    const ready = await waitUntilProcessed(data.id);
    expect(ready).toMatchObject({ status: 'ready', width: 800, height: 600, duration_ms: null, taskId: data.taskId });
    expect(ready.metadata).toMatchObject({ format: 'png' });
    expect(ready.thumbnail_url).toMatch(/^\/api\/images\/thumbnail\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.webp$/);

    const thumb = await t.app.inject({
      method: 'GET',
      url: String(ready.thumbnail_url),
      headers: authHeader(user.token),
    });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 480, height: 360 });

    const [task] = await t.ctx.db.select().from(tasks).where(eq(tasks.id, data.taskId));
    expect(task).toMatchObject({ kind: 'media.extract', status: 'completed', progress: 100, creditsReserved: 0 });
    expect(task.result).toMatchObject({
      uploadId: data.id,
      width: 800,
      height: 600,
      thumbnail_url: ready.thumbnail_url,
    });
    // The thumbnail belongs to the uploader and points back at the upload.
    const [thumbRow] = await t.ctx.db
      .select()
      .from(mediaObjects)
      .where(eq(mediaObjects.key, String(ready.thumbnail_url).replace('/api/images/', '')));
    expect(thumbRow).toMatchObject({ userId: user.id, storageClass: 'thumbnail' });
    expect(thumbRow.tags).toMatchObject({ OriginalAssetId: data.id, Source: 'thumbnail' });
  });

  it('stores an MP4 and extracts its size, duration and a frame as thumbnail', async () => {
    const res = await upload(user.token, { filename: 'clip.mp4', contentType: 'video/mp4', data: mp4 });
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as UploadReply;
    expect(data.type).toBe('video');
    expect(data.url).toMatch(/^\/api\/videos\/upload\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.mp4$/);
    const ready = await waitUntilProcessed(data.id);
    expect(ready).toMatchObject({ status: 'ready', width: 320, height: 240, type: 'video' });
    expect(ready.duration_ms).toBeGreaterThanOrEqual(900);
    expect(ready.duration_ms).toBeLessThanOrEqual(1100);
    expect(ready.metadata).toMatchObject({ video: { codec: 'h264', width: 320, height: 240 } });
    const thumb = await t.app.inject({
      method: 'GET',
      url: String(ready.thumbnail_url),
      headers: authHeader(user.token),
    });
    const meta = await sharp(thumb.rawPayload).metadata();
    // Smaller than 480 px: the thumbnail keeps the source width.
    expect(meta).toMatchObject({ format: 'webp', width: 320, height: 240 });

    const ranged = await t.app.inject({
      method: 'GET',
      url: data.url,
      headers: { ...authHeader(user.token), range: 'bytes=0-99' },
    });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload.equals(mp4.subarray(0, 100))).toBe(true);
  });

  it('stores audio under /api/audio and extracts its duration (no thumbnail)', async () => {
    const res = await upload(user.token, { filename: 'tone.mp3', contentType: 'audio/mpeg', data: mp3 });
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as UploadReply;
    expect(data).toMatchObject({ type: 'audio', mime_type: 'audio/mpeg' });
    expect(data.url).toMatch(/^\/api\/audio\/upload\//);
    const ready = await waitUntilProcessed(data.id);
    expect(ready).toMatchObject({ status: 'ready', thumbnail_url: null, width: null, height: null });
    expect(ready.duration_ms).toBeGreaterThan(900);
  });

  it('derives the type from the bytes, not the name or the client MIME type', async () => {
    const res = await upload(user.token, { filename: 'sneaky.txt', contentType: 'text/plain', data: png });
    expect(res.statusCode).toBe(200);
    expect((res.json() as UploadReply).data).toMatchObject({ type: 'image', mime_type: 'image/png' });
  });

  it('accepts files above the JSON body limit (multipart is not a JSON body)', async () => {
    // 2000 × 2200 pixels of noise: a PNG of about 13 MB, above the 1 MB JSON body limit.
    const noisy = await sharp(randomBytes(2000 * 2200 * 3), { raw: { width: 2000, height: 2200, channels: 3 } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    expect(noisy.length).toBeGreaterThan(12 * 1024 * 1024);
    const res = await upload(user.token, { filename: 'noise.png', contentType: 'image/png', data: noisy });
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as UploadReply;
    expect(data.size).toBe(noisy.length);
    expect(await waitUntilProcessed(data.id)).toMatchObject({ status: 'ready', width: 2000, height: 2200 });
  });

  it('refuses a file that sniffs as an image but does not decode, storing nothing', async () => {
    // PNG magic bytes followed by noise: no chunk structure, no IEND.
    const corrupt = Buffer.concat([png.subarray(0, 64), randomBytes(1024 * 1024)]);
    const before = await t.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.userId, user.id));
    const res = await upload(user.token, { filename: 'corrupt.png', contentType: 'image/png', data: corrupt });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'invalid_media' });
    const after = await t.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.userId, user.id));
    expect(after.length).toBe(before.length);
  });

  it('rejects a text file renamed .png', async () => {
    const res = await upload(user.token, {
      filename: 'notes.png',
      contentType: 'image/png',
      data: Buffer.from('just some text pretending to be a picture\n'.repeat(20)),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      error: MESSAGES.upload.unsupportedType,
      code: 'unsupported_type',
    });
  });

  it('rejects decodable formats outside the allowed lists (a TIFF)', async () => {
    const tiff = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .tiff()
      .toBuffer();
    const res = await upload(user.token, { filename: 'scan.tiff', contentType: 'image/tiff', data: tiff });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'unsupported_type' });
  });

  it('types a PNG renamed .mp4 (sent as video/mp4) as an image', async () => {
    const res = await upload(user.token, { filename: 'clip.mp4', contentType: 'video/mp4', data: png });
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as UploadReply;
    expect(data).toMatchObject({ type: 'image', mime_type: 'image/png', filename: 'clip.mp4' });
    expect(data.url).toMatch(/^\/api\/images\/upload\/.+\.png$/);
  });

  it('takes several files in one request and answers them as a list, in order', async () => {
    const res = await upload(user.token, [
      { filename: 'a.png', contentType: 'image/png', data: png },
      { filename: 'b.mp4', contentType: 'video/mp4', data: mp4 },
      { filename: 'c.mp3', contentType: 'audio/mpeg', data: mp3 },
    ]);
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as MultiUploadReply;
    expect(data.map((f) => [f.filename, f.type])).toEqual([
      ['a.png', 'image'],
      ['b.mp4', 'video'],
      ['c.mp3', 'audio'],
    ]);
    expect(new Set(data.map((f) => f.id)).size).toBe(3);
    for (const file of data) expect((await waitUntilProcessed(file.id)).status).toBe('ready');
  });

  it('refuses the whole request when one of several files is not media, storing nothing', async () => {
    const owner = await createTestUser(t.ctx.db);
    const res = await upload(owner.token, [
      { filename: 'a.png', contentType: 'image/png', data: png },
      { filename: 'notes.txt', contentType: 'text/plain', data: Buffer.from('plain text\n'.repeat(50)) },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'unsupported_type', details: { filename: 'notes.txt' } });
    expect(await t.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.userId, owner.id))).toHaveLength(0);
  });

  it(`accepts at most ${UPLOAD.maxFiles} files per request`, async () => {
    const eleven = Array.from({ length: UPLOAD.maxFiles + 1 }, (_, i) => ({
      filename: `f${i}.png`,
      contentType: 'image/png',
      data: png,
    }));
    const res = await upload(user.token, eleven);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: MESSAGES.upload.tooManyFiles(UPLOAD.maxFiles) });
  });

  it('answers 400 without a file', async () => {
    const body = multipart({ type: 'ai-asset' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/upload',
      payload: body.payload,
      headers: { ...body.headers, ...authHeader(user.token) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: MESSAGES.upload.noFile });
    const notMultipart = await t.app.inject({
      method: 'POST',
      url: '/api/upload',
      payload: { file: 'x' },
      headers: authHeader(user.token),
    });
    expect(notMultipart.statusCode).toBe(400);
  });

  it('answers 401 without a session and 403 for a cookie session without X-Requested-With', async () => {
    const body = multipart({ type: 'ai-asset' }, { filename: 'a.png', contentType: 'image/png', data: png });
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/upload',
      payload: body.payload,
      headers: body.headers,
    });
    expect(anonymous.statusCode).toBe(401);
    const cookie = await t.app.inject({
      method: 'POST',
      url: '/api/upload',
      payload: body.payload,
      headers: body.headers,
      cookies: { [SESSION_COOKIE]: user.token },
    });
    expect(cookie.statusCode).toBe(403);
    const withHeader = await t.app.inject({
      method: 'POST',
      url: '/api/upload',
      payload: body.payload,
      headers: { ...body.headers, 'x-requested-with': 'XMLHttpRequest' },
      cookies: { [SESSION_COOKIE]: user.token },
    });
    expect(withHeader.statusCode).toBe(200);
  });
});

describe('GET /api/upload/:id', () => {
  it("is the owner's only: 404 for another user, 401 without a session", async () => {
    const res = await upload(user.token, { filename: 'a.png', contentType: 'image/png', data: png });
    const { data } = res.json() as UploadReply;
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/upload/${data.id}`, headers: authHeader(other.token) }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/upload/${data.id}` })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/upload/nope', headers: authHeader(user.token) })).statusCode,
    ).toBe(404);
    // Nor can the other user read the file itself.
    expect((await t.app.inject({ method: 'GET', url: data.url, headers: authHeader(other.token) })).statusCode).toBe(
      404,
    );
  });
});

describe('GET /api/tasks/:id', () => {
  it('returns the status of the owner’s task and 404 for anyone else', async () => {
    const res = await upload(user.token, { filename: 'a.png', contentType: 'image/png', data: png });
    const { data } = res.json() as UploadReply;
    await waitUntilProcessed(data.id);
    const status = await t.app.inject({
      method: 'GET',
      url: `/api/tasks/${data.taskId}`,
      headers: authHeader(user.token),
    });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({
      success: true,
      data: { id: data.taskId, kind: 'media.extract', status: 'completed', progress: 100, error: null },
    });
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/tasks/${data.taskId}`, headers: authHeader(other.token) }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/tasks/${data.taskId}` })).statusCode).toBe(401);
  });
});

describe('upload size limit', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await createTestApp({ env: { UPLOAD_MAX_MB: '1', RUN_WORKERS: 'false' } });
  });
  afterAll(async () => {
    await small?.close();
  });

  it('answers 413 with the spec message over UPLOAD_MAX_MB and keeps nothing', async () => {
    const owner = await createTestUser(small.ctx.db);
    const big = Buffer.concat([png, randomBytes(1024 * 1024 + 10)]);
    const res = await upload(owner.token, { filename: 'big.png', contentType: 'image/png', data: big }, {}, small);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ success: false, error: 'File size exceeds 1MB limit' });
    const rows = await small.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.userId, owner.id));
    expect(rows).toHaveLength(0);
    const ok = await upload(owner.token, { filename: 'ok.png', contentType: 'image/png', data: png }, {}, small);
    expect(ok.statusCode).toBe(200);
  });

  it("gives the canvas and its tools the canvas spec's limits (75 MB images), the studio's uploads UPLOAD_MAX_MB", async () => {
    const owner = await createTestUser(small.ctx.db);
    // A real 2 MB picture (noise does not compress), over this studio's UPLOAD_MAX_MB of 1.
    const width = 1024;
    const height = 700;
    const noisy = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(noisy.length).toBeGreaterThan(2 * 1024 * 1024);
    const file = { filename: 'noise.png', contentType: 'image/png', data: noisy };
    const studio = await upload(owner.token, file, { type: 'ai-asset' }, small);
    expect(studio.statusCode).toBe(413);
    expect(studio.json()).toMatchObject({ error: 'File size exceeds 1MB limit' });
    for (const type of ['canvas', 'multi-reference']) {
      const tool = await upload(owner.token, file, { type }, small);
      expect(tool.statusCode, tool.body).toBe(200);
      expect(tool.json()).toMatchObject({ success: true, data: { size: noisy.length } });
    }
  });

  it('applies the limit to each file of a multi-file request', async () => {
    const owner = await createTestUser(small.ctx.db);
    const big = Buffer.concat([png, randomBytes(1024 * 1024 + 10)]);
    const res = await upload(
      owner.token,
      [
        { filename: 'ok.png', contentType: 'image/png', data: png },
        { filename: 'big.png', contentType: 'image/png', data: big },
      ],
      {},
      small,
    );
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: 'File size exceeds 1MB limit' });
    expect(await small.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.userId, owner.id))).toHaveLength(0);
  });
});
