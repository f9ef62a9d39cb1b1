import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishResult, SocialAccount } from '../../../../common/api/social.ts';
import { MESSAGES } from '../../../../common/messages.ts';
import { postTextLength } from '../../../../common/rules/post-text.ts';
import { mediaObjects, socialAccounts, socialOauthStates, socialPosts } from '../../../db/schema/index.ts';
import { isActiveVersion, type LinkedinFake, startLinkedinFake } from '../../../test/fakes/linkedin.ts';
import { startTwitterFake, type TwitterFake } from '../../../test/fakes/twitter.ts';
import {
  authHeader,
  createTestUser,
  makeTestClip,
  solidPng,
  storeUpload,
  type TestUser,
} from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { refreshStaleMetrics } from '../metrics.ts';
import { publishPostTask } from '../posts.ts';
import { LINKEDIN_VERSION, linkedinConnector } from './linkedin.ts';
import { twitterConnector } from './twitter.ts';
import { ConnectorError, type PostMedia } from './types.ts';

// Contract tests of the X (Twitter) and LinkedIn connectors against local fakes of their documented APIs
// (server/test/fakes/twitter.ts, linkedin.ts).

const CLIENT = { id: 'client-123', secret: 'secret-456' };

let x: TwitterFake;
let li: LinkedinFake;
const fakeOf = (platform: 'twitter' | 'linkedin') => (platform === 'twitter' ? x : li);
/** What each network was sent to publish, in order, with the network's name. */
const allPosts = () => [
  ...x.posts.map((p) => ({ platform: 'twitter', ...p })),
  ...li.posts.map((p) => ({ platform: 'linkedin', ...p })),
];
const approve = (platform: 'twitter' | 'linkedin', authUrl: string) => fakeOf(platform).oauth.approve(authUrl);
const issue = (platform: 'twitter' | 'linkedin') => fakeOf(platform).oauth.issue();

beforeAll(async () => {
  x = await startTwitterFake(CLIENT);
  li = await startLinkedinFake(CLIENT);
});
afterAll(async () => {
  await x?.close();
  await li?.close();
});

describe.each(['twitter', 'linkedin'] as const)('%s connector contract', (platform) => {
  const connector = () =>
    (platform === 'twitter' ? twitterConnector : linkedinConnector)({
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      apiBase: fakeOf(platform).base,
      authBase: fakeOf(platform).base,
    });

  it('authorizes with PKCE, posts, refreshes, and classifies failures', async () => {
    const c = connector();
    const auth = c.generateAuthUrl('http://localhost:3000/api/social/oauth/x');
    const u = new URL(auth.url);
    expect(u.pathname).toBe(platform === 'twitter' ? '/i/oauth2/authorize' : '/oauth/v2/authorization');
    expect(u.searchParams.get('code_challenge_method')).toBe('S256');
    expect(u.searchParams.get('state')).toBe(auth.state);
    expect(u.searchParams.get('client_id')).toBe(CLIENT.id);

    const { code } = approve(platform, auth.url);
    await expect(
      c.authenticate({ code, codeVerifier: 'wrong-verifier', redirectUri: 'http://localhost:3000/cb' }),
    ).rejects.toMatchObject({ failure: 'bad-body' });
    const again = approve(platform, auth.url);
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
      media: [],
      idempotencyKey: 'k1',
      authorId: profile.externalId,
    };
    const out = await c.post(tokens.accessToken, input);
    expect(out.shareUrl).toMatch(
      platform === 'twitter'
        ? /^https:\/\/x\.com\/i\/web\/status\/\d+$/
        : /^https:\/\/www\.linkedin\.com\/feed\/update\/urn:li:share:\d+$/,
    );
    const sent = fakeOf(platform).posts.at(-1);
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
    fakeOf(platform).rateLimited = 1;
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
      apiBase: fakeOf(platform).base,
      authBase: fakeOf(platform).base,
    });
    const token = issue(platform).access_token;
    fakeOf(platform).followers = 1234;
    expect(await c.fetchProfile(token)).toEqual({ followerCount: 1234 });
    const id = platform === 'twitter' ? '555001' : 'urn:li:share:555001';
    if (platform === 'twitter') x.metrics.set(id, { views: 900, likes: 40, comments: 6, reposts: 3, quotes: 2 });
    else li.metrics.set(id, { likes: 40, comments: 6 });
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
      expect(x.lookups.at(-1)).toBe('?ids=555001,999999&tweet.fields=public_metrics');
    }
    await expect(c.fetchProfile('not-a-token')).rejects.toMatchObject({ failure: 'refresh-token' });
    x.followers = 42;
    li.followers = 0;
  });
});

describe('media uploads, connector by connector', () => {
  const tools = { FFMPEG_PATH: undefined, FFPROBE_PATH: undefined };
  let clip: Buffer;
  beforeAll(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'live-media-'));
    clip = await makeTestClip(tools, dir, { seconds: 4, width: 320, height: 240, fps: 15 });
    await rm(dir, { recursive: true, force: true });
  });
  const file = (bytes: Buffer, contentType: string, extra: Partial<PostMedia> = {}): PostMedia => ({
    kind: contentType.startsWith('video/') ? 'video' : 'image',
    contentType,
    sizeBytes: bytes.length,
    width: null,
    height: null,
    durationSeconds: contentType.startsWith('video/') ? 4 : null,
    url: 'https://studio.example.com/api/x',
    read: async () => bytes,
    ...extra,
  });
  const input = (media: PostMedia[]) => ({
    message: 'Media',
    mediaUrls: media.map((m) => m.url),
    media,
    idempotencyKey: randomUUID(),
    authorId: li.oauth.memberId,
  });
  const connect = (platform: 'twitter' | 'linkedin') =>
    (platform === 'twitter' ? twitterConnector : linkedinConnector)({
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      apiBase: fakeOf(platform).base,
      authBase: fakeOf(platform).base,
    });
  /** An MP4 over 8 MiB (the clip, its tail padded): more than one X segment and LinkedIn part. */
  const bigVideo = () => Buffer.concat([clip, Buffer.alloc(9 * 1024 * 1024 - clip.length, 0)]);

  it('X: a large video in 4 MiB segments in order, processed before the tweet; several images in one tweet', async () => {
    const token = issue('twitter').access_token;
    const big = bigVideo();
    const out = await connect('twitter').post(token, input([file(big, 'video/mp4')]));
    const tweet = x.posts.at(-1);
    expect(out.externalId).toBe(`${1000 + x.posts.length}`);
    const [id] = (tweet!.body.media as { media_ids: string[] }).media_ids;
    const media = x.media.get(id as string);
    expect(media?.segments.map((s) => s.length)).toEqual([4 * 1024 * 1024, 4 * 1024 * 1024, 1024 * 1024]);
    expect(media?.bytes?.equals(big)).toBe(true);
    expect(tweet?.body.text).toBe('Media');

    const a = await solidPng(4, 4, '#ff0000');
    const b = await sharp(await solidPng(4, 4, '#00ff00'))
      .jpeg()
      .toBuffer();
    await connect('twitter').post(token, input([file(a, 'image/png'), file(b, 'image/jpeg')]));
    const ids = (x.posts.at(-1)!.body.media as { media_ids: string[] }).media_ids;
    expect(ids.map((i) => x.media.get(i)?.mediaType)).toEqual(['image/png', 'image/jpeg']);
  });

  it('X: media it does not take is refused before anything is uploaded (bad-body); failed processing is bad-body', async () => {
    const token = issue('twitter').access_token;
    const png = await solidPng(4, 4, '#ff0000');
    const uploads = x.media.size;
    const c = connect('twitter');
    await expect(c.post(token, input([file(png, 'image/png', { sizeBytes: 6 * 1024 * 1024 })]))).rejects.toMatchObject({
      failure: 'bad-body',
      message: 'X takes image files up to 5 MB',
    });
    await expect(c.post(token, input(Array.from({ length: 5 }, () => file(png, 'image/png'))))).rejects.toMatchObject({
      failure: 'bad-body',
    });
    await expect(c.post(token, input([file(clip, 'video/mp4'), file(png, 'image/png')]))).rejects.toMatchObject({
      failure: 'bad-body',
    });
    expect(x.media.size).toBe(uploads);
    // The bytes are not what they claim: X refuses at finalize.
    await expect(c.post(token, input([file(png, 'image/jpeg')]))).rejects.toMatchObject({
      failure: 'bad-body',
      status: 400,
    });
    const posts = x.posts.length;
    x.failProcessing = 1;
    await expect(c.post(token, input([file(clip, 'video/mp4')]))).rejects.toMatchObject({
      failure: 'bad-body',
      message: 'X could not process the video: Unsupported video format',
    });
    expect(x.posts.length).toBe(posts);
    // A dead token on the upload is refresh-token; a rate limit on the tweet is retry with its wait.
    await expect(c.post('not-a-token', input([file(png, 'image/png')]))).rejects.toMatchObject({
      failure: 'refresh-token',
    });
    x.rateLimited = 1;
    await expect(c.post(token, input([file(png, 'image/png')]))).rejects.toMatchObject({
      failure: 'retry',
      retryAfterSeconds: 1,
    });
    expect(x.posts.length).toBe(posts);
  });

  it('X: the fake refuses what X refuses (unknown media ids, segments out of order, use before finalize)', async () => {
    const token = issue('twitter').access_token;
    const call = (p: string, init: RequestInit = {}) =>
      fetch(`${x.base}${p}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
    const tweet = await call('/2/tweets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'x', media: { media_ids: ['123'] } }),
    });
    expect(tweet.status).toBe(400);
    expect(await tweet.json()).toMatchObject({ detail: 'Your media IDs are invalid.' });
    const init = await call('/2/media/upload/initialize', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ media_type: 'video/mp4', total_bytes: 10, media_category: 'tweet_video' }),
    });
    const id = ((await init.json()) as { data: { id: string } }).data.id;
    const form = new FormData();
    form.set('segment_index', '1');
    form.set('media', new Blob([new Uint8Array(5)]), 'media');
    expect((await call(`/2/media/upload/${id}/append`, { method: 'POST', body: form })).status).toBe(400);
    const early = await call('/2/tweets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'x', media: { media_ids: [id] } }),
    });
    expect(early.status).toBe(400);
    const wrongCategory = await call('/2/media/upload/initialize', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ media_type: 'video/mp4', total_bytes: 10, media_category: 'tweet_image' }),
    });
    expect(wrongCategory.status).toBe(400);
  });

  it('LinkedIn: a large video in the parts it asks for, finalized with their ETags; several images as multiImage; WebP sent as PNG', async () => {
    const token = issue('linkedin').access_token;
    const big = bigVideo();
    await connect('linkedin').post(token, input([file(big, 'video/mp4')]));
    const share = li.posts.at(-1);
    expect(share?.body.commentary).toBe('Media');
    const urn = (share!.body.content as { media: { id: string } }).media.id;
    const video = li.media.get(urn);
    expect(video?.parts.map((p) => p.bytes?.length)).toEqual([4 * 1024 * 1024, 4 * 1024 * 1024, 1024 * 1024]);
    expect(video?.bytes?.equals(big)).toBe(true);
    expect(video?.uploadToken).not.toBe('');

    const webp = await sharp(await solidPng(6, 4, '#0000ff'))
      .webp()
      .toBuffer();
    const png = await solidPng(4, 4, '#ff0000');
    await connect('linkedin').post(token, input([file(webp, 'image/webp'), file(png, 'image/png')]));
    const images = (li.posts.at(-1)!.body.content as { multiImage: { images: Array<{ id: string }> } }).multiImage
      .images;
    expect(images.map((i) => li.media.get(i.id)?.contentType)).toEqual(['image/png', 'image/png']);
    expect(await sharp(li.media.get(images[0]?.id as string)?.bytes as Buffer).metadata()).toMatchObject({
      width: 6,
      height: 4,
    });
  });

  it('LinkedIn: refused media (bad-body, before any upload when its limits say so), dead tokens, rate limits', async () => {
    const token = issue('linkedin').access_token;
    const c = connect('linkedin');
    const uploads = li.media.size;
    const video = Buffer.concat([clip, Buffer.alloc(Math.max(0, 100 * 1024 - clip.length), 0)]);
    await expect(c.post(token, input([file(clip.subarray(0, 1000), 'video/mp4')]))).rejects.toMatchObject({
      failure: 'bad-body',
      message: 'LinkedIn takes videos of 75 KB to 500 MB',
    });
    await expect(c.post(token, input([file(video, 'video/mp4', { durationSeconds: 2 })]))).rejects.toMatchObject({
      failure: 'bad-body',
      message: 'LinkedIn takes videos of 3 seconds to 30 minutes',
    });
    await expect(c.post(token, input([file(video, 'video/quicktime')]))).rejects.toMatchObject({ failure: 'bad-body' });
    expect(li.media.size).toBe(uploads);
    // Bytes that are no MP4: LinkedIn's processing fails, the post is not made.
    const posts = li.posts.length;
    const junk = Buffer.alloc(80 * 1024, 7);
    await expect(c.post(token, input([file(junk, 'video/mp4')]))).rejects.toMatchObject({
      failure: 'bad-body',
      message: 'LinkedIn could not process the video: Unsupported video format',
    });
    await expect(c.post('not-a-token', input([file(video, 'video/mp4')]))).rejects.toMatchObject({
      failure: 'refresh-token',
    });
    li.rateLimited = 1;
    await expect(c.post(token, input([file(await solidPng(4, 4, '#ffffff'), 'image/png')]))).rejects.toMatchObject({
      failure: 'retry',
      retryAfterSeconds: 1,
    });
    expect(li.posts.length).toBe(posts);
    // The fake refuses a post naming media that was never uploaded.
    const res = await fetch(`${li.base}/rest/posts`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'linkedin-version': LINKEDIN_VERSION,
        'x-restli-protocol-version': '2.0.0',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        author: `urn:li:person:${li.oauth.memberId}`,
        commentary: 'x',
        visibility: 'PUBLIC',
        lifecycleState: 'PUBLISHED',
        content: { media: { id: 'urn:li:image:nope' } },
      }),
    });
    expect(res.status).toBe(422);
  });
});

describe('LinkedIn API version', () => {
  it('every REST call carries the current LinkedIn-Version; a missing or sunset one is refused as LinkedIn refuses it', async () => {
    const token = li.oauth.issue().access_token;
    const c = linkedinConnector({
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      apiBase: li.base,
      authBase: li.base,
    });
    await c.post(token, {
      message: 'Versioned',
      mediaUrls: [],
      media: [],
      idempotencyKey: randomUUID(),
      authorId: li.oauth.memberId,
    });
    expect(li.posts.at(-1)?.headers['linkedin-version']).toBe(LINKEDIN_VERSION);
    // Still served a year from its release month, less a few weeks: not a version about to be sunset.
    expect(isActiveVersion(LINKEDIN_VERSION, new Date())).toBe(true);

    const call = (headers: Record<string, string>) =>
      fetch(`${li.base}/rest/memberFollowersCount?q=me`, {
        headers: { authorization: `Bearer ${token}`, 'x-restli-protocol-version': '2.0.0', ...headers },
      });
    const missing = await call({});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      status: 400,
      code: 'VERSION_MISSING',
      message: 'A version must be present. Please specify a version by adding the LinkedIn-Version header.',
    });
    // The version this connector used before (May 2024), sunset in 2025.
    const sunset = await call({ 'linkedin-version': '202405' });
    expect(sunset.status).toBe(426);
    expect(await sunset.json()).toEqual({
      status: 426,
      code: 'NONEXISTENT_VERSION',
      message: 'Requested version 202405 is not active',
    });
    expect((await call({ 'linkedin-version': LINKEDIN_VERSION })).status).toBe(200);
    // LinkedIn's calendar: 202511 is sunset on 16 November 2026, 202601 lives until January 2027.
    const day = new Date('2026-11-29T12:00:00Z');
    expect([isActiveVersion('202511', day), isActiveVersion('202601', day), isActiveVersion('202609', day)]).toEqual([
      false,
      true,
      true,
    ]);
    expect(isActiveVersion('202609', new Date('2027-09-20T00:00:00Z'))).toBe(false);
    expect(isActiveVersion('2026-09', day)).toBe(false);
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
        TWITTER_API_BASE: x.base,
        TWITTER_AUTH_BASE: x.base,
        LINKEDIN_CLIENT_ID: CLIENT.id,
        LINKEDIN_CLIENT_SECRET: CLIENT.secret,
        LINKEDIN_API_BASE: li.base,
        LINKEDIN_AUTH_BASE: li.base,
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
      const approved = approve(platform, authUrl);
      const refused = await callback(platform, approved);
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain(MESSAGES.social.connectOtherBrowser);
      expect(
        await t.ctx.db.select().from(socialOauthStates).where(eq(socialOauthStates.state, approved.state)),
      ).toEqual([]);
      // The code was never exchanged.
      expect(fakeOf(platform).oauth.codes.has(approved.code)).toBe(true);
    }
    expect(await t.ctx.db.select().from(socialAccounts).where(eq(socialAccounts.userId, user.id))).toEqual([]);
  });

  it('connects X and LinkedIn, refreshes an expiring token, and rides out a 429', async () => {
    for (const platform of ['twitter', 'linkedin'] as const) {
      const { authUrl, setCookie } = await startConnect(platform);
      expect(authUrl.startsWith(fakeOf(platform).base)).toBe(true);
      const cb = await callback(platform, approve(platform, authUrl), setCookie.split(';')[0]);
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
    const refreshesBefore = x.oauth.tokenCalls.filter((c) => c.grant_type === 'refresh_token').length;
    x.rateLimited = 1;
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
    expect(x.oauth.tokenCalls.filter((c) => c.grant_type === 'refresh_token').length).toBe(refreshesBefore + 1);
    const [row] = await t.ctx.db.select().from(socialAccounts).where(eq(socialAccounts.platform, 'twitter'));
    expect(row?.tokenExpiresAt?.getTime()).toBeGreaterThan(Date.now() + 3600_000);
  });

  const publish = (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/social/publish', headers: authHeader(user.token), payload });
  const resultsOf = (res: { json(): unknown }) => (res.json() as { data: { results: PublishResult[] } }).data.results;

  it("uploads the post's image to X and LinkedIn and attaches it: the networks get the bytes, no link in the text", async () => {
    const png = await solidPng(20, 10, '#33aa77');
    const image = await storeUpload(t.ctx, user.id, png, 'image/png', 'png');
    const xBefore = x.posts.length;
    const liBefore = li.posts.length;
    const res = await publish({
      message: 'With a picture',
      platforms: ['twitter', 'linkedin'],
      media_urls: [image.url],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(resultsOf(res).map((r) => r.status)).toEqual(['published', 'published']);

    const tweet = x.posts.slice(xBefore);
    expect(tweet).toHaveLength(1);
    const mediaIds = (tweet[0]!.body.media as { media_ids: string[] }).media_ids;
    expect(tweet[0]?.body.text).toBe('With a picture');
    expect(mediaIds).toHaveLength(1);
    const uploaded = x.media.get(mediaIds[0] as string);
    expect(uploaded).toMatchObject({ mediaType: 'image/png', category: 'tweet_image', state: 'succeeded' });
    expect(uploaded?.bytes?.equals(png)).toBe(true);

    const share = li.posts.slice(liBefore);
    expect(share).toHaveLength(1);
    expect(share[0]?.body.commentary).toBe('With a picture');
    const urn = (share[0]!.body.content as { media: { id: string } }).media.id;
    expect(urn).toMatch(/^urn:li:image:/);
    expect(li.media.get(urn)).toMatchObject({ kind: 'image', status: 'AVAILABLE', contentType: 'image/png' });
    expect(li.media.get(urn)?.bytes?.equals(png)).toBe(true);
  });

  it('uploads a video: X in segments with its processing waited for, LinkedIn in parts finalized with their ETags', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'live-video-'));
    const clip = await makeTestClip(t.ctx.config, dir, { seconds: 4, width: 640, height: 360, fps: 30 });
    await rm(dir, { recursive: true, force: true });
    const video = await storeUpload(t.ctx, user.id, clip, 'video/mp4', 'mp4');
    const xBefore = x.posts.length;
    const liBefore = li.posts.length;
    const res = await publish({ message: 'A clip', platforms: ['twitter', 'linkedin'], media_urls: [video.url] });
    expect(res.statusCode, res.body).toBe(200);
    expect(resultsOf(res).map((r) => r.status)).toEqual(['published', 'published']);

    const tweet = x.posts.slice(xBefore)[0];
    expect(tweet?.body.text).toBe('A clip');
    const [mediaId] = (tweet!.body.media as { media_ids: string[] }).media_ids;
    const uploaded = x.media.get(mediaId as string);
    expect(uploaded).toMatchObject({ mediaType: 'video/mp4', category: 'tweet_video', state: 'succeeded' });
    expect(uploaded?.bytes?.equals(clip)).toBe(true);

    const share = li.posts.slice(liBefore)[0];
    expect(share?.body.commentary).toBe('A clip');
    const urn = (share!.body.content as { media: { id: string } }).media.id;
    expect(urn).toMatch(/^urn:li:video:/);
    expect(li.media.get(urn)).toMatchObject({ kind: 'video', status: 'AVAILABLE', contentType: 'video/mp4' });
    expect(li.media.get(urn)?.bytes?.equals(clip)).toBe(true);

    // The probe the publish needed is kept on the stored file.
    const [row] = await t.ctx.db.select().from(mediaObjects).where(eq(mediaObjects.key, video.key));
    expect(row?.probe).toMatchObject({ video: { width: 640, height: 360 } });
  });

  it('a public media URL is downloaded for upload; one that cannot be fetched fails the post at once, nothing sent', async () => {
    const before = allPosts().length;
    const res = await publish({
      message: 'From elsewhere',
      platforms: ['twitter'],
      media_urls: ['https://media.example.invalid/photo.png'],
    });
    expect(res.statusCode, res.body).toBe(200);
    const [result] = resultsOf(res);
    expect(result?.status).toBe('failed');
    expect(result?.error).toContain('https://media.example.invalid/photo.png');
    expect(result?.error).toContain(MESSAGES.remote.fetchFailed);
    expect(allPosts().length).toBe(before);
  });

  it('a publish task run again after it published posts nothing twice', async () => {
    const image = await storeUpload(t.ctx, user.id, await solidPng(8, 8, '#123456'), 'image/png', 'png');
    const res = await publish({ message: 'Once', platforms: ['twitter', 'linkedin'], media_urls: [image.url] });
    expect(resultsOf(res).map((r) => r.status)).toEqual(['published', 'published']);
    const sent = { x: x.posts.length, li: li.posts.length, xMedia: x.media.size, liMedia: li.media.size };
    for (const result of resultsOf(res)) {
      const again = await publishPostTask.handler({
        task: {} as never,
        input: { postId: result.post_id as string },
        ctx: t.ctx,
        attempt: 2,
        signal: new AbortController().signal,
        report: async () => undefined,
      });
      expect(again).toEqual({ skipped: 'published' });
    }
    expect({ x: x.posts.length, li: li.posts.length, xMedia: x.media.size, liMedia: li.media.size }).toEqual(sent);
  });

  it('fits a long message to X when Cross-post optimization is on (no link counted: the image is uploaded), and refuses it when off', async () => {
    const optimizePosts = (crossPostOptimization: boolean) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/users/settings',
        headers: authHeader(user.token),
        payload: { crossPostOptimization },
      });
    const image = await storeUpload(t.ctx, user.id, await solidPng(20, 10, '#aa7733'), 'image/png', 'png');
    const message = Array.from({ length: 70 }, (_, i) => `word${i}`).join(' ');
    const before = allPosts().length;
    const res = await publish({ message, platforms: ['twitter', 'linkedin'], media_urls: [image.url] });
    expect(res.statusCode, res.body).toBe(200);
    expect(resultsOf(res).map((r) => r.status)).toEqual(['published', 'published']);
    const tweet = String(x.posts.at(-1)?.body.text);
    expect(tweet.endsWith('…')).toBe(true);
    expect(tweet).not.toContain('http');
    expect(message.startsWith(tweet.slice(0, -1))).toBe(true);
    expect(postTextLength('twitter', tweet, [])).toBeLessThanOrEqual(280);
    expect(postTextLength('twitter', tweet, [])).toBeGreaterThan(280 - 24);
    expect(allPosts().length).toBe(before + 2);
    // LinkedIn takes 3000 characters: the message goes as written.
    expect(li.posts.at(-1)?.body.commentary).toBe(message);

    // Off: the post is refused for X before anything is sent, with the figures; LinkedIn alone still posts.
    await optimizePosts(false);
    const sentBefore = allPosts().length;
    const refused = await publish({ message, platforms: ['twitter', 'linkedin'], media_urls: [image.url] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: MESSAGES.social.messageTooLong('X (Twitter)', message.length, 280),
      messageKey: 'social.messageTooLong',
      messageParams: { platform: 'X (Twitter)', length: message.length, limit: 280 },
    });
    expect(allPosts().length).toBe(sentBefore);
    const alone = await publish({ message, platforms: ['linkedin'] });
    expect(resultsOf(alone)[0]?.status).toBe('published');
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
    x.followers = 1500;
    li.followers = 320;
    x.metrics.set(tweet?.externalId as string, { views: 2000, likes: 70, comments: 10, reposts: 15, quotes: 5 });
    li.metrics.set(share?.externalId as string, { likes: 12, comments: 3 });
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
    li.followers = -1;
    expect(await refreshStaleMetrics(t.ctx)).toBe(0);
    const [linkedin] = await t.ctx.db
      .select()
      .from(socialAccounts)
      .where(and(eq(socialAccounts.userId, user.id), eq(socialAccounts.platform, 'linkedin')));
    expect(linkedin?.followerCount).toBe(320);
    expect(linkedin?.metricsUpdatedAt?.getTime()).toBeLessThan(Date.now() - 3000_000);
  });
});
