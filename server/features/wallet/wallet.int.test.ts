import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EarningsDto, WalletReply } from '../../../common/api/payments.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { creditMoney } from '../../platform/money/ledger.ts';
import { authHeader, createTestUser, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let brand: TestUser;
let creator: TestUser;
let admin: TestUser;

function api(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  return t.app.inject({ method, url, payload, headers: authHeader(token) });
}

/** Tops the wallet up through the local checkout: page, token, Pay. */
async function topUp(amount: number): Promise<string> {
  const res = await api('POST', '/api/brands/wallet/topup', brand.token, { amount });
  expect(res.statusCode, res.body).toBe(200);
  const { checkout_url: url, orderId } = res.json() as { checkout_url: string; orderId: string };
  const cookie = `genpro_session=${brand.token}`;
  const page = await t.app.inject({ method: 'GET', url, headers: { cookie } });
  expect(page.body).toContain(`€${amount.toFixed(2)}`);
  const token = page.body.match(/name="token" value="([0-9a-f]{64})"/)?.[1] ?? '';
  const done = await t.app.inject({
    method: 'POST',
    url: `/api/payment/local/${orderId}/complete`,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `token=${token}`,
  });
  expect(done.statusCode).toBe(303);
  expect(done.headers.location).toBe('/dashboard?wallet_topup=success');
  return orderId;
}

beforeAll(async () => {
  t = await createTestApp();
  brand = await createTestUser(t.ctx.db, { role: 'brand' });
  creator = await createTestUser(t.ctx.db, { role: 'creator' });
  admin = await createTestUser(t.ctx.db, { role: 'admin' });
});
afterAll(async () => {
  await t?.close();
});

describe('brand wallet', () => {
  it('starts empty, and top-ups add up in exact cents (10.10 + 1.20 = 11.30, not 11.299999…)', async () => {
    const empty = await api('GET', '/api/brands/wallet', brand.token);
    expect(empty.json()).toEqual({ success: true, wallet: { balance: 0, balanceCents: 0 }, transactions: [] });

    const first = await topUp(10.1);
    await topUp(1.2);
    const res = await api('GET', '/api/brands/wallet', brand.token);
    const body = res.json() as WalletReply;
    expect(10.1 + 1.2).not.toBe(11.3);
    expect(body.wallet).toEqual({ balance: 11.3, balanceCents: 1130 });
    expect(body.transactions).toHaveLength(2);
    expect(body.transactions.map((tx) => tx.balanceAfterCents).sort((a, b) => a - b)).toEqual([1010, 1130]);
    expect(body.transactions.find((tx) => tx.referenceId === first)).toMatchObject({
      type: 'credit',
      source: 'topup',
      amount: 10.1,
      amountCents: 1010,
    });
  });

  it('validates the amount: euros, 1 to 10000, at most 2 decimals', async () => {
    for (const [amount, message] of [
      [0.5, MESSAGES.payments.amountMin(1)],
      [10_000.01, MESSAGES.payments.amountMax(10_000)],
      [10.123, MESSAGES.payments.amountDecimals],
      ['ten', MESSAGES.payments.amountRequired],
    ] as const) {
      const res = await api('POST', '/api/brands/wallet/topup', brand.token, { amount });
      expect(res.statusCode, String(amount)).toBe(400);
      expect(res.json()).toMatchObject({ error: message });
    }
    expect((await api('POST', '/api/brands/wallet/topup', brand.token, { amount: 10_000 })).statusCode).toBe(200);
    const redirect = await api('POST', '/api/brands/wallet/topup', brand.token, {
      amount: 5,
      successUrl: 'https://evil.example/',
    });
    expect(redirect.statusCode).toBe(400);
  });

  it('is for brands only', async () => {
    for (const who of [creator, admin]) {
      const res = await api('GET', '/api/brands/wallet', who.token);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: MESSAGES.payments.brandOnly });
      expect((await api('POST', '/api/brands/wallet/topup', who.token, { amount: 5 })).statusCode).toBe(403);
    }
  });
});

describe('creator earnings', () => {
  it('reports the total in euros from integer cents', async () => {
    const empty = await api('GET', '/api/creators/earnings', creator.token);
    expect(empty.json()).toEqual({
      success: true,
      data: {
        totalEarnings: 0,
        totalEarningsCents: 0,
        earnedTotal: 0,
        earnedTotalCents: 0,
        pendingPayouts: 0,
        pendingPayoutsCents: 0,
        transactions: [],
      },
    });
    await creditMoney(t.ctx.db, {
      userId: creator.id,
      account: 'earnings',
      amountCents: 1010,
      source: 'collaboration_payout',
      referenceId: 'collab-1',
      description: 'Collaboration payout',
    });
    await creditMoney(t.ctx.db, {
      userId: creator.id,
      account: 'earnings',
      amountCents: 20,
      source: 'collaboration_payout',
      referenceId: 'collab-2',
      description: 'Collaboration payout',
    });
    const res = await api('GET', '/api/creators/earnings', creator.token);
    const data = (res.json() as { data: EarningsDto }).data;
    expect(data.totalEarnings).toBe(10.3);
    expect(data.totalEarningsCents).toBe(1030);
    expect(data.transactions).toHaveLength(2);
  });

  it('is for creators only', async () => {
    for (const who of [brand, admin]) {
      const res = await api('GET', '/api/creators/earnings', who.token);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: MESSAGES.payments.creatorOnly });
    }
  });
});
