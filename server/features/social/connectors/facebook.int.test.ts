import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishResult } from '../../../../common/api/social.ts';
import { MESSAGES } from '../../../../common/messages.ts';
import { socialAccounts, socialPosts } from '../../../db/schema/index.ts';
import { type FakeFacebook, startFakeFacebook } from '../../../test/fakes/facebook.ts';
import { authHeader, createTestUser, type TestUser } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { testPublishJournal } from '../../../test/publish-journal.ts';
import { refreshStaleMetrics } from '../metrics.ts';
import { facebookConnector } from './facebook.ts';
import { ConnectorError, type PostInput, type PostMedia } from './types.ts';

// Contract tests of the Facebook Pages connector against the local Graph API fake (server/test/fakes/facebook.ts).

let fake: FakeFacebook;
beforeAll(async () => {
  fake = await startFakeFacebook({
    pages: [
      { id: '1111', name: 'Genpro Page', followers: 250, fans: 240, tasks: ['ANALYZE', 'CREATE_CONTENT'] },
      { id: '2222', name: 'Second Page', followers: 10, fans: 9, tasks: ['ANALYZE', 'CREATE_CONTENT', 'MODERATE'] },
      // A Page the person may only analyse: not offered.
      { id: '3333', name: 'Read-only Page', followers: 5, fans: 5, tasks: ['ANALYZE'] },
    ],
  });
});
afterAll(async () => {
  await fake.close();
});

const publishes = testPublishJournal();
/** A connector as a process of the studio builds it: nothing shared with another but the database's journal. */
const connector = () =>
  facebookConnector({
    clientId: fake.app.id,
    clientSecret: fake.app.secret,
    apiBase: fake.base,
    authBase: fake.base,
    journal: publishes.journal(),
  });
const REDIRECT = 'https://studio.example.com/api/social/oauth/facebook';

/** Bytes that open like an MP4 (an ftyp box), as Facebook's upload checks them. */
function mp4Like(size: number): Buffer {
  const bytes = Buffer.alloc(size, 0x2a);
  bytes.writeUInt32BE(24, 0);
  bytes.write('ftypisom', 4, 'latin1');
  return bytes;
}

function media(kind: 'image' | 'video', name: string, bytes?: Buffer): PostMedia {
  const data = bytes ?? (kind === 'video' ? mp4Like(3000) : Buffer.from('x'));
  return {
    kind,
    contentType: kind === 'image' ? 'image/png' : 'video/mp4',
    sizeBytes: data.length,
    width: 100,
    height: 100,
    durationSeconds: kind === 'video' ? 5 : null,
    url: `https://studio.example.com/api/images/${name}?post=p&sig=s`,
    read: async () => data,
  };
}

let seq = 0;
function input(pageId: string, extra: Partial<PostInput> = {}): PostInput {
  return {
    message: 'Hello Facebook',
    mediaUrls: [],
    media: [],
    idempotencyKey: `key-${++seq}`,
    authorId: pageId,
    ...extra,
  };
}

async function connect() {
  const c = connector();
  const auth = c.generateAuthUrl(REDIRECT);
  const { code } = fake.approve(auth.url);
  return { c, ...(await c.authenticate({ code, codeVerifier: auth.codeVerifier, redirectUri: REDIRECT })) };
}

describe('facebook connector', () => {
  it('connects through Facebook Login: the dialog, the code exchange, the long-lived token and the Pages', async () => {
    const c = connector();
    const auth = c.generateAuthUrl(REDIRECT);
    const u = new URL(auth.url);
    expect(`${u.origin}${u.pathname}`).toBe(`${fake.base}/v24.0/dialog/oauth`);
    expect(Object.fromEntries(u.searchParams)).toEqual({
      client_id: fake.app.id,
      redirect_uri: REDIRECT,
      state: auth.state,
      response_type: 'code',
      scope: 'pages_show_list,pages_manage_posts,pages_read_engagement,read_insights',
    });
    // A code for another redirect URI is refused (bad-body): Facebook binds the code to it.
    const other = fake.approve(auth.url);
    await expect(
      c.authenticate({ code: other.code, codeVerifier: auth.codeVerifier, redirectUri: `${REDIRECT}/x` }),
    ).rejects.toMatchObject({ failure: 'bad-body', status: 400 });

    const callsBefore = fake.calls.length;
    const { code } = fake.approve(auth.url);
    const result = await c.authenticate({ code, codeVerifier: auth.codeVerifier, redirectUri: REDIRECT });
    const calls = fake.calls.slice(callsBefore);
    expect(calls.map((x) => `${x.method} ${x.path}`)).toEqual([
      'GET /oauth/access_token',
      'GET /oauth/access_token',
      'GET /me/accounts',
    ]);
    expect(calls[0]?.params).toEqual({
      client_id: fake.app.id,
      client_secret: fake.app.secret,
      redirect_uri: REDIRECT,
      code,
    });
    expect(calls[1]?.params).toMatchObject({ grant_type: 'fb_exchange_token', client_id: fake.app.id });
    expect(result.profile).toEqual({ externalId: '1111', username: 'Genpro Page', followerCount: 250 });
    // The Page token does not expire; the refresh token binds the long-lived user token to the Page.
    expect(result.tokens.expiresAt).toBeNull();
    expect(result.tokens.refreshToken).toMatch(/^1111\|EAAL/);
    // Several Pages: every Page the person may post to is offered (not the read-only one).
    expect(result.choices?.map((p) => [p.profile.externalId, p.profile.username, p.profile.followerCount])).toEqual([
      ['1111', 'Genpro Page', 250],
      ['2222', 'Second Page', 10],
    ]);
    expect(result.choices?.[1]?.tokens.refreshToken).toMatch(/^2222\|EAAL/);
    // A used code is refused.
    await expect(
      c.authenticate({ code, codeVerifier: auth.codeVerifier, redirectUri: REDIRECT }),
    ).rejects.toMatchObject({ failure: 'bad-body' });
  });

  it('refreshes the Page token from the long-lived user token; a revoked grant means reconnecting', async () => {
    const { c, tokens } = await connect();
    const next = await c.refreshToken(tokens.refreshToken as string);
    expect(next.accessToken).not.toBe(tokens.accessToken);
    expect(next.refreshToken).toBe(tokens.refreshToken);
    expect(await c.fetchProfile(next.accessToken)).toEqual({ followerCount: 250 });
    // The person lost the Page: reconnect.
    const lost = `9999|${(tokens.refreshToken as string).split('|')[1]}`;
    await expect(c.refreshToken(lost)).rejects.toMatchObject({ failure: 'refresh-token' });
    fake.revokeAll();
    await expect(c.refreshToken(tokens.refreshToken as string)).rejects.toMatchObject({ failure: 'refresh-token' });
    await expect(c.post(next.accessToken, input('1111'))).rejects.toMatchObject({ failure: 'refresh-token' });
  });

  it('posts text with its link, one image, several images and a video to the Page with the Page token', async () => {
    const { c, tokens } = await connect();
    const before = fake.posts.length;

    const text = await c.post(tokens.accessToken, input('1111', { message: 'Read this: https://genpro.example/a.' }));
    expect(text).toEqual({
      externalId: expect.stringMatching(/^1111_\d+$/),
      shareUrl: `https://www.facebook.com/${text.externalId}`,
      views: null,
    });
    expect(fake.posts.at(-1)).toMatchObject({
      kind: 'feed',
      pageId: '1111',
      params: { message: 'Read this: https://genpro.example/a.', link: 'https://genpro.example/a' },
    });

    const image = media('image', 'one.png');
    const photo = await c.post(
      tokens.accessToken,
      input('1111', { message: 'One picture', media: [image], mediaUrls: [image.url] }),
    );
    expect(fake.posts.at(-1)).toMatchObject({
      kind: 'photo',
      id: photo.externalId,
      params: { url: image.url, caption: 'One picture' },
    });
    expect(photo.shareUrl).toBe(`https://www.facebook.com/${photo.externalId}`);

    const images = [media('image', 'a.png'), media('image', 'b.png'), media('image', 'c.png')];
    const callsBefore = fake.calls.length;
    const album = await c.post(
      tokens.accessToken,
      input('1111', { message: 'Three', media: images, mediaUrls: images.map((m) => m.url) }),
    );
    const calls = fake.calls.slice(callsBefore);
    expect(calls.map((x) => `${x.method} ${x.path}`)).toEqual([
      'POST /1111/photos',
      'POST /1111/photos',
      'POST /1111/photos',
      'POST /1111/feed',
    ]);
    expect(calls.slice(0, 3).map((x) => x.params)).toEqual(images.map((m) => ({ url: m.url, published: 'false' })));
    const feed = fake.posts.at(-1);
    expect(feed).toMatchObject({ kind: 'feed', id: album.externalId, message: 'Three' });
    expect(Object.keys(feed?.params ?? {}).filter((k) => k.startsWith('attached_media'))).toHaveLength(3);
    expect(fake.unpublished.size).toBe(0);

    const clip = media('video', 'clip.mp4');
    const video = await c.post(
      tokens.accessToken,
      input('1111', { message: 'A clip', media: [clip], mediaUrls: [clip.url] }),
    );
    expect(fake.posts.at(-1)).toMatchObject({
      kind: 'video',
      params: { upload_phase: 'finish', description: 'A clip' },
    });
    expect([...fake.videoUploads.values()].at(-1)?.bytes?.equals(await clip.read())).toBe(true);
    expect(video).toEqual({
      externalId: expect.stringMatching(/^\d+$/),
      shareUrl: `https://www.facebook.com/1111/videos/${video.externalId}`,
      views: null,
    });
    expect(fake.posts.length).toBe(before + 4);

    // Another Page's id with this Page's token: refused (permissions, bad-body).
    await expect(c.post(tokens.accessToken, input('2222'))).rejects.toMatchObject({ failure: 'bad-body', status: 403 });
  });

  it('uploads a video with the resumable upload: start, each byte range Facebook names, then finish', async () => {
    const { c, tokens } = await connect();
    fake.videoChunkBytes = 1000;
    try {
      const bytes = mp4Like(2500);
      const clip = media('video', 'chunked.mp4', bytes);
      const out = await c.post(tokens.accessToken, input('1111', { message: 'In parts', media: [clip] }));
      const upload = [...fake.videoUploads.values()].at(-1);
      expect(upload?.phases).toEqual([
        { phase: 'start', startOffset: null, bytes: 0 },
        { phase: 'transfer', startOffset: 0, bytes: 1000 },
        { phase: 'transfer', startOffset: 1000, bytes: 1000 },
        { phase: 'transfer', startOffset: 2000, bytes: 500 },
        { phase: 'finish', startOffset: null, bytes: 0 },
      ]);
      expect(upload?.bytes?.equals(bytes)).toBe(true);
      expect(out).toEqual({
        externalId: upload?.videoId,
        shareUrl: `https://www.facebook.com/1111/videos/${upload?.videoId}`,
        views: null,
      });
      expect(fake.posts.at(-1)).toMatchObject({ id: upload?.videoId, kind: 'video', message: 'In parts' });

      // The fake refuses what Facebook refuses: a range other than the one it named, and finishing early.
      const page = (await c.refreshToken(tokens.refreshToken as string)).accessToken;
      const call = (body: FormData | URLSearchParams) =>
        fetch(`${fake.base}/v24.0/1111/videos`, { method: 'POST', headers: { authorization: `Bearer ${page}` }, body });
      const started = (await (
        await call(new URLSearchParams({ upload_phase: 'start', file_size: '1500' }))
      ).json()) as Record<string, string>;
      expect(started).toMatchObject({ start_offset: '0', end_offset: '1000' });
      const chunk = (offset: number, size: number) => {
        const form = new FormData();
        form.set('upload_phase', 'transfer');
        form.set('upload_session_id', started.upload_session_id as string);
        form.set('start_offset', String(offset));
        form.set('video_file_chunk', new Blob([new Uint8Array(size)]), 'chunk');
        return form;
      };
      const wrong = await call(chunk(500, 1000));
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toMatchObject({
        error: { code: 6000, error_subcode: 1363037, error_data: { start_offset: '0', end_offset: '1000' } },
      });
      expect((await call(chunk(0, 1000))).status).toBe(200);
      const early = await call(
        new URLSearchParams({ upload_phase: 'finish', upload_session_id: started.upload_session_id as string }),
      );
      expect(early.status).toBe(400);
      expect(await early.json()).toMatchObject({ error: { code: 6000, error_subcode: 1363019 } });
    } finally {
      fake.videoChunkBytes = 1024 * 1024;
    }
  });

  it("reads the Page's followers and each post's reactions, comments, shares and views", async () => {
    const { c, tokens } = await connect();
    fake.pages[0] = { ...(fake.pages[0] as (typeof fake.pages)[number]), followers: 1234 };
    expect(await c.fetchProfile(tokens.accessToken)).toEqual({ followerCount: 1234 });
    const post = await c.post(tokens.accessToken, input('1111'));
    const clip = media('video', 'v.mp4');
    const video = await c.post(tokens.accessToken, input('1111', { media: [clip], mediaUrls: [clip.url] }));
    const quiet = await c.post(tokens.accessToken, input('1111', { message: 'Nobody shared this' }));
    fake.figures.set(post.externalId, { reactions: 40, comments: 6, shares: 3, views: 900 });
    fake.figures.set(video.externalId, { reactions: 7, comments: 2, shares: 0, views: 120 });
    fake.figures.set(quiet.externalId, { reactions: 0, comments: 0, shares: 0, views: 5 });
    const figures = await c.fetchPostMetrics(tokens.accessToken, [
      post.externalId,
      video.externalId,
      quiet.externalId,
      '1111_404',
    ]);
    expect(figures.get(post.externalId)).toEqual({ views: 900, likes: 40, comments: 6, shares: 3 });
    // Videos report no shares: null, not 0; a post without shares has 0 (Graph leaves the field out).
    expect(figures.get(video.externalId)).toEqual({ views: 120, likes: 7, comments: 2, shares: null });
    expect(figures.get(quiet.externalId)).toEqual({ views: 5, likes: 0, comments: 0, shares: 0 });
    // A post deleted on Facebook is left out.
    expect(figures.has('1111_404')).toBe(false);
    const insights = fake.calls.filter((x) => x.path.endsWith('insights'));
    expect(insights.map((x) => x.params.metric)).toContain('post_media_view');
    expect(insights.map((x) => x.params.metric)).toContain('total_video_views');
    await expect(c.fetchProfile('not-a-token')).rejects.toMatchObject({ failure: 'refresh-token' });
  });

  it("classifies Meta's errors: 190 → refresh-token, rate limits and 5xx → retry with retry-after, others → bad-body", async () => {
    const { c, tokens } = await connect();
    await expect(c.post('EAAPnot-a-token', input('1111'))).rejects.toMatchObject({
      failure: 'refresh-token',
      status: 400,
    });

    fake.faults.push('throttle');
    const throttled = await c.post(tokens.accessToken, input('1111')).catch((e: unknown) => e);
    expect(throttled).toBeInstanceOf(ConnectorError);
    expect(throttled).toMatchObject({ failure: 'retry', retryAfterSeconds: 60, status: 400 });
    expect((throttled as Error).message).toContain('code 32');

    fake.faults.push('server-error');
    await expect(c.post(tokens.accessToken, input('1111'))).rejects.toMatchObject({ failure: 'retry', status: 500 });

    // A video whose bytes are no video: Facebook refuses it at finish, not retried.
    const before = fake.posts.length;
    const bad = media('video', 'x.mp4', Buffer.alloc(2000, 7));
    const refused = await c.post(tokens.accessToken, input('1111', { media: [bad] })).catch((e: unknown) => e);
    expect(refused).toMatchObject({ failure: 'bad-body', status: 400 });
    expect((refused as Error).message).toContain('(#352)');
    // An empty post is refused too.
    await expect(c.post(tokens.accessToken, input('1111', { message: '' }))).rejects.toMatchObject({
      failure: 'bad-body',
    });
    expect(fake.posts.length).toBe(before);
  });

  it('never posts twice: a retried publish returns the first outcome, and one whose reply was lost finds its post', async () => {
    const { c, tokens } = await connect();
    const once = input('1111', { message: 'Exactly once' });
    const before = fake.posts.length;
    const first = await c.post(tokens.accessToken, once);
    // Retried by the task after the post went out (e.g. the studio crashed before recording it): no second post.
    expect(await connector().post(tokens.accessToken, once)).toEqual(first);
    expect(fake.posts.length).toBe(before + 1);

    // Facebook made the post but the answer was lost (500): the retry finds it instead of posting again.
    const image = media('image', 'lost.png');
    const lost = input('1111', { message: 'Lost reply', media: [image], mediaUrls: [image.url] });
    fake.faults.push('lost-reply');
    await expect(c.post(tokens.accessToken, lost)).rejects.toMatchObject({ failure: 'retry' });
    expect(fake.posts.length).toBe(before + 2);
    const retried = await c.post(tokens.accessToken, lost);
    expect(fake.posts.length).toBe(before + 2);
    expect(retried.externalId).toBe(fake.posts.at(-1)?.id);
    expect(fake.calls.at(-1)).toMatchObject({ method: 'GET', path: '/1111/published_posts' });

    // A 5xx that made nothing: the retry looks, finds nothing, and posts once.
    const clip = media('video', 'retry.mp4');
    const video = input('1111', { message: 'Video after a 500', media: [clip], mediaUrls: [clip.url] });
    fake.faults.push('server-error');
    await expect(c.post(tokens.accessToken, video)).rejects.toMatchObject({ failure: 'retry' });
    const posted = await c.post(tokens.accessToken, video);
    expect(fake.posts.length).toBe(before + 3);
    expect(fake.posts.at(-1)).toMatchObject({ id: posted.externalId, kind: 'video' });

    // Two concurrent publishes of one post make one.
    const twin = input('1111', { message: 'Concurrent' });
    const [a, b] = await Promise.all([c.post(tokens.accessToken, twin), c.post(tokens.accessToken, twin)]);
    expect(a).toEqual(b);
    expect(fake.posts.length).toBe(before + 4);
  });

  it('never posts twice across processes: the journal tells a new process that an attempt may have posted, and what was posted', async () => {
    const { tokens } = await connect();
    const before = fake.posts.length;
    const once = input('1111', { message: 'Lost, then the studio restarted' });
    // Facebook makes the post but its answer never reaches the studio, whose process then dies.
    fake.faults.push('lost-reply');
    await expect(connector().post(tokens.accessToken, once)).rejects.toMatchObject({ failure: 'retry' });
    expect(fake.posts.length).toBe(before + 1);
    const row = await publishes.row('facebook', '1111', once.idempotencyKey);
    expect(row?.state).toMatchObject({ uncertain: true });
    expect(row?.claimedBy).toBeNull();
    expect(JSON.stringify(row)).not.toContain(tokens.accessToken);

    // The task runs again in another process (a new connector, nothing in memory): it finds the post, makes none.
    const found = await connector().post(tokens.accessToken, once);
    expect(fake.posts.length).toBe(before + 1);
    expect(found.externalId).toBe(fake.posts.at(-1)?.id);
    expect((await publishes.row('facebook', '1111', once.idempotencyKey))?.state).toMatchObject({
      uncertain: false,
      outcome: found,
    });
    // The studio died once more before recording the post as published: the next process answers from the journal,
    // without calling Facebook.
    const calls = fake.calls.length;
    expect(await connector().post(tokens.accessToken, once)).toEqual(found);
    expect(fake.calls.length).toBe(calls);

    // A post another worker is publishing right now (its claim is live) is not posted by this one: retry later.
    const busy = input('1111', { message: 'Claimed elsewhere' });
    const key = { platform: 'facebook' as const, accountId: '1111', idempotencyKey: busy.idempotencyKey };
    expect(await publishes.journal().claim(key, 'another-worker', 60_000)).toMatchObject({ claimed: true });
    const refused = await connector()
      .post(tokens.accessToken, busy)
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ failure: 'retry', message: 'this post is being published by another worker' });
    expect((refused as ConnectorError).retryAfterSeconds).toBeGreaterThan(50);
    expect(fake.posts.length).toBe(before + 1);
    await publishes.journal().release(key, 'another-worker');
    await connector().post(tokens.accessToken, busy);
    expect(fake.posts.length).toBe(before + 2);
  });
});

describe('Facebook through the studio', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        FACEBOOK_CLIENT_ID: fake.app.id,
        FACEBOOK_CLIENT_SECRET: fake.app.secret,
        FACEBOOK_API_BASE: fake.base,
        FACEBOOK_AUTH_BASE: fake.base,
        SOCIAL_SCHEDULER_INTERVAL_SECONDS: '3600',
        PUBLIC_URL: 'https://studio.example.com',
      },
    });
    user = await createTestUser(t.ctx.db, { role: 'brand' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const startConnect = async () => {
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/social/connect/facebook',
      headers: authHeader(user.token),
    });
    const { authUrl } = started.json() as { authUrl: string };
    return { authUrl, cookie: String(started.headers['set-cookie']).split(';')[0] as string };
  };
  const callback = (approved: { code: string; state: string }, cookie: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/social/oauth/facebook?code=${approved.code}&state=${encodeURIComponent(approved.state)}`,
      headers: { cookie },
    });
  const choose = (choice: string, account: string, cookie: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/social/oauth/facebook/choose',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ choice, account }).toString(),
    });
  const facebookAccount = async () =>
    (
      await t.ctx.db
        .select()
        .from(socialAccounts)
        .where(and(eq(socialAccounts.userId, user.id), eq(socialAccounts.platform, 'facebook')))
    )[0];

  it('asks which Page to connect when the person manages several, and connects only the chosen one', async () => {
    const { authUrl, cookie } = await startConnect();
    expect(authUrl.startsWith(`${fake.base}/v24.0/dialog/oauth?`)).toBe(true);
    const page = await callback(fake.approve(authUrl), cookie);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['content-security-policy']).toContain("form-action 'self'");
    expect(page.body).toContain(MESSAGES.social.choosePage);
    // The connect cookie stays for the answer; nothing is connected yet.
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(await facebookAccount()).toBeUndefined();
    const accounts = [...page.body.matchAll(/data-account="(\d+)"/g)].map((m) => m[1]);
    expect(accounts).toEqual(['1111', '2222']);
    const choice = /name="choice" value="([^"]+)"/.exec(page.body)?.[1] as string;
    expect(page.body).toContain('action="/api/social/oauth/facebook/choose"');

    // Another browser (no connect cookie) cannot answer; the choice is single use.
    const elsewhere = await choose(choice, '2222', 'genpro_social_connect=someone-else');
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.body).toContain(MESSAGES.social.connectOtherBrowser);
    expect(await facebookAccount()).toBeUndefined();

    const again = await startConnect();
    const page2 = await callback(fake.approve(again.authUrl), again.cookie);
    const choice2 = /name="choice" value="([^"]+)"/.exec(page2.body)?.[1] as string;
    // A Page that was not offered is refused.
    const notOffered = await choose(choice2, '3333', again.cookie);
    expect(notOffered.body).toContain(MESSAGES.social.pageNotOffered);
    expect((await choose(choice2, '2222', again.cookie)).body).toContain(MESSAGES.social.connectExpired);

    const third = await startConnect();
    const page3 = await callback(fake.approve(third.authUrl), third.cookie);
    const choice3 = /name="choice" value="([^"]+)"/.exec(page3.body)?.[1] as string;
    const chosen = await choose(choice3, '2222', third.cookie);
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.body).toContain('data-ok="true"');
    expect(await facebookAccount()).toMatchObject({
      mode: 'live',
      externalId: '2222',
      username: 'Second Page',
      followerCount: 10,
      tokenExpiresAt: null,
    });
  });

  it('publishes to the chosen Page with its Page token and reads its figures', async () => {
    const before = fake.posts.length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/social/publish',
      headers: authHeader(user.token),
      payload: { message: 'Live on Facebook https://genpro.example/launch', platforms: ['facebook'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [result] = (res.json() as { data: { results: PublishResult[] } }).data.results;
    expect(result?.status).toBe('published');
    expect(fake.posts.length).toBe(before + 1);
    const sent = fake.posts.at(-1);
    expect(sent).toMatchObject({
      pageId: '2222',
      kind: 'feed',
      params: { message: 'Live on Facebook https://genpro.example/launch', link: 'https://genpro.example/launch' },
    });
    expect(result?.share_url).toBe(`https://www.facebook.com/${sent?.id}`);

    fake.figures.set(sent?.id as string, { reactions: 12, comments: 3, shares: 2, views: 400 });
    fake.pages[1] = { ...(fake.pages[1] as (typeof fake.pages)[number]), followers: 77 };
    await t.ctx.db
      .update(socialAccounts)
      .set({ metricsUpdatedAt: new Date(Date.now() - 3600_000) })
      .where(eq(socialAccounts.userId, user.id));
    await t.ctx.db
      .update(socialPosts)
      .set({ metricsUpdatedAt: new Date(Date.now() - 3600_000) })
      .where(eq(socialPosts.userId, user.id));
    expect(await refreshStaleMetrics(t.ctx)).toBeGreaterThan(0);
    expect((await facebookAccount())?.followerCount).toBe(77);
    const [post] = await t.ctx.db
      .select()
      .from(socialPosts)
      .where(eq(socialPosts.externalId, sent?.id as string));
    expect(post).toMatchObject({ views: 400, likes: 12, comments: 3, shares: 2 });
  });
});
