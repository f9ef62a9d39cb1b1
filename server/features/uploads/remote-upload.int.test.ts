import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RemoteUploadReply } from '../../../common/api/remote-upload.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { mediaObjects } from '../../db/schema/index.ts';
import { AppError } from '../../platform/errors.ts';
import { authHeader, createTestUser, solidPng, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { tempUpload } from './remote.ts';

let t: TestApp;
let user: TestUser;
let other: TestUser;
let png: Buffer;
let webm: Buffer;
let fixture: Server;
let fixturePort: number;

const dataUri = (mime: string, data: Buffer) => `data:${mime};base64,${data.toString('base64')}`;

function post(url: string, payload: unknown, token: string | null = user.token, app = t) {
  return app.app.inject({ method: 'POST', url, payload: payload as object, headers: token ? authHeader(token) : {} });
}

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db);
  other = await createTestUser(t.ctx.db);
  png = await solidPng(64, 48, '#3366aa');
  // The EBML header file-type recognises as WebM; enough for typing (it is not decoded here).
  webm = Buffer.concat([
    Buffer.from('1a45dfa39f4286810142f7810142f2810442f381084282847765626d42878104428581021853806701', 'hex'),
    randomBytes(256),
  ]);
  fixture = createServer((req, res) => {
    if (req.url === '/image.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(png);
    } else if (req.url === '/page.html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>hello</body></html>');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => fixture.listen(0, '127.0.0.1', resolve));
  fixturePort = (fixture.address() as AddressInfo).port;
});
afterAll(async () => {
  await t?.close();
  fixture?.closeAllConnections();
  await new Promise((resolve) => fixture?.close(resolve));
});

describe('POST /api/upload/base64-to-url', () => {
  it('stores a data URI as a permanent upload the owner can read', async () => {
    const res = await post('/api/upload/base64-to-url', { base64Data: dataUri('image/png', png) });
    expect(res.statusCode).toBe(200);
    const body = res.json() as RemoteUploadReply;
    expect(body).toMatchObject({ success: true, mime_type: 'image/png', size: png.length, expires_at: null });
    expect(body.url).toMatch(/^\/api\/images\/upload\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.png$/);
    const file = await t.app.inject({ method: 'GET', url: body.url, headers: authHeader(user.token) });
    expect(file.rawPayload.equals(png)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: body.url, headers: authHeader(other.token) })).statusCode).toBe(
      404,
    );
    // The signed URL works without a session (for an outside engine).
    const signed = new URL(body.signed_url);
    const bySignature = await t.app.inject({ method: 'GET', url: `${signed.pathname}${signed.search}` });
    expect(bySignature.statusCode).toBe(200);
  });

  it('takes bare base64, typed by the bytes; forRunway stores it as temporary for a day', async () => {
    const res = await post('/api/upload/base64-to-url', { base64Data: png.toString('base64'), forRunway: true });
    expect(res.statusCode).toBe(200);
    const body = res.json() as RemoteUploadReply;
    expect(body.url).toMatch(/^\/api\/images\/temp\/temporary\/[0-9a-f-]{36}\.png$/);
    const expiresIn = new Date(String(body.expires_at)).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(86_000_000);
    expect(expiresIn).toBeLessThanOrEqual(86_400_000);
    const [row] = await t.ctx.db
      .select()
      .from(mediaObjects)
      .where(eq(mediaObjects.key, body.url.replace('/api/images/', '')));
    expect(row).toMatchObject({ userId: user.id, storageClass: 'temporary' });
  });

  it('refuses what is not media, is not base64, or comes without a session', async () => {
    const text = await post('/api/upload/base64-to-url', {
      base64Data: dataUri('image/png', Buffer.from('not a picture at all')),
    });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({ error: MESSAGES.remote.unsupportedMime });
    const garbage = await post('/api/upload/base64-to-url', { base64Data: '%%% not base64 %%%' });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json()).toMatchObject({ error: MESSAGES.upload.invalidBase64 });
    expect((await post('/api/upload/base64-to-url', { base64Data: '' })).statusCode).toBe(400);
    expect((await post('/api/upload/base64-to-url', { base64Data: png.toString('base64') }, null)).statusCode).toBe(
      401,
    );
  });
});

describe('POST /api/temp-upload', () => {
  it('stores a data URL as a temporary file (expires in a day)', async () => {
    const res = await post('/api/temp-upload', {
      videoData: dataUri('video/webm', webm),
      filename: 'clip.webm',
      contentType: 'video/webm',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as RemoteUploadReply;
    expect(body).toMatchObject({ success: true, mime_type: 'video/webm', size: webm.length });
    expect(body.url).toMatch(/^\/api\/videos\/temp\/temporary\/[0-9a-f-]{36}\.webm$/);
    expect(body.expires_at).not.toBeNull();
    expect((await t.app.inject({ method: 'GET', url: body.url, headers: authHeader(user.token) })).statusCode).toBe(
      200,
    );
    expect((await t.app.inject({ method: 'GET', url: body.url, headers: authHeader(other.token) })).statusCode).toBe(
      404,
    );
  });

  it("answers 'Invalid URL format' for anything but a data URL or an http(s) URL", async () => {
    for (const videoData of ['ftp://example.com/a.mp4', 'file:///etc/passwd', 'not a url', '/api/videos/x.mp4']) {
      const res = await post('/api/temp-upload', { videoData, filename: 'a.mp4', contentType: 'video/mp4' });
      expect(res.statusCode, videoData).toBe(400);
      expect(res.json()).toMatchObject({ error: MESSAGES.remote.invalidUrl });
    }
  });

  it('refuses private, loopback and metadata addresses without fetching', async () => {
    for (const videoData of [
      `http://127.0.0.1:${fixturePort}/image.png`,
      `http://localhost:${fixturePort}/image.png`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/video.mp4',
      'http://[::1]/video.mp4',
    ]) {
      const res = await post('/api/temp-upload', { videoData, filename: 'a.mp4', contentType: 'video/mp4' });
      expect(res.statusCode, videoData).toBe(400);
      expect(res.json()).toMatchObject({ code: 'url_not_allowed', error: MESSAGES.remote.privateAddress });
    }
  });

  it("answers 'Unsupported MIME type' for other types (declared or sniffed)", async () => {
    const declared = await post('/api/temp-upload', {
      videoData: dataUri('video/webm', webm),
      filename: 'a.pdf',
      contentType: 'application/pdf',
    });
    expect(declared.statusCode).toBe(400);
    expect(declared.json()).toMatchObject({ error: MESSAGES.remote.unsupportedMime });
    const sniffed = await post('/api/temp-upload', {
      videoData: dataUri('video/mp4', Buffer.from('<html>not a video</html>')),
      filename: 'a.mp4',
      contentType: 'video/mp4',
    });
    expect(sniffed.statusCode).toBe(400);
    expect(sniffed.json()).toMatchObject({ error: MESSAGES.remote.unsupportedMime });
  });

  it('answers 401 without a session', async () => {
    const res = await post('/api/temp-upload', { videoData: dataUri('image/png', png) }, null);
    expect(res.statusCode).toBe(401);
  });

  it('fetches a public URL (the fixture allowed as public for this service-level test)', async () => {
    const asPublic = {
      resolve: async () => [{ address: '127.0.0.1', family: 4 as const }],
      isAllowedAddress: (address: string) => address === '127.0.0.1',
    };
    const stored = await tempUpload(
      t.ctx,
      user.id,
      { videoData: `http://cdn.example.test:${fixturePort}/image.png`, filename: 'image.png' },
      asPublic,
    );
    expect(stored.url).toMatch(/^\/api\/images\/temp\/temporary\/.+\.png$/);
    const file = await t.app.inject({ method: 'GET', url: stored.url, headers: authHeader(user.token) });
    expect(file.rawPayload.equals(png)).toBe(true);

    const missing = await tempUpload(
      t.ctx,
      user.id,
      { videoData: `http://cdn.example.test:${fixturePort}/missing.png` },
      asPublic,
    ).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(AppError);
    expect(missing).toMatchObject({ status: 502, message: MESSAGES.remote.fetchFailed });
    const html = await tempUpload(
      t.ctx,
      user.id,
      { videoData: `http://cdn.example.test:${fixturePort}/page.html` },
      asPublic,
    ).catch((error: unknown) => error);
    expect(html).toMatchObject({ status: 400, message: MESSAGES.remote.unsupportedMime });
  });
});

describe('size limits of the JSON uploads', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await createTestApp({ env: { UPLOAD_MAX_MB: '1', RUN_WORKERS: 'false' } });
  });
  afterAll(async () => {
    await small?.close();
  });

  it("answers 413 with 'File size exceeds {n}MB limit' and 'Remote file too large'", async () => {
    const owner = await createTestUser(small.ctx.db);
    const big = Buffer.concat([png, randomBytes(1024 * 1024 + 10)]);
    const b64 = await post('/api/upload/base64-to-url', { base64Data: dataUri('image/png', big) }, owner.token, small);
    expect(b64.statusCode).toBe(413);
    expect(b64.json()).toMatchObject({ error: 'File size exceeds 1MB limit' });
    const temp = await post(
      '/api/temp-upload',
      { videoData: dataUri('image/png', big), filename: 'big.png', contentType: 'image/png' },
      owner.token,
      small,
    );
    expect(temp.statusCode).toBe(413);
    expect(temp.json()).toMatchObject({ error: MESSAGES.remote.tooLarge });
    expect(await small.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.userId, owner.id))).toHaveLength(0);
  });
});
