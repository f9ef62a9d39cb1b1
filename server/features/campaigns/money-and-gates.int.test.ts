// Issue 17: euro amounts are judged on the cents they are stored as, and a brand the admin rejected can
// neither create nor publish campaigns, plan them, nor browse the creator directory.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Campaign, CreateCampaignBody } from '../../../common/api/campaigns.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { brandProfiles, campaignApplications, campaigns, users } from '../../db/schema/index.ts';
import { creditMoney } from '../../platform/money/ledger.ts';
import { authHeader, createTestUser, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;

type Method = 'GET' | 'POST' | 'PATCH';
function api(method: Method, url: string, user: TestUser, payload?: object) {
  return t.app.inject({ method, url, payload, headers: authHeader(user.token) });
}

async function brand(verification?: 'pending' | 'verified' | 'rejected'): Promise<TestUser> {
  const user = await createTestUser(t.ctx.db, { role: 'brand' });
  await creditMoney(t.ctx.db, {
    userId: user.id,
    account: 'wallet',
    amountCents: 50_000,
    source: 'topup',
    referenceId: randomUUID(),
    description: 'test top-up',
  });
  if (verification) await t.ctx.db.insert(brandProfiles).values({ userId: user.id, verificationStatus: verification });
  return user;
}

const campaign = (overrides: Partial<CreateCampaignBody> = {}): CreateCampaignBody => ({
  title: 'Spring launch',
  objective: 'Awareness for the spring running shoe',
  budget: 30,
  platforms: ['instagram'],
  contentTypes: ['video'],
  ...overrides,
});

const plan = {
  objective: 'Awareness for the spring running shoe',
  targetAudience: { ageMin: 18, ageMax: 35 },
  budget: 10,
  duration: 7,
  platforms: ['instagram'],
  contentTypes: ['video'],
};

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('euro amounts are validated after rounding to cents', () => {
  it('an application rate of 1e-9 is refused as "more than €0" and nothing is stored', async () => {
    const owner = await brand();
    const created = await api('POST', '/api/campaigns', owner, campaign());
    expect(created.statusCode, created.body).toBe(200);
    const { id } = (created.json() as { data: Campaign }).data;
    const creator = await createTestUser(t.ctx.db, { role: 'creator' });
    const url = `/api/campaigns/${id}/applications`;
    for (const rate of [1e-9, 0.004, -0.001]) {
      const res = await api('POST', url, creator, { message: 'Hi', rate });
      expect(res.statusCode, String(rate)).toBe(400);
      expect(res.json().error).toBe(MESSAGES.campaigns.ratePositive);
    }
    expect(
      await t.ctx.db.select().from(campaignApplications).where(eq(campaignApplications.campaignId, id)),
    ).toHaveLength(0);
    const cent = await api('POST', url, creator, { message: 'Hi', rate: 0.01 });
    expect(cent.statusCode, cent.body).toBe(200);
    expect(cent.json().data).toMatchObject({ rate: 0.01, rateCents: 1 });
  });

  it('a budget just under the minimum in cents is refused; one that rounds to it is €1.00', async () => {
    const owner = await brand();
    const under = await api('POST', '/api/campaigns', owner, campaign({ budget: 0.994999 }));
    expect(under.statusCode).toBe(400);
    expect(under.json().error).toBe(MESSAGES.campaigns.budgetMin(1));
    const planUnder = await api('POST', '/api/campaigns/plan', owner, { ...plan, budget: 1e-9 });
    expect(planUnder.json().error).toBe(MESSAGES.campaigns.budgetMin(1));
    const rounded = await api('POST', '/api/campaigns', owner, campaign({ budget: 0.999999999 }));
    expect(rounded.statusCode, rounded.body).toBe(200);
    expect((rounded.json() as { data: Campaign }).data).toMatchObject({ budget: 1, budgetCents: 100 });
  });

  it('a creator starting rate with a third decimal is refused, and a wallet top-up under €1', async () => {
    const owner = await brand();
    const topup = await api('POST', '/api/brands/wallet/topup', owner, { amount: 0.004 });
    expect(topup.statusCode).toBe(400);
    expect(topup.json().error).toBe(MESSAGES.payments.amountMin(1));
    const creator = await createTestUser(t.ctx.db, { role: 'creator' });
    const rate = await api('PATCH', '/api/creators/profile', creator, { startingRate: 10.005 });
    expect(rate.statusCode).toBe(400);
    expect(rate.json().error).toBe(MESSAGES.account.startingRateInvalid(1_000_000));
  });
});

describe('a brand the admin rejected', () => {
  const gate = { code: 'approval_required', error: MESSAGES.approval.brandRejected };

  it('cannot create a campaign, draft or open, nor build a plan', async () => {
    const rejected = await brand('rejected');
    for (const status of ['open', 'draft'] as const) {
      const res = await api('POST', '/api/campaigns', rejected, campaign({ status }));
      expect(res.statusCode, status).toBe(403);
      expect(res.json()).toMatchObject(gate);
    }
    const planned = await api('POST', '/api/campaigns/plan', rejected, plan);
    expect(planned.statusCode).toBe(403);
    expect(planned.json()).toMatchObject(gate);
    expect(await t.ctx.db.select().from(campaigns).where(eq(campaigns.brandUserId, rejected.id))).toHaveLength(0);
  });

  it('cannot publish a draft made before the rejection', async () => {
    const later = await brand('pending');
    const draft = await api('POST', '/api/campaigns', later, campaign({ status: 'draft' }));
    expect(draft.statusCode, draft.body).toBe(200);
    const { id } = (draft.json() as { data: Campaign }).data;
    await t.ctx.db
      .update(brandProfiles)
      .set({ verificationStatus: 'rejected' })
      .where(eq(brandProfiles.userId, later.id));
    const publish = await api('PATCH', `/api/campaigns/${id}`, later, { status: 'open' });
    expect(publish.statusCode).toBe(403);
    expect(publish.json()).toMatchObject(gate);
    const [row] = await t.ctx.db.select().from(campaigns).where(eq(campaigns.id, id));
    expect(row).toMatchObject({ status: 'draft', heldCents: 0 });
  });

  it('cannot browse the creator directory', async () => {
    const rejected = await brand('rejected');
    const res = await api('GET', '/api/creators', rejected);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject(gate);
  });

  it('while pending and verified brands (and brands with no profile yet) go on as before', async () => {
    for (const verification of [undefined, 'pending', 'verified'] as const) {
      const user = await brand(verification);
      expect((await api('POST', '/api/campaigns', user, campaign())).statusCode, verification).toBe(200);
      expect((await api('POST', '/api/campaigns/plan', user, plan)).statusCode, verification).toBe(200);
      expect((await api('GET', '/api/creators', user)).statusCode, verification).toBe(200);
    }
    // The role rules are unchanged: a creator still cannot create campaigns.
    const creator = await createTestUser(t.ctx.db, { role: 'creator' });
    await t.ctx.db.update(users).set({ userStatus: 'approved_creator' }).where(eq(users.id, creator.id));
    expect((await api('GET', '/api/creators', creator)).statusCode).toBe(200);
  });
});
