import { and, eq, gte, sql } from 'drizzle-orm';
import { WELCOME_CREDITS } from '../../../common/api/auth.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { Db } from '../../db/client.ts';
import { creditTransactions, tasks, users } from '../../db/schema/index.ts';
import { notFound, paymentRequired } from '../errors.ts';
import { assertStudioAccess } from './subscription-access.ts';

/**
 * The credits ledger. The balance lives on `users.credits`; every change writes a
 * `credit_transactions` row with the balance after it, in the same transaction.
 *
 * Every function takes the database or a transaction (a drizzle transaction is a `Db`) and runs its
 * statements in a (nested) transaction of its own, so the balance and the row never disagree.
 */
export type LedgerDb = Db;

type CreditTransactionRow = typeof creditTransactions.$inferSelect;

export interface CreditChange {
  userId: string;
  /** A positive whole number of credits. */
  amount: number;
  /** Where the change comes from: 'welcome', 'purchase', 'refund', 'generation', 'admin', … */
  source: string;
  description: string;
  generationType?: string | null;
  taskId?: string | null;
}

export interface CreditSpend extends CreditChange {
  /** When the spend happens, for the subscription rule (the caller's clock); default the system time. */
  now?: Date;
}

export interface CreditChangeResult {
  balanceAfter: number;
  transaction: CreditTransactionRow;
}

function assertAmount(amount: number): void {
  if (!Number.isInteger(amount) || amount <= 0)
    throw new RangeError(`credit amount must be a positive integer, got ${amount}`);
}

/** The ledger row of a balance change already applied to `users.credits`. */
async function recordChange(
  tx: LedgerDb,
  type: 'addition' | 'deduction',
  change: CreditChange,
  balanceAfter: number,
): Promise<CreditChangeResult> {
  const [row] = await tx
    .insert(creditTransactions)
    .values({
      userId: change.userId,
      type,
      amount: change.amount,
      balanceAfter,
      source: change.source,
      generationType: change.generationType ?? null,
      taskId: change.taskId ?? null,
      description: change.description,
    })
    .returning();
  return { balanceAfter, transaction: row };
}

/** Adds credits (an `addition` row). */
export async function addCredits(db: LedgerDb, change: CreditChange): Promise<CreditChangeResult> {
  assertAmount(change.amount);
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(users)
      .set({ credits: sql`${users.credits} + ${change.amount}`, updatedAt: sql`now()` })
      .where(eq(users.id, change.userId))
      .returning({ credits: users.credits });
    if (!updated) throw notFound('User not found');
    return recordChange(tx, 'addition', change, updated.credits);
  });
}

/**
 * A zero `addition` row at the current balance: something the user paid for that moved no credits
 * (a subscription renewal of a plan without monthly credits) still shows in their credit history.
 */
export async function noteInCreditHistory(
  db: LedgerDb,
  note: Pick<CreditChange, 'userId' | 'source' | 'description'>,
): Promise<CreditChangeResult> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ credits: users.credits })
      .from(users)
      .where(eq(users.id, note.userId))
      .for('update');
    if (!user) throw notFound('User not found');
    return recordChange(tx, 'addition', { ...note, amount: 0 }, user.credits);
  });
}

/**
 * Spends credits (a `deduction` row) when the balance covers them; otherwise throws a 402 AppError
 * with `details: { required, balance }`. The conditional UPDATE means concurrent spends never
 * overdraw: each one re-checks the balance under the row lock. A user without a verified email (403
 * `email_not_verified`) or subscription access (admins aside; 403 `subscription_required`) is refused
 * first, before anything moves (assertStudioAccess).
 */
export async function reserveCredits(db: LedgerDb, spend: CreditSpend): Promise<CreditChangeResult> {
  const { now, ...change } = spend;
  assertAmount(change.amount);
  return db.transaction(async (tx) => {
    await assertStudioAccess(tx, change.userId, now ?? new Date());
    const [updated] = await tx
      .update(users)
      .set({ credits: sql`${users.credits} - ${change.amount}`, updatedAt: sql`now()` })
      .where(and(eq(users.id, change.userId), gte(users.credits, change.amount)))
      .returning({ credits: users.credits });
    if (!updated) {
      const [user] = await tx.select({ credits: users.credits }).from(users).where(eq(users.id, change.userId));
      if (!user) throw notFound('User not found');
      throw paymentRequired(MESSAGES.credits.insufficient, { required: change.amount, balance: user.credits });
    }
    return recordChange(tx, 'deduction', change, updated.credits);
  });
}

/**
 * Gives back what a task reserved (an `addition` row, source 'refund', with the task id).
 * Idempotent: a task is refunded at most once. Returns the credits refunded (0 when nothing was due).
 */
export async function refundTask(db: LedgerDb, taskId: string, description?: string): Promise<number> {
  return db.transaction(async (tx) => {
    // Lock the task row so two failure paths cannot both refund.
    const [task] = await tx
      .select({ userId: tasks.userId, kind: tasks.kind, creditsReserved: tasks.creditsReserved })
      .from(tasks)
      .where(eq(tasks.id, taskId))
      .for('update');
    if (!task || task.creditsReserved <= 0) return 0;
    const [already] = await tx
      .select({ id: creditTransactions.id })
      .from(creditTransactions)
      .where(
        and(
          eq(creditTransactions.taskId, taskId),
          eq(creditTransactions.source, 'refund'),
          eq(creditTransactions.type, 'addition'),
        ),
      )
      .limit(1);
    if (already) return 0;
    const [deduction] = await tx
      .select({ generationType: creditTransactions.generationType })
      .from(creditTransactions)
      .where(and(eq(creditTransactions.taskId, taskId), eq(creditTransactions.type, 'deduction')))
      .limit(1);
    await addCredits(tx, {
      userId: task.userId,
      amount: task.creditsReserved,
      source: 'refund',
      description: description ?? `Refund: ${task.kind} failed`,
      generationType: deduction?.generationType ?? null,
      taskId,
    });
    return task.creditsReserved;
  });
}

/**
 * The welcome grant of a verified account (WELCOME_CREDITS, source 'welcome'), at most once per user:
 * the user row is locked before looking for an earlier grant, so concurrent calls queue and the later
 * ones find the first one's row. Null when the user already had it.
 */
export async function grantWelcomeCredits(db: LedgerDb, userId: string): Promise<CreditChangeResult | null> {
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    if (!user) throw notFound('User not found');
    const [already] = await tx
      .select({ id: creditTransactions.id })
      .from(creditTransactions)
      .where(
        and(
          eq(creditTransactions.userId, userId),
          eq(creditTransactions.source, 'welcome'),
          eq(creditTransactions.type, 'addition'),
        ),
      )
      .limit(1);
    if (already) return null;
    return addCredits(tx, { userId, amount: WELCOME_CREDITS, source: 'welcome', description: 'Welcome credits' });
  });
}
