// Attack class: the demo's sandbox networks left open in production (issue 27, finding 4). The audit connected
// Instagram on a production studio and got the studio's own sandbox consent page, so "published" posts became
// public pages on the studio. In production a network without live credentials is unavailable, with the reason
// (as engines are), unless SANDBOX_NETWORKS=true; connect, publish, scheduled posts and the sandbox pages follow.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SocialAccount } from '../../../common/api/social.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { socialAccounts, socialPosts } from '../../db/schema/index.ts';
import { dispatchDuePosts } from '../../features/social/scheduled-posts.ts';
import { type SmtpSink, startSmtpSink } from '../../platform/mail/smtp-sink.ts';
import { authHeader, createTestUser, eventually } from '../fixtures.ts';
import { createTestApp, type TestApp } from '../harness.ts';

const M = MESSAGES.social;

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink?.close();
});

const production = (extra: Record<string, string> = {}) => ({
  NODE_ENV: 'production',
  SMTP_URL: sink.url,
  TRUST_PROXY: 'false',
  PUBLIC_URL: 'https://studio.example',
  SOCIAL_SCHEDULER_INTERVAL_SECONDS: '3600',
  ...extra,
});

const connect = (t: TestApp, token: string, platform: string) =>
  t.app.inject({ method: 'POST', url: `/api/social/connect/${platform}`, headers: authHeader(token) });

async function accounts(t: TestApp, token: string) {
  const res = await t.app.inject({ method: 'GET', url: '/api/social/accounts', headers: authHeader(token) });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: { accounts: SocialAccount[] } }).data.accounts;
}

describe('production without network credentials', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: production() });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists every network as unavailable, with the reason and what enables it', async () => {
    const user = await createTestUser(t.ctx.db);
    const list = await accounts(t, user.token);
    expect(list).toHaveLength(6);
    for (const account of list)
      expect(account, account.platform).toMatchObject({ available: false, isConnected: false });
    expect(list.find((a) => a.platform === 'instagram')?.unavailableReason).toBe(
      M.networkUnavailable('Instagram', 'INSTAGRAM'),
    );
    expect(list.find((a) => a.platform === 'twitter')?.unavailableReason).toBe(
      'X (Twitter) is not available on this server. Set TWITTER_CLIENT_ID and TWITTER_CLIENT_SECRET, or SANDBOX_NETWORKS=true for the sandbox network',
    );
  });

  it('refuses POST /api/social/connect/instagram with 503 and the reason, and serves no sandbox consent page', async () => {
    const user = await createTestUser(t.ctx.db);
    const res = await connect(t, user.token, 'instagram');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      success: false,
      code: 'network_unavailable',
      error: M.networkUnavailable('Instagram', 'INSTAGRAM'),
      messageKey: 'social.networkUnavailable',
    });
    expect(res.json().error).toContain('INSTAGRAM_CLIENT_ID');
    expect(res.json().error).toContain('SANDBOX_NETWORKS=true');
    expect(res.headers['set-cookie']).toBeUndefined();
    const twitter = await connect(t, user.token, 'twitter');
    expect(twitter.statusCode).toBe(503);
    expect(twitter.json().error).toContain('TWITTER_CLIENT_ID');
    // The sandbox network's pages are not there: no consent page, no public post pages on the studio.
    for (const url of [
      '/social/sandbox/instagram/authorize?redirect_uri=x&state=abcdefgh&code_challenge=x&code_challenge_method=S256',
      `/social/sandbox/instagram/posts/${crypto.randomUUID()}`,
    ]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });

  it('publishes nothing to a sandbox account kept from before: publish now answers 503, a due post fails with the reason', async () => {
    const user = await createTestUser(t.ctx.db);
    // An account connected to the sandbox network earlier (e.g. while SANDBOX_NETWORKS was on).
    await t.ctx.db.insert(socialAccounts).values({
      userId: user.id,
      platform: 'instagram',
      mode: 'sandbox',
      username: 'kept',
      accessTokenSealed: 'v1.x.y.z',
    });
    const now = await t.app.inject({
      method: 'POST',
      url: '/api/social/publish',
      headers: authHeader(user.token),
      payload: { message: 'Hello', platforms: ['instagram'], mode: 'materials' },
    });
    expect(now.statusCode).toBe(503);
    expect(now.json().error).toBe(M.networkUnavailable('Instagram', 'INSTAGRAM'));
    const scheduled = await t.app.inject({
      method: 'POST',
      url: '/api/social/scheduled-posts',
      headers: authHeader(user.token),
      payload: {
        message: 'Later',
        platforms: ['instagram'],
        scheduled_time: new Date(Date.now() + 86_400_000).toISOString(),
        timezone: 'UTC',
        mode: 'materials',
      },
    });
    expect(scheduled.statusCode).toBe(503);

    // A post scheduled before (while the network was offered) comes due: the worker does not send it.
    const past = new Date(Date.now() - 60_000);
    const [post] = await t.ctx.db
      .insert(socialPosts)
      .values({
        userId: user.id,
        platform: 'instagram',
        message: 'Scheduled earlier',
        mediaUrls: [],
        scheduledTime: past,
        timezone: 'UTC',
        origin: 'scheduled',
        createdAt: past,
        updatedAt: past,
      })
      .returning();
    await dispatchDuePosts(t.ctx);
    const done = await eventually(async () => {
      const [row] = await t.ctx.db
        .select()
        .from(socialPosts)
        .where(eq(socialPosts.id, post?.id as string));
      return row?.status === 'failed' ? row : undefined;
    });
    expect(done.errorMessage).toBe(M.networkUnavailable('Instagram', 'INSTAGRAM'));
    expect(done.shareUrl).toBeNull();
    expect(done.externalId).toBeNull();
  });
});

describe('production with SANDBOX_NETWORKS=true (a staging site)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: production({ SANDBOX_NETWORKS: 'true' }) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('offers the sandbox networks: connect answers the sandbox consent page', async () => {
    const user = await createTestUser(t.ctx.db);
    const list = await accounts(t, user.token);
    expect(list.every((a) => a.available && a.unavailableReason === null && a.mode === 'sandbox')).toBe(true);
    const res = await connect(t, user.token, 'instagram');
    expect(res.statusCode).toBe(200);
    const authUrl = new URL(res.json().authUrl);
    expect(`${authUrl.origin}${authUrl.pathname}`).toBe('https://studio.example/social/sandbox/instagram/authorize');
    const consent = await t.app.inject({
      method: 'GET',
      url: `${authUrl.pathname}${authUrl.search}`,
      headers: { cookie: `genpro_session=${user.token}` },
    });
    expect(consent.statusCode).toBe(200);
  });
});

describe('production with live credentials', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: production({
        TWITTER_CLIENT_ID: 'x-client',
        TWITTER_CLIENT_SECRET: 'x-secret',
        TWITTER_AUTH_BASE: 'https://x.example',
        TWITTER_API_BASE: 'https://api.x.example',
      }),
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("connects X through the live connector's authorize URL; networks without credentials stay unavailable", async () => {
    const user = await createTestUser(t.ctx.db);
    const list = await accounts(t, user.token);
    expect(list.find((a) => a.platform === 'twitter')).toMatchObject({
      available: true,
      unavailableReason: null,
      mode: 'live',
    });
    expect(list.find((a) => a.platform === 'linkedin')).toMatchObject({ available: false });
    const res = await connect(t, user.token, 'twitter');
    expect(res.statusCode).toBe(200);
    const authUrl = new URL(res.json().authUrl);
    expect(authUrl.origin).toBe('https://x.example');
    expect(authUrl.searchParams.get('client_id')).toBe('x-client');
    expect(authUrl.searchParams.get('redirect_uri')).toBe('https://studio.example/api/social/oauth/twitter');
    expect((await connect(t, user.token, 'instagram')).statusCode).toBe(503);
  });
});
