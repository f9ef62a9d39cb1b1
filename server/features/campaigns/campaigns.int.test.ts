import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ActiveCollaboration,
  Application,
  Campaign,
  CampaignCollaboration,
  CampaignPlan,
  CampaignPlanBody,
  CreateCampaignBody,
} from '../../../common/api/campaigns.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { campaigns, moneyTransactions, users } from '../../db/schema/index.ts';
import { creditMoney, moneyBalance } from '../../platform/money/ledger.ts';
import { authHeader, createTestUser, solidPng, storeUpload, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { createAsset } from '../assets/service.ts';

let t: TestApp;
let admin: TestUser;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
function api(method: Method, url: string, token: string | null, payload?: object) {
  return t.app.inject({ method, url, payload, headers: token ? authHeader(token) : {} });
}

async function brandWith(euros: number): Promise<TestUser> {
  const brand = await createTestUser(t.ctx.db, { role: 'brand' });
  if (euros > 0) {
    await creditMoney(t.ctx.db, {
      userId: brand.id,
      account: 'wallet',
      amountCents: euros * 100,
      source: 'topup',
      referenceId: randomUUID(),
      description: 'test top-up',
    });
  }
  return brand;
}

async function creatorWith(status: 'pending' | 'approved_creator' | 'regular_user'): Promise<TestUser> {
  const creator = await createTestUser(t.ctx.db, { role: 'creator' });
  await t.ctx.db.update(users).set({ userStatus: status }).where(eq(users.id, creator.id));
  return creator;
}

const inTwoDays = () => new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);

function campaignBody(overrides: Partial<CreateCampaignBody> = {}): CreateCampaignBody {
  return {
    title: 'Spring launch',
    description: 'Our new running shoe',
    objective: 'Awareness for the spring running shoe',
    budget: 30,
    platforms: ['instagram', 'tiktok'],
    contentTypes: ['video'],
    deliverables: [{ type: 'Instagram reels', quantity: 2, platform: 'instagram', contentType: 'video' }],
    ...overrides,
  };
}

async function create(token: string, overrides: Partial<CreateCampaignBody> = {}): Promise<Campaign> {
  const res = await api('POST', '/api/campaigns', token, campaignBody(overrides));
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Campaign }).data;
}

/** The balance equals the sum of the account's ledger rows. */
async function ledgerSum(userId: string, account: 'wallet' | 'earnings'): Promise<number> {
  const rows = await t.ctx.db.select().from(moneyTransactions).where(eq(moneyTransactions.userId, userId));
  return rows
    .filter((r) => r.account === account)
    .reduce((n, r) => n + (r.type === 'credit' ? r.amountCents : -r.amountCents), 0);
}

async function rowsOf(userId: string) {
  const rows = await t.ctx.db.select().from(moneyTransactions).where(eq(moneyTransactions.userId, userId));
  return rows.map((r) => `${r.account}:${r.type}:${r.source}:${r.amountCents}`).sort();
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await createTestUser(t.ctx.db, { role: 'admin' });
});
afterAll(async () => {
  await t?.close();
});

describe('campaign plan', () => {
  const body: CampaignPlanBody = {
    name: '',
    objective: 'Launch our vegan protein bar to students',
    targetAudience: { ageMin: 18, ageMax: 25, description: 'students who train' },
    budget: 1000,
    duration: 14,
    platforms: ['instagram', 'tiktok', 'youtube'],
    contentTypes: ['video'],
    kpis: ['reach', 'engagement_rate'],
  };

  it('writes a real plan with the schedule per platform, budget split and reach with its basis', async () => {
    const brand = await brandWith(1000);
    const res = await api('POST', '/api/campaigns/plan', brand.token, body);
    expect(res.statusCode, res.body).toBe(200);
    const plan = (res.json() as { data: CampaignPlan }).data;
    expect(plan.title.length).toBeGreaterThan(0);
    expect(plan.audience.generation).toBe('Gen Z');
    expect(plan.duration).toBe('2 Weeks');
    expect(plan.engine).toBe('local');
    expect(plan.schedule.map((s) => s.platform)).toEqual(['instagram', 'tiktok', 'youtube']);
    expect(plan.schedule.every((s) => s.posts > 0 && s.items.length > 0)).toBe(true);
    expect(plan.deliverables.map((d) => [d.platform, d.quantity])).toEqual(
      plan.schedule.map((s) => [s.platform, s.posts]),
    );
    expect(plan.budgetSplit.reduce((n, s) => n + s.amountCents, 0)).toBe(100_000);
    expect(plan.materialsCount).toBe(plan.schedule.reduce((n, s) => n + s.posts, 0));
    expect(plan.estimatedReach).toBe(plan.reachBasis.perPlatform.reduce((n, p) => n + p.views, 0));
    expect(plan.estimatedReach).toBeGreaterThan(0);
    expect(plan.reachBasis.explanation).toContain('per 1,000 views');
    expect(plan.kpis.find((k) => k.name === 'reach')?.target).toBe(plan.estimatedReach.toLocaleString('en-US'));
    // Deterministic with the local engine.
    const again = await api('POST', '/api/campaigns/plan', brand.token, body);
    expect((again.json() as { data: CampaignPlan }).data).toEqual(plan);
  });

  it("takes the spec's default labels '$1K - $5K' and '1 Week' (the range's lower end, 7 days)", async () => {
    const brand = await brandWith(1000);
    const res = await api('POST', '/api/campaigns/plan', brand.token, {
      ...body,
      budget: '$1K - $5K',
      duration: '1 Week',
    });
    expect(res.statusCode, res.body).toBe(200);
    const plan = (res.json() as { data: CampaignPlan }).data;
    expect(plan.budgetSplit.reduce((n, s) => n + s.amountCents, 0)).toBe(100_000);
    expect(plan.durationDays).toBe(7);
    expect(plan.duration).toBe('1 Week');
    const words = await api('POST', '/api/campaigns/plan', brand.token, { ...body, budget: 'a lot' });
    expect(words.statusCode).toBe(400);
    expect(JSON.stringify(words.json())).toContain(MESSAGES.campaigns.budgetLabel);
    const tooLong = await api('POST', '/api/campaigns/plan', brand.token, { ...body, duration: '2 Years' });
    expect(tooLong.statusCode).toBe(400);
  });

  it('refuses a budget over the wallet with the spec message, and other roles', async () => {
    const brand = await brandWith(100);
    const short = await api('POST', '/api/campaigns/plan', brand.token, { ...body, budget: 150.5 });
    expect(short.statusCode).toBe(402);
    expect(short.json()).toMatchObject({
      error: 'Insufficient funds. Need $50.50 more.',
      details: { shortfallCents: 5050, suggestedTopup: 151 },
    });
    const creator = await creatorWith('approved_creator');
    expect((await api('POST', '/api/campaigns/plan', creator.token, body)).statusCode).toBe(403);
    expect((await api('POST', '/api/campaigns/plan', null, body)).statusCode).toBe(401);
  });

  it('answers validation errors with the form’s messages', async () => {
    const brand = await brandWith(100);
    const cases: Array<[object, string]> = [
      [{ objective: '' }, 'Please enter a campaign objective'],
      [{ targetAudience: { ageMin: 12, ageMax: 30 } }, 'The audience age must be between 13 and 70'],
      [{ targetAudience: { ageMin: 40, ageMax: 30 } }, 'The minimum age cannot be above the maximum age'],
      [{ platforms: [] }, 'Select at least one platform'],
      [{ contentTypes: [] }, 'Select at least one content type'],
      [{ budget: 0.5 }, 'The budget must be at least €1'],
      [{ budget: 10.555 }, 'Amounts can have at most 2 decimals'],
    ];
    for (const [patch, message] of cases) {
      const res = await api('POST', '/api/campaigns/plan', brand.token, { ...body, budget: 50, ...patch });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json().error).toBe(message);
    }
  });
});

describe('budget hold', () => {
  it('never takes a wallet below zero under concurrent creation: 100 €, 5 × 30 € → exactly 3 open', async () => {
    const brand = await brandWith(100);
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => api('POST', '/api/campaigns', brand.token, campaignBody({ title: `C${i}` }))),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 200, 200, 402, 402]);
    for (const r of results.filter((x) => x.statusCode === 402)) {
      expect(r.json().error).toBe('Insufficient funds. Need $20.00 more.');
    }
    expect(await moneyBalance(t.ctx.db, brand.id, 'wallet')).toBe(1000);
    expect(await ledgerSum(brand.id, 'wallet')).toBe(1000);
    const mine = await api('GET', '/api/campaigns?view=my', brand.token);
    const list = (mine.json() as { data: Campaign[] }).data;
    expect(list).toHaveLength(3);
    expect(list.every((c) => c.status === 'open' && c.heldCents === 3000)).toBe(true);
  });

  it('checks dates: end not before start, start not in the past', async () => {
    const brand = await brandWith(100);
    const past = await api('POST', '/api/campaigns', brand.token, campaignBody({ startDate: '2020-01-01' }));
    expect(past.statusCode).toBe(400);
    expect(past.json().error).toBe('The start date cannot be in the past');
    const start = inTwoDays();
    const before = await api(
      'POST',
      '/api/campaigns',
      brand.token,
      campaignBody({ startDate: start, endDate: '2020-01-01' }),
    );
    expect(before.json().error).toBe('The end date cannot be before the start date');
    const ok = await create(brand.token, { startDate: start, endDate: start, status: 'draft' });
    expect(ok.duration_days).toBe(1);
    expect(ok.duration_label).toBe('1 Day');
  });
});

describe('status transitions and ownership', () => {
  it('moves draft → open → running → completed, holding then releasing the budget', async () => {
    const brand = await brandWith(100);
    const draft = await create(brand.token, { status: 'draft', budget: 40 });
    expect(draft.status).toBe('draft');
    expect(draft.heldCents).toBe(0);
    expect(await moneyBalance(t.ctx.db, brand.id, 'wallet')).toBe(10_000);

    const edited = await api('PATCH', `/api/campaigns/${draft.id}`, brand.token, { title: 'Renamed', budget: 50 });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ title: 'Renamed', budget: 50 });

    expect((await api('PATCH', `/api/campaigns/${draft.id}`, brand.token, { status: 'running' })).json().error).toBe(
      'A draft campaign cannot become running',
    );
    const opened = await api('PATCH', `/api/campaigns/${draft.id}`, brand.token, { status: 'open' });
    expect(opened.json().data).toMatchObject({ status: 'open', heldCents: 5000 });
    expect(await moneyBalance(t.ctx.db, brand.id, 'wallet')).toBe(5000);

    const edit = await api('PATCH', `/api/campaigns/${draft.id}`, brand.token, { title: 'Nope' });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().error).toBe('Only draft campaigns can be edited');
    const del = await api('DELETE', `/api/campaigns/${draft.id}`, brand.token);
    expect(del.statusCode).toBe(409);
    expect(del.json().error).toBe('Only draft campaigns can be deleted');

    const running = await api('PATCH', `/api/campaigns/${draft.id}`, brand.token, { status: 'running' });
    expect(running.json().data.status).toBe('running');
    const back = await api('PATCH', `/api/campaigns/${draft.id}`, brand.token, { status: 'open' });
    expect(back.statusCode).toBe(409);

    const done = await api('PATCH', `/api/campaigns/${draft.id}`, brand.token, { status: 'completed' });
    expect(done.json().data).toMatchObject({ status: 'completed', heldCents: 0 });
    expect(await moneyBalance(t.ctx.db, brand.id, 'wallet')).toBe(10_000);
    expect(await rowsOf(brand.id)).toEqual([
      'wallet:credit:campaign_release:5000',
      'wallet:credit:topup:10000',
      'wallet:debit:campaign_hold:5000',
    ]);

    const other = await create(brand.token, { status: 'draft' });
    expect((await api('DELETE', `/api/campaigns/${other.id}`, brand.token)).statusCode).toBe(200);
    expect((await api('GET', `/api/campaigns/${other.id}`, brand.token)).statusCode).toBe(404);
  });

  it('opening a draft the wallet cannot cover answers 402 and leaves it a draft', async () => {
    const brand = await brandWith(10);
    const draft = await create(brand.token, { status: 'draft', budget: 25 });
    const res = await api('PATCH', `/api/campaigns/${draft.id}`, brand.token, { status: 'open' });
    expect(res.statusCode).toBe(402);
    expect(res.json().error).toBe('Insufficient funds. Need $15.00 more.');
    const [row] = await t.ctx.db.select().from(campaigns).where(eq(campaigns.id, draft.id));
    expect(row.status).toBe('draft');
  });

  it('hides another brand’s campaign (404) and refuses campaigns to non-brands (403)', async () => {
    const owner = await brandWith(100);
    const other = await brandWith(100);
    const c = await create(owner.token, { status: 'draft' });
    for (const [method, payload] of [
      ['GET', undefined],
      ['PATCH', { title: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      expect((await api(method, `/api/campaigns/${c.id}`, other.token, payload)).statusCode).toBe(404);
    }
    expect((await api('GET', `/api/campaigns/${c.id}/applications`, other.token)).statusCode).toBe(404);
    const creator = await creatorWith('approved_creator');
    const res = await api('POST', '/api/campaigns', creator.token, campaignBody());
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('Only brand accounts can create and manage campaigns');
    expect((await api('GET', `/api/campaigns/${c.id}`, admin.token)).statusCode).toBe(200);
  });
});

describe('pool visibility', () => {
  it('shows the pool to approved creators, brands (read-only) and admins; open by default', async () => {
    const brand = await brandWith(100);
    const open = await create(brand.token, { title: 'Pool open' });
    const draft = await create(brand.token, { title: 'Pool draft', status: 'draft' });
    const pending = await creatorWith('pending');
    const rejected = await creatorWith('regular_user');
    const approved = await creatorWith('approved_creator');

    expect((await api('GET', '/api/campaigns', pending.token)).statusCode).toBe(403);
    expect((await api('GET', '/api/campaigns', rejected.token)).statusCode).toBe(403);
    expect((await api('GET', '/api/campaigns?view=my', pending.token)).statusCode).toBe(403);
    // Another brand browses the live campaigns and may open one, but sees no drafts and cannot apply.
    const otherBrand = await brandWith(0);
    const brandPool = await api('GET', '/api/campaigns', otherBrand.token);
    expect(brandPool.statusCode).toBe(200);
    const brandIds = (brandPool.json() as { data: Campaign[] }).data.map((c) => c.id);
    expect(brandIds).toContain(open.id);
    expect(brandIds).not.toContain(draft.id);
    expect((await api('GET', `/api/campaigns/${open.id}`, otherBrand.token)).statusCode).toBe(200);
    expect((await api('GET', `/api/campaigns/${draft.id}`, otherBrand.token)).statusCode).toBe(404);
    const drafts = await api('GET', '/api/campaigns?status=draft', otherBrand.token);
    expect(drafts.statusCode).toBe(403);
    expect(drafts.json().error).toBe('The pool lists open and running campaigns');
    expect((await api('GET', '/api/campaigns', null)).statusCode).toBe(401);

    const pool = await api('GET', '/api/campaigns?limit=100', approved.token);
    expect(pool.statusCode).toBe(200);
    const ids = (pool.json() as { data: Campaign[] }).data.map((c) => c.id);
    expect(ids).toContain(open.id);
    expect(ids).not.toContain(draft.id);
    const seen = (pool.json() as { data: Campaign[] }).data.find((c) => c.id === open.id);
    expect(seen).toMatchObject({ is_owner: false, heldCents: null, plan: null, category: 'PROMOTION' });
    expect((pool.json() as { pagination: { total: number } }).pagination.total).toBeGreaterThan(0);

    expect((await api('GET', '/api/campaigns?status=draft', approved.token)).statusCode).toBe(403);
    expect((await api('GET', `/api/campaigns/${draft.id}`, approved.token)).statusCode).toBe(404);
    expect((await api('GET', `/api/campaigns/${open.id}`, approved.token)).statusCode).toBe(200);
    expect((await api('GET', `/api/campaigns/${open.id}`, pending.token)).statusCode).toBe(404);

    const adminPool = await api('GET', '/api/campaigns?status=all&limit=100', admin.token);
    expect((adminPool.json() as { data: Campaign[] }).data.map((c) => c.id)).toContain(draft.id);

    await api('PATCH', `/api/campaigns/${open.id}`, brand.token, { status: 'running' });
    const running = await api('GET', '/api/campaigns?status=running&limit=100', approved.token);
    expect((running.json() as { data: Campaign[] }).data.map((c) => c.id)).toContain(open.id);
    const openOnly = await api('GET', '/api/campaigns?limit=100', approved.token);
    expect((openOnly.json() as { data: Campaign[] }).data.map((c) => c.id)).not.toContain(open.id);
  });
});

describe('materials', () => {
  it('turns the brand’s own assets into materials any viewer can open; others’ assets are 404', async () => {
    const brand = await brandWith(100);
    const stored = await storeUpload(t.ctx, brand.id, await solidPng(32, 32, '#3366ff'), 'image/png', 'png');
    const asset = await createAsset(t.ctx, {
      userId: brand.id,
      type: 'image',
      key: stored.key,
      contentType: 'image/png',
      prompt: 'blue square',
    });
    const c = await create(brand.token, { ai_asset_ids: [asset.id] });
    expect(c.materials).toHaveLength(1);
    expect(c.thumbnail).toContain('sig=');
    const creator = await creatorWith('approved_creator');
    const res = await api('GET', `/api/campaigns/${c.id}/assets`, creator.token);
    const assets = (res.json() as { data: { assets: Array<{ url: string; type: string; prompt: string }> } }).data
      .assets;
    expect(assets).toMatchObject([{ type: 'image', prompt: 'blue square' }]);
    expect(assets[0].url).toMatch(/^\/api\/images\/.+\?expires=\d+&sig=/);
    const file = await api('GET', assets[0].url, creator.token);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');

    const other = await brandWith(100);
    const foreign = await api('POST', '/api/campaigns', other.token, campaignBody({ ai_asset_ids: [asset.id] }));
    expect(foreign.statusCode).toBe(404);
    const session = await create(brand.token, { sessionMaterials: [{ url: stored.url, prompt: 'from session' }] });
    expect(session.materials).toMatchObject([{ type: 'image', prompt: 'from session' }]);
  });
});

describe('applications, collaborations and payouts', () => {
  it('runs application → collaboration → completion → earnings with ledger rows on both sides', async () => {
    const brand = await brandWith(500);
    const c = await create(brand.token, { budget: 200 });
    const first = await creatorWith('approved_creator');
    const second = await creatorWith('approved_creator');
    const pending = await creatorWith('pending');

    // Validation and who may apply.
    const url = `/api/campaigns/${c.id}/applications`;
    expect((await api('POST', url, first.token, { message: 'Hi', rate: 0 })).json().error).toBe(
      'Your rate must be more than €0',
    );
    expect((await api('POST', url, first.token, { message: ' ', rate: 10 })).json().error).toBe(
      'Please write a message to the brand',
    );
    expect((await api('POST', url, pending.token, { message: 'Hi', rate: 10 })).statusCode).toBe(403);
    expect((await api('POST', url, brand.token, { message: 'Hi', rate: 10 })).statusCode).toBe(403);

    const applied = await api('POST', url, first.token, { message: 'I run every day', rate: 80 });
    expect(applied.statusCode, applied.body).toBe(200);
    const app1 = (applied.json() as { data: Application }).data;
    expect(app1).toMatchObject({ status: 'pending', rate: 80, rateCents: 8000, campaign_title: 'Spring launch' });
    const twice = await api('POST', url, first.token, { message: 'again', rate: 70 });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe('You have already applied to this campaign');
    const app2 = (
      (await api('POST', url, second.token, { message: 'Pick me', rate: 150 })).json() as { data: Application }
    ).data;

    const listed = await api('GET', url, brand.token);
    expect((listed.json() as { data: Application[] }).data.map((a) => a.id).sort()).toEqual([app1.id, app2.id].sort());
    expect((await api('GET', url, first.token)).statusCode).toBe(404);
    const mine = await api('GET', '/api/applications/my', first.token);
    expect((mine.json() as { data: Application[] }).data.map((a) => a.id)).toEqual([app1.id]);
    const myView = await api('GET', '/api/campaigns?view=my', first.token);
    expect((myView.json() as { data: Campaign[] }).data.map((x) => x.id)).toEqual([c.id]);

    // Only the owner decides; accepting makes an active collaboration.
    expect((await api('POST', `/api/applications/${app1.id}/accept`, first.token)).statusCode).toBe(404);
    const accepted = await api('POST', `/api/applications/${app1.id}/accept`, brand.token);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const acceptedApp = (accepted.json() as { data: Application }).data;
    expect(acceptedApp.status).toBe('accepted');
    expect(acceptedApp.collaboration_id).toBeTruthy();
    expect((await api('POST', `/api/applications/${app1.id}/accept`, brand.token)).statusCode).toBe(409);

    // 200 held, 80 promised: 150 is not covered.
    const over = await api('POST', `/api/applications/${app2.id}/accept`, brand.token);
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toBe('The campaign budget left (€120.00) does not cover this rate');
    const declined = await api('POST', `/api/applications/${app2.id}/decline`, brand.token);
    expect((declined.json() as { data: Application }).data.status).toBe('declined');
    expect((await api('POST', `/api/applications/${app2.id}/withdraw`, second.token)).statusCode).toBe(409);

    const active = await api('GET', '/api/collaborations/my-active', first.token);
    const collabs = (active.json() as { data: ActiveCollaboration[] }).data;
    expect(collabs).toHaveLength(1);
    expect(collabs[0]).toMatchObject({
      collaboration_id: acceptedApp.collaboration_id,
      campaign_title: 'Spring launch',
      campaign_description: 'Our new running shoe',
      status: 'active',
      agreed_amount: 80,
      deliverables: [{ type: 'Instagram reels', quantity: 2, completed: 0 }],
      progress: { completed: 0, total: 2, percent: 0 },
      performance_metrics: { total_views: null, total_engagement: null, avg_engagement_rate: null, total_posts: 0 },
    });
    expect(collabs[0].brand_name).toBe('Test User');
    expect(((await api('GET', '/api/collaborations/my-active', second.token)).json() as { data: [] }).data).toEqual([]);

    const byCampaign = await api('GET', `/api/campaigns/${c.id}/collaborations`, first.token);
    expect((byCampaign.json() as { data: CampaignCollaboration[] }).data).toMatchObject([
      { creator_name: 'Test User', status: 'active', performance_metrics: { total_posts: 0, total_views: null } },
    ]);

    // The campaign cannot complete while a collaboration is active.
    const early = await api('PATCH', `/api/campaigns/${c.id}`, brand.token, { status: 'completed' });
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toBe('Complete the active collaborations before completing the campaign');

    // Completion pays once, even when replayed concurrently.
    const collabId = acceptedApp.collaboration_id as string;
    expect((await api('POST', `/api/collaborations/${collabId}/complete`, first.token)).statusCode).toBe(404);
    const completions = await Promise.all(
      Array.from({ length: 3 }, () => api('POST', `/api/collaborations/${collabId}/complete`, brand.token)),
    );
    expect(completions.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(completions.filter((r) => r.json().data.paid === true)).toHaveLength(1);
    expect(completions.map((r) => r.json().data.campaignHeldCents)).toEqual([12_000, 12_000, 12_000]);
    expect(await moneyBalance(t.ctx.db, first.id, 'earnings')).toBe(8000);
    expect(await ledgerSum(first.id, 'earnings')).toBe(8000);
    expect(await rowsOf(first.id)).toEqual(['earnings:credit:collaboration_payout:8000']);
    const earnings = await api('GET', '/api/creators/earnings', first.token);
    expect(earnings.json().data.totalEarnings).toBe(80);
    expect(((await api('GET', '/api/collaborations/my-active', first.token)).json() as { data: [] }).data).toEqual([]);

    // Completing the campaign gives back what is still held.
    const done = await api('PATCH', `/api/campaigns/${c.id}`, brand.token, { status: 'completed' });
    expect(done.json().data).toMatchObject({ status: 'completed', heldCents: 0 });
    expect(await moneyBalance(t.ctx.db, brand.id, 'wallet')).toBe(50_000 - 20_000 + 12_000);
    expect(await ledgerSum(brand.id, 'wallet')).toBe(await moneyBalance(t.ctx.db, brand.id, 'wallet'));
    expect(await rowsOf(brand.id)).toEqual([
      'wallet:credit:campaign_release:12000',
      'wallet:credit:topup:50000',
      'wallet:debit:campaign_hold:20000',
    ]);
    // hold = payouts + release
    expect(20_000).toBe(8000 + 12_000);
    // The creator still sees the completed campaign they worked on.
    expect((await api('GET', `/api/campaigns/${c.id}`, first.token)).statusCode).toBe(200);
    expect((await api('POST', url, second.token, { message: 'late', rate: 5 })).statusCode).toBe(409);
  });

  it('never promises more than is held when accepts race', async () => {
    const brand = await brandWith(200);
    const c = await create(brand.token, { budget: 200 });
    const apps: Application[] = [];
    for (let i = 0; i < 3; i++) {
      const creator = await creatorWith('approved_creator');
      const res = await api('POST', `/api/campaigns/${c.id}/applications`, creator.token, { message: 'Me', rate: 120 });
      apps.push((res.json() as { data: Application }).data);
    }
    const results = await Promise.all(apps.map((a) => api('POST', `/api/applications/${a.id}/accept`, brand.token)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const collabs = await api('GET', `/api/campaigns/${c.id}/collaborations`, brand.token);
    expect((collabs.json() as { data: CampaignCollaboration[] }).data).toHaveLength(1);
  });

  it('lets a creator withdraw and apply again', async () => {
    const brand = await brandWith(100);
    const c = await create(brand.token);
    const creator = await creatorWith('approved_creator');
    const url = `/api/campaigns/${c.id}/applications`;
    const a = (await api('POST', url, creator.token, { message: 'Hello', rate: 10 })).json().data as Application;
    const other = await creatorWith('approved_creator');
    expect((await api('POST', `/api/applications/${a.id}/withdraw`, other.token)).statusCode).toBe(404);
    const w = await api('POST', `/api/applications/${a.id}/withdraw`, creator.token);
    expect((w.json() as { data: Application }).data.status).toBe('withdrawn');
    const again = await api('POST', url, creator.token, { message: 'Hello again', rate: 12.5 });
    expect(again.statusCode).toBe(200);
    expect((again.json() as { data: Application }).data).toMatchObject({ id: a.id, status: 'pending', rate: 12.5 });
  });
});
