import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishResult } from '../../../common/api/social.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { mediaObjects, sandboxPosts, socialPosts } from '../../db/schema/index.ts';
import { ManualClock } from '../../platform/clock.ts';
import type { MediaFacts } from '../../platform/media/probe.ts';
import { MediaStore } from '../../platform/media/store.ts';
import { authHeader, createTestUser, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { sandboxConnector } from './connectors/sandbox.ts';
import { ConnectorError } from './connectors/types.ts';
import { connectSandbox } from './testing.ts';

// Issue 28: a post a network cannot take is refused before publishing (400, a message naming the network and
// the limit, nothing scheduled), from what the studio stores of its media; the sandbox takes posts as its
// network would.

const M = MESSAGES.social;
const START = new Date('2026-05-01T12:00:00Z');
let t: TestApp;
let clock: ManualClock;
let user: TestUser;

const later = () => new Date(clock.now().getTime() + 3_600_000).toISOString();

function api(method: 'POST', url: string, payload: object) {
  return t.app.inject({ method, url, payload, headers: authHeader(user.token) });
}

async function jpeg(width: number, height: number, padBytes = 0): Promise<Buffer> {
  const image = await sharp({ create: { width, height, channels: 3, background: '#cc6633' } })
    .jpeg()
    .toBuffer();
  // Bytes after the JPEG's end marker: a file of the size wanted that still decodes as the picture.
  return padBytes ? Buffer.concat([image, Buffer.alloc(padBytes)]) : image;
}

async function storeImage(body: Buffer, contentType = 'image/jpeg', ext = 'jpg'): Promise<string> {
  const stored = await new MediaStore(t.ctx).put({
    body,
    contentType,
    ext,
    storageClass: 'upload',
    userId: user.id,
    source: 'upload',
  });
  return stored.url;
}

/** A stored video with the facts ffprobe recorded for it (a 3-minute clip is not encoded for the test). */
async function storeVideo(seconds: number, width = 1080, height = 1920): Promise<string> {
  const probe: MediaFacts = {
    formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
    durationMs: seconds * 1000,
    bitRate: 2_000_000,
    video: { codec: 'h264', width, height, fps: 30, rotation: 0 },
    audio: null,
  };
  const stored = await new MediaStore(t.ctx).put({
    body: Buffer.alloc(200_000, 1),
    contentType: 'video/mp4',
    ext: 'mp4',
    storageClass: 'upload',
    userId: user.id,
    source: 'upload',
    probe,
  });
  return stored.url;
}

async function postRows() {
  return t.ctx.db.select().from(socialPosts).where(eq(socialPosts.userId, user.id));
}

/** Scheduled and published now: both refused with `problems`, and no post row written. */
async function expectRefused(body: Record<string, unknown>, problems: string[]) {
  const before = (await postRows()).length;
  const scheduled = await api('POST', '/api/social/scheduled-posts', { ...body, scheduled_time: later() });
  expect(scheduled.statusCode, scheduled.body).toBe(400);
  expect(scheduled.json().error).toBe(problems.join('\n'));
  expect(scheduled.json().details.problems).toEqual(problems);
  // Each line with its catalogue key, for the page to translate.
  for (const [i, keyed] of (scheduled.json().details.keyed as { message: string; key: string }[]).entries()) {
    expect(keyed.message).toBe(problems[i]);
    expect(keyed.key).toMatch(/^social\./);
  }
  const now = await api('POST', '/api/social/publish', { ...body, mode: 'materials' });
  expect(now.statusCode, now.body).toBe(400);
  expect(now.json().error).toBe(problems.join('\n'));
  const later_ = await api('POST', '/api/social/publish', { ...body, mode: 'materials', schedule_time: later() });
  expect(later_.statusCode, later_.body).toBe(400);
  expect((await postRows()).length).toBe(before);
}

beforeAll(async () => {
  clock = new ManualClock(START);
  t = await createTestApp({ clock, env: { SOCIAL_SCHEDULER_INTERVAL_SECONDS: '3600' } });
  user = await createTestUser(t.ctx.db, { role: 'brand' });
  for (const platform of ['instagram', 'tiktok', 'youtube', 'twitter', 'linkedin', 'facebook']) {
    await connectSandbox(t, user, platform);
  }
});
afterAll(async () => {
  await t?.close();
});

describe('posts a network cannot take are refused before publishing (issue 28)', () => {
  it('a text-only post to Instagram is refused with the message; nothing scheduled', async () => {
    await expectRefused({ message: 'Words only', platforms: ['instagram'] }, [M.mediaRequired('Instagram')]);
    expect(M.mediaRequired('Instagram')).toBe('Instagram needs an image or a video in every post; this post has none');
  });

  it('a 3-minute video goes to Instagram Reels (scheduled and published now)', async () => {
    const video = await storeVideo(180);
    const scheduled = await api('POST', '/api/social/scheduled-posts', {
      message: 'Reel',
      media_urls: [video],
      platforms: ['instagram'],
      scheduled_time: later(),
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    const now = await api('POST', '/api/social/publish', {
      message: 'Reel now',
      media_urls: [video],
      platforms: ['instagram'],
      mode: 'materials',
    });
    expect(now.statusCode, now.body).toBe(200);
    const [result] = (now.json() as { data: { results: PublishResult[] } }).data.results;
    expect(result?.status).toBe('published');
  });

  it('a video longer than a network takes is refused, naming the limit and the length', async () => {
    const long = await storeVideo(17 * 60 + 3);
    await expectRefused({ message: 'Long', media_urls: [long], platforms: ['instagram', 'tiktok'] }, [
      'Instagram takes videos of at most 15 min; this video is 17 min 3 s',
      'TikTok takes videos of at most 10 min; this video is 17 min 3 s',
    ]);
  });

  it('an image to TikTok or YouTube is refused: they take a video', async () => {
    const image = await storeImage(await jpeg(1080, 1080));
    await expectRefused({ message: 'Pic', media_urls: [image], platforms: ['tiktok'] }, [
      M.videoRequired('TikTok'),
      M.imagesNotTaken('TikTok'),
    ]);
    await expectRefused({ message: 'Pic', media_urls: [image], platforms: ['youtube'] }, [
      M.videoRequired('YouTube'),
      M.imagesNotTaken('YouTube'),
    ]);
  });

  it('too many images are refused (X takes 4)', async () => {
    const images = await Promise.all(Array.from({ length: 5 }, async () => storeImage(await jpeg(600, 400))));
    await expectRefused({ message: 'Five', media_urls: images, platforms: ['twitter'] }, [
      'X (Twitter) takes at most 4 files in a post; this one has 5',
    ]);
    const four = await api('POST', '/api/social/scheduled-posts', {
      message: 'Four',
      media_urls: images.slice(0, 4),
      platforms: ['twitter'],
      scheduled_time: later(),
    });
    expect(four.statusCode, four.body).toBe(200);
  });

  it('an oversized image is refused (Facebook takes 4 MB); its stored size is what counts', async () => {
    const big = await storeImage(await jpeg(800, 800, 5 * 1024 * 1024));
    const [row] = await t.ctx.db
      .select({ size: mediaObjects.size })
      .from(mediaObjects)
      .where(eq(mediaObjects.key, big.split('/').pop()?.split('?')[0] ?? ''));
    const size = row ? `${Math.round((row.size / 1024 / 1024) * 10) / 10} MB` : '';
    await expectRefused({ message: 'Big', media_urls: [big], platforms: ['facebook'] }, [
      `Facebook takes images of at most 4 MB; this image is ${size || '5 MB'}`,
    ]);
  });

  it("an image outside Instagram's 4:5 to 1.91:1, read from the stored file, is refused", async () => {
    const tall = await storeImage(await jpeg(540, 960));
    await expectRefused({ message: 'Tall', media_urls: [tall], platforms: ['instagram'] }, [
      'Instagram takes images with an aspect ratio from 4:5 to 1.91:1; this image is 540 × 960',
    ]);
  });

  it('publishing again checks the media too: a failed text post to Instagram stays failed', async () => {
    const [failed] = await t.ctx.db
      .insert(socialPosts)
      .values({
        userId: user.id,
        platform: 'instagram',
        message: 'From before the rules',
        mediaUrls: [],
        mediaType: 'text',
        scheduledTime: clock.now(),
        timezone: 'UTC',
        status: 'failed',
        errorMessage: 'earlier failure',
        createdAt: clock.now(),
        updatedAt: clock.now(),
      })
      .returning();
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/social/scheduled-posts/${failed?.id}/publish-again`,
      headers: authHeader(user.token),
    });
    expect(again.statusCode, again.body).toBe(400);
    expect(again.json().error).toBe(M.mediaRequired('Instagram'));
    const [row] = await t.ctx.db
      .select()
      .from(socialPosts)
      .where(eq(socialPosts.id, failed?.id ?? ''));
    expect(row?.status).toBe('failed');
  });
});

describe('the sandbox behaves like the network it stands for (issue 28)', () => {
  async function tokenOf(platform: 'instagram' | 'tiktok' | 'youtube' | 'twitter') {
    const connector = sandboxConnector(t.ctx, platform);
    const { url, codeVerifier } = connector.generateAuthUrl('http://localhost/cb');
    const { approveConsent } = await import('./sandbox/network.ts');
    const query = new URL(url).searchParams;
    const code = await approveConsent(t.ctx, {
      platform,
      userId: user.id,
      codeChallenge: query.get('code_challenge') ?? '',
    });
    const { tokens } = await connector.authenticate({ code, codeVerifier, redirectUri: 'http://localhost/cb' });
    return { connector, token: tokens.accessToken };
  }

  const input = (message: string, mediaUrls: string[] = []) => ({
    message,
    mediaUrls,
    media: [],
    idempotencyKey: crypto.randomUUID(),
    authorId: '',
  });

  it('refuses a post without a video on TikTok and YouTube, and without media on Instagram, as a bad request', async () => {
    for (const [platform, problem] of [
      ['tiktok', M.videoRequired('TikTok')],
      ['youtube', M.videoRequired('YouTube')],
      ['instagram', M.mediaRequired('Instagram')],
    ] as const) {
      const { connector, token } = await tokenOf(platform);
      const refused = await connector.post(token, input('Text only')).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ConnectorError);
      expect((refused as ConnectorError).failure).toBe('bad-body');
      expect((refused as ConnectorError).message).toBe(problem);
    }
    const image = `${t.ctx.config.publicUrl}/cdn/photo.jpg`;
    const { connector, token } = await tokenOf('tiktok');
    const picture = await connector.post(token, input('Pic', [image])).catch((e: unknown) => e);
    expect((picture as ConnectorError).message).toContain(M.imagesNotTaken('TikTok'));
  });

  it('takes a video on TikTok; cuts a caption at the network limit (X at 280)', async () => {
    const tiktok = await tokenOf('tiktok');
    const posted = await tiktok.connector.post(tiktok.token, input('Clip', ['https://cdn.example.com/clip.mp4']));
    expect(posted.externalId).toBeTruthy();
    const x = await tokenOf('twitter');
    const long = `${'word '.repeat(80)}end`;
    const out = await x.connector.post(x.token, input(long));
    const [stored] = await t.ctx.db.select().from(sandboxPosts).where(eq(sandboxPosts.id, out.externalId));
    expect(stored?.message.length).toBeLessThanOrEqual(280);
    expect(stored?.message.endsWith('…')).toBe(true);
  });

  it('a scheduled post the sandbox refuses fails with its reason at the due time', async () => {
    // Stored before the rules (the entry check would refuse it now): the sandbox refuses it when published.
    const [post] = await t.ctx.db
      .insert(socialPosts)
      .values({
        userId: user.id,
        platform: 'youtube',
        message: 'No video',
        mediaUrls: [],
        mediaType: 'text',
        scheduledTime: new Date(clock.now().getTime() - 1000),
        timezone: 'UTC',
        createdAt: clock.now(),
        updatedAt: clock.now(),
      })
      .returning();
    const { dispatchDuePosts } = await import('./scheduled-posts.ts');
    await dispatchDuePosts(t.ctx);
    let row = post;
    for (let i = 0; i < 100 && row?.status === 'scheduled'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      [row] = await t.ctx.db
        .select()
        .from(socialPosts)
        .where(eq(socialPosts.id, post?.id ?? ''));
    }
    expect(row?.status).toBe('failed');
    expect(row?.errorMessage).toBe(`${M.publishFailed}: ${M.videoRequired('YouTube')}`);
  });
});
