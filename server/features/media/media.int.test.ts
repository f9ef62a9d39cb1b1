import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages.ts';
import { mediaObjects, serverSecrets } from '../../db/schema/index.ts';
import { SESSION_COOKIE } from '../../platform/auth/session.ts';
import { signMediaUrl } from '../../platform/media/signing.ts';
import { MediaStore, type StoredMedia } from '../../platform/media/store.ts';
import { authHeader, createTestUser, solidPng, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let owner: TestUser;
let other: TestUser;
let admin: TestUser;
let png: Buffer;
let image: StoredMedia;
let temp: StoredMedia;
let video: StoredMedia;

beforeAll(async () => {
  t = await createTestApp({ env: { RUN_WORKERS: 'false' } });
  owner = await createTestUser(t.ctx.db);
  other = await createTestUser(t.ctx.db);
  admin = await createTestUser(t.ctx.db, { role: 'admin' });
  png = await solidPng(64, 48, '#3366cc');
  const store = new MediaStore({ db: t.ctx.db, storage: t.ctx.storage, clock: t.ctx.clock });
  image = await store.put({
    body: png,
    contentType: 'image/png',
    ext: 'png',
    storageClass: 'generated',
    userId: owner.id,
  });
  temp = await store.put({
    body: png,
    contentType: 'image/png',
    ext: 'png',
    storageClass: 'reference',
    userId: owner.id,
  });
  video = await store.put({
    body: Buffer.from('not really an mp4 but bytes are bytes'),
    contentType: 'video/mp4',
    ext: 'mp4',
    storageClass: 'generated',
    userId: owner.id,
  });
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('media routes', () => {
  it('records the object with its class, owner, tags and expiry', async () => {
    expect(image.url).toBe(`/api/images/${image.key}`);
    expect(image.key).toMatch(/^generated\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.png$/);
    expect(temp.key).toMatch(/^temp\/reference\/[0-9a-f-]{36}\.png$/);
    expect(video.url).toBe(`/api/videos/${video.key}`);
    const [row] = await t.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.key, temp.key));
    expect(row).toMatchObject({
      userId: owner.id,
      storageClass: 'reference',
      contentType: 'image/png',
      size: png.length,
    });
    expect(row.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 86_000_000);
    expect(row.tags).toMatchObject({
      AssetType: 'image',
      Classification: 'reference',
      UserId: owner.id,
      IsPersonaAsset: 'false',
    });
    expect(row.tags.ExpiresAt).toBe(row.expiresAt?.toISOString());
  });

  it('serves the owner the whole object with its type and a year of private cache', async () => {
    const res = await get(image.url, authHeader(owner.token));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(png.length));
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.equals(png)).toBe(true);
  });

  it('accepts the session cookie (for <img> and <video>)', async () => {
    const res = await t.app.inject({ method: 'GET', url: image.url, cookies: { [SESSION_COOKIE]: owner.token } });
    expect(res.statusCode).toBe(200);
  });

  it('caches temporary classes for one day', async () => {
    const res = await get(temp.url, authHeader(owner.token));
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, max-age=86400');
  });

  it('answers Range requests with 206 and the exact bytes', async () => {
    const res = await get(image.url, { ...authHeader(owner.token), range: 'bytes=0-9' });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 0-9/${png.length}`);
    expect(res.headers['content-length']).toBe('10');
    expect(res.rawPayload.equals(png.subarray(0, 10))).toBe(true);

    const open = await get(image.url, { ...authHeader(owner.token), range: 'bytes=20-' });
    expect(open.statusCode).toBe(206);
    expect(open.rawPayload.equals(png.subarray(20))).toBe(true);

    const suffix = await get(image.url, { ...authHeader(owner.token), range: 'bytes=-7' });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.headers['content-range']).toBe(`bytes ${png.length - 7}-${png.length - 1}/${png.length}`);
    expect(suffix.rawPayload.equals(png.subarray(png.length - 7))).toBe(true);

    const past = await get(image.url, { ...authHeader(owner.token), range: 'bytes=5-999999' });
    expect(past.statusCode).toBe(206);
    expect(past.rawPayload.equals(png.subarray(5))).toBe(true);
  });

  it('answers 416 for a range past the end', async () => {
    const res = await get(image.url, { ...authHeader(owner.token), range: `bytes=${png.length}-` });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${png.length}`);
    expect(res.json()).toMatchObject({ success: false, error: MESSAGES.media.rangeNotSatisfiable });
  });

  it('ignores a malformed or multi-part range and sends everything', async () => {
    const res = await get(image.url, { ...authHeader(owner.token), range: 'bytes=0-1,4-5' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBe(png.length);
  });

  it('sends an attachment with a safe name for ?download=1', async () => {
    const res = await get(`${image.url}?download=1`, authHeader(owner.token));
    expect(res.statusCode).toBe(200);
    const name = image.key.split('/').at(-1);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="genpro-${name}"`);
    const inline = await get(image.url, authHeader(owner.token));
    expect(inline.headers['content-disposition']).toBeUndefined();
  });

  it('serves video with its content type under /api/videos and any key under the persona prefixes', async () => {
    const res = await get(video.url, authHeader(owner.token));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    const persona = await get(`/api/personas/image/${image.key}`, authHeader(owner.token));
    expect(persona.statusCode).toBe(200);
    expect(persona.headers['content-type']).toBe('image/png');
  });

  it('answers 304 when the ETag matches', async () => {
    const first = await get(image.url, authHeader(owner.token));
    const etag = String(first.headers.etag);
    const again = await get(image.url, { ...authHeader(owner.token), 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('answers HEAD with the headers only', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: image.url, headers: authHeader(owner.token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(png.length));
    expect(res.rawPayload.length).toBe(0);
  });

  it('answers 401 without a session', async () => {
    const res = await get(image.url);
    expect(res.statusCode).toBe(401);
    expect(res.headers['cache-control']).toBe('no-store');
    // An unknown key looks the same to a visitor.
    expect((await get('/api/images/generated/2025/01/00000000-0000-0000-0000-000000000000.png')).statusCode).toBe(401);
  });

  it("answers 404 for another user's key and for unknown or malformed keys", async () => {
    expect((await get(image.url, authHeader(other.token))).statusCode).toBe(404);
    expect((await get(temp.url, authHeader(other.token))).statusCode).toBe(404);
    const unknown = await get(
      '/api/images/generated/2025/01/00000000-0000-0000-0000-000000000000.png',
      authHeader(owner.token),
    );
    expect(unknown.statusCode).toBe(404);
    for (const bad of [
      '/api/images/..%2F..%2Fetc%2Fpasswd',
      '/api/images/generated/../../x.png',
      '/api/images/.meta/x.json',
      '/api/images/x',
    ]) {
      expect((await get(bad, authHeader(owner.token))).statusCode, bad).toBe(404);
    }
  });

  it("answers 404 to an admin on another user's private object: admins read it only through the audited admin route", async () => {
    expect((await get(image.url, authHeader(admin.token))).statusCode).toBe(404);
    const key = image.url.slice('/api/images/'.length);
    expect((await get(`/api/admin/media/${key}`, authHeader(admin.token))).statusCode).toBe(200);
  });

  it('serves public objects to anyone with public caching', async () => {
    const store = new MediaStore({ db: t.ctx.db, storage: t.ctx.storage, clock: t.ctx.clock });
    const shared = await store.put({
      body: png,
      contentType: 'image/png',
      ext: 'png',
      storageClass: 'generated',
      userId: owner.id,
      isPublic: true,
    });
    const res = await get(shared.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves a signed URL without a session, and refuses it expired or tampered', async () => {
    const signed = signMediaUrl(t.config, image.url, 60);
    expect(signed).toMatch(/\?expires=\d+&sig=[A-Za-z0-9_-]{43}$/);
    const res = await get(signed);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(png)).toBe(true);

    const ranged = await get(signed, { range: 'bytes=1-3' });
    expect(ranged.statusCode).toBe(206);

    const expired = signMediaUrl(t.config, image.url, 60, new Date(Date.now() - 3_600_000));
    const old = await get(expired);
    expect(old.statusCode).toBe(403);
    expect(old.json()).toMatchObject({ error: MESSAGES.media.linkExpired, code: 'link_expired' });

    const tampered = signed.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    expect((await get(tampered)).statusCode).toBe(403);
    const longer = signed.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 1000}`);
    expect((await get(longer)).statusCode).toBe(403);
    // A signature is for one path only.
    const elsewhere = signed.replace(image.url, temp.url);
    expect((await get(elsewhere)).statusCode).toBe(403);
    expect((await get(`${image.url}?sig=abc`)).statusCode).toBe(403);
  });

  it('signs with the secret kept in the database (server_secrets), or MEDIA_URL_SECRET when set', async () => {
    const a = signMediaUrl(t.config, image.url, 60, new Date(0));
    const [row] = await t.ctx.db.select().from(serverSecrets).where(eq(serverSecrets.name, 'media-url-secret'));
    expect(Buffer.from(row?.value ?? '', 'base64url').length).toBeGreaterThanOrEqual(32);
    const stored = { storedSecrets: { MEDIA_URL_SECRET: Buffer.from(row?.value ?? '', 'base64url') } };
    expect(signMediaUrl(stored, image.url, 60, new Date(0))).toBe(a);
    // The stored value reused as the variable (how production keeps a secret generated earlier).
    expect(signMediaUrl({ MEDIA_URL_SECRET: `base64url:${row?.value}` }, image.url, 60, new Date(0))).toBe(a);
    const withSecret = signMediaUrl({ ...t.config, MEDIA_URL_SECRET: 'x'.repeat(40) }, image.url, 60, new Date(0));
    expect(withSecret).not.toBe(a);
  });
});
