// Upload and URL-fetch attacks through the HTTP routes: every one refused with a 4xx and a message,
// nothing stored (no row, no object, no file).
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages.ts';
import { mediaObjects, uploadedMedia, users } from '../../db/schema/index.ts';
import { tempUpload } from '../../features/uploads/remote.ts';
import { AppError } from '../../platform/errors.ts';
import { INTEGRITY_MESSAGES } from '../../platform/media/integrity.ts';
import {
  authHeader,
  createTestUser,
  creditsOf,
  makeTestClip,
  multipart,
  type TestUser,
  waitForTask,
} from '../fixtures.ts';
import { createTestApp, type TestApp } from '../harness.ts';
import {
  hostileImages,
  jpegDeclaring,
  mp4Declaring,
  realGif,
  realJpeg,
  realPng,
  realWebp,
  samsungJpeg,
  tinyZip,
  zeroPng,
} from './attack-files.ts';

let t: TestApp;
let user: TestUser;
let clip: Buffer;

const dataUri = (mime: string, data: Buffer) => `data:${mime};base64,${data.toString('base64')}`;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** Rows and stored files the user has; the attack tests assert these never change. */
async function storedState() {
  const objects = await t.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.userId, user.id));
  const uploads = await t.ctx.db.select().from(uploadedMedia).where(eq(uploadedMedia.userId, user.id));
  const [row] = await t.ctx.db.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, user.id));
  const files = await filesUnder(path.join(t.config.dataDir, 'media'));
  return { objects: objects.length, uploads: uploads.length, avatar: row.avatarUrl, files: files.length };
}

type Refusal = { statusCode: number; json(): { success: boolean; error: string } };
function expectRefused(response: Refusal, label: string, status = 400) {
  expect(response.statusCode, label).toBe(status);
  const body = response.json();
  expect(body.success, label).toBe(false);
  expect(body.error, label).toEqual(expect.any(String));
  expect(body.error.length, label).toBeGreaterThan(3);
}

function upload(part: { filename: string; contentType: string; data: Buffer }, url = '/api/upload', name = 'file') {
  const body = multipart({}, { ...part, name });
  return t.app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, ...authHeader(user.token) },
  });
}

function postJson(url: string, payload: object) {
  return t.app.inject({ method: 'POST', url, payload, headers: authHeader(user.token) });
}

/** Codes of a refused media file: not an accepted type, or not clean (assertCleanMedia). */
const MEDIA_REFUSALS = ['unsupported_type', 'trailing_data', 'embedded_markup', 'invalid_media', 'image_too_large'];

/** The JSON calls that take an image inline (a data: URI or bare base64), each with a body the web app sends. */
function inlineImageCalls(file: { contentType: string; data: Buffer }, mask: Buffer) {
  const image = dataUri(file.contentType, file.data);
  const prompt = 'a calm lake at dawn';
  return [
    { url: '/api/ai/generate/image', payload: { prompt, size: '256x256', referenceImages: [image] } },
    {
      url: '/api/nanobana/edit-image',
      payload: { prompt, imageBuffer: file.data.toString('base64'), imageMimeType: file.contentType },
    },
    {
      url: '/api/ai/generate/inpaint',
      payload: { prompt, baseImage: image, maskImage: dataUri('image/png', mask), mode: 'inpaint' },
    },
    { url: '/api/ai/generate/multi-reference', payload: { prompt, referenceImages: [{ url: image }] } },
    { url: '/api/proxy/enhancor/image-upscaler/queue', payload: { img_url: image } },
  ];
}

beforeAll(async () => {
  // The upload rate limit has its own test (quota.int.test.ts); these send far more than a minute's worth.
  t = await createTestApp({
    env: {
      UPLOAD_MAX_MB: '2',
      RATE_LIMIT_UPLOADS_PER_MINUTE: '100000',
      RATE_LIMIT_UPLOADS_PER_ADDRESS_PER_MINUTE: '100000',
    },
  });
  user = await createTestUser(t.ctx.db, { credits: 1000 });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'genpro-attack-'));
  clip = await makeTestClip(t.config, dir, { seconds: 1, width: 64, height: 48, fps: 5 });
  await rm(dir, { recursive: true, force: true });
});
afterAll(async () => {
  await t?.close();
});

describe('hostile files', () => {
  it('refuses polyglots, disguised files and SVG on every upload route, storing nothing', async () => {
    const before = await storedState();
    for (const file of await hostileImages()) {
      expectRefused(await upload(file), `POST /api/upload: ${file.name}`);
      expectRefused(await upload(file, '/api/users/avatar', 'avatar'), `POST /api/users/avatar: ${file.name}`);
      const base64 = await postJson('/api/upload/base64-to-url', { base64Data: dataUri(file.contentType, file.data) });
      expectRefused(base64, `base64-to-url: ${file.name}`);
      const temp = await postJson('/api/temp-upload', { videoData: dataUri(file.contentType, file.data) });
      expectRefused(temp, `temp-upload: ${file.name}`);
    }
    expect(await storedState()).toEqual(before);
  });

  it('refuses them on every call that takes an image inline (generation, canvas, enhancement), spending nothing', async () => {
    const before = await storedState();
    const credits = await creditsOf(t.ctx.db, user.id);
    const mask = await realPng();
    for (const file of await hostileImages()) {
      for (const call of inlineImageCalls(file, mask)) {
        const res = await postJson(call.url, call.payload);
        const label = `${call.url}: ${file.name}`;
        expectRefused(res, label);
        expect(MEDIA_REFUSALS, `${label}: ${res.body}`).toContain(res.json().code);
      }
    }
    expect(await storedState()).toEqual(before);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(credits);
  });

  it('names the problem: trailing data, embedded markup', async () => {
    const [jpeg, png] = await Promise.all([realJpeg(), realPng()]);
    const trailing = await upload({
      filename: 'a.png',
      contentType: 'image/png',
      data: Buffer.concat([png, tinyZip()]),
    });
    expect(trailing.json()).toMatchObject({ error: INTEGRITY_MESSAGES.trailingData, code: 'trailing_data' });
    const html = await upload({
      filename: 'a.jpg',
      contentType: 'image/jpeg',
      data: Buffer.concat([jpeg, Buffer.from('<script>alert(1)</script>')]),
    });
    expect(html.json()).toMatchObject({ error: INTEGRITY_MESSAGES.trailingData });
  });

  it('still accepts the clean originals, and an MP4 as ffmpeg writes it', async () => {
    const [jpeg, png, gif, webp] = await Promise.all([realJpeg(), realPng(), realGif(), realWebp()]);
    for (const part of [
      { filename: 'a.jpg', contentType: 'image/jpeg', data: jpeg },
      { filename: 'a.png', contentType: 'image/png', data: png },
      { filename: 'a.gif', contentType: 'image/gif', data: gif },
      { filename: 'a.webp', contentType: 'image/webp', data: webp },
      { filename: 'a.mp4', contentType: 'video/mp4', data: clip },
    ]) {
      const res = await upload(part);
      expect(res.statusCode, part.filename).toBe(200);
      // Let its thumbnail task finish, so later tests see a settled store.
      expect((await waitForTask(t.ctx.db, res.json().data.taskId)).status, part.filename).toBe('completed');
    }
  });

  it("accepts a phone JPEG with Samsung's trailer, storing the photo without it", async () => {
    const samsung = await samsungJpeg();
    const res = await upload({ filename: 'IMG_1.jpg', contentType: 'image/jpeg', data: samsung.data });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.size).toBe(samsung.photoBytes);
    expect((await waitForTask(t.ctx.db, res.json().data.taskId)).status).toBe('completed');
    const base64 = await postJson('/api/upload/base64-to-url', { base64Data: dataUri('image/jpeg', samsung.data) });
    expect(base64.statusCode, base64.body).toBe(200);
    expect(base64.json().size).toBe(samsung.photoBytes);
  });

  it('refuses an MP4 with a payload after its last box', async () => {
    const before = await storedState();
    for (const tail of [tinyZip(), Buffer.from('<html><script>alert(1)</script></html>')]) {
      const data = Buffer.concat([clip, tail]);
      expectRefused(await upload({ filename: 'v.mp4', contentType: 'video/mp4', data }), 'upload mp4+tail');
      expectRefused(await postJson('/api/temp-upload', { videoData: dataUri('video/mp4', data) }), 'temp mp4+tail');
    }
    expect(await storedState()).toEqual(before);
  });
});

describe('decompression bombs', () => {
  it('refuses images declaring huge dimensions before decoding them', async () => {
    const before = await storedState();
    const bombs = [
      // 50 000 × 50 000 declared, a single row of data: tiny file, 2.5 gigapixels.
      { name: '50k×50k PNG', filename: 'bomb.png', contentType: 'image/png', data: zeroPng(50_000, 50_000, 1) },
      // Every row present and all zeros: 12 000 × 12 000 compresses to a few kB.
      { name: '12k×12k zero PNG', filename: 'bomb.png', contentType: 'image/png', data: zeroPng(12_000, 12_000) },
      {
        name: '60k×60k JPEG',
        filename: 'bomb.jpg',
        contentType: 'image/jpeg',
        data: await jpegDeclaring(60_000, 60_000),
      },
    ];
    for (const bomb of bombs) {
      expect(bomb.data.length, bomb.name).toBeLessThan(64 * 1024);
      const res = await upload(bomb);
      expectRefused(res, `upload ${bomb.name}`);
      expect(res.json()).toMatchObject({ error: INTEGRITY_MESSAGES.imageTooLarge });
      expectRefused(await upload(bomb, '/api/users/avatar', 'avatar'), `avatar ${bomb.name}`);
      const temp = await postJson('/api/temp-upload', { videoData: dataUri(bomb.contentType, bomb.data) });
      expectRefused(temp, `temp-upload ${bomb.name}`);
    }
    expect(await storedState()).toEqual(before);
  });

  it('refuses a video declaring an absurd resolution', async () => {
    const before = await storedState();
    const data = mp4Declaring(clip, 30_000, 30_000);
    const res = await upload({ filename: 'big.mp4', contentType: 'video/mp4', data });
    expectRefused(res, 'upload 30k video');
    expect(res.json()).toMatchObject({ error: INTEGRITY_MESSAGES.videoTooLarge });
    expect(await storedState()).toEqual(before);
  });
});

describe('URL fetch through the routes', () => {
  const privateUrls = [
    'http://127.0.0.1/image.png',
    'http://127.0.0.1:9/image.png',
    'http://localhost/image.png',
    'http://10.0.0.5/image.png',
    'http://172.16.3.4/image.png',
    'http://192.168.1.1/image.png',
    'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    'http://[::1]/image.png',
    'http://[::ffff:127.0.0.1]/image.png',
    'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
    'http://[fd00::1]/image.png',
    'http://0.0.0.0/image.png',
    'http://2130706433/image.png', // decimal 127.0.0.1
    'http://017700000001/image.png', // octal 127.0.0.1
    'http://0x7f.0.0.1/image.png',
    'http://0177.0.0.1/image.png',
    'http://127.1/image.png',
    'http://100.64.0.1/image.png',
  ];
  const badSchemes = [
    'file:///etc/passwd',
    'gopher://127.0.0.1:6379/_INFO',
    'ftp://example.com/a.png',
    'javascript:alert(1)',
    'http://user:pass@example.com/a.png',
  ];

  it('refuses private, loopback, metadata and disguised IP addresses with 400', async () => {
    const before = await storedState();
    for (const url of privateUrls) {
      const res = await postJson('/api/temp-upload', { videoData: url });
      expectRefused(res, url);
      expect(res.json().error, url).toBe(MESSAGES.remote.privateAddress);
      const enhance = await postJson('/api/topaz/enhance', { videoUrl: url, model: 'upscale_4k' });
      expect(enhance.statusCode, `enhance ${url}`).toBeGreaterThanOrEqual(400);
      expect(enhance.statusCode, `enhance ${url}`).toBeLessThan(500);
    }
    expect(await storedState()).toEqual(before);
  });

  it('refuses non-http schemes and URLs with credentials', async () => {
    for (const url of badSchemes) {
      const res = await postJson('/api/temp-upload', { videoData: url });
      expectRefused(res, url);
      expect(res.json().error, url).toBe(MESSAGES.remote.invalidUrl);
    }
    // A data: URL is an inline file, not a fetch; HTML inside one is refused by its bytes.
    const html = await postJson('/api/temp-upload', { videoData: dataUri('image/png', Buffer.from('<html></html>')) });
    expectRefused(html, 'data: html');
  });
});

describe('URL fetch: redirects and sizes (the first hop to a local fixture allowed)', () => {
  let fixture: Server;
  let base: string;
  let png: Buffer;
  let hostile: Awaited<ReturnType<typeof hostileImages>>;
  // Only the fixture's own address is let through; every other address goes through the real check.
  const policy = {
    resolve: async (host: string) =>
      host === 'internal.example.test'
        ? [{ address: '10.1.2.3', family: 4 as const }]
        : [{ address: '127.0.0.1', family: 4 as const }],
    isAllowedAddress: (address: string) => address === '127.0.0.1',
  };

  beforeAll(async () => {
    png = await realPng();
    hostile = await hostileImages();
    fixture = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://fixture');
      const hostileFile = hostile[Number(url.pathname.match(/^\/hostile\/(\d+)$/)?.[1] ?? -1)];
      if (hostileFile) {
        res.writeHead(200, { 'content-type': hostileFile.contentType });
        res.end(hostileFile.data);
      } else if (url.pathname === '/redirect') {
        res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
        res.end();
      } else if (url.pathname === '/image.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(png);
      } else if (url.pathname === '/huge-declared') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(500 * 1024 * 1024) });
        res.end(png);
      } else if (url.pathname === '/huge-streamed') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(png);
        const chunk = Buffer.alloc(256 * 1024);
        let sent = 0;
        const pump = () => {
          while (sent < 8 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => {});
        pump();
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => fixture.listen(0, '127.0.0.1', resolve));
    base = `http://cdn.example.test:${(fixture.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    fixture.closeAllConnections();
    await new Promise((resolve) => fixture.close(resolve));
  });

  const fetchVia = (url: string) =>
    tempUpload(t.ctx, user.id, { videoData: url }, policy).then(
      () => null,
      (error: unknown) => error,
    );

  it('follows a redirect to a public file (the control)', async () => {
    const stored = await tempUpload(t.ctx, user.id, { videoData: `${base}/redirect?to=/image.png` }, policy);
    expect(stored.mime_type).toBe('image/png');
  });

  it('refuses the hostile files when fetched from a URL (remote upload), storing nothing', async () => {
    const before = await storedState();
    for (const [index, file] of hostile.entries()) {
      const error = await fetchVia(`${base}/hostile/${index}`);
      expect(error, file.name).toBeInstanceOf(AppError);
      expect((error as AppError).status, file.name).toBe(400);
      expect(MEDIA_REFUSALS, file.name).toContain((error as AppError).code);
    }
    expect(await storedState()).toEqual(before);
  });

  it('refuses a public-looking URL that redirects to a private address', async () => {
    const before = await storedState();
    const port = (fixture.address() as AddressInfo).port;
    for (const target of [
      `http://127.0.0.2:${port}/image.png`,
      'http://10.0.0.1/image.png',
      'http://169.254.169.254/latest/meta-data/',
      `http://[::1]:${port}/image.png`,
      `http://[::ffff:127.0.0.2]:${port}/image.png`,
      'http://2130706434/image.png',
      `http://internal.example.test:${port}/image.png`,
      'file:///etc/passwd',
      'gopher://127.0.0.1:6379/_INFO',
    ]) {
      const error = await fetchVia(`${base}/redirect?to=${encodeURIComponent(target)}`);
      expect(error, target).toBeInstanceOf(AppError);
      const { status, message } = error as AppError;
      expect(status, target).toBe(400);
      expect([MESSAGES.remote.privateAddress, MESSAGES.remote.invalidUrl], target).toContain(message);
    }
    expect(await storedState()).toEqual(before);
  });

  it('refuses over-size responses, declared or streamed, with 413', async () => {
    const before = await storedState();
    expect(await fetchVia(`${base}/huge-declared`)).toMatchObject({ status: 413, message: MESSAGES.remote.tooLarge });
    expect(await fetchVia(`${base}/huge-streamed`)).toMatchObject({
      status: 413,
      message: MESSAGES.remote.streamTooLarge,
    });
    expect(await storedState()).toEqual(before);
  });
});
