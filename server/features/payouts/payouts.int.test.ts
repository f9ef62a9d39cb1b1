import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditLogReply } from '../../../common/api/admin.ts';
import type { EarningsDto } from '../../../common/api/payments.ts';
import type { AdminPayoutsReply, PayoutReply, PayoutsReply } from '../../../common/api/payouts.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { moneyTransactions, payouts } from '../../db/schema/index.ts';
import { creditMoney, moneyBalance } from '../../platform/money/ledger.ts';
import { authHeader, createTestUser, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

const m = MESSAGES.payouts;
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createTestUser(t.ctx.db, { role: 'admin' });
});
afterAll(async () => {
  await t?.close();
});

function api(method: 'GET' | 'POST', url: string, token: string, payload?: object, headers: object = {}) {
  return t.app.inject({ method, url, payload, headers: { ...authHeader(token), ...headers } });
}

async function addBankAccount(user: TestUser, iban = 'DE89370400440532013000') {
  const res = await api('POST', '/api/creators/bank-accounts', user.token, {
    accountHolderName: 'Rana Haddad',
    iban,
    bankName: 'Commerzbank',
  });
  expect(res.statusCode, res.body).toBe(201);
}

/** A creator with `earningsCents` of earnings (a collaboration payout row) and, unless told, a bank account. */
async function creatorWith(earningsCents: number, options: { bank?: boolean } = {}): Promise<TestUser> {
  const creator = await createTestUser(t.ctx.db, { role: 'creator' });
  if (earningsCents > 0) {
    await creditMoney(t.ctx.db, {
      userId: creator.id,
      account: 'earnings',
      amountCents: earningsCents,
      source: 'collaboration_payout',
      referenceId: crypto.randomUUID(),
      description: 'Campaign completed',
    });
  }
  if (options.bank !== false) await addBankAccount(creator);
  return creator;
}

const request = (user: TestUser, amount: unknown, headers: object = {}) =>
  api('POST', '/api/creators/payouts', user.token, { amount }, headers);

async function overview(user: TestUser) {
  const res = await api('GET', '/api/creators/payouts', user.token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as PayoutsReply).data;
}

async function ledger(userId: string) {
  const rows = await t.ctx.db
    .select()
    .from(moneyTransactions)
    .where(and(eq(moneyTransactions.userId, userId), eq(moneyTransactions.account, 'earnings')));
  return rows.map((r) => `${r.type}:${r.source}:${r.amountCents}:${r.referenceId === null ? '-' : 'ref'}`).sort();
}

describe('requesting a payout', () => {
  it('debits earnings and opens a pending manual payout to the primary bank account, in one ledger row', async () => {
    const creator = await creatorWith(12_345);
    const res = await request(creator, 100.45);
    expect(res.statusCode, res.body).toBe(201);
    const { data, message } = res.json() as PayoutReply;
    expect(message).toBe(m.requested);
    expect(data).toMatchObject({
      amount: 100.45,
      amountCents: 10_045,
      status: 'pending',
      method: 'manual',
      currency: 'eur',
      destination: { accountHolderName: 'Rana Haddad', iban: 'DE** **** **** **** **30 00', ibanLast4: '3000' },
    });
    expect(await moneyBalance(t.ctx.db, creator.id, 'earnings')).toBe(2_300);
    const [tx] = await t.ctx.db
      .select()
      .from(moneyTransactions)
      .where(and(eq(moneyTransactions.userId, creator.id), eq(moneyTransactions.source, 'payout')));
    expect(tx).toMatchObject({ type: 'debit', amountCents: 10_045, balanceAfterCents: 2_300, referenceId: data.id });
    const view = await overview(creator);
    expect(view).toMatchObject({ availableEarningsCents: 2_300, blockedReason: m.onePending, method: 'manual' });
    expect(view.payouts.map((p) => p.id)).toEqual([data.id]);
  });

  it('refuses brands and admins with 403, and answers 401 without a session', async () => {
    const brand = await createTestUser(t.ctx.db, { role: 'brand' });
    const res = await request(brand, 20);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe(m.creatorOnly);
    expect((await api('GET', '/api/creators/payouts', admin.token)).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/creators/payouts', payload: { amount: 20 } })).statusCode,
    ).toBe(401);
  });

  it('asks for a bank account first (400) and says so in the overview', async () => {
    const creator = await creatorWith(5_000, { bank: false });
    expect((await overview(creator)).blockedReason).toBe(m.noPrimaryBankAccount);
    const res = await request(creator, 20);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'no_bank_account', error: m.noPrimaryBankAccount });
    expect(await moneyBalance(t.ctx.db, creator.id, 'earnings')).toBe(5_000);
  });

  it('refuses amounts that are zero, negative, below the minimum, with 3 decimals or above the earnings', async () => {
    const creator = await creatorWith(5_000);
    const cases: [unknown, string][] = [
      [0, MESSAGES.payments.amountMin(10)],
      [-5, MESSAGES.payments.amountMin(10)],
      [9.99, MESSAGES.payments.amountMin(10)],
      [10.001, MESSAGES.payments.amountDecimals],
      ['ten', MESSAGES.payments.amountRequired],
    ];
    for (const [amount, error] of cases) {
      const res = await request(creator, amount);
      expect(res.statusCode, `${amount}`).toBe(400);
      expect(res.json().error, `${amount}`).toBe(error);
    }
    const above = await request(creator, 50.01);
    expect(above.statusCode).toBe(400);
    expect(above.json()).toMatchObject({
      code: 'above_earnings',
      error: m.aboveEarnings,
      details: { requestedCents: 5_001, availableCents: 5_000 },
    });
    expect(await ledger(creator.id)).toEqual(['credit:collaboration_payout:5000:ref']);
    // Exactly the whole balance is fine.
    expect((await request(creator, 50)).statusCode).toBe(201);
    expect(await moneyBalance(t.ctx.db, creator.id, 'earnings')).toBe(0);
  });

  it('says when earnings are below the minimum payout', async () => {
    const creator = await creatorWith(999);
    expect((await overview(creator)).blockedReason).toBe(m.belowMinimum);
  });

  it('allows one payout at a time (409) and a new one once the first has ended', async () => {
    const creator = await creatorWith(10_000);
    const first = (await request(creator, 20)).json() as PayoutReply;
    const second = await request(creator, 20);
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toBe(m.onePending);
    expect(await moneyBalance(t.ctx.db, creator.id, 'earnings')).toBe(8_000);
    expect((await api('POST', `/api/creators/payouts/${first.data.id}/cancel`, creator.token)).statusCode).toBe(200);
    expect((await request(creator, 20)).statusCode).toBe(201);
  });

  it('pays a balance only once when two requests arrive together', async () => {
    const creator = await creatorWith(3_000);
    const results = await Promise.all([request(creator, 30), request(creator, 30), request(creator, 25)]);
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 201 || c === 409 || c === 400)).toHaveLength(3);
    const rows = await t.ctx.db.select().from(payouts).where(eq(payouts.userId, creator.id));
    expect(rows).toHaveLength(1);
    expect(await moneyBalance(t.ctx.db, creator.id, 'earnings')).toBe(3_000 - rows[0].amountCents);
    expect((await ledger(creator.id)).filter((r) => r.startsWith('debit:payout'))).toHaveLength(1);
  });

  it('answers a retried request with the same Idempotency-Key with the first payout (200), debiting once', async () => {
    const creator = await creatorWith(4_000);
    const key = { 'idempotency-key': `key-${crypto.randomUUID()}` };
    const first = await request(creator, 15, key);
    expect(first.statusCode).toBe(201);
    const again = await request(creator, 15, key);
    expect(again.statusCode).toBe(200);
    expect((again.json() as PayoutReply).data.id).toBe((first.json() as PayoutReply).data.id);
    expect(await moneyBalance(t.ctx.db, creator.id, 'earnings')).toBe(2_500);
  });

  it('keeps paying the account it was asked for when the bank account is deleted afterwards', async () => {
    const creator = await creatorWith(4_000);
    const { data } = (await request(creator, 15)).json() as PayoutReply;
    const accounts = await api('GET', '/api/creators/bank-accounts', creator.token);
    const accountId = accounts.json().data[0].id as string;
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/creators/bank-accounts?id=${accountId}`,
      headers: authHeader(creator.token),
    });
    expect(del.statusCode, del.body).toBe(200);
    const list = await api('GET', '/api/admin/payouts?status=pending&limit=100', admin.token);
    const mine = (list.json() as AdminPayoutsReply).data.find((p) => p.id === data.id);
    expect(mine).toMatchObject({ fullIban: 'DE89370400440532013000', destination: { ibanLast4: '3000' } });
  });
});

describe('the earnings figures', () => {
  async function figures(user: TestUser) {
    const res = await api('GET', '/api/creators/earnings', user.token);
    expect(res.statusCode, res.body).toBe(200);
    const { earnedTotal, totalEarnings, pendingPayouts } = (res.json() as { data: EarningsDto }).data;
    return { earned: earnedTotal, available: totalEarnings, pending: pendingPayouts };
  }

  it('keep what was earned while a payout moves from available to pending, then out (paid) or back (cancelled)', async () => {
    const creator = await creatorWith(12_000);
    expect(await figures(creator)).toEqual({ earned: 120, available: 120, pending: 0 });
    const { data } = (await request(creator, 50)).json() as PayoutReply;
    expect(await figures(creator)).toEqual({ earned: 120, available: 70, pending: 50 });
    await api('POST', `/api/admin/payouts/${data.id}/mark-paid`, admin.token, { reference: 'SEPA-7' });
    expect(await figures(creator)).toEqual({ earned: 120, available: 70, pending: 0 });

    const second = (await request(creator, 30)).json() as PayoutReply;
    expect(await figures(creator)).toEqual({ earned: 120, available: 40, pending: 30 });
    await api('POST', `/api/creators/payouts/${second.data.id}/cancel`, creator.token);
    // The returned amount is available again, not earned a second time.
    expect(await figures(creator)).toEqual({ earned: 120, available: 70, pending: 0 });
  });
});

describe('cancelling a payout', () => {
  it('returns a pending payout’s amount to earnings with a payout_return credit, once', async () => {
    const creator = await creatorWith(6_000);
    const { data } = (await request(creator, 40)).json() as PayoutReply;
    const res = await api('POST', `/api/creators/payouts/${data.id}/cancel`, creator.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: m.cancelled, data: { status: 'cancelled' } });
    expect((res.json() as PayoutReply).data.cancelledAt).not.toBeNull();
    expect(await moneyBalance(t.ctx.db, creator.id, 'earnings')).toBe(6_000);
    const again = await api('POST', `/api/creators/payouts/${data.id}/cancel`, creator.token);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(m.notCancellable);
    expect(await ledger(creator.id)).toEqual([
      'credit:collaboration_payout:6000:ref',
      'credit:payout_return:4000:ref',
      'debit:payout:4000:ref',
    ]);
  });

  it('answers 404 for another creator’s payout and for an unknown one', async () => {
    const owner = await creatorWith(6_000);
    const other = await creatorWith(0);
    const { data } = (await request(owner, 40)).json() as PayoutReply;
    expect((await api('POST', `/api/creators/payouts/${data.id}/cancel`, other.token)).statusCode).toBe(404);
    expect((await api('POST', `/api/creators/payouts/${crypto.randomUUID()}/cancel`, owner.token)).statusCode).toBe(
      404,
    );
    expect((await overview(other)).payouts).toEqual([]);
    expect(await moneyBalance(t.ctx.db, owner.id, 'earnings')).toBe(2_000);
  });

  it('cannot cancel a payout an admin has already marked paid', async () => {
    const creator = await creatorWith(6_000);
    const { data } = (await request(creator, 40)).json() as PayoutReply;
    await api('POST', `/api/admin/payouts/${data.id}/mark-paid`, admin.token, { reference: 'SEPA-1' });
    expect((await api('POST', `/api/creators/payouts/${data.id}/cancel`, creator.token)).statusCode).toBe(409);
    expect(await moneyBalance(t.ctx.db, creator.id, 'earnings')).toBe(2_000);
  });
});

describe('admin payouts', () => {
  it('lists payouts with the full bank details, filtered by status; others get 403', async () => {
    const creator = await creatorWith(6_000);
    const { data } = (await request(creator, 40)).json() as PayoutReply;
    const res = await api('GET', '/api/admin/payouts?status=pending&limit=100', admin.token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as AdminPayoutsReply;
    expect(body.data.every((p) => p.status === 'pending')).toBe(true);
    expect(body.data.find((p) => p.id === data.id)).toMatchObject({
      creator: { id: creator.id, email: creator.email, name: 'Test User' },
      fullIban: 'DE89370400440532013000',
      amountCents: 4_000,
    });
    const paid = (await api('GET', '/api/admin/payouts?status=paid', admin.token)).json() as AdminPayoutsReply;
    expect(paid.data.some((p) => p.id === data.id)).toBe(false);
    for (const url of ['/api/admin/payouts', `/api/admin/payouts/${data.id}/mark-paid`]) {
      const method = url.endsWith('mark-paid') ? 'POST' : 'GET';
      const res403 = await api(method, url, creator.token, method === 'POST' ? { reference: 'x' } : undefined);
      expect(res403.statusCode, url).toBe(403);
    }
    expect(await moneyBalance(t.ctx.db, creator.id, 'earnings')).toBe(2_000);
  });

  it('marks a pending payout paid with its reference, audited; the creator sees it paid', async () => {
    const creator = await creatorWith(6_000);
    const { data } = (await request(creator, 40)).json() as PayoutReply;
    const missing = await api('POST', `/api/admin/payouts/${data.id}/mark-paid`, admin.token, { reference: '  ' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe(m.referenceRequired);
    const res = await api('POST', `/api/admin/payouts/${data.id}/mark-paid`, admin.token, {
      reference: 'SEPA-2026-11',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: m.markedPaid, data: { status: 'paid', reference: 'SEPA-2026-11' } });
    const mine = (await overview(creator)).payouts[0];
    expect(mine).toMatchObject({ status: 'paid', reference: 'SEPA-2026-11' });
    expect(mine.paidAt).not.toBeNull();
    expect(await moneyBalance(t.ctx.db, creator.id, 'earnings')).toBe(2_000);
    const twice = await api('POST', `/api/admin/payouts/${data.id}/mark-failed`, admin.token, { reason: 'x' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe(m.notManualPending);
    const log = (await api('GET', '/api/admin/audit-log?limit=100', admin.token)).json() as AuditLogReply;
    expect(log.data.find((e) => e.target_id === data.id)).toMatchObject({
      action: 'payout.mark_paid',
      target_type: 'payout',
      admin_email: admin.email,
      details: { reference: 'SEPA-2026-11', amountCents: 4_000, email: creator.email },
    });
  });

  it('marks a pending payout failed: the money returns to earnings, ledgered, and the reason is shown', async () => {
    const creator = await creatorWith(6_000);
    const { data } = (await request(creator, 40)).json() as PayoutReply;
    const res = await api('POST', `/api/admin/payouts/${data.id}/mark-failed`, admin.token, {
      reason: 'The bank returned the transfer: account closed',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: m.markedFailed, data: { status: 'failed' } });
    expect(await moneyBalance(t.ctx.db, creator.id, 'earnings')).toBe(6_000);
    expect(await ledger(creator.id)).toContain('credit:payout_return:4000:ref');
    const mine = (await overview(creator)).payouts[0];
    expect(mine).toMatchObject({ status: 'failed', failureReason: 'The bank returned the transfer: account closed' });
    const log = (await api('GET', '/api/admin/audit-log?limit=100', admin.token)).json() as AuditLogReply;
    expect(log.data.find((e) => e.target_id === data.id)?.action).toBe('payout.mark_failed');
    expect(
      (await api('POST', `/api/admin/payouts/${crypto.randomUUID()}/mark-paid`, admin.token, { reference: 'x' }))
        .statusCode,
    ).toBe(404);
  });

  it('two admins deciding the same payout at once: one wins, the money moves once', async () => {
    const creator = await creatorWith(6_000);
    const { data } = (await request(creator, 40)).json() as PayoutReply;
    const other = await createTestUser(t.ctx.db, { role: 'admin' });
    const [a, b] = await Promise.all([
      api('POST', `/api/admin/payouts/${data.id}/mark-failed`, admin.token, { reason: 'Bounced' }),
      api('POST', `/api/admin/payouts/${data.id}/mark-paid`, other.token, { reference: 'SEPA-X' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const [row] = await t.ctx.db.select().from(payouts).where(eq(payouts.id, data.id));
    expect(await moneyBalance(t.ctx.db, creator.id, 'earnings')).toBe(row.status === 'failed' ? 6_000 : 2_000);
  });

  it('sets a creator’s Stripe account (audited) and refuses ids that are not acct_…', async () => {
    const creator = await creatorWith(0, { bank: false });
    const url = `/api/admin/creators/${creator.id}/stripe-account`;
    const put = (token: string, stripeAccountId: string) =>
      t.app.inject({ method: 'PUT', url, payload: { stripeAccountId }, headers: authHeader(token) });
    expect((await put(admin.token, 'ba_123')).json().error).toBe(m.stripeAccountInvalid);
    expect((await put(creator.token, 'acct_123')).statusCode).toBe(403);
    const res = await put(admin.token, 'acct_1Test');
    expect(res.statusCode, res.body).toBe(200);
    const brand = await createTestUser(t.ctx.db, { role: 'brand' });
    const wrong = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/creators/${brand.id}/stripe-account`,
      payload: { stripeAccountId: 'acct_1Test' },
      headers: authHeader(admin.token),
    });
    expect(wrong.statusCode).toBe(404);
    // Without Stripe configured the account is kept but payouts stay manual.
    expect((await overview(creator)).method).toBe('manual');
  });
});
