// The campaign plan form's budget and timing: the budget with the wallet line, the duration, and the dates.
import { Wallet } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { CAMPAIGN_LIMITS } from '../../../common/api/campaigns.constants.ts';
import { useFormatEuros } from '../../i18n/format.ts';
import { cn } from '../../ui/cn.ts';
import { labelClass } from '../../ui/controls.tsx';
import { inputClass } from '../../ui/Field.tsx';
import { localToday } from './form.ts';
import { useCampaignLabels } from './labels.tsx';
import { campaignMessage } from './messages.ts';
import { FieldError, Section, usePlanErrors } from './planFormParts.tsx';
import type { PlanStore } from './planStore.ts';

const DURATION_PRESETS = [3, 7, 14, 30, 90] as const;

/** The wallet line under the budget: the balance, or why it is unknown, and Add funds. */
export interface WalletState {
  balance: number | null;
  loading: boolean;
  error: string | null;
  retry: () => void;
  addFunds: () => void;
}

function BudgetField({ store, wallet }: { store: PlanStore; wallet: WalletState }) {
  const draft = useStore(store, (s) => s.draft);
  const errors = usePlanErrors(store);
  const { update: onChange } = store.getState();
  const { t } = useTranslation();
  const euros = useFormatEuros();
  return (
    <div className="space-y-1.5">
      <label htmlFor="plan-budget" className={labelClass}>
        {t('campaigns.plan.budget')}
      </label>
      <div className="relative">
        <span className="pointer-events-none absolute inset-y-0 start-3 flex items-center text-sm text-subtle">€</span>
        <input
          id="plan-budget"
          data-testid="plan-budget"
          type="number"
          inputMode="decimal"
          min={CAMPAIGN_LIMITS.minBudgetEuros}
          max={wallet.balance ?? undefined}
          step="0.01"
          value={draft.budget}
          aria-invalid={errors.budget ? true : undefined}
          aria-describedby="budget-wallet"
          onChange={(e) => onChange({ budget: e.target.value })}
          className={cn(inputClass, 'h-10 ps-7 tabular-nums')}
        />
      </div>
      <div id="budget-wallet" className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted">
        <Wallet className="size-3.5" aria-hidden />
        {wallet.loading ? (
          <span>{t('campaigns.plan.walletLoading')}</span>
        ) : wallet.error ? (
          <>
            <span className="text-danger">{wallet.error}</span>
            <button type="button" className="font-medium text-accent hover:underline" onClick={wallet.retry}>
              {t('campaigns.tryAgain')}
            </button>
          </>
        ) : (
          <span data-testid="plan-wallet">
            {t('campaigns.plan.walletBalance', { amount: euros(wallet.balance ?? 0) })}
          </span>
        )}
        <button
          type="button"
          data-testid="plan-add-funds"
          className="font-medium text-accent hover:underline"
          onClick={wallet.addFunds}
        >
          {t('campaigns.plan.addFunds')}
        </button>
      </div>
      {errors.budget && (
        <p id="budget-error" data-testid="plan-error-budget" className="text-xs text-danger" role="alert">
          {campaignMessage(errors.budget)}{' '}
          {errors.budget.startsWith('Insufficient funds') && (
            <button type="button" className="font-medium underline" onClick={wallet.addFunds}>
              {t('campaigns.plan.addFunds')}
            </button>
          )}
        </p>
      )}
    </div>
  );
}

function DurationField({ store }: { store: PlanStore }) {
  const draft = useStore(store, (s) => s.draft);
  const errors = usePlanErrors(store);
  const { update: onChange } = store.getState();
  const { t } = useTranslation();
  const labels = useCampaignLabels();
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-2">
        <label htmlFor="plan-duration" className={labelClass}>
          {t('campaigns.plan.duration')}
        </label>
        <output htmlFor="plan-duration" className="text-xs font-semibold text-fg" data-testid="duration-label">
          {labels.duration(draft.durationDays)}
        </output>
      </div>
      <div className="flex items-center gap-2">
        <input
          id="plan-duration"
          data-testid="plan-duration"
          type="number"
          min={CAMPAIGN_LIMITS.minDurationDays}
          max={CAMPAIGN_LIMITS.maxDurationDays}
          step={1}
          value={Number.isFinite(draft.durationDays) ? draft.durationDays : ''}
          aria-invalid={errors.duration ? true : undefined}
          onChange={(e) => onChange({ durationDays: Math.round(Number(e.target.value)) })}
          className={cn(inputClass, 'h-10 w-24 tabular-nums')}
        />
        <span className="text-sm text-muted">{t('campaigns.plan.days')}</span>
      </div>
      <div className="flex flex-wrap gap-1.5">
        {DURATION_PRESETS.map((days) => (
          <button
            key={days}
            type="button"
            aria-pressed={draft.durationDays === days}
            onClick={() => onChange({ durationDays: days })}
            className={cn(
              'h-7 rounded-full border px-2.5 text-xs font-medium transition-colors',
              'focus-visible:outline-2 focus-visible:outline-accent',
              draft.durationDays === days
                ? 'border-accent bg-accent-soft text-fg'
                : 'border-line text-muted hover:text-fg',
            )}
          >
            {labels.duration(days)}
          </button>
        ))}
      </div>
      <FieldError id="duration" message={errors.duration} />
    </div>
  );
}

function DateFields({ store }: { store: PlanStore }) {
  const draft = useStore(store, (s) => s.draft);
  const errors = usePlanErrors(store);
  const { update: onChange } = store.getState();
  const { t } = useTranslation();
  const today = localToday();
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="space-y-1.5">
        <label htmlFor="plan-start" className={labelClass}>
          {t('campaigns.plan.startDate')}
        </label>
        <input
          id="plan-start"
          data-testid="plan-start"
          type="date"
          min={today}
          value={draft.startDate}
          aria-invalid={errors.startDate ? true : undefined}
          onChange={(e) => onChange({ startDate: e.target.value })}
          className={cn(inputClass, 'h-10 dark:[color-scheme:dark]')}
        />
        <FieldError id="startDate" message={errors.startDate} />
      </div>
      <div className="space-y-1.5">
        <label htmlFor="plan-end" className={labelClass}>
          {t('campaigns.plan.endDate')}
        </label>
        <input
          id="plan-end"
          data-testid="plan-end"
          type="date"
          min={draft.startDate || today}
          value={draft.endDate}
          aria-invalid={errors.endDate ? true : undefined}
          onChange={(e) => onChange({ endDate: e.target.value })}
          className={cn(inputClass, 'h-10 dark:[color-scheme:dark]')}
        />
        <FieldError id="endDate" message={errors.endDate} />
      </div>
    </div>
  );
}

export function BudgetAndTimingSection({ store, wallet }: { store: PlanStore; wallet: WalletState }) {
  const { t } = useTranslation();
  return (
    <Section title={t('campaigns.plan.budgetAndTiming')}>
      <div className="grid gap-4 sm:grid-cols-2">
        <BudgetField store={store} wallet={wallet} />
        <DurationField store={store} />
      </div>
      <DateFields store={store} />
    </Section>
  );
}
