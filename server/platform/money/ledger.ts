import { and, desc, eq, gte, sql } from 'drizzle-orm';
import { MESSAGES } from '../../../common/messages.ts';
import type { Db } from '../../db/client.ts';
import { moneyTransactions, users } from '../../db/schema/index.ts';
import { AppError, notFound } from '../errors.ts';

/**
 * The euro ledgers, in integer cents: a brand's campaign wallet (`users.wallet_cents`) and a creator's
 * earnings (`users.earnings_cents`). Every change writes a `money_transactions` row with the balance
 * after it in the same transaction, like the credits ledger. A change with a `referenceId` happens at
 * most once per (account, source, reference): replaying it returns the first row and changes nothing.
 */
export type MoneyAccount = 'wallet' | 'earnings';
export type MoneyTransactionRow = typeof moneyTransactions.$inferSelect;

export interface MoneyChange {
  userId: string;
  account: MoneyAccount;
  /** A positive whole number of euro cents. */
  amountCents: number;
  /** 'topup', 'campaign_hold', 'campaign_release', 'collaboration_payout', 'payout', … */
  source: string;
  /** The order, campaign or collaboration the change belongs to. */
  referenceId?: string | null;
  description: string;
}

export interface MoneyChangeResult {
  balanceAfterCents: number;
  transaction: MoneyTransactionRow;
  /** False when the same (account, source, referenceId) change had already been applied. */
  applied: boolean;
}

const balanceColumn = { wallet: users.walletCents, earnings: users.earningsCents } as const;

function assertCents(amountCents: number): void {
  if (!Number.isInteger(amountCents) || amountCents <= 0)
    throw new RangeError(`money amount must be a positive integer of cents, got ${amountCents}`);
}

async function findApplied(tx: Db, change: MoneyChange): Promise<MoneyChangeResult | null> {
  if (!change.referenceId) return null;
  const [row] = await tx
    .select()
    .from(moneyTransactions)
    .where(
      and(
        eq(moneyTransactions.account, change.account),
        eq(moneyTransactions.source, change.source),
        eq(moneyTransactions.referenceId, change.referenceId),
      ),
    )
    .limit(1);
  return row ? { balanceAfterCents: row.balanceAfterCents, transaction: row, applied: false } : null;
}

async function applyChange(tx: Db, type: 'credit' | 'debit', change: MoneyChange): Promise<MoneyChangeResult> {
  assertCents(change.amountCents);
  const column = balanceColumn[change.account];
  const key = change.account === 'wallet' ? 'walletCents' : 'earningsCents';
  // Lock the user row first so a replayed reference waits for the first one and then sees its row.
  const [locked] = await tx.select({ id: users.id }).from(users).where(eq(users.id, change.userId)).for('update');
  if (!locked) throw notFound('User not found');
  const already = await findApplied(tx, change);
  if (already) return already;
  const delta = type === 'credit' ? sql`${column} + ${change.amountCents}` : sql`${column} - ${change.amountCents}`;
  const where =
    type === 'credit' ? eq(users.id, change.userId) : and(eq(users.id, change.userId), gte(column, change.amountCents));
  const [updated] = await tx
    .update(users)
    .set({ [key]: delta, updatedAt: sql`now()` })
    .where(where)
    .returning({ balance: column });
  if (!updated) {
    const [user] = await tx.select({ balance: column }).from(users).where(eq(users.id, change.userId));
    throw new AppError(402, 'insufficient_funds', MESSAGES.payments.insufficientFunds, {
      requiredCents: change.amountCents,
      balanceCents: user?.balance ?? 0,
    });
  }
  const [row] = await tx
    .insert(moneyTransactions)
    .values({
      userId: change.userId,
      account: change.account,
      type,
      amountCents: change.amountCents,
      balanceAfterCents: updated.balance,
      source: change.source,
      referenceId: change.referenceId ?? null,
      description: change.description,
    })
    .returning();
  return { balanceAfterCents: updated.balance, transaction: row, applied: true };
}

/** Adds money to a wallet or to earnings (a `credit` row). */
export function creditMoney(db: Db, change: MoneyChange): Promise<MoneyChangeResult> {
  return db.transaction((tx) => applyChange(tx, 'credit', change));
}

/**
 * Takes money from a wallet or earnings (a `debit` row) when the balance covers it; otherwise throws a
 * 402 AppError (code `insufficient_funds`, `details: { requiredCents, balanceCents }`). The conditional
 * UPDATE means concurrent debits never overdraw.
 */
export function debitMoney(db: Db, change: MoneyChange): Promise<MoneyChangeResult> {
  return db.transaction((tx) => applyChange(tx, 'debit', change));
}

/** Sets a campaign's budget aside from the brand's wallet (once per campaign; 402 when short). */
export function holdCampaignBudget(
  db: Db,
  hold: { brandId: string; campaignId: string; amountCents: number; description?: string },
): Promise<MoneyChangeResult> {
  return debitMoney(db, {
    userId: hold.brandId,
    account: 'wallet',
    amountCents: hold.amountCents,
    source: 'campaign_hold',
    referenceId: hold.campaignId,
    description: hold.description ?? 'Campaign budget reserved',
  });
}

/**
 * Gives the unspent part of a campaign's hold back to the brand's wallet (once per campaign). Returns
 * null when nothing is left to release.
 */
export async function releaseCampaignBudget(
  db: Db,
  release: { brandId: string; campaignId: string; amountCents: number; description?: string },
): Promise<MoneyChangeResult | null> {
  if (release.amountCents <= 0) return null;
  return creditMoney(db, {
    userId: release.brandId,
    account: 'wallet',
    amountCents: release.amountCents,
    source: 'campaign_release',
    referenceId: release.campaignId,
    description: release.description ?? 'Unspent campaign budget returned',
  });
}

/** The balance of one account, in cents. */
export async function moneyBalance(db: Db, userId: string, account: MoneyAccount): Promise<number> {
  const [row] = await db.select({ balance: balanceColumn[account] }).from(users).where(eq(users.id, userId));
  if (!row) throw notFound('User not found');
  return row.balance;
}

/** The newest rows of one account first. */
export function listMoneyTransactions(
  db: Db,
  userId: string,
  account: MoneyAccount,
  limit: number,
): Promise<MoneyTransactionRow[]> {
  return db
    .select()
    .from(moneyTransactions)
    .where(and(eq(moneyTransactions.userId, userId), eq(moneyTransactions.account, account)))
    .orderBy(desc(moneyTransactions.createdAt), desc(moneyTransactions.id))
    .limit(limit);
}
