import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToEuros } from '../../../common/api/money.ts';
import { moneyTransactions } from '../../db/schema/index.ts';
import { createTestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { AppError } from '../errors.ts';
import {
  creditMoney,
  debitMoney,
  holdCampaignBudget,
  listMoneyTransactions,
  moneyBalance,
  releaseCampaignBudget,
} from './ledger.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('money ledger', () => {
  it('adds in exact cents: 10.10 + 0.20 = 10.30', async () => {
    const { id } = await createTestUser(t.ctx.db, { role: 'brand' });
    await creditMoney(t.ctx.db, {
      userId: id,
      account: 'wallet',
      amountCents: 1010,
      source: 'topup',
      description: 'a',
    });
    const second = await creditMoney(t.ctx.db, {
      userId: id,
      account: 'wallet',
      amountCents: 20,
      source: 'topup',
      description: 'b',
    });
    expect(second.balanceAfterCents).toBe(1030);
    expect(centsToEuros(await moneyBalance(t.ctx.db, id, 'wallet'))).toBe(10.3);
    expect(await moneyBalance(t.ctx.db, id, 'earnings')).toBe(0);
    const rows = await listMoneyTransactions(t.ctx.db, id, 'wallet', 10);
    expect(rows.map((r) => r.balanceAfterCents).sort()).toEqual([1010, 1030]);
  });

  it('never overdraws, even with concurrent debits', async () => {
    const { id } = await createTestUser(t.ctx.db, { role: 'brand' });
    await creditMoney(t.ctx.db, {
      userId: id,
      account: 'wallet',
      amountCents: 1000,
      source: 'topup',
      description: 'x',
    });
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        debitMoney(t.ctx.db, { userId: id, account: 'wallet', amountCents: 300, source: 'spend', description: 'y' }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const refused = results.find((r) => r.status === 'rejected');
    expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
    expect(((refused as PromiseRejectedResult).reason as AppError).status).toBe(402);
    expect(await moneyBalance(t.ctx.db, id, 'wallet')).toBe(100);
  });

  it('holds and releases a campaign budget once per campaign', async () => {
    const { id } = await createTestUser(t.ctx.db, { role: 'brand' });
    await creditMoney(t.ctx.db, {
      userId: id,
      account: 'wallet',
      amountCents: 50_000,
      source: 'topup',
      description: 'x',
    });
    const campaignId = crypto.randomUUID();
    const hold = await holdCampaignBudget(t.ctx.db, { brandId: id, campaignId, amountCents: 20_000 });
    expect(hold).toMatchObject({ applied: true, balanceAfterCents: 30_000 });
    const replay = await holdCampaignBudget(t.ctx.db, { brandId: id, campaignId, amountCents: 20_000 });
    expect(replay.applied).toBe(false);
    expect(await moneyBalance(t.ctx.db, id, 'wallet')).toBe(30_000);
    await expect(
      holdCampaignBudget(t.ctx.db, { brandId: id, campaignId: crypto.randomUUID(), amountCents: 40_000 }),
    ).rejects.toMatchObject({ status: 402, code: 'insufficient_funds' });
    expect(await releaseCampaignBudget(t.ctx.db, { brandId: id, campaignId, amountCents: 0 })).toBeNull();
    const released = await Promise.all([
      releaseCampaignBudget(t.ctx.db, { brandId: id, campaignId, amountCents: 5_000 }),
      releaseCampaignBudget(t.ctx.db, { brandId: id, campaignId, amountCents: 5_000 }),
    ]);
    expect(released.filter((r) => r?.applied)).toHaveLength(1);
    expect(await moneyBalance(t.ctx.db, id, 'wallet')).toBe(35_000);
    const rows = await t.ctx.db.select().from(moneyTransactions).where(eq(moneyTransactions.userId, id));
    expect(rows.map((r) => `${r.type}:${r.source}:${r.amountCents}`).sort()).toEqual([
      'credit:campaign_release:5000',
      'credit:topup:50000',
      'debit:campaign_hold:20000',
    ]);
  });

  it('refuses amounts that are not positive whole cents', async () => {
    const { id } = await createTestUser(t.ctx.db);
    await expect(
      creditMoney(t.ctx.db, { userId: id, account: 'earnings', amountCents: 10.5, source: 'x', description: 'x' }),
    ).rejects.toThrow(RangeError);
    await expect(
      creditMoney(t.ctx.db, { userId: id, account: 'earnings', amountCents: 0, source: 'x', description: 'x' }),
    ).rejects.toThrow(RangeError);
  });
});
