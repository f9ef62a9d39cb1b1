import { and, eq, inArray, ne, sql, sum } from 'drizzle-orm';
import { centsToEuros } from '../../../common/api/money.ts';
import { MONEY_HISTORY_LIMIT } from '../../../common/api/payments.constants.ts';
import type { EarningsDto, MoneyTransactionDto, WalletReply } from '../../../common/api/payments.ts';
import type { AppContext } from '../../context.ts';
import { moneyTransactions, payouts, users } from '../../db/schema/index.ts';
import { notFound } from '../../platform/errors.ts';
import { listMoneyTransactions, type MoneyTransactionRow, moneyBalance } from '../../platform/money/ledger.ts';

function toDto(row: MoneyTransactionRow): MoneyTransactionDto {
  return {
    id: row.id,
    type: row.type,
    amount: centsToEuros(row.amountCents),
    amountCents: row.amountCents,
    balanceAfter: centsToEuros(row.balanceAfterCents),
    balanceAfterCents: row.balanceAfterCents,
    source: row.source,
    referenceId: row.referenceId,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
  };
}

/** GET /api/brands/wallet: the brand's campaign wallet and its newest transactions. */
export async function getWallet(deps: Pick<AppContext, 'db'>, userId: string): Promise<Omit<WalletReply, 'success'>> {
  const [balanceCents, rows] = await Promise.all([
    moneyBalance(deps.db, userId, 'wallet'),
    listMoneyTransactions(deps.db, userId, 'wallet', MONEY_HISTORY_LIMIT),
  ]);
  return { wallet: { balance: centsToEuros(balanceCents), balanceCents }, transactions: rows.map(toDto) };
}

/**
 * The creator's three figures, read in one statement (one snapshot, so they always add up: earned = available +
 * pending + paid out): everything earned (collaborations; a payout's amount coming back is not earned again),
 * what can be paid out now (the earnings balance) and what open payouts (pending, processing) hold.
 */
async function earningsFigures(deps: Pick<AppContext, 'db'>, userId: string) {
  const earned = deps.db
    .select({ cents: sum(moneyTransactions.amountCents) })
    .from(moneyTransactions)
    .where(
      and(
        eq(moneyTransactions.userId, userId),
        eq(moneyTransactions.account, 'earnings'),
        eq(moneyTransactions.type, 'credit'),
        ne(moneyTransactions.source, 'payout_return'),
      ),
    );
  const pending = deps.db
    .select({ cents: sum(payouts.amountCents) })
    .from(payouts)
    .where(and(eq(payouts.userId, userId), inArray(payouts.status, ['pending', 'processing'])));
  const [row] = await deps.db
    .select({
      available: users.earningsCents,
      earned: sql<string | null>`(${earned})`,
      pending: sql<string | null>`(${pending})`,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw notFound('User not found');
  return {
    availableCents: row.available,
    earnedCents: Number(row.earned ?? 0),
    pendingCents: Number(row.pending ?? 0),
  };
}

/**
 * GET /api/creators/earnings: the creator's figures and their newest transactions. `totalEarnings` is the spec's
 * name of the balance, i.e. what is available to pay out (it goes down when a payout is requested).
 */
export async function getEarnings(deps: Pick<AppContext, 'db'>, userId: string): Promise<EarningsDto> {
  const [figures, rows] = await Promise.all([
    earningsFigures(deps, userId),
    listMoneyTransactions(deps.db, userId, 'earnings', MONEY_HISTORY_LIMIT),
  ]);
  return {
    totalEarnings: centsToEuros(figures.availableCents),
    totalEarningsCents: figures.availableCents,
    earnedTotal: centsToEuros(figures.earnedCents),
    earnedTotalCents: figures.earnedCents,
    pendingPayouts: centsToEuros(figures.pendingCents),
    pendingPayoutsCents: figures.pendingCents,
    transactions: rows.map(toDto),
  };
}
