import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  BrandPublicProfileReply,
  CreatorPublicProfileReply,
  ListBrandsQuery,
  ListBrandsReply,
  ListCreatorsQuery,
  ListCreatorsReply,
} from '../../../common/api/directory.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { campaigns } from '../../db/schema/index.ts';
import { authHeader, createTestUser, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { makeBrand, makeCreator } from './testing.ts';

let t: TestApp;
let approved: TestUser;
let brand: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  approved = await makeCreator(t.ctx.db);
  brand = await makeBrand(t.ctx.db);
  admin = await createTestUser(t.ctx.db, { role: 'admin' });
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, user?: TestUser) =>
  t.app.inject({ method: 'GET', url, headers: user ? authHeader(user.token) : {} });
const creators = async (query: string, user: TestUser = approved) => {
  const res = await get(`/api/creators?${query}`, user);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ListCreatorsReply;
};
const brands = async (query: string, user: TestUser = approved) => {
  const res = await get(`/api/brands?${query}`, user);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ListBrandsReply;
};
const qs = (query: ListCreatorsQuery | ListBrandsQuery) =>
  new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)])).toString();
/** A word no other test uses, to search for. */
const tag = () => `zq${randomUUID().slice(0, 8)}`;

describe('directory access', () => {
  it('needs a session and, for creators, approval', async () => {
    for (const url of ['/api/creators', '/api/brands']) {
      expect((await get(url)).statusCode).toBe(401);
      for (const status of ['pending', 'regular_user'] as const) {
        const res = await get(url, await makeCreator(t.ctx.db, { status }));
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ code: 'approval_required', error: MESSAGES.directory.approvalRequired });
      }
      for (const user of [approved, brand, admin]) expect((await get(url, user)).statusCode).toBe(200);
    }
  });
});

describe('GET /api/creators', () => {
  it('lists approved creators only, hiding non-public profiles from others', async () => {
    const word = tag();
    const profile = { bio: `bio ${word}` };
    const ok = await makeCreator(t.ctx.db, { profile });
    const pending = await makeCreator(t.ctx.db, { status: 'pending', profile });
    const regular = await makeCreator(t.ctx.db, { status: 'regular_user', profile });
    const hidden = await makeCreator(t.ctx.db, { profile, visibility: 'private' });
    const friends = await makeCreator(t.ctx.db, { profile, visibility: 'friends' });

    const ids = (reply: ListCreatorsReply) => reply.data.map((c) => c.id).sort();
    expect(ids(await creators(`search=${word}`))).toEqual([ok.id]);
    expect(ids(await creators(`search=${word}`, brand))).toEqual([ok.id]);
    // Own profile and admins see the hidden ones; never the pending or rejected creators.
    expect(ids(await creators(`search=${word}`, hidden))).toEqual([ok.id, hidden.id].sort());
    expect(ids(await creators(`search=${word}`, admin))).toEqual([ok.id, hidden.id, friends.id].sort());
    for (const id of ids(await creators(`search=${word}`, admin))) {
      expect([pending.id, regular.id]).not.toContain(id);
    }
  });

  it('searches name, bio, niches, skills and location (not email)', async () => {
    const word = tag();
    const byName = await makeCreator(t.ctx.db, { profile: { displayName: `Nora ${word}` } });
    const byAccountName = await makeCreator(t.ctx.db, { user: { firstName: word.toUpperCase(), lastName: 'X' } });
    const byBio = await makeCreator(t.ctx.db, { profile: { bio: `I shoot ${word} reels` } });
    const byNiche = await makeCreator(t.ctx.db, { profile: { niches: ['Travel', `${word}-niche`] } });
    const bySkill = await makeCreator(t.ctx.db, { profile: { skills: [`${word} editing`] } });
    const byLocation = await makeCreator(t.ctx.db, { profile: { location: `${word} City` } });
    const byUserLocation = await makeCreator(t.ctx.db, { user: { location: `Old ${word}` } });
    await makeCreator(t.ctx.db, { profile: { displayName: 'Unrelated', bio: 'nothing', niches: ['food'] } });

    const found = (await creators(`search=${word.toUpperCase()}`)).data.map((c) => c.id).sort();
    expect(found).toEqual(
      [byName, byAccountName, byBio, byNiche, bySkill, byLocation, byUserLocation].map((u) => u.id).sort(),
    );
    // Email is searched for admins only (on the admin list).
    const emailPart = byName.email.slice(5, 20);
    expect((await creators(`search=${emailPart}`)).data).toHaveLength(0);
    // LIKE wildcards in the query are literal.
    expect((await creators('search=%25')).data.every((c) => JSON.stringify(c).includes('%'))).toBe(true);
  });

  it('filters by community category (niche words and creator types)', async () => {
    const word = tag();
    const fashion = await makeCreator(t.ctx.db, { profile: { bio: word, niches: ['Fashion & Beauty'] } });
    const model = await makeCreator(t.ctx.db, { profile: { bio: word }, user: { creatorType: 'model' } });
    const smartHome = await makeCreator(t.ctx.db, { profile: { bio: word, niches: ['Smart home'] } });
    const art = await makeCreator(t.ctx.db, { profile: { bio: word, niches: ['Digital ART'] } });

    const ids = async (category: string) =>
      (await creators(`search=${word}&category=${category}`)).data.map((c) => c.id).sort();
    expect(await ids('fashion')).toEqual([fashion.id, model.id].sort());
    expect(await ids('artists')).toEqual([art.id]);
    expect(await ids('tech')).toEqual([]);
    expect(await ids('lifestyle')).toEqual([smartHome.id]);
    expect(await ids('all')).toHaveLength(4);
    expect((await get('/api/creators?category=cats', approved)).statusCode).toBe(400);
  });

  it('sorts newest and by name, and pages', async () => {
    const word = tag();
    const made: TestUser[] = [];
    for (const [i, name] of ['Charlie', 'alice', 'Bob'].entries()) {
      made.push(
        await makeCreator(t.ctx.db, {
          profile: { displayName: `${name} ${word}` },
          user: { createdAt: new Date(Date.UTC(2026, 0, 1 + i)) },
        }),
      );
    }
    const newest = await creators(`search=${word}&sort=newest`);
    expect(newest.data.map((c) => c.id)).toEqual([made[2].id, made[1].id, made[0].id]);
    const byName = await creators(`search=${word}&sort=name`);
    expect(byName.data.map((c) => c.displayName)).toEqual([`alice ${word}`, `Bob ${word}`, `Charlie ${word}`]);
    const followers = await creators(`search=${word}&sort=followers`);
    expect(followers.data.map((c) => c.id)).toEqual(newest.data.map((c) => c.id));

    const first = await creators(qs({ search: word, limit: 2, offset: 0 }));
    expect(first.pagination).toEqual({ offset: 0, limit: 2, total: 3, hasMore: true });
    const second = await creators(`search=${word}&limit=2&offset=2`);
    expect(second.pagination).toEqual({ offset: 2, limit: 2, total: 3, hasMore: false });
    expect(second.data).toHaveLength(1);
  });

  it('cards never invent numbers and show email and credits only to the creator and admins', async () => {
    const word = tag();
    const bare = await makeCreator(t.ctx.db, { user: { bio: word, credits: 77 } });
    const priced = await makeCreator(t.ctx.db, {
      profile: {
        bio: word,
        startingRateCents: 12_550,
        socialLinks: { youtube: 'https://youtube.com/@x', twitter: 'https://x.com/x' },
        primaryPlatform: 'tiktok',
        isVerified: true,
      },
    });
    const cards = (await creators(`search=${word}`)).data;
    const bareCard = cards.find((c) => c.id === bare.id);
    expect(bareCard).toMatchObject({
      stats: { totalFollowers: null, avgEngagementRate: null },
      pricing: { starting_rate: null },
      social_links: { youtube: null, instagram: null, tiktok: null },
      email: null,
      credits: null,
      niches: [],
      skills: [],
      isVerified: false,
      displayName: 'Test User',
      user_status: 'approved_creator',
      platforms: [],
    });
    expect(cards.find((c) => c.id === priced.id)).toMatchObject({
      pricing: { starting_rate: 125.5 },
      social_links: { youtube: 'https://youtube.com/@x', instagram: null, tiktok: null },
      // The primary platform first, then the linked ones (issue 18).
      platforms: ['tiktok', 'youtube', 'twitter'],
      isVerified: true,
      stats: { totalFollowers: null, avgEngagementRate: null },
    });
    const own = (await creators(`search=${word}`, bare)).data.find((c) => c.id === bare.id);
    expect(own).toMatchObject({ email: bare.email, credits: 77 });
    const asAdmin = (await creators(`search=${word}`, admin)).data.find((c) => c.id === bare.id);
    expect(asAdmin).toMatchObject({ email: bare.email, credits: 77 });
  });
});

describe('GET /api/creators/{id}', () => {
  it('shows approved public profiles to any signed-in user, email only to the owner and admins', async () => {
    const creator = await makeCreator(t.ctx.db, {
      profile: { displayName: 'Pro File', website: 'https://pro.example', socialLinks: { linkedin: 'https://li/x' } },
    });
    const pending = await makeCreator(t.ctx.db, { status: 'pending' });
    expect((await get(`/api/creators/${creator.id}`)).statusCode).toBe(401);

    const seen = await get(`/api/creators/${creator.id}`, pending);
    expect(seen.statusCode).toBe(200);
    expect((seen.json() as CreatorPublicProfileReply).data).toMatchObject({
      id: creator.id,
      displayName: 'Pro File',
      website: 'https://pro.example',
      other_links: { linkedin: 'https://li/x' },
      email: null,
      credits: null,
      is_own: false,
    });
    const own = (await get(`/api/creators/${creator.id}`, creator)).json() as CreatorPublicProfileReply;
    expect(own.data).toMatchObject({ email: creator.email, is_own: true });
    const byAdmin = (await get(`/api/creators/${creator.id}`, admin)).json() as CreatorPublicProfileReply;
    expect(byAdmin.data).toMatchObject({ email: creator.email, is_own: false });

    // Pending creators are not public; they and admins still see the page.
    const hidden = await get(`/api/creators/${pending.id}`, approved);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toMatchObject({ error: MESSAGES.directory.profileNotFound });
    expect((await get(`/api/creators/${pending.id}`, pending)).statusCode).toBe(200);
    expect((await get(`/api/creators/${pending.id}`, admin)).statusCode).toBe(200);
    // Not a creator, or unknown: 404. Not a uuid: 400.
    expect((await get(`/api/creators/${brand.id}`, approved)).statusCode).toBe(404);
    expect((await get(`/api/creators/${randomUUID()}`, approved)).statusCode).toBe(404);
    expect((await get('/api/creators/not-an-id', approved)).statusCode).toBe(400);
  });

  it('hides a private profile from others', async () => {
    const creator = await makeCreator(t.ctx.db, { visibility: 'private' });
    expect((await get(`/api/creators/${creator.id}`, approved)).statusCode).toBe(404);
    expect((await get(`/api/creators/${creator.id}`, brand)).statusCode).toBe(404);
    expect((await get(`/api/creators/${creator.id}`, creator)).statusCode).toBe(200);
    expect((await get(`/api/creators/${creator.id}`, admin)).statusCode).toBe(200);
  });

  it('keeps the own-profile routes of the account feature working beside it', async () => {
    expect((await get('/api/creators/profile', approved)).statusCode).toBe(200);
    expect((await get('/api/brands/profile', brand)).statusCode).toBe(200);
  });
});

describe('GET /api/brands and /api/brands/{id}', () => {
  it('lists brands with their open and running campaigns counted, hiding rejected ones', async () => {
    const word = tag();
    const acme = await makeBrand(t.ctx.db, {
      profile: {
        companyName: `Acme ${word}`,
        industry: 'Retail',
        budgetRange: '$1K - $5K',
        verificationStatus: 'verified',
      },
    });
    const bare = await makeBrand(t.ctx.db, { profile: { companyName: `Bare ${word}` } });
    const rejected = await makeBrand(t.ctx.db, {
      profile: { companyName: `Nope ${word}`, verificationStatus: 'rejected' },
    });
    for (const status of ['open', 'running', 'completed', 'draft'] as const) {
      await t.ctx.db
        .insert(campaigns)
        .values({ brandUserId: acme.id, title: status, objective: 'x', status, budgetCents: 100 });
    }
    const list = await brands(`search=${word}`);
    expect(list.data.map((b) => b.id).sort()).toEqual([acme.id, bare.id].sort());
    expect(list.data.find((b) => b.id === acme.id)).toMatchObject({
      id: acme.id,
      brand_id: acme.id,
      company_name: `Acme ${word}`,
      owner_name: 'Test User',
      industry: 'Retail',
      budget_range: '$1K - $5K',
      activeCampaigns: 2,
      verification_status: 'verified',
      email: null,
    });
    expect(list.data.find((b) => b.id === bare.id)).toMatchObject({
      budget_range: null,
      industry: null,
      activeCampaigns: 0,
      verification_status: 'pending',
    });
    // The rejected brand sees itself; admins see it; others get 404 on its page.
    expect((await brands(`search=${word}`, rejected)).data.map((b) => b.id)).toContain(rejected.id);
    expect((await brands(`search=${word}`, admin)).data).toHaveLength(3);
    expect((await get(`/api/brands/${rejected.id}`, approved)).statusCode).toBe(404);
    expect((await get(`/api/brands/${rejected.id}`, admin)).statusCode).toBe(200);

    const page = (await get(`/api/brands/${acme.id}`, approved)).json() as BrandPublicProfileReply;
    expect(page.data).toMatchObject({ company_name: `Acme ${word}`, activeCampaigns: 2, email: null, is_own: false });
    const own = (await get(`/api/brands/${acme.id}`, acme)).json() as BrandPublicProfileReply;
    expect(own.data).toMatchObject({ email: acme.email, is_own: true });
  });

  it('searches company name, industry, description and location; sorts by industry and budget range', async () => {
    const word = tag();
    const a = await makeBrand(t.ctx.db, {
      profile: { companyName: `A ${word}`, industry: 'tech', budgetRange: '€500–€2,000' },
      user: { createdAt: new Date(Date.UTC(2026, 0, 1)) },
    });
    const b = await makeBrand(t.ctx.db, {
      profile: { industry: `Food ${word}`, budgetRange: '$25,000 - $50,000' },
      user: { createdAt: new Date(Date.UTC(2026, 0, 2)) },
    });
    const c = await makeBrand(t.ctx.db, {
      profile: { companyDescription: `We make ${word}`, industry: 'Apparel', budgetRange: '10k+' },
      user: { createdAt: new Date(Date.UTC(2026, 0, 3)) },
    });
    const d = await makeBrand(t.ctx.db, {
      profile: { headquartersLocation: `${word} HQ` },
      user: { createdAt: new Date(Date.UTC(2026, 0, 4)) },
    });
    const ids = async (sort: NonNullable<ListBrandsQuery['sort']>) =>
      (await brands(qs({ search: word, sort }))).data.map((x) => x.id);
    expect(await ids('newest')).toEqual([d.id, c.id, b.id, a.id]);
    expect(await ids('industry')).toEqual([c.id, b.id, a.id, d.id]);
    expect(await ids('budget_range')).toEqual([b.id, c.id, a.id, d.id]);
    expect((await get('/api/brands?sort=random', approved)).statusCode).toBe(400);
  });

  it('hides a private brand profile from others', async () => {
    const hidden = await makeBrand(t.ctx.db, { profile: { companyName: 'Secret' }, visibility: 'private' });
    expect((await get(`/api/brands/${hidden.id}`, approved)).statusCode).toBe(404);
    expect((await get(`/api/brands/${hidden.id}`, hidden)).statusCode).toBe(200);
    expect((await brands('search=Secret')).data.map((b) => b.id)).not.toContain(hidden.id);
  });
});
