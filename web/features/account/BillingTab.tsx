import { Coins, HardDrive, Landmark, Plus, Wallet } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../../common/api/auth.ts';
import { WALLET_TOPUP } from '../../../common/api/payments.constants.ts';
import type { MoneyTransactionDto } from '../../../common/api/payments.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { numberLocale, useFormatDate, useFormatEuros, useFormatStorage } from '../../i18n/format.ts';
import { translateMessage } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { FormMessage, TextField } from '../../ui/Field.tsx';
import { LoadError, Loading, Section } from '../../ui/Section.tsx';
import { useEarnings, useWallet, useWalletTopup } from '../billing/api.ts';
import { CreditBadge } from '../billing/CreditBadge.tsx';
import { purchaseErrorMessage } from '../billing/errors.ts';
import { TopUpDialog } from '../billing/TopUpDialog.tsx';
import { PayoutsCard } from '../payouts/PayoutsCard.tsx';
import { useStorageUsage } from './api.ts';
import { BankAccounts } from './BankAccounts.tsx';
import { SubscriptionCard } from './SubscriptionCard.tsx';

function CreditsCard({ credits }: { credits: number }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Section
      title={t('account.billing.creditsTitle')}
      description={t('account.billing.creditsHint')}
      testId="billing-credits"
      actions={
        <Button onClick={() => setOpen(true)} data-testid="billing-topup">
          <Plus className="size-4" aria-hidden />
          {t('account.billing.topUp')}
        </Button>
      }
    >
      <div className="flex flex-wrap items-center gap-3">
        <span className="grid size-11 place-items-center rounded-xl bg-accent-soft text-accent">
          <Coins className="size-5" aria-hidden />
        </span>
        <span className="text-3xl font-semibold tabular-nums" data-testid="billing-balance">
          {new Intl.NumberFormat(numberLocale(i18n.language)).format(credits)}
        </span>
        <span className="text-sm text-muted">{t('account.billing.creditsUnit', { count: credits })}</span>
        <CreditBadge credits={credits} />
      </div>
      <TopUpDialog open={open} onOpenChange={setOpen} balance={credits} />
    </Section>
  );
}

/** Storage used against the quota (STORAGE_QUOTA_MB): a bar and "X MB of Y GB used". */
function StorageCard() {
  const { t } = useTranslation();
  const usage = useStorageUsage();
  const format = useFormatStorage();
  const share = usage.data ? Math.min(1, usage.data.usedBytes / Math.max(1, usage.data.limitBytes)) : 0;
  return (
    <Section
      title={t('account.billing.storageTitle')}
      description={t('account.billing.storageHint')}
      testId="billing-storage"
    >
      {usage.isPending ? (
        <Loading />
      ) : usage.isError ? (
        <LoadError message={t('account.billing.storageLoadFailed')} onRetry={() => usage.refetch()} />
      ) : (
        <div className="flex items-center gap-3">
          <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent">
            <HardDrive className="size-5" aria-hidden />
          </span>
          <div className="min-w-0 flex-1 space-y-2">
            <div
              role="progressbar"
              aria-label={t('account.billing.storageTitle')}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(share * 100)}
              className="h-2 overflow-hidden rounded-full bg-surface-3"
            >
              <div
                className={cn('h-full rounded-full', share >= 0.9 ? 'bg-danger' : 'bg-accent')}
                style={{ width: `${share * 100}%` }}
              />
            </div>
            <p className="text-sm text-muted tabular-nums" data-testid="billing-storage-used">
              {t('account.billing.storageUsed', {
                used: format(usage.data.usedBytes),
                limit: format(usage.data.limitBytes),
              })}
            </p>
          </div>
        </div>
      )}
    </Section>
  );
}

function MoneyRows({ rows, emptyText }: { rows: MoneyTransactionDto[]; emptyText: string }) {
  const { t } = useTranslation();
  const euros = useFormatEuros();
  const date = useFormatDate();
  if (rows.length === 0) return <p className="py-4 text-center text-sm text-muted">{emptyText}</p>;
  return (
    <ul className="divide-y divide-line rounded-xl border border-line" data-testid="money-transactions">
      {rows.map((row) => (
        <li key={row.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3.5 py-2.5 text-sm">
          <div className="min-w-0 flex-1">
            <div className="truncate font-medium">{row.description}</div>
            <div className="text-xs text-subtle">
              {t(`account.money.source.${row.source}`, { defaultValue: row.source })} · {date(row.createdAt, true)}
            </div>
          </div>
          <div className="text-end">
            <div
              className={cn('font-semibold tabular-nums', row.type === 'credit' ? 'text-success' : 'text-danger')}
              dir="ltr"
            >
              {row.type === 'credit' ? '+' : '−'}
              {euros(row.amount)}
            </div>
            <div className="text-xs text-subtle tabular-nums">
              {t('account.money.balanceAfter', { amount: euros(row.balanceAfter) })}
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}

function WalletCard() {
  const { t } = useTranslation();
  const wallet = useWallet();
  const topup = useWalletTopup();
  const euros = useFormatEuros();
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [manage, setManage] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = Number(amount.replace(',', '.'));
    if (!amount.trim() || !Number.isFinite(value)) return setError(translateMessage(MESSAGES.payments.amountRequired));
    if (value < WALLET_TOPUP.minEuros)
      return setError(translateMessage(MESSAGES.payments.amountMin(WALLET_TOPUP.minEuros)));
    if (value > WALLET_TOPUP.maxEuros)
      return setError(translateMessage(MESSAGES.payments.amountMax(WALLET_TOPUP.maxEuros)));
    if (Math.abs(value * 100 - Math.round(value * 100)) > 1e-6)
      return setError(translateMessage(MESSAGES.payments.amountDecimals));
    setError(undefined);
    topup.mutate(value);
  };

  return (
    <Section
      title={t('account.billing.walletTitle')}
      description={t('account.billing.walletHint')}
      testId="brand-wallet"
      actions={
        wallet.data && (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setManage((v) => !v)}
            aria-expanded={manage}
            data-testid="wallet-manage"
          >
            {t('account.billing.manage')}
          </Button>
        )
      }
    >
      {wallet.isPending ? (
        <Loading />
      ) : wallet.isError ? (
        <LoadError message={translateMessage(MESSAGES.payments.walletLoadFailed)} onRetry={() => wallet.refetch()} />
      ) : (
        <div className="space-y-4">
          <div className="flex items-center gap-3">
            <span className="grid size-11 place-items-center rounded-xl bg-accent-soft text-accent">
              <Wallet className="size-5" aria-hidden />
            </span>
            <span className="text-3xl font-semibold tabular-nums" data-testid="wallet-balance">
              {euros(wallet.data.wallet.balance)}
            </span>
          </div>
          <form onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
            <div className="flex-1">
              <TextField
                id="wallet-amount"
                label={t('account.billing.addFundsAmount')}
                type="number"
                inputMode="decimal"
                min={WALLET_TOPUP.minEuros}
                max={WALLET_TOPUP.maxEuros}
                step="0.01"
                dir="ltr"
                placeholder="100.00"
                value={amount}
                onChange={(e) => {
                  setAmount(e.target.value);
                  setError(undefined);
                }}
                error={error}
              />
            </div>
            <Button
              type="submit"
              className="sm:mt-7"
              loading={topup.isPending || topup.isSuccess}
              data-testid="wallet-add-funds"
            >
              <Plus className="size-4" aria-hidden />
              {t('account.billing.addFunds')}
            </Button>
          </form>
          {topup.isError && <FormMessage>{purchaseErrorMessage(topup.error)}</FormMessage>}
          {manage && <MoneyRows rows={wallet.data.transactions} emptyText={t('account.billing.noWalletRows')} />}
        </div>
      )}
    </Section>
  );
}

function EarningsFigure({
  label,
  value,
  testId,
  strong,
}: {
  label: string;
  value: string;
  testId: string;
  strong?: boolean;
}) {
  return (
    <div className={cn('min-w-0', strong && 'col-span-2 sm:col-span-1')}>
      <dt className="text-xs text-subtle">{label}</dt>
      <dd
        className={cn('font-semibold tabular-nums', strong ? 'text-3xl' : 'text-lg sm:text-3xl')}
        data-testid={testId}
      >
        <bdi dir="ltr">{value}</bdi>
      </dd>
    </div>
  );
}

function EarningsCard() {
  const { t } = useTranslation();
  const earnings = useEarnings();
  const euros = useFormatEuros();
  const [manage, setManage] = useState(false);
  return (
    <Section
      title={t('account.billing.earningsTitle')}
      description={t('account.billing.earningsHint')}
      testId="creator-earnings"
      actions={
        earnings.data && (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setManage((v) => !v)}
            aria-expanded={manage}
            data-testid="earnings-manage"
          >
            {t('account.billing.manage')}
          </Button>
        )
      }
    >
      {earnings.isPending ? (
        <Loading />
      ) : earnings.isError ? (
        <LoadError message={translateMessage(earnings.error.message)} onRetry={() => earnings.refetch()} />
      ) : (
        <div className="space-y-4">
          <div className="flex items-start gap-3">
            <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-success-soft text-success">
              <Landmark className="size-5" aria-hidden />
            </span>
            {/* What each figure is: all earned, what can be paid out now, what requested payouts hold. */}
            <dl className="grid min-w-0 flex-1 grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3">
              <EarningsFigure
                label={t('account.billing.earnedTotal')}
                value={euros(earnings.data.earnedTotal)}
                testId="earnings-earned"
                strong
              />
              <EarningsFigure
                label={t('account.billing.earnedAvailable')}
                value={euros(earnings.data.totalEarnings)}
                testId="earnings-available"
              />
              <EarningsFigure
                label={t('account.billing.earnedPending')}
                value={euros(earnings.data.pendingPayouts)}
                testId="earnings-pending"
              />
            </dl>
          </div>
          {manage && <MoneyRows rows={earnings.data.transactions} emptyText={t('account.billing.noEarningsRows')} />}
        </div>
      )}
    </Section>
  );
}

export function BillingTab({ user, credits }: { user: User; credits: number }) {
  const { t } = useTranslation();
  const payoutRole = user.role === 'creator' || user.role === 'brand' ? user.role : null;
  return (
    <div className="space-y-5" data-testid="account-billing">
      <h2 className="text-xl font-semibold tracking-tight">{t('account.tabs.billing')}</h2>
      <CreditsCard credits={credits} />
      <StorageCard />
      {user.role === 'brand' && <WalletCard />}
      {user.role === 'creator' && <EarningsCard />}
      {user.role === 'creator' && <PayoutsCard />}
      <SubscriptionCard />
      {payoutRole && <BankAccounts role={payoutRole} />}
    </div>
  );
}
