import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutReply, CreditHistory, SubscriptionStatusDto } from '../../../common/api/payments.ts';
import { paymentEvents, paymentOrders, subscriptions } from '../../db/schema/index.ts';
import { authHeader, createTestUser, creditsOf, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { type FakeStripe, startFakeStripe } from './fake-stripe.ts';
import { signStripePayload } from './signature.ts';

const SECRET = 'whsec_test_secret';
let t: TestApp;
let stripe: FakeStripe;
let user: TestUser;
let eventCount = 0;

function api(method: 'GET' | 'POST', url: string, token?: string, payload?: object) {
  return t.app.inject({ method, url, payload, headers: token ? authHeader(token) : {} });
}

function nowSeconds() {
  return Math.floor(Date.now() / 1000);
}

/** Posts an event as Stripe would: raw JSON body with a Stripe-Signature header. */
function deliver(event: object, options: { secret?: string; timestamp?: number; header?: string } = {}) {
  const body = JSON.stringify(event);
  const header = options.header ?? signStripePayload(body, options.secret ?? SECRET, options.timestamp ?? nowSeconds());
  return t.app.inject({
    method: 'POST',
    url: '/api/payment/webhook',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
    payload: body,
  });
}

function event(type: string, object: Record<string, unknown>) {
  eventCount += 1;
  return { id: `evt_test_${eventCount}`, object: 'event', type, data: { object } };
}

async function orderOf(orderId: string) {
  const [order] = await t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
  if (!order) throw new Error('no order');
  return order;
}

async function startTopup(who: TestUser): Promise<CheckoutReply> {
  const res = await api('POST', '/api/payment/topup', who.token, {
    topupId: 'creator',
    successUrl: '/dashboard?topup=success',
    cancelUrl: '/dashboard?topup=cancelled',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CheckoutReply;
}

function completed(order: { id: string; providerSessionId: string | null }, extra: Record<string, unknown> = {}) {
  return event('checkout.session.completed', {
    id: order.providerSessionId,
    object: 'checkout.session',
    mode: 'payment',
    client_reference_id: order.id,
    payment_status: 'paid',
    status: 'complete',
    ...extra,
  });
}

beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await createTestApp({
    env: {
      STRIPE_SECRET_KEY: 'sk_test_genpro',
      STRIPE_WEBHOOK_SECRET: SECRET,
      STRIPE_API_BASE: stripe.baseUrl,
      STRIPE_SUBSCRIPTION_PRICE_ID: 'price_pro_monthly',
    },
  });
  user = await createTestUser(t.ctx.db, { credits: 0 });
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

describe('Stripe Checkout', () => {
  it('creates a payment Checkout Session with the documented form fields and an Idempotency-Key', async () => {
    const { url, orderId } = await startTopup(user);
    expect(url).toBe('https://checkout.stripe.test/c/pay/cs_test_1');
    const request = stripe.requests.find((r) => r.path === '/v1/checkout/sessions');
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(request?.headers.authorization).toBe('Bearer sk_test_genpro');
    expect(request?.headers['idempotency-key']).toBe(`genpro-order-${orderId}`);
    expect(request?.form).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][unit_amount]': '2500',
      'line_items[0][price_data][product_data][name]': 'Creator – 300 credits',
      'line_items[0][quantity]': '1',
      success_url: 'http://localhost:3000/dashboard?topup=success',
      cancel_url: 'http://localhost:3000/dashboard?topup=cancelled',
      client_reference_id: orderId,
      customer_email: user.email,
      'metadata[credits]': '300',
      'metadata[order_id]': orderId,
      'metadata[kind]': 'credits_topup',
    });
    const order = await orderOf(orderId);
    expect(order).toMatchObject({ provider: 'stripe', providerSessionId: 'cs_test_1', status: 'open' });
  });

  it('answers 502 and cancels the order when Stripe cannot be reached', async () => {
    stripe.failNext(10);
    const res = await api('POST', '/api/payment/topup', user.token, {
      topupId: 'starter',
      successUrl: '/dashboard?topup=success',
      cancelUrl: '/dashboard?topup=cancelled',
    });
    stripe.failNext(0);
    expect(res.statusCode).toBe(502);
  });
});

describe('Stripe webhook', () => {
  it('grants on a validly signed checkout.session.completed, once, and a replay changes nothing', async () => {
    const { orderId } = await startTopup(user);
    const order = await orderOf(orderId);
    const before = await creditsOf(t.ctx.db, user.id);
    const paid = completed(order);
    const first = await deliver(paid);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before + 300);
    expect((await orderOf(orderId)).status).toBe('completed');

    const replay = await deliver(paid);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    // Another event about the same session (e.g. async_payment_succeeded) cannot fulfil twice either.
    const another = await deliver({ ...completed(order), type: 'checkout.session.async_payment_succeeded' });
    expect(another.statusCode).toBe(200);
    // Concurrent replays of a new event.
    const again = completed(order);
    await Promise.all(Array.from({ length: 5 }, () => deliver(again)));
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before + 300);
    const events = await t.ctx.db.select().from(paymentEvents).where(eq(paymentEvents.id, paid.id));
    expect(events).toHaveLength(1);
  });

  it('refuses a bad signature, another secret, a stale or future timestamp and a missing header (400)', async () => {
    const { orderId } = await startTopup(user);
    const order = await orderOf(orderId);
    const before = await creditsOf(t.ctx.db, user.id);
    const paid = completed(order);
    const body = JSON.stringify(paid);
    const good = signStripePayload(body, SECRET, nowSeconds());
    const tampered = good.replace(/v1=([0-9a-f])/, (_m, c: string) => `v1=${c === '0' ? '1' : '0'}`);
    for (const res of [
      await deliver(paid, { header: tampered }),
      await deliver(paid, { secret: 'whsec_other' }),
      await deliver(paid, { timestamp: nowSeconds() - 301 }),
      await deliver(paid, { timestamp: nowSeconds() + 301 }),
      await deliver(paid, { header: 't=123' }),
      await t.app.inject({
        method: 'POST',
        url: '/api/payment/webhook',
        headers: { 'content-type': 'application/json' },
        payload: body,
      }),
      // The signature covers the exact bytes: re-serialised JSON with other spacing fails.
      await t.app.inject({
        method: 'POST',
        url: '/api/payment/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': good },
        payload: JSON.stringify(paid, null, 2),
      }),
    ]) {
      expect(res.statusCode, res.body).toBe(400);
    }
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
    expect((await orderOf(orderId)).status).toBe('open');
    // A signature within the window is accepted (299 s old).
    const fresh = await deliver(paid, { timestamp: nowSeconds() - 299 });
    expect(fresh.statusCode).toBe(200);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before + 300);
  });

  it('leaves an unpaid session open and expires it on checkout.session.expired', async () => {
    const { orderId } = await startTopup(user);
    const order = await orderOf(orderId);
    const before = await creditsOf(t.ctx.db, user.id);
    expect((await deliver(completed(order, { payment_status: 'unpaid' }))).statusCode).toBe(200);
    expect((await orderOf(orderId)).status).toBe('open');
    expect(await creditsOf(t.ctx.db, user.id)).toBe(before);
    await deliver(event('checkout.session.expired', { id: order.providerSessionId, object: 'checkout.session' }));
    expect((await orderOf(orderId)).status).toBe('expired');
  });
});

describe('Stripe subscription', () => {
  let subscriber: TestUser;
  const periodEnd = nowSeconds() + 30 * 86_400;

  async function status(): Promise<SubscriptionStatusDto> {
    const res = await api('GET', '/api/payment/subscription/status', subscriber.token);
    return (res.json() as { data: SubscriptionStatusDto }).data;
  }

  beforeAll(async () => {
    subscriber = await createTestUser(t.ctx.db, { subscription: false });
    await t.ctx.db.insert(subscriptions).values({
      userId: subscriber.id,
      planType: 'trial',
      status: 'trialing',
      trialEnd: new Date(Date.now() + 5 * 86_400_000 - 60_000),
    });
  });

  it('subscribes through Checkout mode=subscription with the remaining trial days, then activates from the webhook', async () => {
    const res = await api('POST', '/api/payment/subscription/checkout', subscriber.token, {});
    expect(res.statusCode, res.body).toBe(200);
    const { orderId } = res.json() as CheckoutReply;
    const request = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1);
    expect(request?.form).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': 'price_pro_monthly',
      'line_items[0][quantity]': '1',
      'subscription_data[trial_period_days]': '5',
      'subscription_data[metadata][user_id]': subscriber.id,
      client_reference_id: orderId,
      success_url: 'http://localhost:3000/dashboard?subscription=success',
    });

    stripe.subscriptions.set('sub_test_1', {
      id: 'sub_test_1',
      object: 'subscription',
      status: 'trialing',
      cancel_at_period_end: false,
      trial_end: periodEnd,
      items: { object: 'list', data: [{ id: 'si_1', current_period_end: periodEnd }] },
      metadata: { user_id: subscriber.id },
    });
    const order = await orderOf(orderId);
    const done = await deliver(
      completed(order, { mode: 'subscription', payment_status: 'no_payment_required', subscription: 'sub_test_1' }),
    );
    expect(done.statusCode, done.body).toBe(200);
    const [row] = await t.ctx.db.select().from(subscriptions).where(eq(subscriptions.userId, subscriber.id));
    expect(row).toMatchObject({
      provider: 'stripe',
      providerSubscriptionId: 'sub_test_1',
      planType: 'pro',
      status: 'trialing',
    });
    expect(await status()).toMatchObject({
      isActive: true,
      planType: 'pro',
      status: 'trialing',
      nextBillingDate: new Date(periodEnd * 1000).toISOString(),
      canCancel: true,
      canSubscribe: false,
    });
  });

  it('follows customer.subscription.updated and cancels at period end through Stripe', async () => {
    const updated = event('customer.subscription.updated', {
      ...stripe.subscriptions.get('sub_test_1'),
      status: 'active',
      trial_end: null,
    });
    stripe.subscriptions.set('sub_test_1', { ...(updated.data.object as Record<string, unknown>) });
    expect((await deliver(updated)).statusCode).toBe(200);
    expect(await status()).toMatchObject({ status: 'active', isActive: true, trialEnd: null });

    const res = await api('POST', '/api/payment/subscription/cancel', subscriber.token, {
      cancelType: 'end_of_period',
    });
    expect(res.statusCode, res.body).toBe(200);
    const call = stripe.requests.at(-1);
    expect(call).toMatchObject({
      method: 'POST',
      path: '/v1/subscriptions/sub_test_1',
      form: { cancel_at_period_end: 'true' },
    });
    expect(res.json()).toMatchObject({ data: { isActive: true, cancelAtPeriodEnd: true, nextBillingDate: null } });
  });

  it('cancels immediately through Stripe (DELETE) and access ends; a late deleted event agrees', async () => {
    const res = await api('POST', '/api/payment/subscription/cancel', subscriber.token, { cancelType: 'immediate' });
    expect(res.statusCode, res.body).toBe(200);
    expect(stripe.requests.at(-1)).toMatchObject({ method: 'DELETE', path: '/v1/subscriptions/sub_test_1' });
    expect(res.json()).toMatchObject({ data: { isActive: false, status: 'canceled', canSubscribe: true } });
    const deleted = event('customer.subscription.deleted', { ...stripe.subscriptions.get('sub_test_1') });
    expect((await deliver(deleted)).statusCode).toBe(200);
    expect(await status()).toMatchObject({ isActive: false, status: 'canceled' });
  });

  it('a deleted event of an old subscription does not end a newer one', async () => {
    await t.ctx.db
      .update(subscriptions)
      .set({ status: 'active', providerSubscriptionId: 'sub_test_2', cancelAtPeriodEnd: false })
      .where(eq(subscriptions.userId, subscriber.id));
    const old = event('customer.subscription.deleted', {
      id: 'sub_old',
      object: 'subscription',
      status: 'canceled',
      cancel_at_period_end: false,
      metadata: { user_id: subscriber.id },
    });
    expect((await deliver(old)).statusCode).toBe(200);
    expect(await status()).toMatchObject({ status: 'active' });
  });
});

describe('Stripe renewal (invoice.paid)', () => {
  it('renews once per invoice with subscription_cycle, however often it is delivered', async () => {
    const renewing = await createTestUser(t.ctx.db, { credits: 7, subscription: false });
    const firstEnd = nowSeconds() + 3600;
    const nextEnd = firstEnd + 30 * 86_400;
    await t.ctx.db.insert(subscriptions).values({
      userId: renewing.id,
      planType: 'pro',
      status: 'active',
      currentPeriodEnd: new Date(firstEnd * 1000),
      provider: 'stripe',
      providerSubscriptionId: 'sub_renew_1',
    });
    // Stripe has moved the subscription to its next period when the cycle's invoice is paid.
    stripe.subscriptions.set('sub_renew_1', {
      id: 'sub_renew_1',
      object: 'subscription',
      status: 'active',
      cancel_at_period_end: false,
      trial_end: null,
      items: { object: 'list', data: [{ id: 'si_r1', current_period_end: nextEnd }] },
      metadata: { user_id: renewing.id },
    });
    const invoice = (billingReason: string, id = 'in_renew_1') => ({
      id,
      object: 'invoice',
      billing_reason: billingReason,
      status: 'paid',
      amount_paid: 2900,
      currency: 'eur',
      parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_renew_1' } },
    });
    const renewalOrders = () => t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.userId, renewing.id));

    // The first invoice belongs to the checkout, which fulfils it: not a renewal.
    expect((await deliver(event('invoice.paid', invoice('subscription_create', 'in_first')))).statusCode).toBe(200);
    expect(await renewalOrders()).toHaveLength(0);

    const paid = event('invoice.paid', invoice('subscription_cycle'));
    const first = await deliver(paid);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ received: true, duplicate: false });
    expect((await deliver(paid)).json()).toMatchObject({ received: true, duplicate: true });
    // Another event about the same invoice (Stripe may send invoice.paid under a new event id) changes nothing.
    expect((await deliver(event('invoice.paid', invoice('subscription_cycle')))).statusCode).toBe(200);

    const orders = await renewalOrders();
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      kind: 'subscription',
      provider: 'stripe',
      providerSessionId: 'in_renew_1',
      status: 'completed',
      amountCents: 2900,
    });
    const [row] = await t.ctx.db.select().from(subscriptions).where(eq(subscriptions.userId, renewing.id));
    expect(row).toMatchObject({ status: 'active', currentPeriodEnd: new Date(nextEnd * 1000) });
    // The plan grants no monthly credits here: the renewal still shows in Transactions, as a zero row.
    const history = await api('GET', '/api/credits/history', renewing.token);
    const rows = (history.json() as { data: CreditHistory }).data.transactions.filter(
      (r) => r.source === 'subscription',
    );
    expect(rows).toEqual([
      expect.objectContaining({
        type: 'addition',
        amount: 0,
        balanceAfter: 7,
        description: 'GenPro Pro renewed (€29.00)',
      }),
    ]);
    expect(await creditsOf(t.ctx.db, renewing.id)).toBe(7);
  });
});
