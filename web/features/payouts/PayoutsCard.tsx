import { ArrowUpRight, Landmark, X } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { eurosToCents, hasAtMostTwoDecimals } from '../../../common/api/money.ts';
import { PAYOUT_LIMITS } from '../../../common/api/payments.constants.ts';
import type { PayoutDto, PayoutsOverview } from '../../../common/api/payouts.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { useFormatDate, useFormatEuros } from '../../i18n/format.ts';
import { translateMessage } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmPopup } from '../../ui/ConfirmPopup.tsx';
import { FormMessage, TextField } from '../../ui/Field.tsx';
import { LoadError, Loading, Section } from '../../ui/Section.tsx';
import { useCancelPayout, usePayouts, useRequestPayout } from './api.ts';
import { PayoutStatusBadge } from './PayoutStatusBadge.tsx';

/** The client's copy of the server's amount rules, so most mistakes are answered before a request. */
function amountError(raw: string, available: number, minimumMessage: string): string | null {
  const value = Number(raw.replace(',', '.'));
  if (!raw.trim() || !Number.isFinite(value)) return translateMessage(MESSAGES.payments.amountRequired);
  if (!hasAtMostTwoDecimals(value)) return translateMessage(MESSAGES.payments.amountDecimals);
  if (eurosToCents(value) < PAYOUT_LIMITS.minEuros * 100) return minimumMessage;
  if (value > available) return translateMessage(MESSAGES.payouts.aboveEarnings);
  return null;
}

function PayoutRow({ payout }: { payout: PayoutDto }) {
  const { t } = useTranslation();
  const euros = useFormatEuros();
  const date = useFormatDate();
  const cancel = useCancelPayout();
  const [open, setOpen] = useState(false);
  const cancellable = payout.status === 'pending' && payout.method === 'manual';
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1.5 px-3.5 py-3 text-sm" data-testid="payout-row">
      <div className="min-w-0 flex-1 basis-40">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-semibold tabular-nums" dir="ltr" data-testid="payout-amount">
            {euros(payout.amount)}
          </span>
          <PayoutStatusBadge status={payout.status} />
        </div>
        <div className="mt-0.5 text-xs text-subtle">
          {t('payouts.toAccount', { last4: payout.destination.ibanLast4 })} · {date(payout.createdAt, true)}
        </div>
        {payout.status === 'paid' && (
          <div className="mt-0.5 text-xs text-muted" data-testid="payout-paid">
            {t('payouts.paidOn', { date: date(payout.paidAt) })}
            {payout.reference && (
              <>
                {' · '}
                {t('payouts.reference')} <bdi dir="ltr">{payout.reference}</bdi>
              </>
            )}
          </div>
        )}
        {payout.status === 'failed' && payout.failureReason && (
          <p className="mt-0.5 text-xs text-danger" data-testid="payout-failure">
            {translateMessage(payout.failureReason)}
          </p>
        )}
        {payout.status === 'pending' && <p className="mt-0.5 text-xs text-muted">{t('payouts.pendingHint')}</p>}
        {payout.status === 'processing' && payout.transferredAt && (
          <p className="mt-0.5 text-xs text-muted" data-testid="payout-transferred">
            {t('payouts.transferredHint')}
          </p>
        )}
      </div>
      {cancellable && (
        <ConfirmPopup
          open={open}
          onOpenChange={(next) => {
            if (!cancel.isPending) setOpen(next);
          }}
          pending={cancel.isPending}
          trigger={
            <Button variant="ghost" size="sm" data-testid="payout-cancel">
              <X className="size-4" aria-hidden />
              {t('payouts.cancel')}
            </Button>
          }
          title={t('payouts.cancelTitle')}
          body={t('payouts.cancelBody', { amount: euros(payout.amount) })}
          cancelLabel={t('payouts.keep')}
          confirmLabel={t('payouts.cancelConfirm')}
          testId="payout-cancel-dialog"
          confirmTestId="payout-cancel-confirm"
          layerClassName="z-50"
          onConfirm={() =>
            cancel.mutate(payout.id, {
              onSuccess: (reply) => {
                setOpen(false);
                toast.success(translateMessage(reply.message));
              },
              onError: (error) => {
                setOpen(false);
                toast.error(translateMessage(error.message));
              },
            })
          }
        />
      )}
    </li>
  );
}

function RequestForm({ data }: { data: PayoutsOverview }) {
  const { t } = useTranslation();
  const euros = useFormatEuros();
  const request = useRequestPayout();
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | undefined>();
  const reasonId = useId();
  const blocked = data.blockedReason;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (blocked) return;
    const problem = amountError(
      amount,
      data.availableEarnings,
      t('payouts.amountMin', { min: PAYOUT_LIMITS.minEuros }),
    );
    if (problem) return setError(problem);
    setError(undefined);
    request.mutate(Number(amount.replace(',', '.')), {
      onSuccess: (reply) => {
        setAmount('');
        toast.success(translateMessage(reply.message));
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-3" data-testid="payout-form">
      <dl className="grid gap-3 rounded-xl border border-line p-3.5 text-sm sm:grid-cols-2">
        <div className="min-w-0">
          <dt className="text-xs text-subtle">{t('payouts.available')}</dt>
          <dd className="text-lg font-semibold tabular-nums" dir="ltr" data-testid="payout-available">
            {euros(data.availableEarnings)}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs text-subtle">{t('payouts.destination')}</dt>
          <dd className="flex items-start gap-2" data-testid="payout-destination">
            <Landmark className="mt-0.5 size-4 shrink-0 text-muted" aria-hidden />
            {data.destination ? (
              <span className="min-w-0">
                <span className="block truncate font-medium">{data.destination.accountHolderName}</span>
                <span className="block text-xs text-muted tabular-nums" dir="ltr">
                  {data.destination.iban}
                </span>
                {data.destination.bankName && (
                  <span className="block truncate text-xs text-muted">{data.destination.bankName}</span>
                )}
              </span>
            ) : (
              <span className="text-muted">{t('payouts.noDestination')}</span>
            )}
          </dd>
        </div>
      </dl>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="flex-1">
          <TextField
            id="payout-amount"
            label={t('payouts.amount')}
            hint={t('payouts.amountHint', { min: euros(data.minimumAmount) })}
            type="number"
            inputMode="decimal"
            min={PAYOUT_LIMITS.minEuros}
            step="0.01"
            dir="ltr"
            placeholder="50.00"
            value={amount}
            disabled={Boolean(blocked)}
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
          disabled={Boolean(blocked)}
          aria-describedby={blocked ? reasonId : undefined}
          loading={request.isPending}
          data-testid="payout-request"
        >
          <ArrowUpRight className="size-4" aria-hidden />
          {t('payouts.request')}
        </Button>
      </div>
      {blocked && (
        <p id={reasonId} className="text-sm text-muted" data-testid="payout-blocked">
          {translateMessage(blocked)}
        </p>
      )}
      {request.isError && <FormMessage>{translateMessage(request.error.message)}</FormMessage>}
    </form>
  );
}

/** Billing tab, creators: request a payout of earnings to the primary bank account, and the payouts so far. */
export function PayoutsCard() {
  const { t } = useTranslation();
  const payouts = usePayouts();
  return (
    <Section
      title={t('payouts.title')}
      description={payouts.data?.method === 'stripe' ? t('payouts.hintStripe') : t('payouts.hintManual')}
      testId="creator-payouts"
    >
      {payouts.isPending ? (
        <Loading />
      ) : payouts.isError ? (
        <LoadError message={translateMessage(payouts.error.message)} onRetry={() => payouts.refetch()} />
      ) : (
        <div className="space-y-4">
          <p className="text-xs text-muted" data-testid="payouts-mode" data-mode={payouts.data.studioMode}>
            {payouts.data.studioMode === 'stripe'
              ? payouts.data.method === 'stripe'
                ? t('payouts.connect.modeStripe')
                : t('payouts.setupStripe')
              : t('payouts.connect.modeManual')}
          </p>
          <RequestForm data={payouts.data} />
          <div>
            <h4 className="mb-2 text-sm font-semibold">{t('payouts.history')}</h4>
            {payouts.data.payouts.length === 0 ? (
              <p className="py-3 text-center text-sm text-muted" data-testid="payouts-empty">
                {t('payouts.empty')}
              </p>
            ) : (
              <ul className="divide-y divide-line rounded-xl border border-line" data-testid="payouts-list">
                {payouts.data.payouts.map((payout) => (
                  <PayoutRow key={payout.id} payout={payout} />
                ))}
              </ul>
            )}
          </div>
        </div>
      )}
    </Section>
  );
}
