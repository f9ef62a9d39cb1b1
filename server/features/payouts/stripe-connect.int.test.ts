import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ConnectOnboardingReply,
  ConnectStatusReply,
  PayoutReply,
  PayoutsReply,
} from '../../../common/api/payouts.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { creatorStripeAccounts, moneyTransactions } from '../../db/schema/index.ts';
import { creditMoney, moneyBalance } from '../../platform/money/ledger.ts';
import { authHeader, createTestUser, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { type FakeStripe, startFakeStripe } from '../payments/fake-stripe.ts';

const m = MESSAGES.payouts;
let t: TestApp;
let stripe: FakeStripe;

beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await createTestApp({
    env: {
      STRIPE_SECRET_KEY: 'sk_test_genpro',
      STRIPE_WEBHOOK_SECRET: 'whsec_platform',
      STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_connect',
      STRIPE_API_BASE: stripe.baseUrl,
      PUBLIC_URL: 'http://studio.test',
    },
  });
  // Connected-account events come signed with the Connect endpoint's secret, to the studio's webhook.
  stripe.useWebhook({
    secret: 'whsec_connect',
    deliver: async (body, signature) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/payment/webhook',
          headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
          payload: body,
        })
      ).statusCode,
  });
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

function api(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  return t.app.inject({ method, url, payload, headers: authHeader(token) });
}

/** A creator with €60 of earnings and a German bank account. */
async function creator(): Promise<TestUser> {
  const user = await createTestUser(t.ctx.db, { role: 'creator' });
  await creditMoney(t.ctx.db, {
    userId: user.id,
    account: 'earnings',
    amountCents: 6_000,
    source: 'collaboration_payout',
    referenceId: crypto.randomUUID(),
    description: 'Campaign completed',
  });
  const bank = await api('POST', '/api/creators/bank-accounts', user.token, {
    accountHolderName: 'Rana Haddad',
    iban: 'DE89370400440532013000',
  });
  expect(bank.statusCode).toBe(201);
  return user;
}

async function startOnboarding(user: TestUser) {
  const res = await api('POST', '/api/creators/stripe-connect/onboarding', user.token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as ConnectOnboardingReply).data;
}

/** The creator's browser on the fake's onboarding page: where Stripe sends them back. */
async function visit(url: string): Promise<string> {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return res.headers.get('location') ?? '';
}

async function onboarded(): Promise<{ user: TestUser; account: string }> {
  const user = await creator();
  const { url, stripeAccountId } = await startOnboarding(user);
  await visit(url);
  const back = await api('POST', '/api/creators/stripe-connect/refresh', user.token);
  expect((back.json() as ConnectStatusReply).data.account?.payoutsEnabled).toBe(true);
  return { user, account: stripeAccountId };
}

const requestsTo = (path: string) => stripe.requests.filter((r) => r.path === path);

describe('Stripe Connect onboarding from Settings', () => {
  it('creates the Express account once, sends the creator to an account link, and shows the status on return', async () => {
    const user = await creator();
    const before = (await api('GET', '/api/creators/stripe-connect', user.token)).json() as ConnectStatusReply;
    expect(before.data).toEqual({ studioMode: 'stripe', account: null });

    const accountsBefore = requestsTo('/v1/accounts').length;
    const first = await startOnboarding(user);
    const created = requestsTo('/v1/accounts').slice(accountsBefore);
    expect(created).toHaveLength(1);
    expect(created[0].form).toMatchObject({
      type: 'express',
      country: 'DE',
      email: user.email,
      'capabilities[transfers][requested]': 'true',
      'metadata[user_id]': user.id,
    });
    expect(created[0].headers['idempotency-key']).toBe(`genpro-connect-account-${user.id}`);
    const link = requestsTo('/v1/account_links').at(-1);
    expect(link?.form).toEqual({
      account: first.stripeAccountId,
      refresh_url: 'http://studio.test/dashboard?account=settings&stripe=refresh',
      return_url: 'http://studio.test/dashboard?account=settings&stripe=return',
      type: 'account_onboarding',
    });
    expect(first.url).toMatch(new RegExp(`^${stripe.baseUrl}/connect/onboarding/`));

    // Before onboarding is finished: Stripe's requirements are shown and payouts are held back.
    const pending = (
      await api('POST', '/api/creators/stripe-connect/refresh', user.token)
    ).json() as ConnectStatusReply;
    expect(pending.data.account).toMatchObject({
      stripeAccountId: first.stripeAccountId,
      chargesEnabled: false,
      payoutsEnabled: false,
      disabledReason: 'requirements.past_due',
      requirementsDue: expect.arrayContaining(['external_account']),
    });
    const overview = (await api('GET', '/api/creators/payouts', user.token)).json() as PayoutsReply;
    expect(overview.data).toMatchObject({ method: 'stripe', studioMode: 'stripe', blockedReason: m.connectIncomplete });
    const refused = await api('POST', '/api/creators/payouts', user.token, { amount: 20 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'connect_incomplete' });

    // Onboarding again reuses the account (no second POST /v1/accounts) with a new link.
    const again = await startOnboarding(user);
    expect(again.stripeAccountId).toBe(first.stripeAccountId);
    expect(again.url).not.toBe(first.url);
    expect(requestsTo('/v1/accounts').length).toBe(accountsBefore + 1);

    // The used or expired link sends the creator to refresh_url; the fresh one completes and returns.
    stripe.expireAccountLinks();
    expect(await visit(first.url)).toBe('http://studio.test/dashboard?account=settings&stripe=refresh');
    const third = await startOnboarding(user);
    expect(await visit(third.url)).toBe('http://studio.test/dashboard?account=settings&stripe=return');
    expect(await visit(third.url)).toBe('http://studio.test/dashboard?account=settings&stripe=refresh');

    const done = (await api('POST', '/api/creators/stripe-connect/refresh', user.token)).json() as ConnectStatusReply;
    expect(done.data.account).toMatchObject({
      chargesEnabled: true,
      payoutsEnabled: true,
      detailsSubmitted: true,
      requirementsDue: [],
      disabledReason: null,
    });
    expect(requestsTo(`/v1/accounts/${first.stripeAccountId}`).length).toBeGreaterThan(0);
    expect(((await api('GET', '/api/creators/payouts', user.token)).json() as PayoutsReply).data.blockedReason).toBe(
      null,
    );
  });

  it('account.updated (signed, on the connected account) keeps the stored status current', async () => {
    const { user, account } = await onboarded();
    const sent = await stripe.sendEvent(
      'account.updated',
      {
        ...stripe.accounts.get(account),
        payouts_enabled: false,
        requirements: { currently_due: ['individual.verification.document'], disabled_reason: 'requirements.past_due' },
      },
      account,
    );
    expect(sent.status).toBe(200);
    const shown = (await api('GET', '/api/creators/stripe-connect', user.token)).json() as ConnectStatusReply;
    expect(shown.data.account).toMatchObject({
      payoutsEnabled: false,
      requirementsDue: ['individual.verification.document'],
      disabledReason: 'requirements.past_due',
    });
    // An event with a wrong signature is refused and changes nothing.
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/payment/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload: JSON.stringify({ ...sent.event, id: 'evt_forged' }),
    });
    expect(forged.statusCode).toBe(400);
  });

  it('refuses brands, admins and signed-out users; one creator never sees another’s account', async () => {
    const brand = await createTestUser(t.ctx.db, { role: 'brand' });
    const admin = await createTestUser(t.ctx.db, { role: 'admin' });
    for (const who of [brand, admin]) {
      expect((await api('POST', '/api/creators/stripe-connect/onboarding', who.token)).statusCode).toBe(403);
      expect((await api('GET', '/api/creators/stripe-connect', who.token)).statusCode).toBe(403);
      expect((await api('POST', '/api/creators/stripe-connect/refresh', who.token)).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/creators/stripe-connect' })).statusCode).toBe(401);
    await onboarded();
    const other = await creator();
    const mine = (await api('GET', '/api/creators/stripe-connect', other.token)).json() as ConnectStatusReply;
    expect(mine.data.account).toBeNull();
    const refresh = await api('POST', '/api/creators/stripe-connect/refresh', other.token);
    expect(refresh.statusCode).toBe(409);
    expect(refresh.json()).toMatchObject({ code: 'connect_not_started' });
  });
});

describe('payouts followed through the connected account’s payout events', () => {
  it('payout.paid marks the transferred payout paid; a replay changes nothing', async () => {
    const { user, account } = await onboarded();
    const res = await api('POST', '/api/creators/payouts', user.token, { amount: 25 });
    const { data } = res.json() as PayoutReply;
    expect(data).toMatchObject({ status: 'processing', method: 'stripe' });
    expect(stripe.transfers.get(data.reference ?? '')).toMatchObject({ amount: 2_500, destination: account });

    // Another account's payout of the same amount, or an amount that does not match, is not ours.
    const other = await onboarded();
    expect((await stripe.payOut(other.account, 2_500)).status).toBe(200);
    expect((await stripe.payOut(account, 2_400)).status).toBe(200);
    let mine = (await api('GET', '/api/creators/payouts', user.token)).json() as PayoutsReply;
    expect(mine.data.payouts[0].status).toBe('processing');

    const paid = await stripe.payOut(account, 2_500);
    expect(paid.status).toBe(200);
    mine = (await api('GET', '/api/creators/payouts', user.token)).json() as PayoutsReply;
    expect(mine.data.payouts[0]).toMatchObject({ id: data.id, status: 'paid', paidAt: expect.any(String) });
    expect((await stripe.resend(paid.event)).status).toBe(200);
    expect(await moneyBalance(t.ctx.db, user.id, 'earnings')).toBe(3_500);
  });

  it('payout.failed fails it with Stripe’s reason and returns the money once, even after payout.paid; the transfer is reversed', async () => {
    const { user, account } = await onboarded();
    const { data } = (await api('POST', '/api/creators/payouts', user.token, { amount: 40 })).json() as PayoutReply;
    expect(await moneyBalance(t.ctx.db, user.id, 'earnings')).toBe(2_000);
    const paid = await stripe.payOut(account, 4_000);
    // Stripe may report a payout paid, then failed: the same po_ decides it.
    const object = { ...(paid.event.data as { object: Record<string, unknown> }).object };
    const failure = {
      ...object,
      status: 'failed',
      failure_code: 'account_closed',
      failure_message: 'The bank account has been closed.',
    };
    const failed = await stripe.sendEvent('payout.failed', failure, account);
    expect(failed.status).toBe(200);
    for (const replay of [failed.event, failed.event]) expect((await stripe.resend(replay)).status).toBe(200);
    // A second, distinct event for the same payout changes nothing either.
    expect((await stripe.sendEvent('payout.failed', failure, account)).status).toBe(200);

    const mine = (await api('GET', '/api/creators/payouts', user.token)).json() as PayoutsReply;
    expect(mine.data.payouts[0]).toMatchObject({
      id: data.id,
      status: 'failed',
      failureReason: 'The bank account has been closed.',
    });
    expect(await moneyBalance(t.ctx.db, user.id, 'earnings')).toBe(6_000);
    const rows = await t.ctx.db
      .select()
      .from(moneyTransactions)
      .where(and(eq(moneyTransactions.userId, user.id), eq(moneyTransactions.referenceId, data.id)));
    expect(rows.map((r) => `${r.type}:${r.source}`).sort()).toEqual(['credit:payout_return', 'debit:payout']);
    const reversals = stripe.reversals.get(data.reference ?? '') ?? [];
    expect(reversals).toHaveLength(1);
    expect(reversals[0]).toMatchObject({ amount: 4_000, metadata: { payout_id: data.id } });
    const reversalRequests = requestsTo(`/v1/transfers/${data.reference}/reversals`);
    expect(new Set(reversalRequests.map((r) => r.headers['idempotency-key']))).toEqual(
      new Set([`genpro-payout-reversal-${data.id}`]),
    );
    // Stripe's transfer.reversed that follows changes nothing more.
    await stripe.sendEvent('transfer.reversed', { ...stripe.transfers.get(data.reference ?? '') });
    expect(await moneyBalance(t.ctx.db, user.id, 'earnings')).toBe(6_000);
    // The creator can ask again.
    const next = await api('POST', '/api/creators/payouts', user.token, { amount: 10 });
    expect(next.statusCode, next.body).toBe(201);
  });

  it('a payout.failed with no failure message gives the studio’s reason', async () => {
    const { user, account } = await onboarded();
    const { data } = (await api('POST', '/api/creators/payouts', user.token, { amount: 15 })).json() as PayoutReply;
    await stripe.payOut(account, 1_500, { code: 'could_not_process', message: '' });
    const [row] = (await api('GET', '/api/creators/payouts', user.token)).json().data.payouts;
    expect(row).toMatchObject({ id: data.id, status: 'failed', failureReason: m.bankPayoutFailed });
    expect(await moneyBalance(t.ctx.db, user.id, 'earnings')).toBe(6_000);
    const [stored] = await t.ctx.db
      .select()
      .from(creatorStripeAccounts)
      .where(eq(creatorStripeAccounts.stripeAccountId, account));
    expect(stored.userId).toBe(user.id);
  });
});

describe('without Stripe', () => {
  it('the studio says payouts are paid by hand and onboarding is refused', async () => {
    const plain = await createTestApp();
    try {
      const user = await createTestUser(plain.ctx.db, { role: 'creator' });
      const status = await plain.app.inject({
        method: 'GET',
        url: '/api/creators/stripe-connect',
        headers: authHeader(user.token),
      });
      expect(status.json()).toEqual({ success: true, data: { studioMode: 'manual', account: null } });
      const start = await plain.app.inject({
        method: 'POST',
        url: '/api/creators/stripe-connect/onboarding',
        headers: authHeader(user.token),
      });
      expect(start.statusCode).toBe(409);
      expect(start.json()).toMatchObject({ code: 'connect_unavailable', error: m.connectUnavailable });
      const payouts = await plain.app.inject({
        method: 'GET',
        url: '/api/creators/payouts',
        headers: authHeader(user.token),
      });
      expect(payouts.json().data).toMatchObject({ method: 'manual', studioMode: 'manual' });
    } finally {
      await plain.close();
    }
  });
});

describe('the fake validates Connect requests like Stripe', () => {
  async function post(path: string, form: Record<string, string>) {
    const res = await fetch(`${stripe.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_x', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    return {
      status: res.status,
      body: (await res.json()) as { id?: string; error?: { message: string; param?: string; code?: string } },
    };
  }
  const express = { type: 'express', country: 'DE', 'capabilities[transfers][requested]': 'true' };

  it('refuses malformed accounts, account links, transfers to accounts not yet able to take them, and over-reversals', async () => {
    expect((await post('/v1/accounts', { ...express, recipient: 'x' })).body.error).toMatchObject({
      message: 'Received unknown parameter: recipient',
      code: 'parameter_unknown',
    });
    expect((await post('/v1/accounts', { ...express, type: 'premium' })).body.error?.param).toBe('type');
    expect((await post('/v1/accounts', { ...express, country: 'germany' })).body.error?.code).toBe(
      'country_unsupported',
    );
    expect((await post('/v1/accounts', { ...express, email: 'not-an-email' })).body.error?.param).toBe('email');
    expect((await post('/v1/accounts', { type: 'express', country: 'DE' })).body.error?.param).toBe('capabilities');
    const { status, body: account } = await post('/v1/accounts', express);
    expect(status).toBe(200);
    const id = account.id ?? '';

    const link = {
      account: id,
      type: 'account_onboarding',
      refresh_url: 'https://a.test/r',
      return_url: 'https://a.test/b',
    };
    expect((await post('/v1/account_links', { ...link, refresh_url: '' })).body.error?.param).toBe('refresh_url');
    expect((await post('/v1/account_links', { ...link, return_url: 'not a url' })).body.error?.code).toBe(
      'url_invalid',
    );
    expect((await post('/v1/account_links', { ...link, type: 'onboarding' })).body.error?.param).toBe('type');
    expect((await post('/v1/account_links', { ...link, account: 'acct_nope' })).body.error?.message).toBe(
      "No such account: 'acct_nope'",
    );
    const { account: _omit, ...noAccount } = link;
    expect((await post('/v1/account_links', noAccount)).body.error?.code).toBe('parameter_missing');
    expect((await post('/v1/account_links', link)).status).toBe(200);

    // Not onboarded: the transfers capability is inactive, so Stripe refuses the transfer.
    const refused = await post('/v1/transfers', { amount: '100', currency: 'eur', destination: id });
    expect(refused.status).toBe(400);
    expect(refused.body.error?.code).toBe('insufficient_capabilities_for_transfer');

    stripe.connectedAccounts.add('acct_1Reverse');
    const transfer = await post('/v1/transfers', { amount: '100', currency: 'eur', destination: 'acct_1Reverse' });
    const path = `/v1/transfers/${transfer.body.id}/reversals`;
    expect((await post(path, { amount: '150' })).body.error?.code).toBe('amount_too_large');
    expect((await post(path, { amount: '100' })).status).toBe(200);
    expect((await post(path, { amount: '1' })).body.error?.code).toBe('amount_too_large');
    expect((await post('/v1/transfers/tr_missing/reversals', {})).status).toBe(404);
    const unsigned = await fetch(`${stripe.baseUrl}/v1/accounts/${id}`);
    expect(unsigned.status).toBe(401);
  });
});
