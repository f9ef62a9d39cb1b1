import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('session checks come before body validation', () => {
  it.each([
    '/api/ai/generate/image',
    '/api/ai/generate/video',
    '/api/ai/film-agent',
    '/api/ai/generate/inpaint',
    '/api/ai/generate/multi-reference',
    '/api/nanobana/edit-image',
    '/api/ai/compile-master-video',
    '/api/characters',
  ])('POST %s without a session answers 401 even for a malformed body', async (url) => {
    const res = await t.app.inject({ method: 'POST', url, payload: { nonsense: true } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, error: 'Authentication required' });
  });
});
