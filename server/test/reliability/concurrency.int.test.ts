import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Application, Campaign, CreateCampaignBody } from '../../../common/api/campaigns.ts';
import type { CreditHistory } from '../../../common/api/payments.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { Db } from '../../db/client.ts';
import { creditTransactions, moneyTransactions, paymentOrders, tasks } from '../../db/schema/index.ts';
import { type FakeStripe, startFakeStripe } from '../../features/payments/fake-stripe.ts';
import { signStripePayload } from '../../features/payments/signature.ts';
import { addCredits } from '../../platform/credits/ledger.ts';
import { createTestUser, type TestUser } from '../fixtures.ts';
import { createTestApp, type TestApp } from '../harness.ts';

// Races a user can cause through HTTP: many spends at once, payment completions replayed, campaign
// budgets held in parallel, collaborations completed twice. Requests go over real sockets to a
// listening server, all in flight together. After each race the balance equals the sum of its ledger.

interface Reply {
  status: number;
  location: string | null;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of many routes, narrowed by the assertions.
  body: any;
}

/** A client of a listening studio. */
function client(baseUrl: string) {
  return async function call(
    method: string,
    url: string,
    options: {
      token?: string;
      json?: object;
      form?: Record<string, string>;
      cookie?: boolean;
      raw?: { body: string; headers: Record<string, string> };
    } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { ...options.raw?.headers };
    if (options.token && options.cookie) headers.cookie = `genpro_session=${options.token}`;
    else if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body = options.raw?.body;
    if (options.json) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    const res = await fetch(`${baseUrl}${url}`, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: res.status, location: res.headers.get('location'), body: parsed };
  };
}

async function listen(t: TestApp): Promise<ReturnType<typeof client>> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return client(`http://127.0.0.1:${port}`);
}

const times = <T>(n: number, make: (i: number) => Promise<T>): Promise<T[]> =>
  Promise.all(Array.from({ length: n }, (_, i) => make(i)));

function countBy(values: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

/** Credits: the balance and the sum of the ledger rows. */
async function creditLedger(db: Db, userId: string) {
  const rows = await db.select().from(creditTransactions).where(eq(creditTransactions.userId, userId));
  return { rows, sum: rows.reduce((n, r) => n + (r.type === 'addition' ? r.amount : -r.amount), 0) };
}

/** Money: the sum of one account's ledger rows, in cents. */
async function moneyLedger(db: Db, userId: string, account: 'wallet' | 'earnings') {
  const rows = await db
    .select()
    .from(moneyTransactions)
    .where(and(eq(moneyTransactions.userId, userId), eq(moneyTransactions.account, account)));
  return { rows, sum: rows.reduce((n, r) => n + (r.type === 'credit' ? r.amountCents : -r.amountCents), 0) };
}

describe('concurrency through HTTP (local checkout)', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;

  beforeAll(async () => {
    // No workers: the spent credits stay reserved on queued tasks while the race is checked.
    t = await createTestApp({ env: { RUN_WORKERS: 'false' } });
    call = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function creditBalance(user: TestUser): Promise<number> {
    const res = await call('GET', '/api/credits/history?limit=1', { token: user.token });
    expect(res.status).toBe(200);
    return (res.body.data as CreditHistory).balance;
  }

  async function walletCents(brand: TestUser): Promise<number> {
    const res = await call('GET', '/api/brands/wallet', { token: brand.token });
    expect(res.status).toBe(200);
    return res.body.wallet.balanceCents as number;
  }

  const spend = (user: TestUser, i: number) =>
    call('POST', '/api/ai/generate/video', {
      token: user.token,
      json: { prompt: `a paper boat on a river, take ${i}` },
    });

  /** Opens the local checkout page as the browser does and reads its form token. */
  async function checkoutToken(who: TestUser, url: string): Promise<string> {
    const page = await call('GET', url, { token: who.token, cookie: true });
    expect(page.status).toBe(200);
    const token = String(page.body).match(/name="token" value="([0-9a-f]{64})"/)?.[1];
    expect(token).toBeTruthy();
    return token as string;
  }

  async function walletTopUp(brand: TestUser, euros: number, replays = 1): Promise<void> {
    const started = await call('POST', '/api/brands/wallet/topup', { token: brand.token, json: { amount: euros } });
    expect(started.status).toBe(200);
    const { checkout_url: url, orderId } = started.body as { checkout_url: string; orderId: string };
    const token = await checkoutToken(brand, url);
    const done = await times(replays, () =>
      call('POST', `/api/payment/local/${orderId}/complete`, { token: brand.token, cookie: true, form: { token } }),
    );
    for (const res of done) expect(res.status).toBe(303);
  }

  it('100 parallel spends against a balance for 60: exactly 60 succeed, 40 get 402, never negative', async () => {
    // The price of one request, measured on a user of its own.
    const probe = await createTestUser(t.ctx.db);
    await addCredits(t.ctx.db, { userId: probe.id, amount: 10_000, source: 'admin', description: 'probe' });
    expect((await spend(probe, 0)).status).toBe(200);
    const price = 10_000 - (await creditBalance(probe));
    expect(price).toBeGreaterThan(0);

    const user = await createTestUser(t.ctx.db);
    await addCredits(t.ctx.db, { userId: user.id, amount: 60 * price, source: 'admin', description: 'grant' });
    const results = await times(100, (i) => spend(user, i));

    expect(countBy(results.map((r) => r.status))).toEqual({ 200: 60, 402: 40 });
    for (const refused of results.filter((r) => r.status === 402)) {
      expect(refused.body).toMatchObject({ success: false, error: MESSAGES.credits.insufficient });
    }
    expect(await creditBalance(user)).toBe(0);
    const { rows, sum } = await creditLedger(t.ctx.db, user.id);
    expect(sum).toBe(0);
    const deductions = rows.filter((r) => r.type === 'deduction');
    expect(deductions).toHaveLength(60);
    // Each spend saw its own balance: 59 × price … 0, none below zero.
    expect(deductions.map((r) => r.balanceAfter).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 60 }, (_, i) => i * price),
    );
    // Every accepted spend is a task holding exactly what was taken; no task for a refused one.
    const queued = await t.ctx.db.select().from(tasks).where(eq(tasks.userId, user.id));
    expect(queued).toHaveLength(60);
    expect(new Set(queued.map((task) => task.id))).toEqual(new Set(deductions.map((r) => r.taskId)));
    expect(queued.every((task) => task.creditsReserved === price)).toBe(true);
  });

  it('a credit top-up completed 10 times at once grants once', async () => {
    const user = await createTestUser(t.ctx.db);
    const started = await call('POST', '/api/payment/topup', {
      token: user.token,
      json: { topupId: 'creator', successUrl: '/dashboard?topup=success', cancelUrl: '/dashboard?topup=cancelled' },
    });
    expect(started.status).toBe(200);
    const { url, orderId } = started.body as { url: string; orderId: string };
    const token = await checkoutToken(user, url);
    const done = await times(10, () =>
      call('POST', `/api/payment/local/${orderId}/complete`, { token: user.token, cookie: true, form: { token } }),
    );
    expect(done.map((r) => `${r.status} ${r.location}`)).toEqual(Array(10).fill('303 /dashboard?topup=success'));
    expect(await creditBalance(user)).toBe(300);
    const { rows, sum } = await creditLedger(t.ctx.db, user.id);
    expect(rows.map((r) => `${r.type}:${r.source}:${r.amount}`)).toEqual(['addition:purchase:300']);
    expect(sum).toBe(300);
  });

  it('Pay and Cancel racing on one checkout settle it one way: paid with one grant, or cancelled with none', async () => {
    const user = await createTestUser(t.ctx.db);
    const started = await call('POST', '/api/payment/topup', {
      token: user.token,
      json: { topupId: 'starter', successUrl: '/dashboard?topup=success', cancelUrl: '/dashboard?topup=cancelled' },
    });
    const { url, orderId } = started.body as { url: string; orderId: string };
    const token = await checkoutToken(user, url);
    const results = await times(10, (i) =>
      call('POST', `/api/payment/local/${orderId}/${i % 2 === 0 ? 'complete' : 'cancel'}`, {
        token: user.token,
        cookie: true,
        form: { token },
      }),
    );
    const [order] = await t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
    const { rows, sum } = await creditLedger(t.ctx.db, user.id);
    if (order?.status === 'completed') {
      expect(rows.map((r) => `${r.type}:${r.source}:${r.amount}`)).toEqual(['addition:purchase:100']);
    } else {
      expect(order?.status).toBe('cancelled');
      expect(rows).toEqual([]);
    }
    expect(await creditBalance(user)).toBe(sum);
    // Whoever lost the race is told the order is closed, never a server error.
    for (const res of results) expect([303, 409]).toContain(res.status);
  });

  it('a wallet top-up completed 10 times at once credits once', async () => {
    const brand = await createTestUser(t.ctx.db, { role: 'brand' });
    await walletTopUp(brand, 12.34, 10);
    expect(await walletCents(brand)).toBe(1234);
    const { rows, sum } = await moneyLedger(t.ctx.db, brand.id, 'wallet');
    expect(rows.map((r) => `${r.type}:${r.source}:${r.amountCents}`)).toEqual(['credit:topup:1234']);
    expect(sum).toBe(1234);
  });

  const campaign = (budget: number, status?: 'draft'): CreateCampaignBody => ({
    title: `Campaign ${budget}`,
    description: 'Our new running shoe',
    objective: 'Awareness for the spring running shoe',
    budget,
    platforms: ['instagram'],
    contentTypes: ['video'],
    deliverables: [{ type: 'Instagram reels', quantity: 1, platform: 'instagram', contentType: 'video' }],
    ...(status ? { status } : {}),
  });

  it('campaigns opened in parallel never hold more than the wallet has', async () => {
    const brand = await createTestUser(t.ctx.db, { role: 'brand' });
    await walletTopUp(brand, 100);
    const budgets = [30, 25, 20, 15, 40, 35, 10, 50, 45, 5, 60, 1];
    const results = await times(budgets.length, (i) =>
      call('POST', '/api/campaigns', { token: brand.token, json: campaign(budgets[i] as number) }),
    );
    const accepted = budgets.filter((_, i) => results[i]?.status === 200);
    const refused = budgets.filter((_, i) => results[i]?.status === 402);
    expect(accepted.length + refused.length).toBe(budgets.length);
    expect(accepted.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of results.filter((x) => x.status === 402)) expect(r.body.error).toMatch(/^Insufficient funds\./);

    const held = accepted.reduce((n, b) => n + b * 100, 0);
    const wallet = await walletCents(brand);
    expect(held).toBeLessThanOrEqual(10_000);
    expect(wallet).toBe(10_000 - held);
    expect(wallet).toBeGreaterThanOrEqual(0);
    // A refused budget did not fit what was left then, and the wallet only shrank since.
    for (const budget of refused) expect(budget * 100).toBeGreaterThan(wallet);
    expect((await moneyLedger(t.ctx.db, brand.id, 'wallet')).sum).toBe(wallet);
    const mine = await call('GET', '/api/campaigns?view=my', { token: brand.token });
    const open = (mine.body.data as Campaign[]).filter((c) => c.status === 'open');
    expect(open.map((c) => c.heldCents ?? 0).sort((a, b) => a - b)).toEqual(
      accepted.map((b) => b * 100).sort((a, b) => a - b),
    );
  });

  it('a draft opened 10 times at once holds its budget once', async () => {
    const brand = await createTestUser(t.ctx.db, { role: 'brand' });
    await walletTopUp(brand, 100);
    const draft = await call('POST', '/api/campaigns', { token: brand.token, json: campaign(40, 'draft') });
    expect(draft.status).toBe(200);
    const id = (draft.body.data as Campaign).id;
    const opened = await times(10, () =>
      call('PATCH', `/api/campaigns/${id}`, { token: brand.token, json: { status: 'open' } }),
    );
    // The first to lock the draft opens it; the others find it open already.
    expect(opened.map((r) => `${r.status}:${r.body.data?.status}:${r.body.data?.heldCents}`)).toEqual(
      Array(10).fill('200:open:4000'),
    );
    expect(await walletCents(brand)).toBe(6000);
    const { rows, sum } = await moneyLedger(t.ctx.db, brand.id, 'wallet');
    expect(rows.filter((r) => r.source === 'campaign_hold').map((r) => r.amountCents)).toEqual([4000]);
    expect(sum).toBe(6000);
  });

  it('collaborations completed 5 times each, all at once, pay each creator once', async () => {
    const brand = await createTestUser(t.ctx.db, { role: 'brand' });
    await walletTopUp(brand, 300);
    const created = await call('POST', '/api/campaigns', { token: brand.token, json: campaign(250) });
    const campaignId = (created.body.data as Campaign).id;
    const rates = [40, 55, 70];
    const creators: TestUser[] = [];
    const collaborations: string[] = [];
    for (const rate of rates) {
      const creator = await createTestUser(t.ctx.db, { role: 'creator' });
      creators.push(creator);
      const applied = await call('POST', `/api/campaigns/${campaignId}/applications`, {
        token: creator.token,
        json: { message: 'I would love to', rate },
      });
      expect(applied.status).toBe(200);
      const accepted = await call('POST', `/api/applications/${(applied.body.data as Application).id}/accept`, {
        token: brand.token,
      });
      expect(accepted.status).toBe(200);
      collaborations.push((accepted.body.data as Application).collaboration_id as string);
    }

    const completions = await Promise.all(
      collaborations.flatMap((id) =>
        Array.from({ length: 5 }, () => call('POST', `/api/collaborations/${id}/complete`, { token: brand.token })),
      ),
    );
    expect(completions.map((r) => r.status)).toEqual(Array(15).fill(200));
    expect(completions.filter((r) => r.body.data.paid === true)).toHaveLength(3);

    for (const [i, creator] of creators.entries()) {
      const { rows, sum } = await moneyLedger(t.ctx.db, creator.id, 'earnings');
      expect(rows.map((r) => `${r.source}:${r.amountCents}`)).toEqual([
        `collaboration_payout:${(rates[i] ?? 0) * 100}`,
      ]);
      const earnings = await call('GET', '/api/creators/earnings', { token: creator.token });
      expect(earnings.body.data.totalEarnings).toBe(rates[i]);
      expect(sum).toBe((rates[i] ?? 0) * 100);
    }
    // Completing the campaign returns what no collaboration was paid: hold = payouts + release.
    const done = await call('PATCH', `/api/campaigns/${campaignId}`, {
      token: brand.token,
      json: { status: 'completed' },
    });
    expect(done.status).toBe(200);
    const paid = rates.reduce((n, r) => n + r * 100, 0);
    expect(await walletCents(brand)).toBe(30_000 - paid);
    expect((await moneyLedger(t.ctx.db, brand.id, 'wallet')).sum).toBe(30_000 - paid);
  });
});

describe('concurrency through HTTP (Stripe webhooks)', () => {
  const SECRET = 'whsec_concurrency';
  let t: TestApp;
  let stripe: FakeStripe;
  let call: ReturnType<typeof client>;
  let events = 0;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    t = await createTestApp({
      env: {
        RUN_WORKERS: 'false',
        STRIPE_SECRET_KEY: 'sk_test_concurrency',
        STRIPE_WEBHOOK_SECRET: SECRET,
        STRIPE_API_BASE: stripe.baseUrl,
      },
    });
    call = await listen(t);
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  /** Posts an event as Stripe does: the raw JSON with its Stripe-Signature header. */
  function deliver(event: object): Promise<Reply> {
    const body = JSON.stringify(event);
    const signature = signStripePayload(body, SECRET, Math.floor(Date.now() / 1000));
    return call('POST', '/api/payment/webhook', {
      raw: { body, headers: { 'content-type': 'application/json', 'stripe-signature': signature } },
    });
  }

  async function paidEvent(orderId: string, type = 'checkout.session.completed') {
    const [order] = await t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
    expect(order?.providerSessionId).toBeTruthy();
    events += 1;
    return {
      id: `evt_concurrency_${events}`,
      object: 'event',
      type,
      data: {
        object: {
          id: order?.providerSessionId,
          object: 'checkout.session',
          mode: 'payment',
          client_reference_id: orderId,
          payment_status: 'paid',
          status: 'complete',
        },
      },
    };
  }

  /** The same event 10 times at once, then 5 more completion events of the same session at once. */
  async function replayCompletion(orderId: string): Promise<void> {
    const event = await paidEvent(orderId);
    const replays = await times(10, () => deliver(event));
    expect(replays.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(replays.filter((r) => r.body.duplicate === false)).toHaveLength(1);
    const others = await Promise.all([
      ...Array.from({ length: 3 }, async () => deliver(await paidEvent(orderId))),
      ...Array.from({ length: 2 }, async () =>
        deliver(await paidEvent(orderId, 'checkout.session.async_payment_succeeded')),
      ),
    ]);
    expect(others.map((r) => r.status)).toEqual(Array(5).fill(200));
    const [order] = await t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
    expect(order?.status).toBe('completed');
  }

  it('a credit top-up whose completion is delivered 10 times at once (and by other events) grants once', async () => {
    const user = await createTestUser(t.ctx.db);
    const started = await call('POST', '/api/payment/topup', {
      token: user.token,
      json: { topupId: 'creator', successUrl: '/dashboard?topup=success', cancelUrl: '/dashboard?topup=cancelled' },
    });
    expect(started.status).toBe(200);
    await replayCompletion(started.body.orderId as string);
    const history = await call('GET', '/api/credits/history', { token: user.token });
    expect((history.body.data as CreditHistory).balance).toBe(300);
    const { rows, sum } = await creditLedger(t.ctx.db, user.id);
    expect(rows.map((r) => `${r.type}:${r.source}:${r.amount}`)).toEqual(['addition:purchase:300']);
    expect(sum).toBe(300);
  });

  it('a wallet top-up whose completion is delivered 10 times at once credits once', async () => {
    const brand = await createTestUser(t.ctx.db, { role: 'brand' });
    const started = await call('POST', '/api/brands/wallet/topup', { token: brand.token, json: { amount: 250.5 } });
    expect(started.status).toBe(200);
    await replayCompletion(started.body.orderId as string);
    const wallet = await call('GET', '/api/brands/wallet', { token: brand.token });
    expect(wallet.body.wallet.balanceCents).toBe(25_050);
    const { rows, sum } = await moneyLedger(t.ctx.db, brand.id, 'wallet');
    expect(rows.map((r) => `${r.type}:${r.source}:${r.amountCents}`)).toEqual(['credit:topup:25050']);
    expect(sum).toBe(25_050);
  });
});
