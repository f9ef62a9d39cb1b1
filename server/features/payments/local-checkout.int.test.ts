import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CheckoutReply,
  CreditHistory,
  SubscriptionStatusDto,
  TopupPackage,
} from '../../../common/api/payments.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { creditTransactions, paymentOrders, sessions, subscriptions } from '../../db/schema/index.ts';
import { ManualClock } from '../../platform/clock.ts';
import { authHeader, createTestUser, creditsOf, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { addMonth } from './fulfil.ts';
import { renewDueSubscriptions, subscriptionRenewalJob } from './renewal.ts';

let t: TestApp;
let user: TestUser;
let other: TestUser;
const clock = new ManualClock(new Date());
const DAY = 86_400_000;

function api(method: 'GET' | 'POST', url: string, token?: string, payload?: object) {
  return t.app.inject({ method, url, payload, headers: token ? authHeader(token) : {} });
}

/** Opens the local checkout page as the browser would (session cookie) and reads its form token. */
async function openCheckout(url: string, who: TestUser): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url, headers: { cookie: `genpro_session=${who.token}` } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('text/html');
  expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  // With no-referrer, browsers send `Origin: null` on the form posts, which the Origin check refuses.
  expect(res.headers['referrer-policy']).toBe('same-origin');
  const token = res.body.match(/name="token" value="([0-9a-f]{64})"/)?.[1];
  expect(token).toBeTruthy();
  return token as string;
}

function submit(
  orderId: string,
  action: 'complete' | 'cancel',
  who: TestUser,
  token: string,
  extra: Record<string, string> = {},
) {
  return t.app.inject({
    method: 'POST',
    url: `/api/payment/local/${orderId}/${action}`,
    headers: { cookie: `genpro_session=${who.token}`, 'content-type': 'application/x-www-form-urlencoded', ...extra },
    payload: new URLSearchParams({ token }).toString(),
  });
}

async function startTopup(who: TestUser, topupId = 'creator'): Promise<CheckoutReply> {
  const res = await api('POST', '/api/payment/topup', who.token, {
    topupId,
    successUrl: '/dashboard?topup=success',
    cancelUrl: '/dashboard?topup=cancelled',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CheckoutReply;
}

async function purchaseRows(userId: string) {
  return t.ctx.db
    .select()
    .from(creditTransactions)
    .where(and(eq(creditTransactions.userId, userId), eq(creditTransactions.source, 'purchase')));
}

beforeAll(async () => {
  t = await createTestApp({ clock, env: { SUBSCRIPTION_MONTHLY_CREDITS: '40' } });
  user = await createTestUser(t.ctx.db, { credits: 5 });
  other = await createTestUser(t.ctx.db, { credits: 5, subscription: false });
});
afterAll(async () => {
  await t?.close();
});

describe('top-up packages', () => {
  it('lists several packages in euros with exactly one popular', async () => {
    const res = await api('GET', '/api/payment/packages', user.token);
    expect(res.statusCode).toBe(200);
    const packages = (res.json() as { data: TopupPackage[] }).data;
    expect(packages.length).toBeGreaterThanOrEqual(3);
    expect(packages.filter((p) => p.popular)).toHaveLength(1);
    expect(packages.find((p) => p.id === 'creator')).toMatchObject({ amount: 25, amountCents: 2500, credits: 300 });
  });

  it('needs a session', async () => {
    for (const [method, url] of [
      ['GET', '/api/payment/packages'],
      ['POST', '/api/payment/topup'],
      ['GET', '/api/payment/subscription/status'],
      ['POST', '/api/payment/subscription/cancel'],
      ['POST', '/api/payment/subscription/checkout'],
      ['GET', '/api/credits/history'],
      ['GET', '/api/brands/wallet'],
      ['POST', '/api/brands/wallet/topup'],
      ['GET', '/api/creators/earnings'],
    ] as const) {
      const res = await api(method, url, undefined, method === 'POST' ? {} : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});

describe('local checkout', () => {
  it('shows the order, and Pay grants the credits exactly once however often it is replayed', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const { url, orderId } = await startTopup(user);
    expect(url).toBe(`/checkout/local/${orderId}`);

    const page = await t.app.inject({ method: 'GET', url, headers: { cookie: `genpro_session=${user.token}` } });
    expect(page.body).toContain('€25.00');
    expect(page.body).toContain(user.email);
    expect(page.body).toContain('300 credits');
    const token = await openCheckout(url, user);

    for (let i = 0; i < 3; i++) {
      const res = await submit(orderId, 'complete', user, token);
      expect(res.statusCode, res.body).toBe(303);
      expect(res.headers.location).toBe('/dashboard?topup=success');
    }
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before + 300);
    const rows = await purchaseRows(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: 'addition', amount: 300, balanceAfter: before + 300 });
    const [order] = await t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
    expect(order?.status).toBe('completed');
    expect(order?.fulfilledAt).not.toBeNull();

    // The page of a completed order no longer offers Pay.
    const closed = await t.app.inject({ method: 'GET', url, headers: { cookie: `genpro_session=${user.token}` } });
    expect(closed.statusCode).toBe(409);
    expect(closed.body).not.toContain('checkout-pay');
  });

  it('grants once when completion is replayed 10 times concurrently', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const rowsBefore = (await purchaseRows(user.id)).length;
    const { url, orderId } = await startTopup(user, 'starter');
    const token = await openCheckout(url, user);
    const results = await Promise.all(Array.from({ length: 10 }, () => submit(orderId, 'complete', user, token)));
    for (const res of results) expect(res.statusCode).toBe(303);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before + 100);
    expect(await purchaseRows(user.id)).toHaveLength(rowsBefore + 1);
  });

  it('Cancel leads to the cancel URL and grants nothing; Pay afterwards is refused', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const { url, orderId } = await startTopup(user);
    const token = await openCheckout(url, user);
    const res = await submit(orderId, 'cancel', user, token);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/dashboard?topup=cancelled');
    const pay = await submit(orderId, 'complete', user, token);
    expect(pay.statusCode).toBe(409);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
    const [order] = await t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
    expect(order?.status).toBe('cancelled');
  });

  it('refuses a form without the token, another session’s token, another user and a foreign Origin', async () => {
    const before = await creditsOf(t.ctx.db, user.id);
    const { url, orderId } = await startTopup(user);
    const token = await openCheckout(url, user);

    expect((await submit(orderId, 'complete', user, '')).statusCode).toBe(403);
    expect((await submit(orderId, 'complete', user, 'a'.repeat(64))).statusCode).toBe(403);
    // Another user: neither the page nor the form works for them.
    const page = await t.app.inject({ method: 'GET', url, headers: { cookie: `genpro_session=${other.token}` } });
    expect(page.statusCode).toBe(404);
    expect((await submit(orderId, 'complete', other, token)).statusCode).toBe(403);
    // Without a session.
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/api/payment/local/${orderId}/complete`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${token}`,
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    // A cross-site form post.
    expect((await submit(orderId, 'complete', user, token, { origin: 'https://evil.example' })).statusCode).toBe(403);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);

    // The real form from the real page still works.
    const ok = await submit(orderId, 'complete', user, token, { origin: 'http://localhost:3000' });
    expect(ok.statusCode).toBe(303);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before + 300);
  });

  it('refuses open redirects and unknown packages', async () => {
    for (const bad of [
      'https://evil.example/dashboard',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      'http://localhost:3001/dashboard',
      '',
    ]) {
      const res = await api('POST', '/api/payment/topup', user.token, {
        topupId: 'creator',
        successUrl: bad,
        cancelUrl: '/dashboard?topup=cancelled',
      });
      expect(res.statusCode, bad).toBe(400);
    }
    const absolute = await api('POST', '/api/payment/topup', user.token, {
      topupId: 'creator',
      successUrl: 'http://localhost:3000/dashboard?topup=success',
      cancelUrl: '/dashboard?topup=cancelled',
    });
    expect(absolute.statusCode).toBe(200);
    const [order] = await t.ctx.db
      .select()
      .from(paymentOrders)
      .where(eq(paymentOrders.id, (absolute.json() as CheckoutReply).orderId));
    expect(order?.successUrl).toBe('/dashboard?topup=success');

    const unknown = await api('POST', '/api/payment/topup', user.token, {
      topupId: 'nope',
      successUrl: '/dashboard?topup=success',
      cancelUrl: '/dashboard?topup=cancelled',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: MESSAGES.payments.unknownPackage });
  });
});

describe('credit history', () => {
  it('lists the ledger newest first with paging', async () => {
    const res = await api('GET', '/api/credits/history?limit=2', user.token);
    expect(res.statusCode, res.body).toBe(200);
    const data = (res.json() as { data: CreditHistory }).data;
    expect(data.transactions).toHaveLength(2);
    expect(data.pagination).toMatchObject({ offset: 0, limit: 2, hasMore: true });
    expect(data.pagination.total).toBeGreaterThanOrEqual(3);
    expect(data.balance).toBe(await creditsOf(t.ctx.db, user.id));
    const [first] = data.transactions;
    expect(first).toMatchObject({
      type: 'addition',
      source: 'purchase',
      generationType: null,
      balanceAfter: data.balance,
    });
    expect(Object.keys(first ?? {}).sort()).toEqual(
      ['amount', 'balanceAfter', 'createdAt', 'description', 'generationType', 'id', 'source', 'type'].sort(),
    );
    const rest = await api('GET', `/api/credits/history?offset=2&limit=100`, user.token);
    const restData = (rest.json() as { data: CreditHistory }).data;
    expect(restData.pagination.hasMore).toBe(false);
    expect(restData.transactions.length).toBe(data.pagination.total - 2);
    expect((await api('GET', '/api/credits/history?limit=1000', user.token)).statusCode).toBe(400);
    const others = (await api('GET', '/api/credits/history', other.token)).json() as { data: CreditHistory };
    expect(others.data.transactions).toHaveLength(0);
  });
});

describe('subscription (local)', () => {
  async function status(who: TestUser): Promise<SubscriptionStatusDto> {
    const res = await api('GET', '/api/payment/subscription/status', who.token);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: SubscriptionStatusDto }).data;
  }
  async function withTrial(daysLeft: number): Promise<TestUser> {
    const u = await createTestUser(t.ctx.db, { subscription: false });
    await t.ctx.db.insert(subscriptions).values({
      userId: u.id,
      planType: 'trial',
      status: 'trialing',
      trialEnd: new Date(clock.now().getTime() + daysLeft * DAY),
    });
    return u;
  }
  async function storedStatus(who: TestUser) {
    const [row] = await t.ctx.db.select().from(subscriptions).where(eq(subscriptions.userId, who.id));
    return row?.status;
  }
  async function subscribe(who: TestUser) {
    const res = await api('POST', '/api/payment/subscription/checkout', who.token, {});
    expect(res.statusCode, res.body).toBe(200);
    const { url, orderId } = res.json() as CheckoutReply;
    const token = await openCheckout(url, who);
    const done = await submit(orderId, 'complete', who, token);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/dashboard?subscription=success');
  }

  it('reports a running trial', async () => {
    const u = await withTrial(5);
    expect(await status(u)).toMatchObject({
      isActive: true,
      planType: 'trial',
      status: 'trialing',
      cancelAtPeriodEnd: false,
      canCancel: true,
      canSubscribe: true,
      nextBillingDate: null,
      trialEnd: new Date(clock.now().getTime() + 5 * DAY).toISOString(),
    });
  });

  it('cancels at the end of the period: still active, Cancelling, then ends', async () => {
    const u = await withTrial(3);
    const res = await api('POST', '/api/payment/subscription/cancel', u.token, { cancelType: 'end_of_period' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: MESSAGES.payments.subscriptionCancelsAtPeriodEnd,
      data: { isActive: true, cancelAtPeriodEnd: true, status: 'trialing' },
    });
    // The trial runs out: the cancelling subscription ends.
    await t.ctx.db
      .update(subscriptions)
      .set({ trialEnd: new Date(clock.now().getTime() - 60_000) })
      .where(eq(subscriptions.userId, u.id));
    expect(await status(u)).toMatchObject({
      isActive: false,
      status: 'canceled',
      canCancel: false,
      canSubscribe: true,
    });
  });

  it('cancels immediately: status canceled and access ends now', async () => {
    const u = await withTrial(10);
    const res = await api('POST', '/api/payment/subscription/cancel', u.token, { cancelType: 'immediate' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      data: { isActive: false, status: 'canceled', canCancel: false, canSubscribe: true },
    });
    const me = await api('GET', '/api/auth/me', u.token);
    expect(me.json()).toMatchObject({ data: { user: { subscription: { isActive: false, status: 'canceled' } } } });
    const again = await api('POST', '/api/payment/subscription/cancel', u.token, { cancelType: 'immediate' });
    expect(again.statusCode).toBe(409);
    expect((await api('POST', '/api/payment/subscription/cancel', u.token, { cancelType: 'later' })).statusCode).toBe(
      400,
    );
  });

  it('subscribes after the trial ended, then refuses a second subscription', async () => {
    const u = await withTrial(-1);
    // An ended free trial reads paused (as Stripe pauses a trial ended without a card), on /me too.
    const me = await api('GET', '/api/auth/me', u.token);
    expect(me.json()).toMatchObject({ data: { user: { subscription: { isActive: false, status: 'paused' } } } });
    expect(await status(u)).toMatchObject({ isActive: false, status: 'paused', canSubscribe: true });
    expect(await storedStatus(u)).toBe('paused');
    await subscribe(u);
    const after = await status(u);
    expect(after).toMatchObject({
      isActive: true,
      planType: 'pro',
      status: 'active',
      canCancel: true,
      canSubscribe: false,
    });
    expect(after.nextBillingDate).toBe(addMonth(clock.now()).toISOString());
    const again = await api('POST', '/api/payment/subscription/checkout', u.token, {});
    expect(again.statusCode).toBe(409);
  });

  it('the renewal sweep pauses an ended free trial that nobody has read', async () => {
    const ended = await withTrial(-1);
    const running = await withTrial(2);
    const swept = await renewDueSubscriptions(t.ctx);
    expect(swept.paused).toBeGreaterThanOrEqual(1);
    expect(await storedStatus(ended)).toBe('paused');
    expect(await storedStatus(running)).toBe('trialing');
  });

  it('subscribing during the trial keeps the free days', async () => {
    const u = await withTrial(6);
    await subscribe(u);
    const after = await status(u);
    expect(after).toMatchObject({ isActive: true, planType: 'pro', status: 'trialing' });
    expect(after.nextBillingDate).toBe(after.trialEnd);
  });

  it('has a 404 for a user with no subscription to cancel', async () => {
    const res = await api('POST', '/api/payment/subscription/cancel', other.token, { cancelType: 'immediate' });
    expect(res.statusCode).toBe(404);
  });

  async function subscriptionRow(who: TestUser) {
    const [row] = await t.ctx.db.select().from(subscriptions).where(eq(subscriptions.userId, who.id));
    if (!row?.currentPeriodEnd) throw new Error('no subscription period');
    return row;
  }
  async function renewalRows(who: TestUser) {
    const credits = await t.ctx.db
      .select()
      .from(creditTransactions)
      .where(and(eq(creditTransactions.userId, who.id), eq(creditTransactions.source, 'subscription')));
    const orders = await t.ctx.db
      .select()
      .from(paymentOrders)
      .where(and(eq(paymentOrders.userId, who.id), eq(paymentOrders.kind, 'subscription')));
    return { credits, orders };
  }
  const HOUR = 3_600_000;
  /** Moves the clock past a period end; the test users' sessions (a day long) move along. */
  async function passPeriodEnd(periodEnd: Date, ...who: TestUser[]) {
    clock.advance(periodEnd.getTime() - clock.now().getTime() + HOUR);
    for (const u of who)
      await t.ctx.db
        .update(sessions)
        .set({ expiresAt: new Date(clock.now().getTime() + DAY) })
        .where(eq(sessions.userId, u.id));
  }

  it('schedules the renewal sweep on the job queue every 5 minutes', async () => {
    const row = await t.ctx.database.executeSql('SELECT name, cron FROM pgboss.schedule WHERE name = $1', [
      subscriptionRenewalJob.name,
    ]);
    expect(row.rows[0]).toMatchObject({ name: subscriptionRenewalJob.name, cron: '*/5 * * * *' });
  });

  it('renews a subscription whose period ended: one month more, one renewal row, credits once', async () => {
    const u = await createTestUser(t.ctx.db, { credits: 5, subscription: false });
    await subscribe(u);
    const periodEnd = (await subscriptionRow(u)).currentPeriodEnd as Date;
    await renewDueSubscriptions(t.ctx); // not due yet
    expect((await subscriptionRow(u)).currentPeriodEnd).toEqual(periodEnd);

    await passPeriodEnd(periodEnd, u);
    await Promise.all([renewDueSubscriptions(t.ctx), renewDueSubscriptions(t.ctx)]);
    await renewDueSubscriptions(t.ctx);

    expect(await subscriptionRow(u)).toMatchObject({ status: 'active', currentPeriodEnd: addMonth(periodEnd) });
    expect(await status(u)).toMatchObject({
      isActive: true,
      status: 'active',
      nextBillingDate: addMonth(periodEnd).toISOString(),
    });
    const { credits, orders } = await renewalRows(u);
    expect(orders.map((o) => o.status)).toEqual(['completed', 'completed']); // the first payment and one renewal
    expect(orders.filter((o) => o.providerSessionId?.startsWith('renewal:'))).toHaveLength(1);
    expect(credits.map((c) => c.amount)).toEqual([40]);
    expect(await creditsOf(t.ctx.db, u.id)).toBe(5 + 40);
    const history = await api('GET', '/api/credits/history', u.token);
    expect((history.json() as { data: CreditHistory }).data.transactions[0]).toMatchObject({
      source: 'subscription',
      type: 'addition',
      amount: 40,
      description: 'GenPro Pro renewed (€29.00): 40 monthly credits',
    });
  });

  it('starts the paid month when a trial with a paid plan ends', async () => {
    const u = await withTrial(2);
    await passPeriodEnd(clock.now(), u);
    await subscribe(u);
    const trialEnd = (await subscriptionRow(u)).currentPeriodEnd as Date;
    await passPeriodEnd(trialEnd, u);
    await renewDueSubscriptions(t.ctx);
    expect(await status(u)).toMatchObject({ isActive: true, status: 'active', trialEnd: null });
    expect((await subscriptionRow(u)).currentPeriodEnd).toEqual(addMonth(trialEnd));
    expect((await renewalRows(u)).credits).toHaveLength(1);
  });

  it('expires a subscription cancelled at period end instead of renewing it; generation is refused', async () => {
    const u = await createTestUser(t.ctx.db, { credits: 50, subscription: false });
    await passPeriodEnd(clock.now(), u);
    await subscribe(u);
    const cancel = await api('POST', '/api/payment/subscription/cancel', u.token, { cancelType: 'end_of_period' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const periodEnd = (await subscriptionRow(u)).currentPeriodEnd as Date;
    await passPeriodEnd(periodEnd, u);
    await renewDueSubscriptions(t.ctx);

    expect(await subscriptionRow(u)).toMatchObject({ status: 'canceled', currentPeriodEnd: periodEnd });
    const { credits, orders } = await renewalRows(u);
    expect(credits).toHaveLength(0);
    expect(orders).toHaveLength(1);
    const res = await api('POST', '/api/ai/generate/image', u.token, {
      prompt: 'a lighthouse on a cliff at sunset',
      size: '512x288',
      numberOfImages: 1,
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ code: 'subscription_required', error: MESSAGES.subscription.required });
    expect(await creditsOf(t.ctx.db, u.id)).toBe(50);
  });
});
