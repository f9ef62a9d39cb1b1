import { MONEY_HISTORY_LIMIT } from '../../../common/api/payments.constants.ts';
import type { EarningsDto, MoneyTransactionDto, WalletReply } from '../../../common/api/payments.ts';
import type { AppContext } from '../../context.ts';
import {
  centsToEuros,
  listMoneyTransactions,
  type MoneyTransactionRow,
  moneyBalance,
} from '../../platform/money/ledger.ts';

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

/** GET /api/creators/earnings: the creator's total earnings and their newest transactions. */
export async function getEarnings(deps: Pick<AppContext, 'db'>, userId: string): Promise<EarningsDto> {
  const [totalEarningsCents, rows] = await Promise.all([
    moneyBalance(deps.db, userId, 'earnings'),
    listMoneyTransactions(deps.db, userId, 'earnings', MONEY_HISTORY_LIMIT),
  ]);
  return { totalEarnings: centsToEuros(totalEarningsCents), totalEarningsCents, transactions: rows.map(toDto) };
}
