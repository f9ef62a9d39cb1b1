import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AVATAR } from '../../../common/api/account.constants.ts';
import type { AvatarReply } from '../../../common/api/account.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { mediaObjects, users } from '../../db/schema/index.ts';
import { storedKeyOf } from '../../platform/media/inputs.ts';
import {
  authHeader,
  createTestUser,
  type FilePart,
  multipart,
  solidPng,
  storeUpload,
  type TestUser,
} from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let user: TestUser;
let png: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db);
  png = await solidPng(900, 600, '#3366aa');
});
afterAll(async () => {
  await t?.close();
});

function postAvatar(token: string | null, file: FilePart | FilePart[]) {
  const body = multipart({}, file);
  return t.app.inject({
    method: 'POST',
    url: '/api/users/avatar',
    payload: body.payload,
    headers: { ...body.headers, ...(token ? authHeader(token) : {}) },
  });
}

const keyOf = (url: string) => {
  const key = storedKeyOf(t.config, url);
  if (!key) throw new Error(`not a stored media url: ${url}`);
  return key;
};

describe('POST /api/users/avatar', () => {
  it('needs a session', async () => {
    const res = await postAvatar(null, { filename: 'a.png', contentType: 'image/png', data: png });
    expect(res.statusCode).toBe(401);
  });

  it('accepts an image by its bytes (a PNG named .txt), re-encodes it to a square WebP and deletes the old one', async () => {
    const first = await postAvatar(user.token, { filename: 'me.txt', contentType: 'text/plain', data: png });
    expect(first.statusCode).toBe(200);
    const one = (first.json() as AvatarReply).data;
    expect(one.avatarUrl).toMatch(/^\/api\/images\/upload\/.+\.webp$/);
    expect(one.avatar_url).toBe(one.avatarUrl);
    expect(one.user.avatarUrl).toBe(one.avatarUrl);

    const firstKey = keyOf(one.avatarUrl);
    const stream = await t.ctx.storage.read(firstKey);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const meta = await sharp(Buffer.concat(chunks)).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: AVATAR.sizePx, height: AVATAR.sizePx });

    // Avatars are shown to other users: the object is public.
    const anonymous = await t.app.inject({ method: 'GET', url: one.avatarUrl });
    expect(anonymous.statusCode).toBe(200);

    const gif = await sharp({ create: { width: 40, height: 80, channels: 3, background: '#00ff00' } })
      .gif()
      .toBuffer();
    const second = await postAvatar(user.token, { filename: 'x.gif', contentType: 'image/gif', data: gif });
    expect(second.statusCode).toBe(200);
    const two = (second.json() as AvatarReply).data;
    expect(two.avatarUrl).not.toBe(one.avatarUrl);
    expect(await t.ctx.storage.head(firstKey)).toBeNull();
    expect(await t.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.key, firstKey))).toEqual([]);
    const [row] = await t.ctx.db.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, user.id));
    expect(row.avatarUrl).toBe(two.avatarUrl);
  });

  it('refuses a text file named .png, a file over 5 MB and two files', async () => {
    const text = await postAvatar(user.token, {
      filename: 'fake.png',
      contentType: 'image/png',
      data: Buffer.from('just some text, not an image at all'),
    });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({ error: MESSAGES.account.avatarNotImage });

    const big = Buffer.concat([png, randomBytes(AVATAR.maxMb * 1024 * 1024)]);
    const large = await postAvatar(user.token, { filename: 'big.png', contentType: 'image/png', data: big });
    expect(large.statusCode).toBe(413);
    expect(large.json()).toMatchObject({ error: 'File size exceeds 5MB limit' });

    const two = await postAvatar(user.token, [
      { filename: 'a.png', contentType: 'image/png', data: png },
      { filename: 'b.png', contentType: 'image/png', data: png },
    ]);
    expect(two.statusCode).toBe(400);
    expect(two.json()).toMatchObject({ error: MESSAGES.account.avatarOneFile });

    const video = await postAvatar(user.token, {
      filename: 'clip.png',
      contentType: 'image/png',
      // An MP4 header: a real media type, but not an image.
      data: Buffer.concat([Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex'), randomBytes(64)]),
    });
    expect(video.statusCode).toBe(400);
  });

  it('accepts JSON {avatarUrl} naming an own stored image, not somebody else’s', async () => {
    const mine = await storeUpload(t.ctx, user.id, png, 'image/png', 'png');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/avatar',
      payload: { avatarUrl: mine.url },
      headers: authHeader(user.token),
    });
    expect(res.statusCode).toBe(200);
    const data = (res.json() as AvatarReply).data;
    expect(data.avatarUrl).not.toBe(mine.url);
    // The source upload is the user's own file and stays.
    expect(await t.ctx.storage.head(mine.key)).not.toBeNull();

    const other = await createTestUser(t.ctx.db);
    const theirs = await storeUpload(t.ctx, other.id, png, 'image/png', 'png');
    for (const avatarUrl of [theirs.url, 'https://example.com/a.png', '/api/images/upload/2020/01/nothing.png']) {
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/users/avatar',
        payload: { avatarUrl },
        headers: authHeader(user.token),
      });
      expect(refused.statusCode, avatarUrl).toBe(400);
      expect(refused.json()).toMatchObject({ error: MESSAGES.assets.notYourMedia });
    }
  });
});
