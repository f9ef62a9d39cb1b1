import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WELCOME_CREDITS } from '../../../common/api/auth.constants.ts';
import { creditTransactions, tasks } from '../../db/schema/index.ts';
import { createTestUser, creditsOf } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { AppError } from '../errors.ts';
import { addCredits, grantWelcomeCredits, refundTask, reserveCredits } from './ledger.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RUN_WORKERS: 'false' } });
});
afterAll(async () => {
  await t?.close();
});

describe('credits ledger', () => {
  it('grants the welcome credits as an addition row', async () => {
    const user = await createTestUser(t.ctx.db);
    const result = await grantWelcomeCredits(t.ctx.db, user.id);
    expect(result?.balanceAfter).toBe(WELCOME_CREDITS);
    expect(result?.transaction).toMatchObject({ type: 'addition', amount: WELCOME_CREDITS, source: 'welcome' });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(WELCOME_CREDITS);
  });

  it('grants the welcome credits once per user, however often and however concurrently it is asked', async () => {
    const user = await createTestUser(t.ctx.db);
    const results = await Promise.all(Array.from({ length: 5 }, () => grantWelcomeCredits(t.ctx.db, user.id)));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(await grantWelcomeCredits(t.ctx.db, user.id)).toBeNull();
    expect(await creditsOf(t.ctx.db, user.id)).toBe(WELCOME_CREDITS);
    const rows = await t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.userId, user.id));
    expect(rows).toHaveLength(1);
  });

  it('works inside a caller transaction and rolls back with it', async () => {
    const user = await createTestUser(t.ctx.db);
    await expect(
      t.ctx.db.transaction(async (tx) => {
        await grantWelcomeCredits(tx, user.id);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await creditsOf(t.ctx.db, user.id)).toBe(0);
    const rows = await t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.userId, user.id));
    expect(rows).toHaveLength(0);
  });

  it('50 parallel reserves of 20 against 200 give exactly 10 successes and never overdraw', async () => {
    const user = await createTestUser(t.ctx.db);
    await grantWelcomeCredits(t.ctx.db, user.id);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        reserveCredits(t.ctx.db, {
          userId: user.id,
          amount: 20,
          source: 'generation',
          description: `spend ${i}`,
          generationType: 'image',
        }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(10);
    expect(failed).toHaveLength(40);
    for (const f of failed) {
      expect(f.reason).toBeInstanceOf(AppError);
      expect((f.reason as AppError).status).toBe(402);
    }
    expect(await creditsOf(t.ctx.db, user.id)).toBe(0);

    const rows = await t.ctx.db
      .select()
      .from(creditTransactions)
      .where(eq(creditTransactions.userId, user.id))
      .orderBy(asc(creditTransactions.balanceAfter));
    const deductions = rows.filter((r) => r.type === 'deduction');
    expect(deductions).toHaveLength(10);
    // Each deduction saw a distinct balance: 180, 160, …, 0.
    expect(deductions.map((r) => r.balanceAfter).sort((a, b) => a - b)).toEqual([
      0, 20, 40, 60, 80, 100, 120, 140, 160, 180,
    ]);
    const sum = rows.reduce((acc, r) => acc + (r.type === 'addition' ? r.amount : -r.amount), 0);
    expect(sum).toBe(0);
  });

  it('answers 402 with the balance when short', async () => {
    const user = await createTestUser(t.ctx.db, { credits: 5 });
    const error = await reserveCredits(t.ctx.db, {
      userId: user.id,
      amount: 6,
      source: 'generation',
      description: 'x',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 402, code: 'insufficient_credits', details: { required: 6, balance: 5 } });
  });

  it('refunds a task once', async () => {
    const user = await createTestUser(t.ctx.db);
    await addCredits(t.ctx.db, { userId: user.id, amount: 50, source: 'purchase', description: 'top-up' });
    const [task] = await t.ctx.db
      .insert(tasks)
      .values({ userId: user.id, kind: 'test.kind', creditsReserved: 30 })
      .returning();
    await reserveCredits(t.ctx.db, {
      userId: user.id,
      amount: 30,
      source: 'generation',
      description: 'spend',
      generationType: 'video',
      taskId: task.id,
    });
    expect(await creditsOf(t.ctx.db, user.id)).toBe(20);
    expect(await refundTask(t.ctx.db, task.id)).toBe(30);
    expect(await refundTask(t.ctx.db, task.id)).toBe(0);
    expect(await creditsOf(t.ctx.db, user.id)).toBe(50);
    const refunds = await t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.taskId, task.id));
    expect(refunds.find((r) => r.source === 'refund')).toMatchObject({
      type: 'addition',
      amount: 30,
      balanceAfter: 50,
      generationType: 'video',
    });
  });
});
