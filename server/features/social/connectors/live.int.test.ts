import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishResult, SocialAccount } from '../../../../common/api/social.ts';
import { MESSAGES } from '../../../../common/messages.ts';
import { postTextLength } from '../../../../common/rules/post-text.ts';
import { socialAccounts, socialOauthStates, socialPosts } from '../../../db/schema/index.ts';
import { authHeader, createTestUser, solidPng, storeUpload, type TestUser } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { refreshStaleMetrics } from '../metrics.ts';
import { linkedinConnector } from './linkedin.ts';
import { twitterConnector } from './twitter.ts';
import { ConnectorError } from './types.ts';

// Contract tests of the X (Twitter) and LinkedIn connectors against a local fake of their documented APIs.

interface Fake {
  server: Server;
  base: string;
  /** code → PKCE challenge, issued when the "user approves". */
  codes: Map<string, string>;
  access: Map<string, 'twitter' | 'linkedin'>;
  refresh: Set<string>;
  /** Next N post calls answer 429. */
  rateLimited: number;
  posts: Array<{ platform: string; body: Record<string, unknown>; headers: IncomingMessage['headers'] }>;
  tokenCalls: Array<Record<string, string>>;
  /** What each network reports: the member's followers and, by network post id, the post's figures. */
  followers: { twitter: number; linkedin: number };
  metrics: Map<string, { views: number; likes: number; comments: number; reposts: number; quotes: number }>;
  /** Query strings of GET /2/tweets lookups. */
  lookups: string[];
}

const CLIENT = { id: 'client-123', secret: 'secret-456' };

function issue(fake: Fake, platform: 'twitter' | 'linkedin') {
  const access = randomBytes(16).toString('hex');
  const refresh = randomBytes(16).toString('hex');
  fake.access.set(access, platform);
  fake.refresh.add(refresh);
  return { token_type: 'bearer', access_token: access, refresh_token: refresh, expires_in: 7200 };
}

async function startFake(): Promise<Fake> {
  const fake = {
    codes: new Map(),
    access: new Map(),
    refresh: new Set(),
    rateLimited: 0,
    posts: [],
    tokenCalls: [],
    followers: { twitter: 42, linkedin: 0 },
    metrics: new Map(),
    lookups: [],
  } as unknown as Fake;
  fake.server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', 'http://fake');
    const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const tokenEndpoint = url.pathname === '/2/oauth2/token' || url.pathname === '/oauth/v2/accessToken';
    if (req.method === 'POST' && tokenEndpoint) {
      const form = Object.fromEntries(new URLSearchParams(raw));
      fake.tokenCalls.push(form);
      const platform = url.pathname === '/2/oauth2/token' ? 'twitter' : 'linkedin';
      if (platform === 'twitter') {
        const expected = `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`;
        if (req.headers.authorization !== expected) return send(401, { error: 'unauthorized_client' });
      } else if (form.client_secret !== CLIENT.secret) {
        return send(401, { error: 'invalid_client' });
      }
      if (form.grant_type === 'authorization_code') {
        const challenge = fake.codes.get(form.code ?? '');
        fake.codes.delete(form.code ?? '');
        const verified = createHash('sha256')
          .update(form.code_verifier ?? '')
          .digest('base64url');
        if (!challenge || challenge !== verified) return send(400, { error: 'invalid_grant' });
        return send(200, issue(fake, platform));
      }
      if (form.grant_type === 'refresh_token') {
        if (!fake.refresh.delete(form.refresh_token ?? '')) {
          return send(400, { error: 'invalid_request', error_description: 'Value passed for the token was invalid.' });
        }
        return send(200, issue(fake, platform));
      }
      return send(400, { error: 'unsupported_grant_type' });
    }
    const platform = fake.access.get(bearer);
    if (!platform) return send(401, { title: 'Unauthorized', detail: 'Unauthorized', status: 401 });
    if (req.method === 'GET' && url.pathname === '/2/users/me') {
      return send(200, {
        data: {
          id: '2244994945',
          name: 'Genpro',
          username: 'genpro_x',
          ...(url.searchParams.get('user.fields')?.split(',').includes('public_metrics')
            ? { public_metrics: { followers_count: fake.followers.twitter, following_count: 3, tweet_count: 9 } }
            : {}),
        },
      });
    }
    // GET /2/tweets?ids=: found tweets under data, the others under errors; public_metrics only when asked.
    if (req.method === 'GET' && url.pathname === '/2/tweets' && platform === 'twitter') {
      fake.lookups.push(url.search);
      const ids = (url.searchParams.get('ids') ?? '').split(',').filter(Boolean);
      if (ids.length === 0 || ids.length > 100) return send(400, { title: 'Invalid Request' });
      const withMetrics = url.searchParams.get('tweet.fields')?.split(',').includes('public_metrics');
      const data = ids
        .filter((id) => fake.metrics.has(id))
        .map((id) => {
          const m = fake.metrics.get(id) as NonNullable<ReturnType<Fake['metrics']['get']>>;
          const public_metrics = {
            retweet_count: m.reposts,
            reply_count: m.comments,
            like_count: m.likes,
            quote_count: m.quotes,
            bookmark_count: 0,
            impression_count: m.views,
          };
          return { id, text: 'x', edit_history_tweet_ids: [id], ...(withMetrics ? { public_metrics } : {}) };
        });
      const errors = ids
        .filter((id) => !fake.metrics.has(id))
        .map((id) => ({ value: id, detail: `Could not find tweet with ids: [${id}].`, title: 'Not Found Error' }));
      return send(200, { ...(data.length ? { data } : {}), ...(errors.length ? { errors } : {}) });
    }
    const versioned = req.headers['linkedin-version'] === '202405';
    if (req.method === 'GET' && url.pathname === '/rest/memberFollowersCount' && platform === 'linkedin') {
      if (!versioned || url.searchParams.get('q') !== 'me') return send(400, { message: 'bad request' });
      return send(200, {
        paging: { start: 0, count: 10, links: [] },
        elements: [{ memberFollowersCount: fake.followers.linkedin }],
      });
    }
    if (req.method === 'GET' && url.pathname.startsWith('/rest/socialActions/') && platform === 'linkedin') {
      const urn = decodeURIComponent(url.pathname.slice('/rest/socialActions/'.length));
      const m = fake.metrics.get(urn);
      if (!versioned || !m) return send(404, { message: 'Not Found', status: 404 });
      return send(200, {
        target: urn,
        likesSummary: { totalLikes: m.likes, likedByCurrentUser: false },
        commentsSummary: { aggregatedTotalComments: m.comments, totalFirstLevelComments: m.comments },
      });
    }
    if (req.method === 'GET' && url.pathname === '/v2/userinfo') {
      return send(200, { sub: 'abc123', name: 'Gen Pro', given_name: 'Gen', family_name: 'Pro' });
    }
    const isPost =
      (req.method === 'POST' && url.pathname === '/2/tweets') ||
      (req.method === 'POST' && url.pathname === '/rest/posts');
    if (isPost) {
      if (fake.rateLimited > 0) {
        fake.rateLimited--;
        return send(429, { title: 'Too Many Requests', detail: 'Too Many Requests' }, { 'retry-after': '1' });
      }
      const body = JSON.parse(raw) as Record<string, unknown>;
      // X counts text by its weighted length (links 23); over 280 it refuses the post.
      if (url.pathname === '/2/tweets') {
        const lines = String(body.text ?? '').split('\n');
        const isLink = (line: string) => /^https?:\/\//.test(line);
        const words = lines.filter((line) => !isLink(line)).join('\n');
        if (postTextLength('twitter', words, lines.filter(isLink)) > 280) {
          return send(400, {
            title: 'Invalid Request',
            detail: 'Your Tweet text is too long.',
            type: 'https://api.twitter.com/2/problems/invalid-request',
            status: 400,
          });
        }
      }
      fake.posts.push({ platform, body, headers: req.headers });
      if (url.pathname === '/2/tweets')
        return send(201, { data: { id: `${1000 + fake.posts.length}`, text: body.text } });
      res.writeHead(201, { 'x-restli-id': `urn:li:share:${7000 + fake.posts.length}` });
      return res.end();
    }
    return send(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  fake.base = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
  return fake;
}

/** What the provider's authorize page does when the user approves: a code bound to the challenge. */
function approve(fake: Fake, authUrl: string): { code: string; state: string } {
  const u = new URL(authUrl);
  const code = randomBytes(8).toString('hex');
  fake.codes.set(code, u.searchParams.get('code_challenge') ?? '');
  return { code, state: u.searchParams.get('state') ?? '' };
}

let fake: Fake;
beforeAll(async () => {
  fake = await startFake();
});
afterAll(async () => {
  await new Promise((resolve) => fake.server.close(resolve));
});

describe.each(['twitter', 'linkedin'] as const)('%s connector contract', (platform) => {
  const connector = () =>
    (platform === 'twitter' ? twitterConnector : linkedinConnector)({
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      apiBase: fake.base,
      authBase: fake.base,
    });

  it('authorizes with PKCE, posts, refreshes, and classifies failures', async () => {
    const c = connector();
    const auth = c.generateAuthUrl('http://localhost:3000/api/social/oauth/x');
    const u = new URL(auth.url);
    expect(u.pathname).toBe(platform === 'twitter' ? '/i/oauth2/authorize' : '/oauth/v2/authorization');
    expect(u.searchParams.get('code_challenge_method')).toBe('S256');
    expect(u.searchParams.get('state')).toBe(auth.state);
    expect(u.searchParams.get('client_id')).toBe(CLIENT.id);

    const { code } = approve(fake, auth.url);
    await expect(
      c.authenticate({ code, codeVerifier: 'wrong-verifier', redirectUri: 'http://localhost:3000/cb' }),
    ).rejects.toMatchObject({ failure: 'bad-body' });
    const again = approve(fake, auth.url);
    const { tokens, profile } = await c.authenticate({
      code: again.code,
      codeVerifier: auth.codeVerifier,
      redirectUri: 'http://localhost:3000/cb',
    });
    expect(tokens.refreshToken).toBeTruthy();
    expect(tokens.expiresAt?.getTime()).toBeGreaterThan(Date.now());
    expect(profile.externalId).toBe(platform === 'twitter' ? '2244994945' : 'abc123');

    const input = {
      message: 'Hello',
      mediaUrls: ['https://cdn.example.com/a.png'],
      idempotencyKey: 'k1',
      authorId: profile.externalId,
    };
    const out = await c.post(tokens.accessToken, input);
    expect(out.shareUrl).toMatch(
      platform === 'twitter'
        ? /^https:\/\/x\.com\/i\/web\/status\/\d+$/
        : /^https:\/\/www\.linkedin\.com\/feed\/update\/urn:li:share:\d+$/,
    );
    const sent = fake.posts.at(-1);
    if (platform === 'twitter') expect(sent?.body).toEqual({ text: 'Hello\nhttps://cdn.example.com/a.png' });
    else {
      expect(sent?.body).toMatchObject({
        author: 'urn:li:person:abc123',
        commentary: 'Hello\nhttps://cdn.example.com/a.png',
        lifecycleState: 'PUBLISHED',
      });
      expect(sent?.headers['x-restli-protocol-version']).toBe('2.0.0');
    }

    await expect(c.post('not-a-token', input)).rejects.toMatchObject({ failure: 'refresh-token' });
    fake.rateLimited = 1;
    const limited = await c.post(tokens.accessToken, input).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(ConnectorError);
    expect(limited).toMatchObject({ failure: 'retry', retryAfterSeconds: 1 });

    const next = await c.refreshToken(tokens.refreshToken as string);
    expect(next.accessToken).not.toBe(tokens.accessToken);
    await expect(c.refreshToken(tokens.refreshToken as string)).rejects.toMatchObject({ failure: 'refresh-token' });
  });
});

describe.each(['twitter', 'linkedin'] as const)('%s connector figures', (platform) => {
  it("reads the member's followers and the posts' figures as the network reports them", async () => {
    const c = (platform === 'twitter' ? twitterConnector : linkedinConnector)({
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      apiBase: fake.base,
      authBase: fake.base,
    });
    const token = issue(fake, platform).access_token;
    fake.followers[platform] = 1234;
    expect(await c.fetchProfile(token)).toEqual({ followerCount: 1234 });
    const id = platform === 'twitter' ? '555001' : 'urn:li:share:555001';
    fake.metrics.set(id, { views: 900, likes: 40, comments: 6, reposts: 3, quotes: 2 });
    const figures = await c.fetchPostMetrics(token, [id]);
    // LinkedIn reports no views or reshares of member posts: null, not 0.
    expect(figures.get(id)).toEqual(
      platform === 'twitter'
        ? { views: 900, likes: 40, comments: 6, shares: 5 }
        : { views: null, likes: 40, comments: 6, shares: null },
    );
    if (platform === 'twitter') {
      // A deleted tweet is left out; the lookup asks for public_metrics.
      expect((await c.fetchPostMetrics(token, [id, '999999'])).has('999999')).toBe(false);
      expect(fake.lookups.at(-1)).toBe('?ids=555001,999999&tweet.fields=public_metrics');
    }
    await expect(c.fetchProfile('not-a-token')).rejects.toMatchObject({ failure: 'refresh-token' });
    fake.followers = { twitter: 42, linkedin: 0 };
  });
});

describe('live connectors through the studio', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        TWITTER_CLIENT_ID: CLIENT.id,
        TWITTER_CLIENT_SECRET: CLIENT.secret,
        TWITTER_API_BASE: fake.base,
        TWITTER_AUTH_BASE: fake.base,
        LINKEDIN_CLIENT_ID: CLIENT.id,
        LINKEDIN_CLIENT_SECRET: CLIENT.secret,
        LINKEDIN_API_BASE: fake.base,
        LINKEDIN_AUTH_BASE: fake.base,
        SOCIAL_SCHEDULER_INTERVAL_SECONDS: '3600',
        // An https studio: its connect cookie is Secure.
        PUBLIC_URL: 'https://studio.example.com',
      },
    });
    user = await createTestUser(t.ctx.db, { role: 'brand' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const startConnect = async (platform: 'twitter' | 'linkedin') => {
    const started = await t.app.inject({
      method: 'POST',
      url: `/api/social/connect/${platform}`,
      headers: authHeader(user.token),
    });
    const { authUrl } = started.json() as { authUrl: string };
    return { authUrl, setCookie: String(started.headers['set-cookie']) };
  };
  const callback = (platform: string, approved: { code: string; state: string }, cookie?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/social/oauth/${platform}?code=${approved.code}&state=${encodeURIComponent(approved.state)}`,
      headers: cookie ? { cookie } : {},
    });

  it('completes a live flow only in the browser that started it', async () => {
    for (const platform of ['twitter', 'linkedin'] as const) {
      const { authUrl, setCookie } = await startConnect(platform);
      expect(setCookie).toMatch(
        new RegExp(
          `^genpro_social_connect=[\\w-]{43}; Max-Age=600; Path=/api/social/oauth/${platform}; HttpOnly; Secure; SameSite=Lax$`,
        ),
      );
      const approved = approve(fake, authUrl);
      const refused = await callback(platform, approved);
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain(MESSAGES.social.connectOtherBrowser);
      expect(
        await t.ctx.db.select().from(socialOauthStates).where(eq(socialOauthStates.state, approved.state)),
      ).toEqual([]);
      // The code was never exchanged.
      expect(fake.codes.has(approved.code)).toBe(true);
    }
    expect(await t.ctx.db.select().from(socialAccounts).where(eq(socialAccounts.userId, user.id))).toEqual([]);
  });

  it('connects X and LinkedIn, refreshes an expiring token, and rides out a 429', async () => {
    for (const platform of ['twitter', 'linkedin'] as const) {
      const { authUrl, setCookie } = await startConnect(platform);
      expect(authUrl.startsWith(fake.base)).toBe(true);
      const cb = await callback(platform, approve(fake, authUrl), setCookie.split(';')[0]);
      expect(cb.statusCode, cb.body).toBe(200);
    }
    const listed = await t.app.inject({ method: 'GET', url: '/api/social/accounts', headers: authHeader(user.token) });
    const accounts = (listed.json() as { data: { accounts: SocialAccount[] } }).data.accounts;
    expect(accounts.find((a) => a.platform === 'twitter')).toMatchObject({
      mode: 'live',
      username: 'genpro_x',
      follower_count: 42,
      status: 'connected',
    });
    expect(accounts.find((a) => a.platform === 'linkedin')).toMatchObject({ mode: 'live', username: 'Gen Pro' });
    expect(accounts.find((a) => a.platform === 'instagram')?.mode).toBe('sandbox');

    // The X token expires in a minute: refreshed before posting.
    await t.ctx.db
      .update(socialAccounts)
      .set({ tokenExpiresAt: new Date(Date.now() + 60_000) })
      .where(eq(socialAccounts.platform, 'twitter'));
    const refreshesBefore = fake.tokenCalls.filter((c) => c.grant_type === 'refresh_token').length;
    fake.rateLimited = 1;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/social/publish',
      headers: authHeader(user.token),
      payload: { message: 'Live post', platforms: ['twitter', 'linkedin'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const results = (res.json() as { data: { results: PublishResult[] } }).data.results;
    expect(results.map((r) => r.status)).toEqual(['published', 'published']);
    expect(results.find((r) => r.platform === 'twitter')?.share_url).toMatch(/^https:\/\/x\.com\/i\/web\/status\//);
    expect(fake.tokenCalls.filter((c) => c.grant_type === 'refresh_token').length).toBe(refreshesBefore + 1);
    const [row] = await t.ctx.db.select().from(socialAccounts).where(eq(socialAccounts.platform, 'twitter'));
    expect(row?.tokenExpiresAt?.getTime()).toBeGreaterThan(Date.now() + 3600_000);
  });

  it("sends the networks the post's own image as a URL on PUBLIC_URL they can fetch without a session (issue 21)", async () => {
    const image = await storeUpload(t.ctx, user.id, await solidPng(20, 10, '#33aa77'), 'image/png', 'png');
    const before = fake.posts.length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/social/publish',
      headers: authHeader(user.token),
      payload: { message: 'With a picture', platforms: ['twitter', 'linkedin'], media_urls: [image.url] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const results = (res.json() as { data: { results: PublishResult[] } }).data.results;
    expect(results.map((r) => r.status)).toEqual(['published', 'published']);
    const sent = fake.posts.slice(before);
    expect(sent.map((p) => p.platform).sort()).toEqual(['linkedin', 'twitter']);
    for (const post of sent) {
      const text = String(post.platform === 'twitter' ? post.body.text : post.body.commentary);
      const postId = results.find((r) => r.platform === post.platform)?.post_id;
      const url = text.split('\n')[1] as string;
      expect(url).toMatch(new RegExp(`^https://studio\\.example\\.com${image.url}\\?post=${postId}&sig=[\\w-]{43}$`));
      const u = new URL(url);
      const got = await t.app.inject({ method: 'GET', url: `${u.pathname}${u.search}` });
      expect(got.statusCode, got.body).toBe(200);
      expect(await sharp(got.rawPayload).metadata()).toMatchObject({ format: 'png', width: 20, height: 10 });
    }
    expect((await t.app.inject({ method: 'GET', url: image.url })).statusCode).toBe(401);
  });

  it('fits a long message to X with its link whole when Cross-post optimization is on, and refuses it when off', async () => {
    const optimizePosts = (crossPostOptimization: boolean) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/users/settings',
        headers: authHeader(user.token),
        payload: { crossPostOptimization },
      });
    const image = await storeUpload(t.ctx, user.id, await solidPng(20, 10, '#aa7733'), 'image/png', 'png');
    const message = Array.from({ length: 70 }, (_, i) => `word${i}`).join(' ');
    const before = fake.posts.length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/social/publish',
      headers: authHeader(user.token),
      payload: { message, platforms: ['twitter', 'linkedin'], media_urls: [image.url] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const results = (res.json() as { data: { results: PublishResult[] } }).data.results;
    expect(results.map((r) => r.status)).toEqual(['published', 'published']);
    const sent = fake.posts.slice(before);
    const tweet = String(sent.find((p) => p.platform === 'twitter')?.body.text);
    const [text, link] = tweet.split('\n');
    expect(text?.endsWith('…')).toBe(true);
    expect(message.startsWith(text?.slice(0, -1) ?? '-')).toBe(true);
    expect(postTextLength('twitter', text ?? '', [link ?? ''])).toBeLessThanOrEqual(280);
    expect(link).toMatch(new RegExp(`^https://studio\\.example\\.com${image.url}\\?post=[\\w-]+&sig=[\\w-]{43}$`));
    // LinkedIn takes 3000 characters: the message goes as written.
    expect(String(sent.find((p) => p.platform === 'linkedin')?.body.commentary).split('\n')[0]).toBe(message);

    // Off: the post is refused for X before anything is sent, with the figures; LinkedIn alone still posts.
    await optimizePosts(false);
    const sentBefore = fake.posts.length;
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/social/publish',
      headers: authHeader(user.token),
      payload: { message, platforms: ['twitter', 'linkedin'], media_urls: [image.url] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: MESSAGES.social.messageTooLong('X (Twitter)', message.length + 24, 280),
      messageKey: 'social.messageTooLong',
      messageParams: { platform: 'X (Twitter)', length: message.length + 24, limit: 280 },
    });
    expect(fake.posts.length).toBe(sentBefore);
    const alone = await t.app.inject({
      method: 'POST',
      url: '/api/social/publish',
      headers: authHeader(user.token),
      payload: { message, platforms: ['linkedin'] },
    });
    expect((alone.json() as { data: { results: PublishResult[] } }).data.results[0]?.status).toBe('published');
    await optimizePosts(true);
  });

  it('the refresh pass reads followers and post figures from X and LinkedIn into the accounts and posts', async () => {
    const published = await t.ctx.db
      .select()
      .from(socialPosts)
      .where(and(eq(socialPosts.userId, user.id), eq(socialPosts.status, 'published')));
    const tweet = published.find((p) => p.platform === 'twitter');
    const share = published.find((p) => p.platform === 'linkedin');
    expect(tweet?.externalId && share?.externalId).toBeTruthy();
    fake.followers = { twitter: 1500, linkedin: 320 };
    fake.metrics.set(tweet?.externalId as string, { views: 2000, likes: 70, comments: 10, reposts: 15, quotes: 5 });
    fake.metrics.set(share?.externalId as string, { views: 0, likes: 12, comments: 3, reposts: 0, quotes: 0 });
    // Fresh figures are left alone; stale ones are read again.
    await refreshStaleMetrics(t.ctx);
    expect(
      (await t.ctx.db.select().from(socialAccounts).where(eq(socialAccounts.platform, 'twitter')))[0]?.followerCount,
    ).toBe(42);
    await t.ctx.db
      .update(socialAccounts)
      .set({ metricsUpdatedAt: new Date(Date.now() - 3600_000) })
      .where(eq(socialAccounts.userId, user.id));
    expect(await refreshStaleMetrics(t.ctx)).toBe(2);
    const listed = await t.app.inject({ method: 'GET', url: '/api/social/accounts', headers: authHeader(user.token) });
    const accounts = (listed.json() as { data: { accounts: SocialAccount[] } }).data.accounts;
    expect(accounts.find((a) => a.platform === 'twitter')?.follower_count).toBe(1500);
    expect(accounts.find((a) => a.platform === 'linkedin')?.follower_count).toBe(320);
    const posts = await t.ctx.db.select().from(socialPosts).where(eq(socialPosts.userId, user.id));
    expect(posts.find((p) => p.id === tweet?.id)).toMatchObject({ views: 2000, likes: 70, comments: 10, shares: 20 });
    expect(posts.find((p) => p.id === share?.id)).toMatchObject({ views: null, likes: 12, comments: 3, shares: null });
    // A network that fails leaves the figures as they were and is tried again next pass.
    await t.ctx.db
      .update(socialAccounts)
      .set({ metricsUpdatedAt: new Date(Date.now() - 3600_000) })
      .where(and(eq(socialAccounts.userId, user.id), eq(socialAccounts.platform, 'linkedin')));
    fake.followers.linkedin = -1;
    expect(await refreshStaleMetrics(t.ctx)).toBe(0);
    const [linkedin] = await t.ctx.db
      .select()
      .from(socialAccounts)
      .where(and(eq(socialAccounts.userId, user.id), eq(socialAccounts.platform, 'linkedin')));
    expect(linkedin?.followerCount).toBe(320);
    expect(linkedin?.metricsUpdatedAt?.getTime()).toBeLessThan(Date.now() - 3000_000);
  });
});
