import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayoutReply, PayoutsReply } from '../../../common/api/payouts.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { moneyTransactions } from '../../db/schema/index.ts';
import { creditMoney, moneyBalance } from '../../platform/money/ledger.ts';
import { authHeader, createTestUser, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { type FakeStripe, startFakeStripe } from '../payments/fake-stripe.ts';
import { signStripePayload } from '../payments/signature.ts';

const m = MESSAGES.payouts;
let t: TestApp;
let stripe: FakeStripe;
let admin: TestUser;

beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await createTestApp({
    env: { STRIPE_SECRET_KEY: 'sk_test_genpro', STRIPE_WEBHOOK_SECRET: 'whsec_x', STRIPE_API_BASE: stripe.baseUrl },
  });
  admin = await createTestUser(t.ctx.db, { role: 'admin' });
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

function api(method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) {
  return t.app.inject({ method, url, payload, headers: authHeader(token) });
}

/** A creator with €60 of earnings, a bank account and (unless null) a connected Stripe account. */
async function creator(stripeAccountId: string | null): Promise<TestUser> {
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
  if (stripeAccountId) {
    const res = await api('PUT', `/api/admin/creators/${user.id}/stripe-account`, admin.token, { stripeAccountId });
    expect(res.statusCode, res.body).toBe(200);
  }
  return user;
}

const transferRequests = () => stripe.requests.filter((r) => r.path === '/v1/transfers');

describe('payouts through Stripe Connect', () => {
  it('transfers to the connected account with one idempotency key per payout; it stays processing until the bank payout', async () => {
    stripe.connectedAccounts.add('acct_1Creator');
    const user = await creator('acct_1Creator');
    const overview = (await api('GET', '/api/creators/payouts', user.token)).json() as PayoutsReply;
    expect(overview.data.method).toBe('stripe');
    const before = transferRequests().length;
    const res = await api('POST', '/api/creators/payouts', user.token, { amount: 25.5 });
    expect(res.statusCode, res.body).toBe(201);
    const { data } = res.json() as PayoutReply;
    expect(data).toMatchObject({ status: 'processing', method: 'stripe', amountCents: 2_550 });
    expect(data.transferredAt).not.toBeNull();
    expect(data.reference).toMatch(/^tr_test_/);
    const sent = transferRequests().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].form).toMatchObject({
      amount: '2550',
      currency: 'eur',
      destination: 'acct_1Creator',
      transfer_group: `payout_${data.id}`,
      'metadata[payout_id]': data.id,
      'metadata[user_id]': user.id,
    });
    expect(sent[0].headers['idempotency-key']).toBe(`genpro-payout-${data.id}`);
    expect(stripe.transfers.get(data.reference ?? '')).toMatchObject({ amount: 2_550, destination: 'acct_1Creator' });
    expect(await moneyBalance(t.ctx.db, user.id, 'earnings')).toBe(3_450);
  });

  it('a transfer Stripe refuses ends the payout failed, with the money back in earnings and the reason shown', async () => {
    const user = await creator('acct_1Unknown');
    const res = await api('POST', '/api/creators/payouts', user.token, { amount: 20 });
    expect(res.statusCode, res.body).toBe(201);
    const { data } = res.json() as PayoutReply;
    expect(data).toMatchObject({ status: 'failed', failureReason: m.transferFailed });
    expect(await moneyBalance(t.ctx.db, user.id, 'earnings')).toBe(6_000);
    const rows = await t.ctx.db
      .select()
      .from(moneyTransactions)
      .where(and(eq(moneyTransactions.userId, user.id), eq(moneyTransactions.referenceId, data.id)));
    expect(rows.map((r) => `${r.type}:${r.source}`).sort()).toEqual(['credit:payout_return', 'debit:payout']);
    // A failed payout does not block the next one.
    stripe.connectedAccounts.add('acct_1Unknown');
    const next = (await api('POST', '/api/creators/payouts', user.token, { amount: 20 })).json().data;
    expect(next).toMatchObject({ status: 'processing', reference: expect.stringMatching(/^tr_test_/) });
  });

  it('an unanswered transfer stays processing (no refund) until an admin retries it with the same key', async () => {
    stripe.connectedAccounts.add('acct_1Outage');
    const user = await creator('acct_1Outage');
    stripe.failNext(10);
    const res = await api('POST', '/api/creators/payouts', user.token, { amount: 30 });
    expect(res.statusCode, res.body).toBe(201);
    const { data } = res.json() as PayoutReply;
    expect(data.status).toBe('processing');
    expect(await moneyBalance(t.ctx.db, user.id, 'earnings')).toBe(3_000);
    const blocked = await api('POST', '/api/creators/payouts', user.token, { amount: 10 });
    expect(blocked.statusCode).toBe(409);
    expect((await api('POST', `/api/creators/payouts/${data.id}/cancel`, user.token)).statusCode).toBe(409);
    expect(
      (await api('POST', `/api/admin/payouts/${data.id}/mark-failed`, admin.token, { reason: 'x' })).statusCode,
    ).toBe(409);
    stripe.failNext(0);
    const retry = await api('POST', `/api/admin/payouts/${data.id}/retry-transfer`, admin.token);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toMatchObject({
      message: m.transferSent,
      data: { status: 'processing', reference: expect.stringMatching(/^tr_test_/), stripeAccountId: 'acct_1Outage' },
    });
    const keys = transferRequests()
      .filter((r) => r.form['metadata[payout_id]'] === data.id)
      .map((r) => r.headers['idempotency-key']);
    expect(new Set(keys)).toEqual(new Set([`genpro-payout-${data.id}`]));
    expect(await moneyBalance(t.ctx.db, user.id, 'earnings')).toBe(3_000);
    expect((await api('POST', `/api/admin/payouts/${data.id}/retry-transfer`, admin.token)).statusCode).toBe(409);
  });

  it('a transfer reversed in full (signed transfer.reversed webhook) fails the payout and returns the money once', async () => {
    stripe.connectedAccounts.add('acct_1Reversed');
    const user = await creator('acct_1Reversed');
    const { data } = (await api('POST', '/api/creators/payouts', user.token, { amount: 40 })).json() as PayoutReply;
    expect(data.status).toBe('processing');
    const transfer = { ...stripe.transfers.get(data.reference ?? ''), amount_reversed: 4_000, reversed: true };
    const deliver = (eventId: string, object: object) => {
      const body = JSON.stringify({ id: eventId, object: 'event', type: 'transfer.reversed', data: { object } });
      return t.app.inject({
        method: 'POST',
        url: '/api/payment/webhook',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signStripePayload(body, 'whsec_x', Math.floor(Date.now() / 1000)),
        },
        payload: body,
      });
    };
    // A partial reversal changes nothing here (an admin settles it).
    const partial = await deliver(`evt_partial_${data.id}`, { ...transfer, amount_reversed: 1_000, reversed: false });
    expect(partial.statusCode, partial.body).toBe(200);
    expect(await moneyBalance(t.ctx.db, user.id, 'earnings')).toBe(2_000);
    for (const eventId of [`evt_full_${data.id}`, `evt_full_${data.id}`, `evt_again_${data.id}`]) {
      expect((await deliver(eventId, transfer)).statusCode).toBe(200);
    }
    expect(await moneyBalance(t.ctx.db, user.id, 'earnings')).toBe(6_000);
    const mine = (await api('GET', '/api/creators/payouts', user.token)).json() as PayoutsReply;
    expect(mine.data.payouts[0]).toMatchObject({ id: data.id, status: 'failed', failureReason: m.transferReversed });
  });

  it('a creator without a connected account is paid by hand even with Stripe configured', async () => {
    const user = await creator(null);
    const before = transferRequests().length;
    const res = await api('POST', '/api/creators/payouts', user.token, { amount: 20 });
    expect((res.json() as PayoutReply).data).toMatchObject({ status: 'pending', method: 'manual' });
    expect(transferRequests()).toHaveLength(before);
  });
});

describe('the fake validates transfers like Stripe', () => {
  async function post(form: Record<string, string>, key?: string) {
    const res = await fetch(`${stripe.baseUrl}/v1/transfers`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer sk_test_x',
        'content-type': 'application/x-www-form-urlencoded',
        ...(key ? { 'idempotency-key': key } : {}),
      },
      body: new URLSearchParams(form).toString(),
    });
    return { status: res.status, body: (await res.json()) as { error?: { message: string; param?: string } } };
  }

  it('refuses missing, unknown and malformed parameters and a reused key with other parameters', async () => {
    stripe.connectedAccounts.add('acct_1Fake');
    expect((await post({ currency: 'eur', destination: 'acct_1Fake' })).body.error?.param).toBe('amount');
    expect((await post({ amount: '0', currency: 'eur', destination: 'acct_1Fake' })).status).toBe(400);
    expect((await post({ amount: '10', currency: 'EUR', destination: 'acct_1Fake' })).body.error?.param).toBe(
      'currency',
    );
    expect(
      (await post({ amount: '10', currency: 'eur', destination: 'acct_1Fake', recipient: 'x' })).body.error?.message,
    ).toBe('Received unknown parameter: recipient');
    expect((await post({ amount: '10', currency: 'eur', destination: 'acct_nope' })).body.error?.message).toBe(
      "No such destination: 'acct_nope'",
    );
    const ok = await post({ amount: '10', currency: 'eur', destination: 'acct_1Fake' }, 'k1');
    expect(ok.status).toBe(200);
    expect((await post({ amount: '10', currency: 'eur', destination: 'acct_1Fake' }, 'k1')).body).toEqual(ok.body);
    expect((await post({ amount: '11', currency: 'eur', destination: 'acct_1Fake' }, 'k1')).status).toBe(400);
  });
});
