import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScheduledPost } from '../../../common/api/social.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { socialPosts } from '../../db/schema/index.ts';
import { authHeader, createTestUser, eventually, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { connectSandbox } from './testing.ts';

// Settings › Auto publish: a scheduled post missed because its account was disconnected or its connection had
// expired is published when the account is reconnected (on), or waits for Publish again (off, the default).

const M = MESSAGES.social;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const HOUR = 3_600_000;

/** A scheduled post of `user` that failed at its time (`hoursAgo`) with `error`. */
async function missedPost(user: TestUser, error: string, hoursAgo = 1, message = 'Morning run'): Promise<string> {
  const [row] = await t.ctx.db
    .insert(socialPosts)
    .values({
      userId: user.id,
      platform: 'instagram',
      message,
      // Instagram takes no post without an image or a video (common/rules/social-media.ts).
      mediaUrls: ['https://cdn.example.com/run.jpg'],
      scheduledTime: new Date(Date.now() - hoursAgo * HOUR),
      timezone: 'UTC',
      origin: 'scheduled',
      status: 'failed',
      errorMessage: error,
    })
    .returning();
  return row?.id as string;
}

const statusOf = async (id: string) =>
  (await t.ctx.db.select().from(socialPosts).where(eq(socialPosts.id, id)))[0]?.status;

async function disconnect(user: TestUser) {
  const res = await t.app.inject({
    method: 'DELETE',
    url: '/api/social/accounts?platform=instagram',
    headers: authHeader(user.token),
  });
  expect(res.statusCode, res.body).toBe(200);
}

const setAutoPublish = (user: TestUser, autoPublish: boolean) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/users/settings',
    headers: authHeader(user.token),
    payload: { autoPublish },
  });

describe('missed scheduled posts', () => {
  it('with Auto publish on, are published when the account is reconnected; only recent ones missed for the connection', async () => {
    const user = await createTestUser(t.ctx.db, { role: 'brand' });
    expect((await setAutoPublish(user, true)).statusCode).toBe(200);
    const notConnected = await missedPost(user, M.platformNotConnected('Instagram'));
    const expired = await missedPost(user, M.tokenExpired, 30);
    const tooOld = await missedPost(user, M.tokenExpired, 8 * 24);
    const otherCause = await missedPost(user, `${M.publishFailed}: the network refused it`);

    const page = await connectSandbox(t, user, 'instagram');
    expect(page).toContain(M.connectedResumed(2));
    await eventually(async () => (await statusOf(notConnected)) === 'published', { what: `notConnected published` });
    await eventually(async () => (await statusOf(expired)) === 'published', { what: `expired published` });
    expect(await statusOf(tooOld)).toBe('failed');
    expect(await statusOf(otherCause)).toBe('failed');
    // Reconnecting again sends nothing twice.
    await disconnect(user);
    expect(await connectSandbox(t, user, 'instagram')).toContain(M.connectedCloseTab);
  });

  it('with Auto publish off, wait for Publish again, which only the owner can use on a failed post', async () => {
    const user = await createTestUser(t.ctx.db, { role: 'brand' });
    const other = await createTestUser(t.ctx.db, { role: 'brand' });
    const missed = await missedPost(user, M.platformNotConnected('Instagram'));
    const again = (who: TestUser, id: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/social/scheduled-posts/${id}/publish-again`,
        headers: authHeader(who.token),
      });

    // Not connected yet: refused with the spec's message.
    const early = await again(user, missed);
    expect(early.statusCode).toBe(400);
    expect(early.json().error).toBe(M.noAccounts);

    expect(await connectSandbox(t, user, 'instagram')).toContain(M.connectedCloseTab);
    expect(await statusOf(missed)).toBe('failed');

    expect((await again(other, missed)).statusCode).toBe(404);
    const res = await again(user, missed);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { data: ScheduledPost }).data.id).toBe(missed);
    await eventually(async () => (await statusOf(missed)) === 'published', { what: `missed published` });
    const twice = await again(user, missed);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe(M.onlyFailedRepublish);
  });
});
