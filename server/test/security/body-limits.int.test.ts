// Issue 17: JSON bodies are parsed on the event loop, so every route takes BODY_LIMITS.default (1 MB)
// and only routes that carry media inline raise it.
import { randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages.ts';
import { BODY_LIMITS } from '../../platform/http/body-limits.ts';
import { authHeader, createTestUser, type TestUser } from '../fixtures.ts';
import { createTestApp, type TestApp } from '../harness.ts';

const MB = 1024 * 1024;
let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.ctx.db, { credits: 1000 });
});
afterAll(async () => {
  await t?.close();
});

function postRaw(url: string, payload: string, method: 'POST' | 'PUT' = 'POST', token: string | null = user.token) {
  return t.app.inject({
    method,
    url,
    payload,
    headers: { ...(token ? authHeader(token) : {}), 'content-type': 'application/json' },
  });
}

/** Log-out without a session, so that the session of the other calls lives on. */
const logOut = (payload: string) => postRaw('/api/auth/logout', payload, 'POST', null);

describe('request body limits', () => {
  // How fast the 413 comes is a budget of `npm run bench -- speed`, not a test.
  it('answers a 2 MB body to /api/auth/logout with 413, without parsing it', async () => {
    // Not even JSON: had it been parsed, the answer would be 400.
    const garbage = `{${'x'.repeat(2 * MB)}`;
    const manyKeys = JSON.stringify(Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`k${i}`, i])));
    expect(manyKeys.length).toBeGreaterThan(2 * MB);
    for (const payload of [garbage, manyKeys]) {
      const res = await logOut(payload);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({
        success: false,
        error: MESSAGES.generic.bodyTooLarge('1 MB'),
        code: 'body_too_large',
        messageKey: 'generic.bodyTooLarge',
        messageParams: { limit: '1 MB' },
      });
    }
    // Just under the limit is parsed as usual.
    const fits = JSON.stringify({ note: 'x'.repeat(BODY_LIMITS.default - 100) });
    expect((await logOut(fits)).statusCode).toBe(200);
  });

  it('names the limit of the route in the message', async () => {
    const res = await postRaw('/api/ai/generate/image', JSON.stringify({ prompt: 'x'.repeat(13 * MB) }));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: MESSAGES.generic.bodyTooLarge('12 MB'), code: 'body_too_large' });
  });

  it('lets routes with inline media take bodies over 1 MB (they reach validation)', async () => {
    const big = 'x'.repeat(2 * MB);
    const id = randomUUID();
    const routes: [string, 'POST' | 'PUT'][] = [
      ['/api/ai/generate/image', 'POST'],
      ['/api/ai/generate/video', 'POST'],
      ['/api/ai/generate', 'POST'],
      ['/api/ai/generate-video-sequence', 'POST'],
      [`/api/personas/${id}/video`, 'POST'],
      [`/api/personas/${id}/ugc-video`, 'POST'],
      [`/api/personas/${id}/image`, 'POST'],
      ['/api/editor-sessions', 'POST'],
      [`/api/editor-sessions/${id}`, 'PUT'],
      ['/api/editor-sessions/autosave/multi-image-canvas', 'PUT'],
      ['/api/nanobana/edit-image', 'POST'],
      ['/api/nanobana/multi-image-composition', 'POST'],
      ['/api/nanobana/advanced-composition', 'POST'],
      ['/api/ai/generate/multi-composition', 'POST'],
      ['/api/ai/generate/inpaint', 'POST'],
      ['/api/ai/generate/multi-reference', 'POST'],
      ['/api/upload/base64-to-url', 'POST'],
      ['/api/temp-upload', 'POST'],
      ['/api/topaz/enhance', 'POST'],
      ['/api/proxy/enhancor/image-upscaler/queue', 'POST'],
    ];
    for (const [url, method] of routes) {
      const res = await postRaw(url, JSON.stringify({ prompt: big, name: big, unknown: big }), method);
      expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 200)}`).not.toBe(413);
      expect(res.statusCode, `${method} ${url}`).toBeLessThan(500);
    }
  });

  it('still takes a large inline image: a 3 MB JPEG as bare base64 to the canvas edit', async () => {
    const side = 1600;
    const jpeg = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
      .jpeg({ quality: 95 })
      .toBuffer();
    expect(jpeg.length).toBeGreaterThan(2 * MB);
    const res = await postRaw(
      '/api/nanobana/edit-image',
      JSON.stringify({ prompt: 'make it warmer', imageBuffer: jpeg.toString('base64'), imageMimeType: 'image/jpeg' }),
    );
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: { status: 'completed' } });
  });
});
