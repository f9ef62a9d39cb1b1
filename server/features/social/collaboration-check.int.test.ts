import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { socialAccounts } from '../../db/schema/index.ts';
import { authHeader, createTestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

// The active-collaborations list cannot be read: the spec's message, and nothing is published.
vi.mock(import('../campaigns/applications.ts'), async (original) => ({
  ...(await original()),
  myActiveCollaborations: vi.fn(async () => {
    throw new Error('database unavailable');
  }),
}));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { SOCIAL_SCHEDULER_INTERVAL_SECONDS: '3600' } });
});
afterAll(async () => {
  await t?.close();
});

it("answers 'Could not validate collaboration. Please try again.' when the list call fails", async () => {
  const creator = await createTestUser(t.ctx.db, { role: 'creator' });
  // A connected account without going through the pages (covered in social.int.test.ts).
  await t.ctx.db.insert(socialAccounts).values({
    userId: creator.id,
    platform: 'instagram',
    mode: 'sandbox',
    username: 'creator',
    accessTokenSealed: 'v1.x.y.z',
  });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/social/publish',
    headers: authHeader(creator.token),
    payload: { message: 'Hi', platforms: ['instagram'], collaboration_id: crypto.randomUUID() },
  });
  expect(res.statusCode).toBe(503);
  expect(res.json().error).toBe('Could not validate collaboration. Please try again.');
});
