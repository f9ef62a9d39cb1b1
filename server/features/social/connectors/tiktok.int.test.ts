import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SocialAccount } from '../../../../common/api/social.ts';
import { MESSAGES } from '../../../../common/messages.ts';
import { approveTiktok, fakeMp4, startTiktokFake, type TiktokFake } from '../../../test/fakes/tiktok.ts';
import { authHeader, createTestUser } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { testPublishJournal } from '../../../test/publish-journal.ts';
import { chunkPlan, tiktokConnector } from './tiktok.ts';
import { ConnectorError, type PostInput, type PostMedia } from './types.ts';

// Contract tests of the TikTok connector against a local fake of TikTok's documented API v2.

const MB = 1024 * 1024;
const REDIRECT = 'https://studio.example.com/api/social/oauth/tiktok';
let fake: TiktokFake;
beforeAll(async () => {
  fake = await startTiktokFake();
});
afterAll(async () => {
  await fake.close();
});

const publishes = testPublishJournal();
/** A connector as a process of the studio builds it: nothing shared with another but the database's journal. */
const connector = (poll: { pollIntervalMs?: number; pollTimeoutMs?: number } = {}) =>
  tiktokConnector({
    journal: publishes.journal(),
    clientKey: fake.clientKey,
    clientSecret: fake.clientSecret,
    apiBase: fake.base,
    authBase: fake.base,
    pollIntervalMs: 5,
    pollTimeoutMs: 2000,
    ...poll,
  });

function video(bytes: Buffer, durationSeconds: number | null = 12, contentType = 'video/mp4'): PostMedia {
  return {
    kind: 'video',
    contentType,
    sizeBytes: bytes.length,
    width: 1080,
    height: 1920,
    durationSeconds,
    url: 'https://studio.example.com/media/v.mp4?sig=x',
    read: async () => bytes,
  };
}
const image: PostMedia = {
  kind: 'image',
  contentType: 'image/jpeg',
  sizeBytes: 1000,
  width: 10,
  height: 10,
  durationSeconds: null,
  url: 'https://studio.example.com/media/i.jpg?sig=x',
  read: async () => Buffer.alloc(1000),
};
let keys = 0;
const input = (media: PostMedia[], message = 'Hello TikTok #genpro'): PostInput => ({
  message,
  mediaUrls: media.map((m) => m.url),
  media,
  idempotencyKey: `post-${++keys}`,
  authorId: fake.user.openId,
});

/** A fresh user token (TikTok limits the video init to 6 a minute per token). */
async function connect() {
  const c = connector();
  const auth = c.generateAuthUrl(REDIRECT);
  return c.authenticate({
    code: approveTiktok(fake, auth.url).code,
    codeVerifier: auth.codeVerifier,
    redirectUri: REDIRECT,
  });
}
const inits = () => fake.requests.filter((r) => r.path === '/v2/post/publish/video/init/').length;

describe('TikTok connector', () => {
  it('connects with Login Kit for Web: the authorize URL, the code exchange and the profile', async () => {
    const c = connector();
    const auth = c.generateAuthUrl(REDIRECT);
    const u = new URL(auth.url);
    expect(`${u.origin}${u.pathname}`).toBe(`${fake.base}/v2/auth/authorize/`);
    expect(Object.fromEntries(u.searchParams)).toEqual({
      client_key: fake.clientKey,
      scope: 'user.info.basic,user.info.profile,user.info.stats,video.publish,video.list',
      response_type: 'code',
      redirect_uri: REDIRECT,
      state: auth.state,
    });
    // A code TikTok did not issue (or one for another redirect URI) is refused: bad-body, nothing connected.
    const wrong = approveTiktok(fake, auth.url);
    await expect(
      c.authenticate({ code: wrong.code, codeVerifier: auth.codeVerifier, redirectUri: 'https://other.example/cb' }),
    ).rejects.toMatchObject({ failure: 'bad-body' });
    const { code } = approveTiktok(fake, auth.url);
    const { tokens, profile } = await c.authenticate({ code, codeVerifier: auth.codeVerifier, redirectUri: REDIRECT });
    expect(fake.tokenCalls.at(-1)).toEqual({
      client_key: fake.clientKey,
      client_secret: fake.clientSecret,
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
    });
    expect(tokens.accessToken).toMatch(/^act\./);
    expect(tokens.refreshToken).toMatch(/^rft\./);
    expect(tokens.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 86000_000);
    expect(profile).toEqual({ externalId: fake.user.openId, username: 'genpro.tt', followerCount: 77 });
    expect(fake.requests.at(-1)?.path).toBe(
      '/v2/user/info/?fields=open_id,union_id,display_name,username,follower_count,video_count',
    );
  });

  it('refreshes the token, and a refresh token TikTok no longer accepts is refresh-token', async () => {
    const c = connector();
    const { tokens } = await connect();
    const next = await c.refreshToken(tokens.refreshToken as string);
    expect(next.accessToken).not.toBe(tokens.accessToken);
    expect(next.refreshToken).not.toBe(tokens.refreshToken);
    expect(fake.tokenCalls.at(-1)).toMatchObject({ grant_type: 'refresh_token', refresh_token: tokens.refreshToken });
    await expect(c.refreshToken(tokens.refreshToken as string)).rejects.toMatchObject({ failure: 'refresh-token' });
  });

  it('plans chunks by TikTok’s rules', () => {
    expect(chunkPlan(3 * MB)).toEqual({ chunkSize: 3 * MB, totalChunkCount: 1 });
    expect(chunkPlan(64 * MB)).toEqual({ chunkSize: 64 * MB, totalChunkCount: 1 });
    expect(chunkPlan(64 * MB + 1)).toEqual({ chunkSize: 10 * MB, totalChunkCount: 6 });
    expect(chunkPlan(4000 * MB)).toEqual({ chunkSize: 10 * MB, totalChunkCount: 400 });
  });

  it('posts a video: creator info, init with FILE_UPLOAD, one chunk, status until PUBLISH_COMPLETE', async () => {
    const { tokens } = await connect();
    const bytes = fakeMp4(2 * MB + 17);
    const before = fake.requests.length;
    const out = await connector().post(tokens.accessToken, input([image, video(bytes)]));
    const upload = [...fake.uploads.values()].at(-1);
    // The int64 post id comes back whole (it is beyond 2^53).
    const published = fake.published.at(-1);
    expect(published?.postId).toMatch(/^\d{19}$/);
    expect(out).toEqual({
      externalId: published?.postId,
      shareUrl: `https://www.tiktok.com/@genpro.tt/video/${published?.postId}`,
      views: 0,
    });
    expect(fake.requests.slice(before).map((r) => `${r.method} ${r.path.replace(/v_pub[^/]+$/, 'ID')}`)).toEqual([
      'POST /v2/post/publish/creator_info/query/',
      'POST /v2/post/publish/video/init/',
      'PUT /upload/ID',
      'POST /v2/post/publish/status/fetch/',
      'POST /v2/post/publish/status/fetch/',
      'POST /v2/post/publish/status/fetch/',
    ]);
    expect(upload?.postInfo).toEqual({
      title: 'Hello TikTok #genpro',
      privacy_level: 'PUBLIC_TO_EVERYONE',
      // The creator turned duets off in TikTok: they stay off.
      disable_comment: false,
      disable_duet: true,
      disable_stitch: false,
    });
    expect(upload?.sourceInfo).toEqual({ video_size: bytes.length, chunk_size: bytes.length, total_chunk_count: 1 });
    expect(upload?.chunks).toEqual([
      { range: `bytes 0-${bytes.length - 1}/${bytes.length}`, contentType: 'video/mp4', length: bytes.length },
    ]);
    expect(upload?.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('uploads a video over 64 MB in 10 MB chunks, the trailing bytes on the last', async () => {
    const { tokens } = await connect();
    const bytes = fakeMp4(70 * MB + 12345);
    const out = await connector().post(tokens.accessToken, input([video(bytes, 30, 'video/quicktime')]));
    const upload = [...fake.uploads.values()].at(-1);
    expect(upload?.sourceInfo).toEqual({ video_size: bytes.length, chunk_size: 10 * MB, total_chunk_count: 7 });
    expect(upload?.chunks.map((c) => c.length)).toEqual([...Array(6).fill(10 * MB), 10 * MB + 12345]);
    expect(upload?.chunks.at(-1)).toMatchObject({
      range: `bytes ${60 * MB}-${bytes.length - 1}/${bytes.length}`,
      contentType: 'video/quicktime',
    });
    expect(upload?.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(out.externalId).toBe(fake.published.at(-1)?.postId);
  });

  it('refuses a post without media, PNG photos, and a video longer than the creator may post, before sending anything', async () => {
    const { tokens } = await connect();
    const before = fake.requests.length;
    const noMedia = await connector()
      .post(tokens.accessToken, input([]))
      .catch((e: unknown) => e);
    expect(noMedia).toBeInstanceOf(ConnectorError);
    expect(noMedia).toMatchObject({ failure: 'bad-body', message: MESSAGES.social.tiktokNeedsVideo });
    const png = { ...image, contentType: 'image/png' };
    await expect(connector().post(tokens.accessToken, input([image, png]))).rejects.toMatchObject({
      failure: 'bad-body',
      message: MESSAGES.social.tiktokPhotoRules,
    });
    await expect(
      connector().post(tokens.accessToken, input(Array.from({ length: 36 }, () => image))),
    ).rejects.toMatchObject({ failure: 'bad-body', message: MESSAGES.social.tiktokPhotoRules });
    expect(fake.requests.length).toBe(before);
    fake.creator.max_video_post_duration_sec = 60;
    await expect(connector().post(tokens.accessToken, input([video(fakeMp4(MB), 60.4)]))).rejects.toMatchObject({
      failure: 'bad-body',
      message: MESSAGES.social.tiktokVideoTooLong(61, 60),
    });
    fake.creator.max_video_post_duration_sec = 600;
    // Only the creator info was asked.
    expect(fake.requests.slice(before).map((r) => r.path)).toEqual(['/v2/post/publish/creator_info/query/']);
  });

  it('posts photos: content init with PULL_FROM_URL of the signed URLs, then the status until published', async () => {
    const { tokens } = await connect();
    const second = { ...image, contentType: 'image/webp', url: 'https://studio.example.com/media/j.webp?sig=y' };
    const message = `${'A first line that is much longer than ninety characters, as TikTok photo titles are cut '.repeat(2)}\nand more`;
    const out = await connector().post(tokens.accessToken, input([image, second], message));
    const published = fake.published.at(-1);
    expect(published).toMatchObject({
      kind: 'photo',
      photoImages: [image.url, second.url],
      description: message,
      privacyLevel: 'PUBLIC_TO_EVERYONE',
    });
    expect([...(published?.title ?? '')].length).toBe(90);
    expect(message.startsWith(published?.title ?? '-')).toBe(true);
    expect(out).toEqual({
      externalId: published?.postId,
      shareUrl: `https://www.tiktok.com/@genpro.tt/photo/${published?.postId}`,
      views: 0,
    });
    const init = fake.requests.filter((r) => r.path === '/v2/post/publish/content/init/').at(-1);
    expect(JSON.parse(init?.body ?? '{}')).toMatchObject({
      media_type: 'PHOTO',
      post_mode: 'DIRECT_POST',
      source_info: { source: 'PULL_FROM_URL', photo_cover_index: 0 },
      post_info: { disable_comment: false },
    });
    // Photos from a URL prefix not verified for the app are refused by TikTok: bad-body.
    const elsewhere = { ...image, url: 'https://cdn.other.example/i.jpg' };
    await expect(connector().post(tokens.accessToken, input([elsewhere]))).rejects.toMatchObject({
      failure: 'bad-body',
      status: 403,
      message: expect.stringContaining('url_ownership_unverified'),
    });
  });

  it('posts privately (SELF_ONLY) when the app has not passed TikTok’s audit', async () => {
    const { tokens } = await connect();
    fake.audited = false;
    try {
      const c = connector();
      const out = await c.post(tokens.accessToken, input([video(fakeMp4(MB))]));
      const published = fake.published.at(-1);
      expect(published).toMatchObject({ privacyLevel: 'SELF_ONLY', postId: null });
      // A private post has no public id: known by its publish_id, linked to the profile, and has no figures.
      expect(out).toEqual({
        externalId: published?.publishId,
        shareUrl: 'https://www.tiktok.com/@genpro.tt',
        views: 0,
      });
      const queries = fake.requests.filter((r) => r.path.startsWith('/v2/video/query/')).length;
      expect((await c.fetchPostMetrics(tokens.accessToken, [out.externalId])).size).toBe(0);
      expect(fake.requests.filter((r) => r.path.startsWith('/v2/video/query/')).length).toBe(queries);
    } finally {
      fake.audited = true;
    }
  });

  it('a video TikTok fails to publish is bad-body with its fail_reason', async () => {
    const { tokens } = await connect();
    fake.failNext = 'file_format_check_failed';
    await expect(connector().post(tokens.accessToken, input([video(fakeMp4(MB))]))).rejects.toMatchObject({
      failure: 'bad-body',
      message: 'TikTok did not publish the video: file_format_check_failed',
    });
    // A file that is not a video is refused at the upload.
    await expect(connector().post(tokens.accessToken, input([video(Buffer.alloc(MB, 1))]))).rejects.toMatchObject({
      failure: 'bad-body',
      status: 400,
      message: expect.stringContaining('invalid_file_upload'),
    });
  });

  it('classifies TikTok’s errors: refresh-token, retry with its retry-after, bad-body', async () => {
    const { tokens } = await connect();
    const c = connector();
    await expect(c.post('not-a-token', input([video(fakeMp4(MB))]))).rejects.toMatchObject({
      failure: 'refresh-token',
      status: 401,
    });
    await expect(c.fetchProfile('not-a-token')).rejects.toMatchObject({ failure: 'refresh-token' });
    fake.errors.push({ path: '/v2/post/publish/video/init/', status: 429, code: 'rate_limit_exceeded', times: 1 });
    // TikTok sends no Retry-After: its window is one minute.
    await expect(c.post(tokens.accessToken, input([video(fakeMp4(MB))]))).rejects.toMatchObject({
      failure: 'retry',
      retryAfterSeconds: 60,
      status: 429,
    });
    fake.errors.push({
      path: '/v2/user/info/',
      status: 429,
      code: 'rate_limit_exceeded',
      times: 1,
      retryAfter: '7',
    });
    await expect(c.fetchProfile(tokens.accessToken)).rejects.toMatchObject({ failure: 'retry', retryAfterSeconds: 7 });
    fake.errors.push({ path: '/v2/post/publish/creator_info/query/', status: 500, code: 'internal_error', times: 1 });
    await expect(c.post(tokens.accessToken, input([video(fakeMp4(MB))]))).rejects.toMatchObject({ failure: 'retry' });
    fake.errors.push({
      path: '/v2/post/publish/creator_info/query/',
      status: 401,
      code: 'scope_not_authorized',
      times: 1,
    });
    await expect(c.post(tokens.accessToken, input([video(fakeMp4(MB))]))).rejects.toMatchObject({
      failure: 'refresh-token',
    });
    fake.errors.push({ path: '/v2/post/publish/video/init/', status: 403, code: 'spam_risk_too_many_posts', times: 1 });
    await expect(c.post(tokens.accessToken, input([video(fakeMp4(MB))]))).rejects.toMatchObject({
      failure: 'bad-body',
      status: 403,
      message: expect.stringContaining('spam_risk_too_many_posts'),
    });
    // The fake's own limit: six inits a minute per token; the seventh is 429.
    const fresh = (await connect()).tokens.accessToken;
    for (let i = 0; i < 6; i++) await c.post(fresh, input([video(fakeMp4(64))]));
    await expect(c.post(fresh, input([video(fakeMp4(64))]))).rejects.toMatchObject({
      failure: 'retry',
      retryAfterSeconds: 60,
    });
  });

  it('a retried publish never posts twice: it resumes the uploaded publish_id, and a finished one answers again', async () => {
    const { tokens } = await connect();
    const c = connector();
    const post = input([video(fakeMp4(MB))]);
    const initsBefore = inits();
    const publishedBefore = fake.published.length;
    // The upload went through, then TikTok's status fetch failed: the publish task retries.
    fake.errors.push({ path: '/v2/post/publish/status/fetch/', status: 503, code: 'internal_error', times: 1 });
    await expect(c.post(tokens.accessToken, post)).rejects.toMatchObject({ failure: 'retry' });
    expect(inits()).toBe(initsBefore + 1);
    // Another connector instance (connectorFor builds one per call) with the same post: no new init.
    const out = await connector().post(tokens.accessToken, post);
    expect(inits()).toBe(initsBefore + 1);
    expect(fake.published.length).toBe(publishedBefore + 1);
    expect(out.externalId).toBe(fake.published.at(-1)?.postId);
    const requests = fake.requests.length;
    expect(await connector().post(tokens.accessToken, post)).toEqual(out);
    expect(fake.requests.length).toBe(requests);

    // The last chunk reached TikTok but its reply was lost: the retry asks TikTok and does not upload again.
    const lost = input([video(fakeMp4(MB))]);
    fake.dropLastChunkReply = true;
    await expect(c.post(tokens.accessToken, lost)).rejects.toMatchObject({ failure: 'retry' });
    expect(await connector().post(tokens.accessToken, lost)).toMatchObject({
      externalId: fake.published.at(-1)?.postId,
    });
    expect(inits()).toBe(initsBefore + 2);
    expect(fake.published.length).toBe(publishedBefore + 2);
    // A retry after an init TikTok failed starts again: nothing was uploaded, so nothing can be published twice.
    const broken = input([video(fakeMp4(MB))]);
    fake.errors.push({ path: '/v2/post/publish/video/init/', status: 503, code: 'internal_error', times: 1 });
    await expect(c.post(tokens.accessToken, broken)).rejects.toMatchObject({ failure: 'retry' });
    await connector().post(tokens.accessToken, broken);
    expect(inits()).toBe(initsBefore + 4);
    expect(fake.published.length).toBe(publishedBefore + 3);

    // Two publishes of one post at once share one upload.
    const twin = input([video(fakeMp4(MB))]);
    const [a, b] = await Promise.all([c.post(tokens.accessToken, twin), connector().post(tokens.accessToken, twin)]);
    expect(a).toEqual(b);
    expect(inits()).toBe(initsBefore + 5);
    expect(fake.published.length).toBe(publishedBefore + 4);
  });

  it('never posts twice across processes: the publish_id is in the journal before TikTok can publish, the outcome right after', async () => {
    const { tokens } = await connect();
    const initsBefore = inits();
    const publishedBefore = fake.published.length;
    // The last chunk reaches TikTok (which publishes the video) but its answer is lost, and the process dies.
    const clip = input([video(fakeMp4(MB))]);
    fake.dropLastChunkReply = true;
    await expect(connector().post(tokens.accessToken, clip)).rejects.toMatchObject({ failure: 'retry' });
    const row = await publishes.row('tiktok', fake.user.openId, clip.idempotencyKey);
    expect(row?.state).toMatchObject({ kind: 'video', uploaded: false, sendingLast: MB });
    expect(JSON.stringify(row)).not.toContain(tokens.accessToken);
    // Another process (a new connector, nothing in memory) asks TikTok about that publish_id: no new upload.
    const out = await connector().post(tokens.accessToken, clip);
    expect(out.externalId).toBe(fake.published.at(-1)?.postId);
    expect(inits()).toBe(initsBefore + 1);
    expect(fake.published.length).toBe(publishedBefore + 1);
    // The studio died before recording it as published: the next process answers without asking TikTok.
    const requests = fake.requests.length;
    expect(await connector().post(tokens.accessToken, clip)).toEqual(out);
    expect(fake.requests.length).toBe(requests);

    // Photos: TikTok publishes from the init on; the init's publish_id is recorded as soon as TikTok answers, so
    // a process that dies while waiting for the status leaves the next one that publish_id to ask about.
    const photos = input([image]);
    fake.errors.push({ path: '/v2/post/publish/status/fetch/', status: 503, code: 'internal_error', times: 1 });
    await expect(connector().post(tokens.accessToken, photos)).rejects.toMatchObject({ failure: 'retry' });
    expect((await publishes.row('tiktok', fake.user.openId, photos.idempotencyKey))?.state).toMatchObject({
      kind: 'photo',
      uploaded: true,
    });
    const photoInits = () => fake.requests.filter((r) => r.path === '/v2/post/publish/content/init/').length;
    const photoInitsBefore = photoInits();
    const shown = await connector().post(tokens.accessToken, photos);
    expect(photoInits()).toBe(photoInitsBefore);
    expect(fake.published.length).toBe(publishedBefore + 2);
    expect(shown.externalId).toBe(fake.published.at(-1)?.postId);
  });

  it('stops polling when the publish is aborted or takes too long, and the retry resumes it', async () => {
    const { tokens } = await connect();
    fake.processingPolls = 1000;
    try {
      const post = input([video(fakeMp4(MB))]);
      const controller = new AbortController();
      const slow = connector({ pollIntervalMs: 20, pollTimeoutMs: 60_000 }).post(
        tokens.accessToken,
        post,
        controller.signal,
      );
      setTimeout(() => controller.abort(), 150);
      await expect(slow).rejects.toMatchObject({ failure: 'retry' });
      await expect(
        connector({ pollIntervalMs: 5, pollTimeoutMs: 50 }).post(tokens.accessToken, post),
      ).rejects.toMatchObject({ failure: 'retry', message: expect.stringContaining('PROCESSING_UPLOAD') });
      const upload = [...fake.uploads.values()].at(-1);
      if (upload) upload.pollsLeft = 0;
      const initsBefore = inits();
      const out = await connector().post(tokens.accessToken, post);
      expect(inits()).toBe(initsBefore);
      expect(out.externalId).toBe(fake.published.at(-1)?.postId);
    } finally {
      fake.processingPolls = 2;
    }
  });

  it('reads the follower count and the videos’ figures', async () => {
    const { tokens } = await connect();
    const c = connector();
    fake.user.followers = 4321;
    expect(await c.fetchProfile(tokens.accessToken)).toEqual({ followerCount: 4321 });
    fake.user.followers = 77;
    const ids = Array.from({ length: 25 }, (_, i) => String(7400000000000000000n + BigInt(i)));
    fake.metrics.set(ids[0] as string, { views: 1200, likes: 80, comments: 9, shares: 4 });
    fake.metrics.set(ids[24] as string, { views: 5, likes: 1, comments: 0, shares: 0 });
    const before = fake.requests.length;
    const figures = await c.fetchPostMetrics(tokens.accessToken, ids);
    expect(figures.get(ids[0] as string)).toEqual({ views: 1200, likes: 80, comments: 9, shares: 4 });
    expect(figures.get(ids[24] as string)).toEqual({ views: 5, likes: 1, comments: 0, shares: 0 });
    // Videos TikTok no longer has are left out; at most 20 ids a query.
    expect(figures.size).toBe(2);
    const queries = fake.requests.slice(before);
    expect(queries.map((r) => r.path)).toEqual([
      '/v2/video/query/?fields=id,view_count,like_count,comment_count,share_count',
      '/v2/video/query/?fields=id,view_count,like_count,comment_count,share_count',
    ]);
    expect(JSON.parse(queries[0]?.body ?? '{}')).toEqual({ filters: { video_ids: ids.slice(0, 20) } });
  });
});

describe('TikTok through the studio', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        TIKTOK_CLIENT_ID: fake.clientKey,
        TIKTOK_CLIENT_SECRET: fake.clientSecret,
        TIKTOK_API_BASE: fake.base,
        TIKTOK_AUTH_BASE: fake.base,
        SOCIAL_SCHEDULER_INTERVAL_SECONDS: '3600',
        PUBLIC_URL: 'https://studio.example.com',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('connects a live TikTok account and refuses a post without a video with TikTok’s requirement', async () => {
    const user = await createTestUser(t.ctx.db, { role: 'brand' });
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/social/connect/tiktok',
      headers: authHeader(user.token),
    });
    expect(started.statusCode, started.body).toBe(200);
    const { authUrl } = started.json() as { authUrl: string };
    expect(authUrl.startsWith(`${fake.base}/v2/auth/authorize/?`)).toBe(true);
    const approved = approveTiktok(fake, authUrl);
    const cb = await t.app.inject({
      method: 'GET',
      url: `/api/social/oauth/tiktok?code=${approved.code}&state=${encodeURIComponent(approved.state)}`,
      headers: { cookie: String(started.headers['set-cookie']).split(';')[0] as string },
    });
    expect(cb.statusCode, cb.body).toBe(200);
    const listed = await t.app.inject({ method: 'GET', url: '/api/social/accounts', headers: authHeader(user.token) });
    const accounts = (listed.json() as { data: { accounts: SocialAccount[] } }).data.accounts;
    expect(accounts.find((a) => a.platform === 'tiktok')).toMatchObject({
      mode: 'live',
      username: 'genpro.tt',
      follower_count: 77,
      status: 'connected',
    });
    const initsBefore = inits();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/social/publish',
      headers: authHeader(user.token),
      payload: { message: 'Text only', platforms: ['tiktok'] },
    });
    // Refused before publishing by TikTok's rules (common/rules/social-media.ts): nothing reaches TikTok.
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe(MESSAGES.social.videoRequired('TikTok'));
    expect(inits()).toBe(initsBefore);
  });
});
