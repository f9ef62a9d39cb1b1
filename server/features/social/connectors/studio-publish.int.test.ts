import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishResult, SocialPlatform } from '../../../../common/api/social.ts';
import { MESSAGES } from '../../../../common/messages.ts';
import { formatBytes } from '../../../../common/rules/social-media.ts';
import { freePort } from '../../../../scripts/studio-process.ts';
import { mediaObjects, socialPosts, tasks } from '../../../db/schema/index.ts';
import { probeMedia } from '../../../platform/media/probe.ts';
import { type FakeFacebook, startFakeFacebook } from '../../../test/fakes/facebook.ts';
import { type InstagramFake, startInstagramFake } from '../../../test/fakes/instagram.ts';
import { approveTiktok, startTiktokFake, type TiktokFake } from '../../../test/fakes/tiktok.ts';
import { type FakeYoutube, startFakeYoutube } from '../../../test/fakes/youtube.ts';
import {
  authHeader,
  createTestUser,
  eventually,
  makeTestClip,
  storeUpload,
  type TestUser,
} from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { createAsset } from '../../assets/service.ts';
import { dispatchDuePosts } from '../scheduled-posts.ts';

// Publishing through the studio (issue 28) to the live Instagram, Facebook, TikTok and YouTube connectors, each
// selected by its <PLATFORM>_CLIENT_ID/_SECRET and pointed at its local fake: connect, publish the studio's own
// assets (publish now, and a scheduled post at its time), then the post row and what the network received. The
// studio listens on a real port (PUBLIC_URL), because Instagram and Facebook fetch the media from its signed URLs.

const M = MESSAGES.social;
type PostRow = typeof socialPosts.$inferSelect;

let ig: InstagramFake;
let fb: FakeFacebook;
let tt: TiktokFake;
let yt: FakeYoutube;
let t: TestApp;
let user: TestUser;
let studio: string;
let workDir: string;
/** 640 × 360, 4 s: what every network here takes. */
let clip: Buffer;
/** 320 × 240, 4 s: too small for TikTok (360 px a side at least). */
let smallClip: Buffer;

beforeAll(async () => {
  ig = await startInstagramFake();
  fb = await startFakeFacebook();
  tt = await startTiktokFake();
  yt = await startFakeYoutube();
  // The fakes answer at once (no processing rounds), so the publish finishes within publish-now's wait.
  ig.videoPolls = 0;
  tt.processingPolls = 0;
  fb.fetchMedia = true;
  const port = await freePort();
  studio = `http://127.0.0.1:${port}`;
  tt.verifiedPrefixes = [`${studio}/`];
  t = await createTestApp({
    env: {
      PUBLIC_URL: studio,
      INSTAGRAM_CLIENT_ID: ig.client.id,
      INSTAGRAM_CLIENT_SECRET: ig.client.secret,
      INSTAGRAM_API_BASE: ig.base,
      INSTAGRAM_AUTH_BASE: ig.base,
      FACEBOOK_CLIENT_ID: fb.app.id,
      FACEBOOK_CLIENT_SECRET: fb.app.secret,
      FACEBOOK_API_BASE: fb.base,
      FACEBOOK_AUTH_BASE: fb.base,
      TIKTOK_CLIENT_ID: tt.clientKey,
      TIKTOK_CLIENT_SECRET: tt.clientSecret,
      TIKTOK_API_BASE: tt.base,
      TIKTOK_AUTH_BASE: tt.base,
      YOUTUBE_CLIENT_ID: yt.client.id,
      YOUTUBE_CLIENT_SECRET: yt.client.secret,
      YOUTUBE_API_BASE: yt.base,
      YOUTUBE_AUTH_BASE: yt.base,
      SOCIAL_SCHEDULER_INTERVAL_SECONDS: '3600',
    },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  user = await createTestUser(t.ctx.db, { role: 'brand' });
  workDir = await mkdtemp(path.join(tmpdir(), 'studio-publish-'));
  clip = await makeTestClip(t.ctx.config, workDir, { seconds: 4, width: 640, height: 360, fps: 15 });
  smallClip = await makeTestClip(t.ctx.config, workDir, { seconds: 4, width: 320, height: 240, fps: 15 });
}, 180_000);

afterAll(async () => {
  await t?.close();
  await Promise.all([ig?.close(), fb?.close(), tt?.close(), yt?.close()]);
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** Connect → the network's consent (approved) → the studio's callback, in the user's browser. */
async function connect(platform: SocialPlatform) {
  const started = await t.app.inject({
    method: 'POST',
    url: `/api/social/connect/${platform}`,
    headers: authHeader(user.token),
  });
  expect(started.statusCode, started.body).toBe(200);
  const { authUrl } = started.json() as { authUrl: string };
  const cookie = String(started.headers['set-cookie']).split(';')[0] as string;
  let back: URL;
  if (platform === 'facebook' || platform === 'tiktok') {
    const { code, state } = platform === 'facebook' ? fb.approve(authUrl) : approveTiktok(tt, authUrl);
    back = new URL(`/api/social/oauth/${platform}?code=${code}&state=${encodeURIComponent(state)}`, studio);
  } else {
    // Instagram's and Google's consent pages send the browser back with the code (Instagram adds `#_`).
    const consent = await fetch(authUrl, { redirect: 'manual' });
    back = new URL(String(consent.headers.get('location')).replace(/#_$/, ''));
  }
  const cb = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}`, headers: { cookie } });
  expect(cb.statusCode, cb.body).toBe(200);
}

/** One of the user's assets (an image or a video), stored as the studio stores them. */
async function asset(bytes: Buffer, contentType: string, ext: string): Promise<{ id: string; url: string }> {
  const stored = await storeUpload(t.ctx, user.id, bytes, contentType, ext);
  const row = await createAsset(t.ctx, {
    userId: user.id,
    type: contentType.startsWith('video/') ? 'video' : 'image',
    key: stored.key,
    contentType,
  });
  return { id: row.id, url: row.url };
}

const publishNow = (platform: SocialPlatform, message: string, assetIds: string[]) =>
  t.app.inject({
    method: 'POST',
    url: '/api/social/publish',
    headers: authHeader(user.token),
    payload: { message, platforms: [platform], mode: 'materials', selected_materials: assetIds },
  });

/** The post once its publish task is done (publish now answers `pending` when the workers take longer). */
async function settled(postId: string): Promise<PostRow> {
  return eventually(
    async () => {
      const [row] = await t.ctx.db.select().from(socialPosts).where(eq(socialPosts.id, postId));
      return row && row.status !== 'scheduled' ? row : undefined;
    },
    { timeoutMs: 30_000, what: `post ${postId} published or failed` },
  );
}

async function publishedNow(platform: SocialPlatform, message: string, assetIds: string[]): Promise<PostRow> {
  const res = await publishNow(platform, message, assetIds);
  expect(res.statusCode, res.body).toBe(200);
  const [result] = (res.json() as { data: { results: PublishResult[] } }).data.results;
  const row = await settled(result?.post_id as string);
  expect(row.errorMessage).toBeNull();
  expect(row.status).toBe('published');
  return row;
}

/** A refusal before publishing: 400 with the network's limit, nothing scheduled. */
async function expectRefused(platform: SocialPlatform, assetIds: string[], message: string) {
  const posts = async () => (await t.ctx.db.select().from(socialPosts).where(eq(socialPosts.userId, user.id))).length;
  const before = await posts();
  const res = await publishNow(platform, 'Refused', assetIds);
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().error).toBe(message);
  expect(await posts()).toBe(before);
}

/** ffprobe's reading of bytes a network received: a decodable video of these dimensions. */
async function probeVideo(bytes: Buffer) {
  const file = path.join(workDir, `received-${randomBytes(4).toString('hex')}.mp4`);
  await writeFile(file, bytes);
  const probe = await probeMedia(t.ctx.config, file);
  await rm(file, { force: true });
  return {
    width: probe.video?.width,
    height: probe.video?.height,
    seconds: Math.round((probe.durationMs ?? 0) / 1000),
  };
}

describe('Instagram through the studio', () => {
  const renditions = async () =>
    t.ctx.db
      .select({ key: mediaObjects.key })
      .from(mediaObjects)
      .where(and(eq(mediaObjects.userId, user.id), sql`${mediaObjects.tags}->>'Source' = 'jpeg-rendition'`));
  /** The container Instagram made of the published media, with the bytes it fetched. */
  const containerOf = (row: PostRow) => {
    const media = ig.media.find((m) => m.id === row.externalId);
    expect(media).toBeDefined();
    expect(row.shareUrl).toBe(media?.permalink);
    return ig.containers.get(media?.containerId as string);
  };

  beforeAll(async () => {
    await connect('instagram');
  });

  it('publishes a PNG with transparency as a JPEG rendition: flattened on white, same size, fetched from a signed URL', async () => {
    // Half-transparent red: on white it becomes pink, not black.
    const png = await sharp({
      create: { width: 600, height: 400, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const image = await asset(png, 'image/png', 'png');
    const row = await publishedNow('instagram', 'A PNG for Instagram', [image.id]);
    const container = containerOf(row);
    expect(container).toMatchObject({ mediaType: 'IMAGE', status: 'PUBLISHED', fetchedType: 'image/jpeg' });
    // Instagram was handed the rendition's post-bound URL on PUBLIC_URL, not the PNG's.
    expect(container?.url).toMatch(
      new RegExp(`^${studio}/api/images/temp/temporary/[\\w-]+\\.jpg\\?post=${row.id}&sig=`),
    );
    const meta = await sharp(container?.fetched as Buffer).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 600, height: 400, hasAlpha: false, space: 'srgb' });
    const { data } = await sharp(container?.fetched as Buffer)
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(240);
    expect(data[1]).toBeGreaterThan(110);
    expect(data[1]).toBeLessThan(145);
    expect(await renditions()).toHaveLength(1);

    // The same image scheduled: at its time the rendition made before is handed out again (one per file).
    const scheduled = await t.app.inject({
      method: 'POST',
      url: '/api/social/scheduled-posts',
      headers: authHeader(user.token),
      payload: {
        message: 'The PNG again, scheduled',
        media_urls: [image.url],
        scheduled_time: new Date(Date.now() + 3600_000).toISOString(),
        platforms: ['instagram'],
        mode: 'materials',
      },
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    const [post] = scheduled.json().data as Array<{ id: string }>;
    await t.ctx.db
      .update(socialPosts)
      .set({ scheduledTime: new Date(Date.now() - 1000) })
      .where(eq(socialPosts.id, post?.id as string));
    expect(await dispatchDuePosts(t.ctx)).toBe(1);
    const later = await settled(post?.id as string);
    expect(later.status).toBe('published');
    const again = containerOf(later);
    expect(again?.url?.split('?')[0]).toBe(container?.url?.split('?')[0]);
    expect(again?.fetched?.equals(container?.fetched as Buffer)).toBe(true);
    expect(await renditions()).toHaveLength(1);
  });

  it('publishes a WebP as a JPEG of the same aspect, scaled to Instagram’s 1440 px width', async () => {
    const webp = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#2266cc' } })
      .webp()
      .toBuffer();
    const image = await asset(webp, 'image/webp', 'webp');
    const row = await publishedNow('instagram', 'A WebP for Instagram', [image.id]);
    const container = containerOf(row);
    expect(container?.fetchedType).toBe('image/jpeg');
    expect(await sharp(container?.fetched as Buffer).metadata()).toMatchObject({
      format: 'jpeg',
      width: 1440,
      height: 900,
    });
  });

  it('publishes a video as a Reel: Instagram fetches the MP4 itself', async () => {
    const video = await asset(clip, 'video/mp4', 'mp4');
    const row = await publishedNow('instagram', 'A Reel', [video.id]);
    const container = containerOf(row);
    expect(container).toMatchObject({ mediaType: 'REELS', fetchedType: 'video/mp4' });
    expect(container?.fetched?.equals(clip)).toBe(true);
    expect(await probeVideo(container?.fetched as Buffer)).toEqual({ width: 640, height: 360, seconds: 4 });
  });

  it('an image that cannot be converted fails the post at once with the reason; nothing reaches Instagram', async () => {
    const broken = Buffer.concat([
      (
        await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
          .png()
          .toBuffer()
      ).subarray(0, 40),
      Buffer.alloc(200, 1),
    ]);
    const image = await asset(broken, 'image/png', 'png');
    const before = ig.containers.size;
    const res = await publishNow('instagram', 'Broken', [image.id]);
    expect(res.statusCode, res.body).toBe(200);
    const [result] = (res.json() as { data: { results: PublishResult[] } }).data.results;
    const row = await settled(result?.post_id as string);
    expect(row.status).toBe('failed');
    expect(row.errorMessage).toContain(`${M.publishFailed}: the image cannot be converted to JPEG`);
    expect(ig.containers.size).toBe(before);
    const [task] = await t.ctx.db
      .select()
      .from(tasks)
      .where(eq(tasks.id, row.taskId as string));
    expect(task?.attempts).toBe(1);
  });

  it('refuses an image outside 4:5–1.91:1 with 400 naming Instagram and the limit; nothing reaches Instagram', async () => {
    const tall = await sharp({ create: { width: 100, height: 300, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const image = await asset(tall, 'image/png', 'png');
    const before = ig.containers.size;
    await expectRefused(
      'instagram',
      [image.id],
      M.imageAspectRefused('Instagram', '4:5', '1.91:1', 'this image', '100 × 300'),
    );
    expect(ig.containers.size).toBe(before);
  });
});

describe('Facebook through the studio', () => {
  beforeAll(async () => {
    await connect('facebook');
  });

  it('publishes an image: the Page photo is made from the signed URL Facebook fetched', async () => {
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#aa3377' } })
      .png()
      .toBuffer();
    const image = await asset(png, 'image/png', 'png');
    const row = await publishedNow('facebook', 'A photo for the Page', [image.id]);
    const sent = fb.posts.at(-1);
    expect(sent).toMatchObject({ kind: 'photo', pageId: '1111', params: { caption: 'A photo for the Page' } });
    expect(row.externalId).toBe(sent?.id);
    expect(row.shareUrl).toBe(`https://www.facebook.com/${sent?.id}`);
    expect(sent?.params.url).toMatch(new RegExp(`^${studio}/api/images/upload/.+\\?post=${row.id}&sig=`));
    const fetched = fb.fetched.get(sent?.params.url as string);
    expect(fetched?.type).toBe('image/png');
    expect(await sharp(fetched?.bytes as Buffer).metadata()).toMatchObject({ format: 'png', width: 300, height: 200 });
  });

  it('publishes a video by resumable upload: Facebook receives the MP4 in the byte ranges it names', async () => {
    fb.videoChunkBytes = 32 * 1024;
    const video = await asset(clip, 'video/mp4', 'mp4');
    const row = await publishedNow('facebook', 'A clip for the Page', [video.id]);
    fb.videoChunkBytes = 1024 * 1024;
    const sent = fb.posts.at(-1);
    const upload = [...fb.videoUploads.values()].at(-1);
    expect(sent).toMatchObject({
      id: upload?.videoId,
      kind: 'video',
      params: { upload_phase: 'finish', description: 'A clip for the Page' },
    });
    expect(row.externalId).toBe(upload?.videoId);
    expect(row.shareUrl).toBe(`https://www.facebook.com/1111/videos/${upload?.videoId}`);
    const transfers = upload?.phases.filter((p) => p.phase === 'transfer') ?? [];
    expect(transfers.length).toBe(Math.ceil(clip.length / (32 * 1024)));
    expect(transfers.map((p) => p.startOffset)).toEqual(transfers.map((_, i) => i * 32 * 1024));
    expect(upload?.bytes?.equals(clip)).toBe(true);
    expect(await probeVideo(upload?.bytes as Buffer)).toEqual({ width: 640, height: 360, seconds: 4 });
  });

  it('refuses an image over 4 MB with 400 naming Facebook and the limit; nothing reaches Facebook', async () => {
    // Noise does not compress: a PNG of about 4.3 MB.
    const noise = await sharp(randomBytes(1200 * 1200 * 3), { raw: { width: 1200, height: 1200, channels: 3 } })
      .png()
      .toBuffer();
    const image = await asset(noise, 'image/png', 'png');
    const before = fb.calls.length;
    await expectRefused(
      'facebook',
      [image.id],
      M.imageTooLarge('Facebook', '4 MB', 'this image', formatBytes(noise.length)),
    );
    expect(fb.calls.length).toBe(before);
  });
});

describe('TikTok through the studio', () => {
  beforeAll(async () => {
    await connect('tiktok');
  });

  it('publishes a video by FILE_UPLOAD: TikTok receives the MP4 and publishes it publicly', async () => {
    const video = await asset(clip, 'video/mp4', 'mp4');
    const row = await publishedNow('tiktok', 'A clip for TikTok', [video.id]);
    const published = tt.published.at(-1);
    expect(published).toMatchObject({ kind: 'video', title: 'A clip for TikTok', privacyLevel: 'PUBLIC_TO_EVERYONE' });
    expect(row.externalId).toBe(published?.postId);
    expect(row.shareUrl).toBe(`https://www.tiktok.com/@${tt.user.username}/video/${published?.postId}`);
    expect(published?.video?.equals(clip)).toBe(true);
    expect(await probeVideo(published?.video as Buffer)).toEqual({ width: 640, height: 360, seconds: 4 });
  });

  it('refuses a video under 360 px a side with 400 naming TikTok and the limit; nothing reaches TikTok', async () => {
    const video = await asset(smallClip, 'video/mp4', 'mp4');
    const before = tt.requests.length;
    await expectRefused('tiktok', [video.id], M.videoSidesRefused('TikTok', '360–4096 px', 'this video', '320 × 240'));
    expect(tt.requests.length).toBe(before);
  });
});

describe('YouTube through the studio', () => {
  beforeAll(async () => {
    await connect('youtube');
  });

  it('publishes a video by resumable upload: YouTube receives the MP4, private by default', async () => {
    const video = await asset(clip, 'video/mp4', 'mp4');
    const row = await publishedNow('youtube', 'A film\nMade in the studio', [video.id]);
    const uploaded = yt.videos.at(-1);
    expect(uploaded).toMatchObject({
      snippet: { title: 'A film', description: 'Made in the studio' },
      status: { privacyStatus: 'private' },
      contentType: 'video/mp4',
    });
    expect(row.externalId).toBe(uploaded?.id);
    expect(row.shareUrl).toBe(`https://www.youtube.com/watch?v=${uploaded?.id}`);
    expect(uploaded?.bytes.equals(clip)).toBe(true);
    expect(await probeVideo(uploaded?.bytes as Buffer)).toEqual({ width: 640, height: 360, seconds: 4 });
  });

  it('refuses two videos in one post with 400 naming YouTube and the limit; nothing reaches YouTube', async () => {
    const a = await asset(clip, 'video/mp4', 'mp4');
    const b = await asset(clip, 'video/mp4', 'mp4');
    const before = yt.requests.length;
    await expectRefused('youtube', [a.id, b.id], M.tooManyMedia('YouTube', 1, 2));
    expect(yt.requests.length).toBe(before);
  });
});
