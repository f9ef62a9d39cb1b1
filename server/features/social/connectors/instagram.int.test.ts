import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SocialAccount } from '../../../../common/api/social.ts';
import { MESSAGES } from '../../../../common/messages.ts';
import { loadConfig } from '../../../config.ts';
import { socialAccounts, socialPublishJournal } from '../../../db/schema/index.ts';
import { type InstagramFake, startInstagramFake } from '../../../test/fakes/instagram.ts';
import { authHeader, createTestUser } from '../../../test/fixtures.ts';
import { createTestApp } from '../../../test/harness.ts';
import { testPublishJournal } from '../../../test/publish-journal.ts';
import { refreshStaleMetrics } from '../metrics.ts';
import { INSTAGRAM_API_VERSION, instagramConnector } from './instagram.ts';
import { connectorFor, networkAvailability } from './registry.ts';
import type { PostInput, PostMedia } from './types.ts';

// Contract tests of the Instagram connector (Instagram API with Instagram Login) against its local fake.

let fake: InstagramFake;
let jpegUrl: string;
let jpeg2Url: string;
let pngUrl: string;
let videoUrl: string;

beforeAll(async () => {
  fake = await startInstagramFake();
  const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#33aa77' } })
    .jpeg()
    .toBuffer();
  jpegUrl = fake.host('a.jpg', 'image/jpeg', jpeg);
  jpeg2Url = fake.host('b.jpg', 'image/jpeg', jpeg);
  pngUrl = fake.host('c.png', 'image/png', Buffer.from('not really a png'));
  videoUrl = fake.host('v.mp4', 'video/mp4', Buffer.from('ftypmp42 fake video bytes'));
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.throttle.count = 0;
  fake.serverErrors = 0;
  fake.throttlePublish = 0;
  fake.loseNextPublishReply = false;
  fake.videoPolls = 2;
  fake.quotaTotal = 100;
  fake.quotaLagging = false;
});

const publishes = testPublishJournal();
/** A connector as a process of the studio builds it: nothing shared with another but the database's journal. */
const connector = (extra: { maxPolls?: number; pollIntervalMs?: number } = {}) =>
  instagramConnector({
    journal: publishes.journal(),
    clientId: fake.client.id,
    clientSecret: fake.client.secret,
    apiBase: fake.base,
    authBase: fake.base,
    tokenBase: fake.base,
    pollIntervalMs: 5,
    ...extra,
  });

const media = (kind: 'image' | 'video', url: string, contentType?: string): PostMedia => ({
  kind,
  contentType: contentType ?? (kind === 'image' ? 'image/jpeg' : 'video/mp4'),
  sizeBytes: 1000,
  width: 40,
  height: 30,
  durationSeconds: kind === 'video' ? 5 : null,
  url,
  read: async () => Buffer.alloc(0),
});

let keys = 0;
const postInput = (message: string, items: PostMedia[]): PostInput => ({
  message,
  mediaUrls: items.map((m) => m.url),
  media: items,
  idempotencyKey: `post-${++keys}`,
  authorId: fake.account.userId,
});

const graphPath = (path: string) => `/${INSTAGRAM_API_VERSION}${path}`;
const requestsSince = (n: number) => fake.requests.slice(n);

describe('instagram connector: connect and refresh', () => {
  it('sends the user to Business Login, exchanges the code (form-encoded) for a long-lived token and reads the account', async () => {
    const c = connector();
    const auth = c.generateAuthUrl('https://studio.example.com/api/social/oauth/instagram');
    const u = new URL(auth.url);
    expect(`${u.origin}${u.pathname}`).toBe(`${fake.base}/oauth/authorize`);
    expect(Object.fromEntries(u.searchParams)).toEqual({
      client_id: fake.client.id,
      redirect_uri: 'https://studio.example.com/api/social/oauth/instagram',
      response_type: 'code',
      scope: 'instagram_business_basic,instagram_business_content_publish,instagram_business_manage_insights',
      state: auth.state,
    });

    const { code } = fake.approve(auth.url);
    const before = fake.requests.length;
    // Instagram appends `#_` to the code it sends back.
    const { tokens, profile } = await c.authenticate({
      code: `${code}#_`,
      codeVerifier: auth.codeVerifier,
      redirectUri: 'https://studio.example.com/api/social/oauth/instagram',
    });
    const [exchange, longLived, me] = requestsSince(before);
    expect(exchange).toMatchObject({
      method: 'POST',
      path: '/oauth/access_token',
      body: {
        client_id: fake.client.id,
        client_secret: fake.client.secret,
        grant_type: 'authorization_code',
        redirect_uri: 'https://studio.example.com/api/social/oauth/instagram',
        code,
      },
    });
    expect(exchange?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(longLived).toMatchObject({ method: 'GET', path: '/access_token' });
    expect(me).toMatchObject({ method: 'GET', path: graphPath('/me') });
    expect(fake.tokens.get(tokens.accessToken)?.kind).toBe('long');
    // No OAuth refresh token: the long-lived token refreshes itself.
    expect(tokens.refreshToken).toBe(tokens.accessToken);
    expect(tokens.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 59 * 86_400_000);
    expect(profile).toEqual({ externalId: fake.account.userId, username: 'genpro_ig', followerCount: 321 });

    // A code is good once; a wrong redirect URI is refused.
    await expect(
      c.authenticate({ code, codeVerifier: auth.codeVerifier, redirectUri: 'https://studio.example.com/cb' }),
    ).rejects.toMatchObject({ failure: 'bad-body', message: expect.stringContaining('authorization code') });
    const other = fake.approve(auth.url);
    await expect(
      c.authenticate({ code: other.code, codeVerifier: '', redirectUri: 'https://elsewhere.example.com/cb' }),
    ).rejects.toMatchObject({ failure: 'bad-body' });
  });

  it('refreshes the long-lived token with ig_refresh_token; a token Instagram no longer knows needs reconnecting', async () => {
    const c = connector();
    const token = fake.issueLongLived();
    const before = fake.requests.length;
    const next = await c.refreshToken(token);
    expect(requestsSince(before)).toMatchObject([{ method: 'GET', path: '/refresh_access_token' }]);
    expect(next.accessToken).not.toBe(token);
    expect(next.refreshToken).toBe(next.accessToken);
    expect(next.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 59 * 86_400_000);
    expect(fake.tokens.has(token)).toBe(false);
    await expect(c.refreshToken(token)).rejects.toMatchObject({ failure: 'refresh-token' });
  });
});

describe('instagram connector: publishing', () => {
  let token: string;
  beforeAll(() => {
    token = fake.issueLongLived();
  });

  it('publishes one image: a container with image_url and caption, then media_publish; the permalink is the share URL', async () => {
    const before = fake.requests.length;
    const out = await connector().post(token, postInput('One picture', [media('image', jpegUrl)]));
    const published = fake.media[0];
    expect(out).toEqual({ externalId: published?.id, shareUrl: published?.permalink, views: null });
    expect(published).toMatchObject({ caption: 'One picture', mediaType: 'IMAGE', urls: [jpegUrl] });
    const posts = requestsSince(before).filter((r) => r.method === 'POST');
    expect(posts.map((r) => [r.path, r.body])).toEqual([
      [graphPath(`/${fake.account.userId}/media`), { image_url: jpegUrl, caption: 'One picture' }],
      [graphPath(`/${fake.account.userId}/media_publish`), { creation_id: published?.containerId }],
    ]);
    expect(posts[0]?.headers.authorization).toBe(`Bearer ${token}`);
    expect(fake.containers.get(published?.containerId as string)?.status).toBe('PUBLISHED');
  });

  it('publishes a video as a Reel, polling the container until FINISHED', async () => {
    fake.videoPolls = 3;
    const before = fake.requests.length;
    const out = await connector().post(token, postInput('A reel', [media('video', videoUrl)]));
    const published = fake.media[0];
    expect(out.externalId).toBe(published?.id);
    expect(published).toMatchObject({ caption: 'A reel', mediaType: 'VIDEO', urls: [videoUrl] });
    const sent = requestsSince(before);
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({
      media_type: 'REELS',
      video_url: videoUrl,
      caption: 'A reel',
    });
    const isCheck = (r: (typeof sent)[number]) =>
      r.method === 'GET' && r.path === graphPath(`/${published?.containerId}`);
    // Three IN_PROGRESS answers, then FINISHED; published only after that.
    expect(sent.filter(isCheck).length).toBe(4);
    expect(sent.findIndex((r) => r.path.endsWith('/media_publish'))).toBeGreaterThan(sent.findLastIndex(isCheck));
  });

  it('publishes several media as a carousel: items with is_carousel_item, then a CAROUSEL container with children', async () => {
    const before = fake.requests.length;
    const items = [media('image', jpegUrl), media('image', jpeg2Url), media('video', videoUrl)];
    const out = await connector().post(token, postInput('Three at once', items));
    const published = fake.media[0];
    expect(out.externalId).toBe(published?.id);
    expect(published).toMatchObject({
      caption: 'Three at once',
      mediaType: 'CAROUSEL_ALBUM',
      urls: [jpegUrl, jpeg2Url, videoUrl],
    });
    const creates = requestsSince(before).filter((r) => r.method === 'POST' && r.path.endsWith('/media'));
    expect(creates.map((r) => r.body)).toEqual([
      { image_url: jpegUrl, is_carousel_item: true },
      { image_url: jpeg2Url, is_carousel_item: true },
      { media_type: 'VIDEO', video_url: videoUrl, is_carousel_item: true },
      {
        media_type: 'CAROUSEL',
        children: fake.containers.get(published?.containerId as string)?.children.join(','),
        caption: 'Three at once',
      },
    ]);
  });

  it('refuses a post without media, with a clear message, before calling Instagram; and media types it does not take', async () => {
    const before = fake.requests.length;
    await expect(connector().post(token, postInput('Just words', []))).rejects.toMatchObject({
      failure: 'bad-body',
      message: MESSAGES.social.instagramNeedsMedia,
    });
    await expect(
      connector().post(token, postInput('A png', [media('image', pngUrl, 'image/png')])),
    ).rejects.toMatchObject({ failure: 'bad-body', message: expect.stringContaining('JPEG') });
    const eleven = Array.from({ length: 11 }, () => media('image', jpegUrl));
    await expect(connector().post(token, postInput('Too many', eleven))).rejects.toMatchObject({
      failure: 'bad-body',
    });
    expect(fake.requests.length).toBe(before);
  });

  it('a container Instagram cannot process (ERROR) refuses the post with its reason', async () => {
    const mediaBefore = fake.media.length;
    // Announced as JPEG, served as PNG: Instagram's fetch finds out.
    const err = await connector()
      .post(token, postInput('Wrong bytes', [media('image', pngUrl)]))
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ failure: 'bad-body', message: expect.stringContaining('2207009') });
    // Served as image/jpeg, but the bytes are a PNG: Instagram reads the file, not the label.
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const labelled = fake.host('labelled.jpg', 'image/jpeg', png);
    const refused = await connector()
      .post(token, postInput('PNG bytes', [media('image', labelled)]))
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ failure: 'bad-body', message: expect.stringContaining('2207009') });
    expect(fake.media.length).toBe(mediaBefore);
  });

  it('gives up polling after its bound (retry) and stops when the signal aborts', async () => {
    fake.videoPolls = 100;
    await expect(
      connector({ maxPolls: 3 }).post(token, postInput('Slow video', [media('video', videoUrl)])),
    ).rejects.toMatchObject({ failure: 'retry' });
    const controller = new AbortController();
    const pending = connector({ pollIntervalMs: 60_000 }).post(
      token,
      postInput('Stopped video', [media('video', videoUrl)]),
      controller.signal,
    );
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ failure: 'retry' });
  });
});

describe('instagram connector: failure classes', () => {
  it('maps code 190 to refresh-token, throttling codes and 5xx to retry (with the usage headers), others to bad-body', async () => {
    const c = connector();
    const input = postInput('Errors', [media('image', jpegUrl)]);
    await expect(c.post('not-a-token', input)).rejects.toMatchObject({
      failure: 'refresh-token',
      message: expect.stringContaining('code 190'),
    });
    await expect(c.fetchProfile('not-a-token')).rejects.toMatchObject({ failure: 'refresh-token' });

    const token = fake.issueLongLived();
    for (const code of [4, 17, 32, 613] as const) {
      fake.throttle = { count: 1, code, minutes: 2 };
      const err = await c.fetchProfile(token).catch((e: unknown) => e);
      expect(err).toMatchObject({ failure: 'retry', retryAfterSeconds: 120, status: 400 });
      expect((err as Error).message).toContain(`code ${code}`);
    }
    fake.throttle = { count: 1, code: 4, minutes: 0 };
    expect(await c.fetchProfile(token).catch((e: unknown) => e)).toMatchObject({
      failure: 'retry',
      retryAfterSeconds: undefined,
    });
    fake.serverErrors = 1;
    expect(await c.fetchProfile(token).catch((e: unknown) => e)).toMatchObject({ failure: 'retry', status: 500 });

    // A caption over Instagram's 2200 characters: refused as it is (code 100).
    await expect(c.post(token, postInput('x'.repeat(2201), [media('image', jpegUrl)]))).rejects.toMatchObject({
      failure: 'bad-body',
      message: expect.stringContaining('code 100'),
    });
  });
});

describe('instagram connector: publishing limit', () => {
  it("reads content_publishing_limit before creating containers: a full quota is a retry in an hour, nothing sent; Instagram's own refusal (2207042) too", async () => {
    const c = connector();
    const token = fake.issueLongLived();
    fake.quotaTotal = fake.media.length;
    const before = fake.requests.length;
    await expect(c.post(token, postInput('Over the limit', [media('image', jpegUrl)]))).rejects.toMatchObject({
      failure: 'retry',
      retryAfterSeconds: 3600,
      message: expect.stringContaining('publishing limit'),
    });
    const sent = requestsSince(before);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET ${graphPath(`/${fake.account.userId}/media`)}`,
      `GET ${graphPath(`/${fake.account.userId}/content_publishing_limit`)}`,
    ]);
    // Instagram refuses media_publish itself when the limit is reached meanwhile (the limit read lagging).
    fake.quotaLagging = true;
    const racing = c.post(token, postInput('Raced the limit', [media('image', jpegUrl)]));
    const err = await racing.catch((e: unknown) => e);
    expect(err).toMatchObject({ failure: 'retry', message: expect.stringContaining('2207042') });
  });
});

describe('instagram connector: idempotency', () => {
  it('a retried publish whose reply was lost returns the media already published, in another process, without its journal entry too', async () => {
    const token = fake.issueLongLived();
    const input = postInput('Posted once', [media('image', jpegUrl)]);
    const mediaBefore = fake.media.length;
    // Instagram publishes the container, but its answer never reaches the studio, whose process then dies.
    fake.loseNextPublishReply = true;
    await expect(connector().post(token, input)).rejects.toMatchObject({ failure: 'retry', status: 500 });
    expect(fake.media.length).toBe(mediaBefore + 1);
    const published = fake.media[0];
    const row = await publishes.row('instagram', fake.account.userId, input.idempotencyKey);
    // The container was recorded before media_publish; no token is.
    expect(fake.containers.has(String(row?.state?.containerId))).toBe(true);
    expect(row?.state?.outcome).toBeUndefined();
    expect(JSON.stringify(row)).not.toContain(token);

    // The task runs again in another process (a new connector, nothing in memory): the container says PUBLISHED.
    const containersBefore = fake.containers.size;
    const before = fake.requests.length;
    const again = await connector().post(token, input);
    expect(again).toEqual({ externalId: published?.id, shareUrl: published?.permalink, views: null });
    expect(requestsSince(before).map((r) => `${r.method} ${r.path}`)).toContain(
      `GET ${graphPath(`/${String(row?.state?.containerId)}`)}`,
    );
    // Recorded: the next process answers it without asking Instagram.
    const requests = fake.requests.length;
    expect(await connector().post(token, input)).toEqual(again);
    expect(fake.requests.length).toBe(requests);
    // Without its journal entry (swept): found among the account's recent media by its caption.
    await publishes.db().delete(socialPublishJournal);
    expect(await connector().post(token, input)).toEqual(again);
    expect(fake.media.length).toBe(mediaBefore + 1);
    expect(fake.containers.size).toBe(containersBefore);
  });

  it('a publish throttled at media_publish is retried with the same container', async () => {
    const c = connector();
    const token = fake.issueLongLived();
    const input = postInput('Throttled at the end', [media('image', jpegUrl)]);
    const before = fake.requests.length;
    const containersBefore = fake.containers.size;
    fake.throttlePublish = 1;
    await expect(c.post(token, input)).rejects.toMatchObject({ failure: 'retry', retryAfterSeconds: 60 });
    expect(fake.containers.size).toBe(containersBefore + 1);
    const out = await c.post(token, input);
    expect(fake.containers.size).toBe(containersBefore + 1);
    expect(fake.media[0]).toMatchObject({ id: out.externalId, caption: 'Throttled at the end' });
    expect(requestsSince(before).filter((r) => r.path.endsWith('/media_publish')).length).toBe(2);
  });
});

describe('instagram connector: figures', () => {
  it("reads the account's followers and each media's insights; no insights → like and comment counts; a deleted media is left out", async () => {
    const c = connector();
    const token = fake.issueLongLived();
    fake.account.followers = 4321;
    expect(await c.fetchProfile(token)).toEqual({ followerCount: 4321 });

    const a = await c.post(token, postInput('Figures A', [media('image', jpegUrl)]));
    const b = await c.post(token, postInput('Figures B', [media('image', jpegUrl)]));
    const ma = fake.media.find((m) => m.id === a.externalId);
    const mb = fake.media.find((m) => m.id === b.externalId);
    if (!ma || !mb) throw new Error('not published');
    ma.insights = { views: 900, likes: 40, comments: 6, shares: 3 };
    mb.insights = null;
    const before = fake.requests.length;
    const figures = await c.fetchPostMetrics(token, [a.externalId, b.externalId, '999']);
    expect(figures.get(a.externalId)).toEqual({ views: 900, likes: 40, comments: 6, shares: 3 });
    // Not enough viewers for insights: the counts Instagram shows on the media; views and shares unknown.
    expect(figures.get(b.externalId)).toEqual({ views: null, likes: 0, comments: 0, shares: null });
    expect(figures.has('999')).toBe(false);
    const insightCalls = requestsSince(before).filter((r) => r.path.endsWith('/insights'));
    expect(insightCalls.length).toBe(3);
  });
});

describe('instagram in the registry', () => {
  it('is live when INSTAGRAM_CLIENT_ID/_SECRET are set, pointed at INSTAGRAM_API_BASE/_AUTH_BASE', async () => {
    const config = loadConfig({
      ...process.env,
      INSTAGRAM_CLIENT_ID: fake.client.id,
      INSTAGRAM_CLIENT_SECRET: fake.client.secret,
      INSTAGRAM_API_BASE: fake.base,
      INSTAGRAM_AUTH_BASE: fake.base,
    });
    expect(networkAvailability(config, 'instagram')).toEqual({ available: true, mode: 'live' });
    const c = connectorFor({ config } as Parameters<typeof connectorFor>[0], 'instagram');
    expect(c.mode).toBe('live');
    expect(c.generateAuthUrl('https://studio.example.com/cb').url.startsWith(`${fake.base}/oauth/authorize?`)).toBe(
      true,
    );
    expect(await c.fetchProfile(fake.issueLongLived())).toEqual({ followerCount: fake.account.followers });
  });
});

describe('instagram through the studio', () => {
  it('connects through the studio (cookie-bound callback), lists the account live with its followers, refuses a text-only post with the reason, and reads followers in the refresh pass', async () => {
    const t = await createTestApp({
      env: {
        INSTAGRAM_CLIENT_ID: fake.client.id,
        INSTAGRAM_CLIENT_SECRET: fake.client.secret,
        INSTAGRAM_API_BASE: fake.base,
        INSTAGRAM_AUTH_BASE: fake.base,
        SOCIAL_SCHEDULER_INTERVAL_SECONDS: '3600',
      },
    });
    try {
      const user = await createTestUser(t.ctx.db, { role: 'brand' });
      fake.account.followers = 777;
      const started = await t.app.inject({
        method: 'POST',
        url: '/api/social/connect/instagram',
        headers: authHeader(user.token),
      });
      expect(started.statusCode, started.body).toBe(200);
      const { authUrl } = started.json() as { authUrl: string };
      expect(authUrl.startsWith(`${fake.base}/oauth/authorize?`)).toBe(true);
      const cookie = String(started.headers['set-cookie']).split(';')[0] as string;
      // The authorize page sends the browser back to the studio with the code.
      const authorize = await fetch(authUrl, { redirect: 'manual' });
      const back = new URL(String(authorize.headers.get('location')).replace(/#_$/, ''));
      const cb = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}`, headers: { cookie } });
      expect(cb.statusCode, cb.body).toBe(200);

      const listed = await t.app.inject({
        method: 'GET',
        url: '/api/social/accounts',
        headers: authHeader(user.token),
      });
      const accounts = (listed.json() as { data: { accounts: SocialAccount[] } }).data.accounts;
      expect(accounts.find((a) => a.platform === 'instagram')).toMatchObject({
        mode: 'live',
        username: 'genpro_ig',
        follower_count: 777,
        status: 'connected',
      });

      const before = fake.requests.length;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/social/publish',
        headers: authHeader(user.token),
        payload: { message: 'Words only', platforms: ['instagram'] },
      });
      // Refused before publishing by Instagram's rules (common/rules/social-media.ts).
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toBe(MESSAGES.social.mediaRequired('Instagram'));
      expect(fake.requests.slice(before).filter((r) => r.method === 'POST')).toEqual([]);

      // A token fresh for weeks is left alone; one expiring within the week is refreshed by the refresh pass.
      const refreshes = () => fake.requests.filter((r) => r.path === '/refresh_access_token').length;
      const refreshesBefore = refreshes();
      fake.account.followers = 1500;
      await t.ctx.db
        .update(socialAccounts)
        .set({ metricsUpdatedAt: new Date(Date.now() - 3600_000) })
        .where(eq(socialAccounts.userId, user.id));
      expect(await refreshStaleMetrics(t.ctx)).toBe(1);
      const [row] = await t.ctx.db.select().from(socialAccounts).where(eq(socialAccounts.userId, user.id));
      expect(row?.followerCount).toBe(1500);
      expect(refreshes()).toBe(refreshesBefore);
      await t.ctx.db
        .update(socialAccounts)
        .set({
          metricsUpdatedAt: new Date(Date.now() - 3600_000),
          tokenExpiresAt: new Date(Date.now() + 3 * 86_400_000),
        })
        .where(eq(socialAccounts.userId, user.id));
      expect(await refreshStaleMetrics(t.ctx)).toBe(1);
      expect(refreshes()).toBe(refreshesBefore + 1);
      const [after] = await t.ctx.db.select().from(socialAccounts).where(eq(socialAccounts.userId, user.id));
      expect(after?.tokenExpiresAt?.getTime()).toBeGreaterThan(Date.now() + 59 * 86_400_000);
      expect(after?.accessTokenSealed).not.toBe(row?.accessTokenSealed);
    } finally {
      await t.close();
    }
  });
});
