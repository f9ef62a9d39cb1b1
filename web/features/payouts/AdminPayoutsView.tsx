import { Banknote, Check, X } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { PAYOUT_LIMITS, PAYOUT_STATUSES, type PayoutStatus } from '../../../common/api/payments.constants.ts';
import type { AdminPayoutDto } from '../../../common/api/payouts.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { useFormatDate, useFormatEuros } from '../../i18n/format.ts';
import { translateMessage } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { SelectField } from '../../ui/controls.tsx';
import { TextField } from '../../ui/Field.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { CardEmail, CardError, Fact } from '../admin/shared.tsx';
import { useAdminPayouts, useDecidePayout } from './api.ts';
import { PayoutStatusBadge } from './PayoutStatusBadge.tsx';

type Step = null | 'paid' | 'failed';

/** Mark paid (with the bank reference) or failed (with the reason): the second click confirms. */
function Decide({ payout, onError }: { payout: AdminPayoutDto; onError: (message: string | null) => void }) {
  const { t } = useTranslation();
  const euros = useFormatEuros();
  const decide = useDecidePayout();
  const [step, setStep] = useState<Step>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (!value)
      return setError(
        translateMessage(step === 'paid' ? MESSAGES.payouts.referenceRequired : MESSAGES.payouts.reasonRequired),
      );
    onError(null);
    decide.mutate(
      step === 'paid' ? { id: payout.id, paid: true, reference: value } : { id: payout.id, paid: false, reason: value },
      {
        onSuccess: (reply) => toast.success(translateMessage(reply.message)),
        onError: (e) => {
          setStep(null);
          onError(translateMessage(e.message));
        },
      },
    );
  };

  if (!step) {
    return (
      <div className="flex gap-2">
        <Button
          size="sm"
          className="flex-1 sm:flex-none"
          onClick={() => setStep('paid')}
          data-testid="admin-payout-paid"
        >
          <Check className="size-4" aria-hidden />
          {t('payouts.admin.markPaid')}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          className="flex-1 sm:flex-none"
          onClick={() => setStep('failed')}
          data-testid="admin-payout-failed"
        >
          <X className="size-4" aria-hidden />
          {t('payouts.admin.markFailed')}
        </Button>
      </div>
    );
  }
  const paid = step === 'paid';
  return (
    <form onSubmit={submit} noValidate className="space-y-2" data-testid="admin-payout-confirm-form">
      <p className="text-xs text-muted">
        {paid
          ? t('payouts.admin.confirmPaid', { amount: euros(payout.amount), iban: payout.fullIban })
          : t('payouts.admin.confirmFailed', { amount: euros(payout.amount) })}
      </p>
      <TextField
        id={`payout-${payout.id}-${step}`}
        label={paid ? t('payouts.admin.reference') : t('payouts.admin.reason')}
        maxLength={paid ? PAYOUT_LIMITS.referenceMax : PAYOUT_LIMITS.reasonMax}
        value={text}
        autoFocus
        onChange={(e) => {
          setText(e.target.value);
          setError(undefined);
        }}
        error={error}
      />
      <div className="flex gap-2">
        <Button
          type="submit"
          size="sm"
          variant={paid ? 'primary' : 'danger'}
          className="flex-1 sm:flex-none"
          loading={decide.isPending}
          data-testid="admin-payout-confirm"
        >
          {paid ? t('payouts.admin.confirmPaidButton') : t('payouts.admin.confirmFailedButton')}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          className="flex-1 sm:flex-none"
          disabled={decide.isPending}
          onClick={() => {
            setStep(null);
            setText('');
            setError(undefined);
          }}
        >
          {t('payouts.keep')}
        </Button>
      </div>
    </form>
  );
}

function PayoutCard({ payout }: { payout: AdminPayoutDto }) {
  const { t } = useTranslation();
  const euros = useFormatEuros();
  const date = useFormatDate();
  const [error, setError] = useState<string | null>(null);
  return (
    <li
      className="flex min-w-0 flex-col gap-3 rounded-2xl border border-line bg-surface p-4"
      data-testid="admin-payout-card"
      data-payout={payout.id}
      data-status={payout.status}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="truncate text-sm font-semibold">
            <bdi>{payout.creator.name}</bdi>
          </p>
          <CardEmail email={payout.creator.email} />
        </div>
        <div className="flex shrink-0 flex-col items-end gap-1">
          <span className="text-lg font-semibold tabular-nums" dir="ltr" data-testid="admin-payout-amount">
            {euros(payout.amount)}
          </span>
          <PayoutStatusBadge status={payout.status} />
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-x-3 gap-y-2">
        <Fact label={t('payouts.admin.holder')} value={payout.destination.accountHolderName} />
        <Fact label={t('payouts.admin.method')} value={t(`payouts.method.${payout.method}`)} />
        <div className="col-span-2 min-w-0">
          <dt className="text-xs text-subtle">{t('payouts.admin.iban')}</dt>
          <dd className="break-all font-mono text-xs font-medium" dir="ltr" data-testid="admin-payout-iban">
            {payout.fullIban}
          </dd>
        </div>
        <Fact label={t('payouts.admin.bic')} value={payout.bicSwift} />
        <Fact label={t('payouts.admin.bank')} value={payout.destination.bankName} />
        <Fact label={t('payouts.admin.requested')} value={date(payout.createdAt)} />
        <Fact label={t('payouts.reference')} value={payout.reference} testId="admin-payout-reference" />
        {payout.stripeAccountId && <Fact label={t('payouts.admin.stripeAccount')} value={payout.stripeAccountId} />}
      </dl>
      {payout.failureReason && (
        <p className="text-xs text-danger" data-testid="admin-payout-failure">
          {translateMessage(payout.failureReason)}
        </p>
      )}
      <CardError message={error} />
      {payout.status === 'pending' && payout.method === 'manual' && <Decide payout={payout} onError={setError} />}
    </li>
  );
}

/** Dashboard view adminPayouts: creators' payout requests, to pay by hand and record. */
export default function AdminPayoutsView() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<PayoutStatus | 'all'>('pending');
  const query = useAdminPayouts(status);
  const options = [
    { value: 'all' as const, label: t('payouts.admin.all') },
    ...PAYOUT_STATUSES.map((s) => ({ value: s, label: t(`payouts.status.${s}`) })),
  ];
  return (
    <section
      className="mt-6 space-y-3 rounded-2xl border border-line bg-surface p-4"
      aria-labelledby="admin-payouts-title"
      data-testid="admin-payouts-view"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="admin-payouts-title" className="flex items-center gap-2 text-sm font-semibold">
          <Banknote className="size-4 text-accent" aria-hidden />
          {t('payouts.admin.heading')}
        </h2>
        <SelectField
          variant="inline"
          value={status}
          onChange={setStatus}
          options={options}
          label={t('payouts.admin.statusFilter')}
          testId="admin-payouts-status"
        />
      </div>
      <p className="text-xs text-muted">{t('payouts.admin.intro')}</p>
      {query.data && (
        <p className="text-xs font-medium" data-testid="admin-payouts-mode" data-mode={query.data.studioMode}>
          {query.data.studioMode === 'stripe' ? t('payouts.admin.modeStripe') : t('payouts.admin.modeManual')}
        </p>
      )}
      {query.isPending && (
        <div className="flex justify-center py-10">
          <Spinner className="size-6" label={t('common.loading')} />
        </div>
      )}
      {query.isError && (
        <p role="alert" className="text-sm text-danger">
          {translateMessage(query.error.message)}
        </p>
      )}
      {query.data &&
        (query.data.data.length === 0 ? (
          <p className="py-8 text-center text-sm text-muted" data-testid="admin-payouts-empty">
            {t('payouts.admin.empty')}
          </p>
        ) : (
          <ul className="grid grid-cols-1 gap-3 md:grid-cols-2" data-testid="admin-payouts-list">
            {query.data.data.map((payout) => (
              <PayoutCard key={payout.id} payout={payout} />
            ))}
          </ul>
        ))}
    </section>
  );
}
