import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatorPublicProfileReply, ListCreatorsReply } from '../../../common/api/directory.ts';
import type { Persona } from '../../../common/api/personas.ts';
import type { SocialAccount } from '../../../common/api/social.ts';
import { PERSONA_IMAGE_TYPES } from '../../../common/rules/personas.ts';
import {
  campaigns,
  collaborations,
  type PersonaImages,
  personas,
  sandboxPostViews,
  socialAccounts,
  socialPosts,
} from '../../db/schema/index.ts';
import { ManualClock } from '../../platform/clock.ts';
import { authHeader, createTestUser, solidPng, storeUpload, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { createAsset } from '../assets/service.ts';
import { collaborationProgress } from '../campaigns/progress.ts';
import { makeCreator } from '../directory/testing.ts';
import { pendingImage } from '../personas/pipeline.ts';
import { engagementTotals } from '../published-posts/published.ts';
import { metricsRefreshJob, refreshStaleMetrics } from './metrics.ts';
import { connectSandbox, publishNow, shownFigure, visitor } from './testing.ts';

const START = new Date('2026-03-01T12:00:00Z');
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const HEADLESS =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36';

let t: TestApp;
let clock: ManualClock;
let creator: TestUser;
let share: string;

const get = (url: string, user: TestUser) => t.app.inject({ method: 'GET', url, headers: authHeader(user.token) });
const card = async (id: string, viewer: TestUser = creator) => {
  const res = await get(`/api/creators/${id}`, viewer);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as CreatorPublicProfileReply).data;
};
const accountOf = async (user: TestUser, platform: string) => {
  const res = await get('/api/social/accounts', user);
  return (res.json() as { data: { accounts: SocialAccount[] } }).data.accounts.find((a) => a.platform === platform);
};
const postRow = async (shareUrl: string) => {
  const [row] = await t.ctx.db.select().from(socialPosts).where(eq(socialPosts.shareUrl, shareUrl));
  return row;
};

beforeAll(async () => {
  clock = new ManualClock(START);
  t = await createTestApp({ clock, env: { SOCIAL_SCHEDULER_INTERVAL_SECONDS: '3600' } });
  creator = await makeCreator(t.ctx.db, { profile: { displayName: `Reach ${randomUUID().slice(0, 6)}` } });
});
afterAll(async () => {
  await t?.close();
});

describe('sandbox share page figures', () => {
  it('counts one view per visitor a day; a bot sees the page but is not counted', async () => {
    await connectSandbox(t, creator, 'instagram');
    // Nothing published yet: the creator has an account with no followers, and no post figures.
    expect((await card(creator.id)).stats).toEqual({ totalFollowers: 0, avgEngagementRate: null });
    const [result] = await publishNow(t, creator, {
      message: 'Spring drop',
      platforms: ['instagram'],
      media_urls: ['https://cdn.example.com/spring.jpg'],
      mode: 'materials',
    });
    share = result?.share_url as string;
    expect(result?.status).toBe('published');

    const alice = visitor(t, share, FIREFOX, '203.0.113.5');
    for (let i = 0; i < 2; i++) {
      const page = await alice.view();
      expect(page.statusCode).toBe(200);
      expect(shownFigure(page.body, 'post-views')).toBe(1);
    }
    for (const agent of [GOOGLEBOT, HEADLESS, '']) {
      const page = await visitor(t, share, agent, '198.51.100.7').view();
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Spring drop');
      expect(shownFigure(page.body, 'post-views')).toBe(1);
    }
    // Same browser from another address: another visitor.
    expect(shownFigure((await visitor(t, share, FIREFOX, '203.0.113.6').view()).body, 'post-views')).toBe(2);
    expect((await postRow(share))?.views).toBe(2);

    clock.advance(24 * 3600_000);
    expect(shownFigure((await alice.view()).body, 'post-views')).toBe(3);
    expect(shownFigure((await alice.view()).body, 'post-views')).toBe(3);
    const row = await postRow(share);
    expect(row).toMatchObject({ views: 3, likes: 0, comments: null, shares: null });
    // Visitors are stored as keyed hashes, never as addresses.
    const visits = await t.ctx.db.select().from(sandboxPostViews);
    expect(visits).toHaveLength(3);
    expect(JSON.stringify(visits)).not.toContain('203.0.113');
  });

  it('likes and follows count once per visitor and reach the post, the account and the creator card', async () => {
    const alice = visitor(t, share, FIREFOX, '203.0.113.5');
    const bob = visitor(t, share, SAFARI, '203.0.113.9');
    const bot = visitor(t, share, GOOGLEBOT, '198.51.100.7');
    for (const v of [alice, alice, bot]) {
      const res = await v.press('like');
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(new URL(share).pathname);
    }
    const aliceSees = (await alice.view()).body;
    expect(shownFigure(aliceSees, 'post-likes')).toBe(1);
    // The visitor who liked sees the button pressed; another visitor does not.
    expect(aliceSees).toMatch(/data-testid="post-like" aria-pressed="true"[^>]*>✓ Liked</);
    expect((await bob.view()).body).toMatch(/data-testid="post-like" aria-pressed="false"[^>]*>Like</);
    for (const v of [alice, bob, alice, bot]) await v.press('follow');
    const page = await bob.view();
    expect(shownFigure(page.body, 'post-followers')).toBe(2);
    expect(shownFigure(page.body, 'post-views')).toBe(4);
    expect(page.body).toMatch(/data-testid="post-follow" aria-pressed="true"[^>]*>✓ Following @/);

    expect(await postRow(share)).toMatchObject({ views: 4, likes: 1 });
    expect((await accountOf(creator, 'instagram'))?.follower_count).toBe(2);
    // Engagement rate: (likes + comments + shares) / views = 1 / 4.
    expect((await card(creator.id)).stats).toEqual({ totalFollowers: 2, avgEngagementRate: 25 });
  });

  it('a reconnected sandbox account brings its followers; the refresh pass reads them back from the network', async () => {
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/api/social/accounts',
      headers: authHeader(creator.token),
      payload: { platform: 'instagram' },
    });
    expect(del.statusCode, del.body).toBe(200);
    expect((await card(creator.id)).stats.totalFollowers).toBeNull();
    await connectSandbox(t, creator, 'instagram');
    expect((await accountOf(creator, 'instagram'))?.follower_count).toBe(2);

    // Figures that drifted (or were never read) are read back from the sandbox network when stale.
    await t.ctx.db
      .update(socialAccounts)
      .set({ followerCount: null, metricsUpdatedAt: new Date(START.getTime() - 86_400_000) })
      .where(eq(socialAccounts.userId, creator.id));
    await t.ctx.db.update(socialPosts).set({ likes: null, views: null }).where(eq(socialPosts.shareUrl, share));
    // The pass runs as the workers' scheduled job, every quarter hour unless SOCIAL_METRICS_REFRESH_SECONDS says.
    expect('everySeconds' in metricsRefreshJob && metricsRefreshJob.everySeconds(t.ctx)).toBe(900);
    expect(await metricsRefreshJob.run(t.ctx)).toMatchObject({ refreshed: 1 });
    expect((await accountOf(creator, 'instagram'))?.follower_count).toBe(2);
    expect(await postRow(share)).toMatchObject({ views: 4, likes: 1, comments: null, shares: null });
    // Fresh figures are not read again.
    expect(await refreshStaleMetrics(t.ctx)).toBe(0);
  });
});

describe('roll-ups', () => {
  it("sorts creators by their connected accounts' followers, creators without any last", async () => {
    const word = `zr${randomUUID().slice(0, 8)}`;
    const none = await makeCreator(t.ctx.db, {
      profile: { displayName: `None ${word}` },
      user: { createdAt: new Date('2026-02-03T00:00:00Z') },
    });
    const few = await makeCreator(t.ctx.db, {
      profile: { displayName: `Few ${word}` },
      user: { createdAt: new Date('2026-02-01T00:00:00Z') },
    });
    const many = await makeCreator(t.ctx.db, {
      profile: { displayName: `Many ${word}` },
      user: { createdAt: new Date('2026-02-02T00:00:00Z') },
    });
    await connectSandbox(t, few, 'tiktok');
    await connectSandbox(t, many, 'tiktok');
    await connectSandbox(t, many, 'youtube');
    // TikTok and YouTube take a video in every post (common/rules/social-media.ts).
    const clip = ['https://cdn.example.com/clip.mp4'];
    const [tiktok] = await publishNow(t, many, {
      message: 'Hi',
      platforms: ['tiktok'],
      media_urls: clip,
      mode: 'materials',
    });
    const [yt] = await publishNow(t, many, {
      message: 'Yo',
      platforms: ['youtube'],
      media_urls: clip,
      mode: 'materials',
    });
    const [own] = await publishNow(t, few, {
      message: 'Me',
      platforms: ['tiktok'],
      media_urls: clip,
      mode: 'materials',
    });
    for (const [i, agent] of [FIREFOX, SAFARI].entries()) {
      await visitor(t, tiktok?.share_url as string, agent, `203.0.113.${20 + i}`).press('follow');
      await visitor(t, yt?.share_url as string, agent, `203.0.113.${20 + i}`).press('follow');
    }
    await visitor(t, own?.share_url as string, FIREFOX, '203.0.113.30').press('follow');

    const res = await get(`/api/creators?search=${word}&sort=followers`, creator);
    expect(res.statusCode, res.body).toBe(200);
    const data = (res.json() as ListCreatorsReply).data;
    expect(data.map((c) => [c.id, c.stats.totalFollowers])).toEqual([
      [many.id, 4],
      [few.id, 1],
      [none.id, null],
    ]);
    const newest = (await get(`/api/creators?search=${word}&sort=newest`, creator)).json() as ListCreatorsReply;
    expect(newest.data.map((c) => c.id)).toEqual([none.id, many.id, few.id]);
  });

  it("a persona's reach and engagement are the figures of the posts carrying its media", async () => {
    const images = Object.fromEntries(PERSONA_IMAGE_TYPES.map((type) => [type, pendingImage()])) as PersonaImages;
    const [persona] = await t.ctx.db
      .insert(personas)
      .values({
        userId: creator.id,
        name: 'Nova',
        description: 'Coach',
        personality: 'friendly',
        language: 'en',
        status: 'ready',
        images,
      })
      .returning();
    const personaId = persona?.id as string;
    const readPersona = async () => {
      const res = await get(`/api/personas/${personaId}`, creator);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { data: Persona }).data;
    };
    expect(await readPersona()).toMatchObject({ totalReach: null, total_engagement: null });

    const file = await storeUpload(t.ctx, creator.id, await solidPng(16, 16, '#aa3377'), 'image/png', 'png');
    await createAsset(t.ctx, { userId: creator.id, type: 'image', key: file.key, url: file.url, personaId });
    await connectSandbox(t, creator, 'facebook');
    const [withPersona] = await publishNow(t, creator, {
      message: 'Nova says hi',
      platforms: ['facebook'],
      media_urls: [file.url],
      mode: 'materials',
    });
    // A post without the persona's media does not count for it.
    await publishNow(t, creator, { message: 'Plain', platforms: ['facebook'], mode: 'materials' });
    expect(await readPersona()).toMatchObject({ totalReach: 0, total_engagement: null });

    const url = withPersona?.share_url as string;
    await visitor(t, url, FIREFOX, '203.0.113.40').view();
    await visitor(t, url, SAFARI, '203.0.113.41').view();
    await visitor(t, url, SAFARI, '203.0.113.41').press('like');
    expect(await readPersona()).toMatchObject({ totalReach: 2, total_engagement: 1 });
    const listed = await get('/api/personas', creator);
    const fromList = (listed.json() as { data: Persona[] }).data.find((p) => p.id === personaId);
    expect(fromList).toMatchObject({ totalReach: 2, total_engagement: 1 });
  });

  it("a collaboration's performance is its posts' views and engagement", async () => {
    const brand = await createTestUser(t.ctx.db, { role: 'brand' });
    const [campaign] = await t.ctx.db
      .insert(campaigns)
      .values({ brandUserId: brand.id, title: 'Reach', objective: 'Awareness', status: 'running', budgetCents: 10_000 })
      .returning();
    const deliverables = [{ type: 'Posts', quantity: 2, platform: 'twitter' as const }];
    const [collab] = await t.ctx.db
      .insert(collaborations)
      .values({ campaignId: campaign?.id as string, creatorUserId: creator.id, agreedCents: 5000, deliverables })
      .returning();
    const id = collab?.id as string;
    await connectSandbox(t, creator, 'twitter');
    const posted = [];
    for (const message of ['One', 'Two']) {
      const [r] = await publishNow(t, creator, {
        message,
        platforms: ['twitter'],
        selected_collaborations: [id],
      });
      posted.push(r?.share_url as string);
    }
    const metrics = async () =>
      (await collaborationProgress(t.ctx, [{ id, deliverables }])).get(id)?.performance_metrics;
    // Published, nobody looked yet: 0 views reported, engagement not read yet.
    expect(await metrics()).toEqual({
      total_views: 0,
      total_engagement: null,
      avg_engagement_rate: null,
      total_posts: 2,
    });
    for (const [i, agent] of [FIREFOX, SAFARI, GOOGLEBOT].entries()) {
      await visitor(t, posted[0] as string, agent, `203.0.113.${50 + i}`).view();
    }
    await visitor(t, posted[0] as string, FIREFOX, '203.0.113.50').press('like');
    await visitor(t, posted[1] as string, SAFARI, '203.0.113.51').view();
    // 3 views (the bot not counted), 1 like: 33.33 %.
    expect(await metrics()).toEqual({
      total_views: 3,
      total_engagement: 1,
      avg_engagement_rate: 33.33,
      total_posts: 2,
    });
  });
});

describe('engagementTotals', () => {
  it('sums what networks report and leaves out what they do not', () => {
    expect(engagementTotals([])).toEqual({ views: null, engagement: null, rate: null });
    expect(engagementTotals([{ views: null, likes: null, comments: null, shares: null }])).toEqual({
      views: null,
      engagement: null,
      rate: null,
    });
    // X: views and all three; LinkedIn: likes and comments, no views; sandbox: views and likes.
    const posts = [
      { views: 1000, likes: 30, comments: 5, shares: 15 },
      { views: null, likes: 40, comments: 2, shares: null },
      { views: 200, likes: 10, comments: null, shares: null },
    ];
    // The rate counts only posts that report views: (50 + 10) / 1200.
    expect(engagementTotals(posts)).toEqual({ views: 1200, engagement: 102, rate: 5 });
    expect(engagementTotals([{ views: 0, likes: 3, comments: null, shares: null }])).toEqual({
      views: 0,
      engagement: 3,
      rate: null,
    });
  });
});
