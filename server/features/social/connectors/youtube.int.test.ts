import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UserSettingsReply } from '../../../../common/api/account.ts';
import type { SocialAccount } from '../../../../common/api/social.ts';
import { MESSAGES } from '../../../../common/messages.ts';
import { socialAccounts, socialPosts } from '../../../db/schema/index.ts';
import { type FakeYoutube, startFakeYoutube } from '../../../test/fakes/youtube.ts';
import { authHeader, createTestUser, type TestUser } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { testPublishJournal } from '../../../test/publish-journal.ts';
import { refreshStaleMetrics } from '../metrics.ts';
import { connectorFor, networkAvailability } from './registry.ts';
import type { PostInput, PostMedia } from './types.ts';
import { youtubeConnector, youtubeSnippet } from './youtube.ts';

// Contract tests of the YouTube connector against a local fake of Google's OAuth 2.0 and the YouTube Data API v3.

let fake: FakeYoutube;
beforeAll(async () => {
  fake = await startFakeYoutube();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.failNextStart = null;
  fake.retryAfter = null;
  fake.breakNextPutAfter = null;
  fake.dropRepliesAfterFinish = 0;
});

const REDIRECT = 'https://studio.example.com/api/social/oauth/youtube';
const publishes = testPublishJournal();
/** A connector as a process of the studio builds it: nothing shared with another but the database's journal. */
const connector = (chunkBytes?: number) =>
  youtubeConnector({
    journal: publishes.journal(),
    clientId: fake.client.id,
    clientSecret: fake.client.secret,
    apiBase: fake.base,
    authBase: fake.base,
    tokenUrl: fake.tokenUrl,
    chunkBytes,
  });

function media(
  kind: 'video' | 'image',
  bytes: Buffer,
  contentType = kind === 'video' ? 'video/mp4' : 'image/png',
): PostMedia {
  return {
    kind,
    contentType,
    sizeBytes: bytes.length,
    width: 1280,
    height: 720,
    durationSeconds: kind === 'video' ? 8 : null,
    url: `https://studio.example.com/api/media/x.${kind === 'video' ? 'mp4' : 'png'}?sig=abc`,
    read: async () => bytes,
  };
}

function postInput(over: Partial<PostInput> & { media: PostMedia[] }): PostInput {
  return {
    message: 'My first film\nShot in one take.',
    mediaUrls: over.media.map((m) => m.url),
    idempotencyKey: randomBytes(8).toString('hex'),
    authorId: fake.channel.id,
    ...over,
  };
}

/** The user approves on Google's consent page: its redirect carries the code and the state. */
async function consent(authUrl: string): Promise<{ code: string; state: string }> {
  const res = await fetch(authUrl, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get('location') as string);
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  return { code: back.searchParams.get('code') as string, state: back.searchParams.get('state') as string };
}

async function connected() {
  const c = connector();
  const auth = c.generateAuthUrl(REDIRECT);
  const { code } = await consent(auth.url);
  return { c, ...(await c.authenticate({ code, codeVerifier: auth.codeVerifier, redirectUri: REDIRECT })) };
}

describe('YouTube connector', () => {
  it('connects: Google consent URL with offline access and PKCE, the code exchange, and the channel', async () => {
    const c = connector();
    const auth = c.generateAuthUrl(REDIRECT);
    const u = new URL(auth.url);
    expect(`${u.origin}${u.pathname}`).toBe(`${fake.base}/o/oauth2/v2/auth`);
    expect(Object.fromEntries(u.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: fake.client.id,
      redirect_uri: REDIRECT,
      scope: 'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly',
      access_type: 'offline',
      prompt: 'consent',
      code_challenge_method: 'S256',
      state: auth.state,
    });

    // A wrong verifier: Google answers invalid_grant; the code is spent.
    const first = await consent(auth.url);
    expect(first.state).toBe(auth.state);
    await expect(
      c.authenticate({ code: first.code, codeVerifier: 'wrong-verifier', redirectUri: REDIRECT }),
    ).rejects.toMatchObject({ failure: 'bad-body' });

    const again = await consent(auth.url);
    const { tokens, profile } = await c.authenticate({
      code: again.code,
      codeVerifier: auth.codeVerifier,
      redirectUri: REDIRECT,
    });
    expect(tokens.accessToken).toMatch(/^ya29\./);
    expect(tokens.refreshToken).toMatch(/^1\/\//);
    expect(tokens.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 3000_000);
    expect(profile).toEqual({ externalId: fake.channel.id, username: '@genprofilms', followerCount: 1200 });
    // What Google's token endpoint received: the client's credentials in the form, the PKCE verifier.
    expect(fake.tokenCalls.at(-1)).toMatchObject({
      grant_type: 'authorization_code',
      client_id: fake.client.id,
      client_secret: fake.client.secret,
      redirect_uri: REDIRECT,
      code_verifier: auth.codeVerifier,
    });
  });

  it('refreshes the access token, keeps the refresh token Google does not resend, and invalid_grant is refresh-token', async () => {
    const { c, tokens } = await connected();
    const next = await c.refreshToken(tokens.refreshToken as string);
    expect(next.accessToken).not.toBe(tokens.accessToken);
    expect(next.refreshToken).toBe(tokens.refreshToken);
    expect(fake.tokenCalls.at(-1)).toMatchObject({ grant_type: 'refresh_token', refresh_token: tokens.refreshToken });
    await expect(c.refreshToken('1//revoked')).rejects.toMatchObject({ failure: 'refresh-token' });
    // An access token Google no longer accepts (401 authError) is refresh-token too.
    await expect(c.fetchProfile('ya29.expired')).rejects.toMatchObject({ failure: 'refresh-token', status: 401 });
  });

  it('uploads a video with a resumable session: title from the first line, description, privacy from the setting', async () => {
    const { c, tokens } = await connected();
    const bytes = randomBytes(64 * 1024);
    const before = fake.videos.length;
    const out = await c.post(tokens.accessToken, postInput({ media: [media('video', bytes)], privacy: 'unlisted' }));
    expect(fake.videos.length).toBe(before + 1);
    const video = fake.videos.at(-1);
    expect(out).toEqual({
      externalId: video?.id,
      shareUrl: `https://www.youtube.com/watch?v=${video?.id}`,
      views: 0,
    });
    expect(video?.snippet).toEqual({ title: 'My first film', description: 'Shot in one take.' });
    expect(video?.status).toEqual({ privacyStatus: 'unlisted', selfDeclaredMadeForKids: false });
    expect(video?.contentType).toBe('video/mp4');
    expect(video?.bytes.equals(bytes)).toBe(true);
    expect(video?.accessToken).toBe(tokens.accessToken);
    const start = fake.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/upload/')).at(-1);
    expect(start?.path).toBe('/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status');
    expect(start?.headers['x-upload-content-length']).toBe(String(bytes.length));
    expect(start?.headers['x-upload-content-type']).toBe('video/mp4');

    // Without a setting the video is private.
    await c.post(tokens.accessToken, postInput({ media: [media('video', randomBytes(100))] }));
    expect(fake.videos.at(-1)?.status.privacyStatus).toBe('private');
  });

  it('refuses an image or a text-only post before anything is sent: YouTube takes videos only', async () => {
    const { c, tokens } = await connected();
    const requests = fake.requests.length;
    for (const m of [
      [media('image', randomBytes(50))],
      [],
      [media('video', randomBytes(5)), media('video', randomBytes(5))],
    ]) {
      await expect(c.post(tokens.accessToken, postInput({ media: m }))).rejects.toMatchObject({
        failure: 'bad-body',
        message: MESSAGES.social.youtubeVideoOnly,
      });
    }
    expect(fake.requests.length).toBe(requests);
  });

  it("fits the title to YouTube's 100 characters and the description to 5000 bytes, without < >", async () => {
    const long = `${'A'.repeat(98)}<b>é and more`;
    const { title, description } = youtubeSnippet(`${long}\n${'é'.repeat(3000)}<end>`);
    expect(title).toBe(`${'A'.repeat(98)}bé`);
    expect(Array.from(title).length).toBe(100);
    expect(Buffer.byteLength(description)).toBe(5000);
    expect(description).not.toMatch(/[<>]/);
    expect(youtubeSnippet('\n\nLate title\nbody')).toEqual({ title: 'Late title', description: 'body' });

    const { c, tokens } = await connected();
    await c.post(
      tokens.accessToken,
      postInput({ message: `${long}\n${'é'.repeat(3000)}`, media: [media('video', randomBytes(10))] }),
    );
    expect(fake.videos.at(-1)?.snippet.title).toBe(title);
    // A title of only < > is empty: refused here, as YouTube refuses an empty title (invalidTitle).
    await expect(
      c.post(tokens.accessToken, postInput({ message: '<>\n', media: [media('video', randomBytes(10))] })),
    ).rejects.toMatchObject({ failure: 'bad-body', message: MESSAGES.social.youtubeTitleMissing });
  });

  it('resumes an interrupted upload from the byte Google reports (308 Range) and creates one video', async () => {
    const { c, tokens } = await connected();
    const bytes = randomBytes(300_000);
    fake.breakNextPutAfter = 100_000;
    const before = fake.videos.length;
    const out = await c.post(tokens.accessToken, postInput({ media: [media('video', bytes)] }));
    expect(fake.videos.length).toBe(before + 1);
    expect(fake.videos.at(-1)?.bytes.equals(bytes)).toBe(true);
    expect(out.externalId).toBe(fake.videos.at(-1)?.id);
    const puts = fake.requests.filter((r) => r.method === 'PUT').slice(-3);
    expect(puts.map((r) => r.headers['content-range'])).toEqual([
      `bytes 0-${bytes.length - 1}/${bytes.length}`,
      `bytes */${bytes.length}`,
      `bytes 100000-${bytes.length - 1}/${bytes.length}`,
    ]);
  });

  it('uploads in chunks of a multiple of 256 KiB, each with its Content-Range, the rest in the last', async () => {
    const { tokens } = await connected();
    const KiB = 1024;
    const bytes = randomBytes(600_000);
    const before = fake.videos.length;
    const out = await connector(256 * KiB).post(tokens.accessToken, postInput({ media: [media('video', bytes)] }));
    expect(fake.videos.length).toBe(before + 1);
    expect(out.externalId).toBe(fake.videos.at(-1)?.id);
    expect(fake.videos.at(-1)?.bytes.equals(bytes)).toBe(true);
    const session = [...fake.sessions.values()].find((s) => s.video?.id === out.externalId);
    expect(session?.puts).toEqual([
      { range: `bytes 0-${256 * KiB - 1}/600000`, length: 256 * KiB },
      { range: `bytes ${256 * KiB}-${512 * KiB - 1}/600000`, length: 256 * KiB },
      { range: `bytes ${512 * KiB}-599999/600000`, length: 600_000 - 512 * KiB },
    ]);
    expect(() => connector(300 * KiB)).toThrow(RangeError);

    // The fake refuses what Google refuses: a chunk that is not a multiple of 256 KiB before the end.
    const started = await fetch(`${fake.base}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.accessToken}`,
        'content-type': 'application/json',
        'x-upload-content-type': 'video/mp4',
        'x-upload-content-length': '600000',
      },
      body: JSON.stringify({ snippet: { title: 'x', description: '' }, status: { privacyStatus: 'private' } }),
    });
    const odd = await fetch(started.headers.get('location') as string, {
      method: 'PUT',
      headers: { authorization: `Bearer ${tokens.accessToken}`, 'content-range': 'bytes 0-99999/600000' },
      body: new Uint8Array(100_000),
    });
    expect(odd.status).toBe(400);
    expect(await odd.json()).toMatchObject({ error: { message: 'The chunk size must be a multiple of 256 KiB' } });
  });

  it('a retried publish never uploads twice: it asks its session, which already made the video', async () => {
    const { c, tokens } = await connected();
    const input = postInput({ media: [media('video', randomBytes(2048))] });
    // The bytes all arrive and the video is made, but every reply is lost for the rest of this attempt.
    fake.dropRepliesAfterFinish = 3;
    const before = fake.videos.length;
    const starts = () => fake.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/upload/')).length;
    const startsBefore = starts();
    await expect(c.post(tokens.accessToken, input)).rejects.toMatchObject({ failure: 'retry' });
    expect(fake.videos.length).toBe(before + 1);

    // The publish is retried (the task runs again): no new session, no new bytes; the same video.
    const out = await connector().post(tokens.accessToken, input);
    expect(out.externalId).toBe(fake.videos.at(-1)?.id);
    expect(fake.videos.length).toBe(before + 1);
    expect(starts()).toBe(startsBefore + 1);
    // And once more: answered from what is known, without asking YouTube.
    const requests = fake.requests.length;
    expect(await connector().post(tokens.accessToken, input)).toEqual(out);
    expect(fake.requests.length).toBe(requests);
  });

  it('never uploads twice across processes: the session is in the journal before any byte is sent, the video right after', async () => {
    const { tokens } = await connected();
    const input = postInput({ media: [media('video', randomBytes(4096))] });
    const starts = () => fake.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/upload/')).length;
    const startsBefore = starts();
    const before = fake.videos.length;
    // Google makes the video, but no answer reaches the studio for the rest of the attempt; the process dies.
    fake.dropRepliesAfterFinish = 3;
    await expect(connector().post(tokens.accessToken, input)).rejects.toMatchObject({ failure: 'retry' });
    expect(fake.videos.length).toBe(before + 1);
    const row = await publishes.row('youtube', fake.channel.id, input.idempotencyKey);
    expect(row?.state).toMatchObject({ sessionUrl: expect.stringContaining('upload_id='), total: 4096 });
    expect(JSON.stringify(row)).not.toContain(tokens.accessToken);

    // Another process (a new connector, nothing in memory) asks that session: the video it made, no new upload.
    const out = await connector().post(tokens.accessToken, input);
    expect(out.externalId).toBe(fake.videos.at(-1)?.id);
    expect(fake.videos.length).toBe(before + 1);
    expect(starts()).toBe(startsBefore + 1);
    // Recorded with the video, without the session (no longer needed).
    const done = await publishes.row('youtube', fake.channel.id, input.idempotencyKey);
    expect(done?.state).toEqual({ outcome: out });
    // The studio died before recording it as published: the next process answers without asking Google.
    const requests = fake.requests.length;
    expect(await connector().post(tokens.accessToken, input)).toEqual(out);
    expect(fake.requests.length).toBe(requests);
  });

  it("classifies Google's errors: quota and rate limits and 5xx retry (with retry-after), upload limit and bad metadata are bad-body, 401 refresh-token", async () => {
    const { c, tokens } = await connected();
    const video = () => postInput({ media: [media('video', randomBytes(10))] });

    fake.failNextStart = 'quotaExceeded';
    const quota = await c.post(tokens.accessToken, video()).catch((e: unknown) => e);
    // The daily quota resets at midnight Pacific time: retry then.
    expect(quota).toMatchObject({ failure: 'retry', status: 403 });
    expect((quota as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThanOrEqual(60);
    expect((quota as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(86_400);
    expect((quota as Error).message).toContain('quotaExceeded');

    for (const reason of ['rateLimitExceeded', 'userRateLimitExceeded', 'backendError'] as const) {
      fake.failNextStart = reason;
      await expect(c.post(tokens.accessToken, video())).rejects.toMatchObject({ failure: 'retry' });
    }
    fake.failNextStart = 'unavailable';
    fake.retryAfter = 7;
    await expect(c.post(tokens.accessToken, video())).rejects.toMatchObject({
      failure: 'retry',
      retryAfterSeconds: 7,
      status: 503,
    });

    fake.failNextStart = 'uploadLimitExceeded';
    const limit = await c.post(tokens.accessToken, video()).catch((e: unknown) => e);
    expect(limit).toMatchObject({ failure: 'bad-body', status: 400 });
    expect((limit as Error).message).toContain('uploadLimitExceeded');

    await expect(c.post('ya29.not-a-token', video())).rejects.toMatchObject({ failure: 'refresh-token' });

    // The fake refuses invalid metadata as YouTube does (the connector never sends it).
    const res = await fetch(`${fake.base}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.accessToken}`,
        'content-type': 'application/json; charset=UTF-8',
        'x-upload-content-type': 'video/mp4',
        'x-upload-content-length': '10',
      },
      body: JSON.stringify({ snippet: { title: 'x'.repeat(101) }, status: { privacyStatus: 'private' } }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { errors: Array<{ reason: string }> } }).error.errors[0]?.reason).toBe(
      'invalidTitle',
    );
  });

  it('reads the subscribers and the videos’ statistics; a deleted video is left out; hidden subscribers are not a 0', async () => {
    const { c, tokens } = await connected();
    fake.channel.subscribers = 4321;
    expect(await c.fetchProfile(tokens.accessToken)).toEqual({ followerCount: 4321 });
    fake.statistics.set('vidA1234567', { viewCount: 900, likeCount: 40, commentCount: 6 });
    fake.statistics.set('vidB1234567', { viewCount: 12, likeCount: 1, commentCount: 0 });
    const figures = await c.fetchPostMetrics(tokens.accessToken, ['vidA1234567', 'vidB1234567', 'gone1234567']);
    expect(figures.get('vidA1234567')).toEqual({ views: 900, likes: 40, comments: 6, shares: null });
    expect(figures.get('vidB1234567')).toEqual({ views: 12, likes: 1, comments: 0, shares: null });
    expect(figures.has('gone1234567')).toBe(false);
    const lookup = fake.requests.filter((r) => r.path.startsWith('/youtube/v3/videos')).at(-1);
    expect(lookup?.path).toBe('/youtube/v3/videos?part=statistics&id=vidA1234567,vidB1234567,gone1234567');
    const channels = fake.requests.filter((r) => r.path.startsWith('/youtube/v3/channels')).at(-1);
    expect(channels?.path).toBe('/youtube/v3/channels?part=snippet,statistics&mine=true');

    fake.channel.hidden = true;
    await expect(c.fetchProfile(tokens.accessToken)).rejects.toMatchObject({
      failure: 'bad-body',
      message: MESSAGES.social.youtubeSubscribersHidden,
    });
    const again = await connected();
    expect(again.profile.followerCount).toBeNull();
    fake.channel.hidden = false;
    await expect(c.fetchPostMetrics('ya29.nope', ['vidA1234567'])).rejects.toMatchObject({ failure: 'refresh-token' });
  });
});

describe('YouTube through the studio', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        YOUTUBE_CLIENT_ID: fake.client.id,
        YOUTUBE_CLIENT_SECRET: fake.client.secret,
        YOUTUBE_API_BASE: fake.base,
        // The token endpoint is derived: {YOUTUBE_AUTH_BASE}/token.
        YOUTUBE_AUTH_BASE: fake.base,
        SOCIAL_SCHEDULER_INTERVAL_SECONDS: '3600',
        PUBLIC_URL: 'https://studio.example.com',
      },
    });
    user = await createTestUser(t.ctx.db, { role: 'brand' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is live with its credentials, and the sandbox without them', () => {
    expect(connectorFor(t.ctx, 'youtube').mode).toBe('live');
    expect(networkAvailability(t.ctx.config, 'youtube')).toEqual({ available: true, mode: 'live' });
    expect(
      networkAvailability({ ...t.ctx.config, YOUTUBE_CLIENT_ID: undefined, SANDBOX_NETWORKS: false }, 'youtube'),
    ).toMatchObject({ available: false, reason: MESSAGES.social.networkUnavailable('YouTube', 'YOUTUBE') });
  });

  it('connects the channel through Google, keeps the privacy setting, refuses a text post, and reads the figures', async () => {
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/social/connect/youtube',
      headers: authHeader(user.token),
    });
    expect(started.statusCode, started.body).toBe(200);
    const { authUrl } = started.json() as { authUrl: string };
    expect(authUrl.startsWith(`${fake.base}/o/oauth2/v2/auth?`)).toBe(true);
    const redirect = new URL(authUrl).searchParams.get('redirect_uri') as string;
    const res = await fetch(authUrl, { redirect: 'manual' });
    const back = new URL(res.headers.get('location') as string);
    expect(`${back.origin}${back.pathname}`).toBe(redirect);
    const cookie = String(started.headers['set-cookie']).split(';')[0] as string;
    const cb = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}`, headers: { cookie } });
    expect(cb.statusCode, cb.body).toBe(200);
    const listed = await t.app.inject({ method: 'GET', url: '/api/social/accounts', headers: authHeader(user.token) });
    const accounts = (listed.json() as { data: { accounts: SocialAccount[] } }).data.accounts;
    expect(accounts.find((a) => a.platform === 'youtube')).toMatchObject({
      mode: 'live',
      username: '@genprofilms',
      follower_count: fake.channel.subscribers,
      status: 'connected',
    });

    // The privacy setting: private until the user chooses.
    const get = await t.app.inject({ method: 'GET', url: '/api/users/settings', headers: authHeader(user.token) });
    expect((get.json() as UserSettingsReply).data.youtubePrivacy).toBe('private');
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/users/settings',
      headers: authHeader(user.token),
      payload: { youtubePrivacy: 'unlisted' },
    });
    expect((put.json() as UserSettingsReply).data.youtubePrivacy).toBe('unlisted');
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/users/settings',
      headers: authHeader(user.token),
      payload: { youtubePrivacy: 'friends' },
    });
    expect(bad.statusCode).toBe(400);

    // A text post: YouTube takes videos only; nothing is uploaded.
    const starts = fake.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/upload/')).length;
    const published = await t.app.inject({
      method: 'POST',
      url: '/api/social/publish',
      headers: authHeader(user.token),
      payload: { message: 'Hello', platforms: ['youtube'] },
    });
    // Refused before publishing by YouTube's rules (common/rules/social-media.ts).
    expect(published.statusCode, published.body).toBe(400);
    expect(published.json().error).toBe(MESSAGES.social.videoRequired('YouTube'));
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/upload/')).length).toBe(starts);

    // The refresh pass reads the channel's subscribers and a published video's statistics.
    const [account] = await t.ctx.db
      .select()
      .from(socialAccounts)
      .where(and(eq(socialAccounts.userId, user.id), eq(socialAccounts.platform, 'youtube')));
    const [post] = await t.ctx.db
      .insert(socialPosts)
      .values({
        userId: user.id,
        platform: 'youtube',
        message: 'A film',
        scheduledTime: new Date(),
        status: 'published',
        origin: 'now',
        mediaType: 'video',
        externalId: 'dQw4w9WgXcQ',
        shareUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
        publishedAt: new Date(),
      })
      .returning();
    fake.statistics.set('dQw4w9WgXcQ', { viewCount: 321, likeCount: 20, commentCount: 4 });
    fake.channel.subscribers = 2500;
    await t.ctx.db
      .update(socialAccounts)
      .set({ metricsUpdatedAt: new Date(Date.now() - 3600_000) })
      .where(eq(socialAccounts.id, account?.id as string));
    expect(await refreshStaleMetrics(t.ctx)).toBeGreaterThanOrEqual(1);
    const [after] = await t.ctx.db
      .select()
      .from(socialAccounts)
      .where(eq(socialAccounts.id, account?.id as string));
    expect(after?.followerCount).toBe(2500);
    const [figures] = await t.ctx.db
      .select()
      .from(socialPosts)
      .where(eq(socialPosts.id, post?.id as string));
    expect(figures).toMatchObject({ views: 321, likes: 20, comments: 4, shares: null });
  });
});
