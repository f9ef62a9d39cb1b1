// Issue 17: the dashboard's subscription rule holds on the server — without subscription access
// (admins aside) no credits are spent: 403 subscription_required before anything is reserved.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_PREVIEW_PRICES } from '../../../common/api/generation.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { creditTransactions, subscriptions, tasks } from '../../db/schema/index.ts';
import { authHeader, createTestUser, creditsOf, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { AppError } from '../errors.ts';
import { reserveCredits } from './ledger.ts';
import { hasSubscriptionAccess } from './subscription-access.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const DAY = 86_400_000;
const image = { prompt: 'a lighthouse on a cliff at sunset', size: '512x288', numberOfImages: 1 };

function generate(user: TestUser) {
  return t.app.inject({
    method: 'POST',
    url: '/api/ai/generate/image',
    payload: image,
    headers: authHeader(user.token),
  });
}

/** Nothing moved: the balance as given, no ledger row, no task. */
async function expectUntouched(user: TestUser, credits: number) {
  expect(await creditsOf(t.ctx.db, user.id)).toBe(credits);
  expect(await t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.userId, user.id))).toHaveLength(
    0,
  );
  expect(await t.ctx.db.select().from(tasks).where(eq(tasks.userId, user.id))).toHaveLength(0);
}

function expectSubscriptionRequired(res: Awaited<ReturnType<typeof generate>>) {
  expect(res.statusCode, res.body).toBe(403);
  expect(res.json()).toMatchObject({
    success: false,
    code: 'subscription_required',
    error: MESSAGES.subscription.required,
  });
}

describe('spending credits needs subscription access', () => {
  it('a trialing user generates and pays as before', async () => {
    const user = await createTestUser(t.ctx.db, { credits: 20 });
    const res = await generate(user);
    expect(res.statusCode, res.body).toBe(200);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(20 - LOCAL_PREVIEW_PRICES.image);
  });

  it('after an immediate cancel, generation answers 403 with the message: no credits moved, no task row', async () => {
    const user = await createTestUser(t.ctx.db, { credits: 20 });
    const cancel = await t.app.inject({
      method: 'POST',
      url: '/api/payment/subscription/cancel',
      payload: { cancelType: 'immediate' },
      headers: authHeader(user.token),
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expectSubscriptionRequired(await generate(user));
    await expectUntouched(user, 20);
  });

  it('refuses an expired local subscription (active, period over) and a trial that ran out', async () => {
    const expired = await createTestUser(t.ctx.db, { credits: 20 });
    await t.ctx.db
      .update(subscriptions)
      .set({ planType: 'pro', status: 'active', provider: 'local', currentPeriodEnd: new Date(Date.now() - DAY) })
      .where(eq(subscriptions.userId, expired.id));
    expectSubscriptionRequired(await generate(expired));
    await expectUntouched(expired, 20);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authHeader(expired.token) });
    // /me says what the subscription status page says: a paid month over and not yet renewed is past due.
    expect(me.json()).toMatchObject({ data: { user: { subscription: { isActive: false, status: 'past_due' } } } });

    const trialOver = await createTestUser(t.ctx.db, { credits: 20 });
    await t.ctx.db
      .update(subscriptions)
      .set({ trialEnd: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.userId, trialOver.id));
    expectSubscriptionRequired(await generate(trialOver));
    await expectUntouched(trialOver, 20);
  });

  it('refuses a user with no subscription at all; an admin without one is exempt, as on the dashboard', async () => {
    const none = await createTestUser(t.ctx.db, { credits: 20, subscription: false });
    expectSubscriptionRequired(await generate(none));
    await expectUntouched(none, 20);
    const admin = await createTestUser(t.ctx.db, { credits: 20, role: 'admin', subscription: false });
    expect((await generate(admin)).statusCode).toBe(200);
  });

  it('holds in the ledger itself, checked before the balance (403 even when the balance is short)', async () => {
    const user = await createTestUser(t.ctx.db, { credits: 0, subscription: false });
    const spend = reserveCredits(t.ctx.db, { userId: user.id, amount: 5, source: 'generation', description: 'x' });
    await expect(spend).rejects.toBeInstanceOf(AppError);
    await expect(spend).rejects.toMatchObject({ status: 403, code: 'subscription_required' });
  });
});

describe('hasSubscriptionAccess', () => {
  const now = new Date('2030-01-15T12:00:00Z');
  const row = (over: Partial<Parameters<typeof hasSubscriptionAccess>[0]>) => ({
    status: 'trialing',
    trialEnd: null,
    currentPeriodEnd: null,
    provider: 'local',
    ...over,
  });
  it('is the trial with its end ahead, or active within a local period; nothing else', () => {
    expect(hasSubscriptionAccess(row({ trialEnd: new Date(now.getTime() + 1) }), now)).toBe(true);
    expect(hasSubscriptionAccess(row({ trialEnd: now }), now)).toBe(false);
    expect(hasSubscriptionAccess(row({ trialEnd: null }), now)).toBe(false);
    expect(hasSubscriptionAccess(row({ status: 'active', currentPeriodEnd: new Date(now.getTime() + DAY) }), now)).toBe(
      true,
    );
    expect(hasSubscriptionAccess(row({ status: 'active', currentPeriodEnd: now }), now)).toBe(false);
    // Stripe rows change through webhooks: an active Stripe row is access until Stripe says otherwise.
    expect(hasSubscriptionAccess(row({ status: 'active', provider: 'stripe', currentPeriodEnd: now }), now)).toBe(true);
    for (const status of ['canceled', 'past_due', 'unpaid', 'incomplete', 'paused'])
      expect(hasSubscriptionAccess(row({ status, trialEnd: new Date(now.getTime() + DAY) }), now)).toBe(false);
  });
});
