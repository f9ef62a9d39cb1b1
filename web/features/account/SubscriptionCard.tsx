import { CalendarClock, CircleAlert } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { CancelType } from '../../../common/api/payments.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { useFormatDate, useFormatEuros } from '../../i18n/format.ts';
import { translateMessage } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmPopup } from '../../ui/ConfirmPopup.tsx';
import { cn } from '../../ui/cn.ts';
import { FormMessage } from '../../ui/Field.tsx';
import { LoadError, Loading, Section } from '../../ui/Section.tsx';
import { useCancelSubscription, useSubscriptionStatus } from '../billing/api.ts';
import { SubscribeButton } from '../billing/SubscribeButton.tsx';

/** Spec 4 Subscription: Free Trial badge with the end date, Cancelling notice, the two cancel options. */
export function SubscriptionCard() {
  const { t } = useTranslation();
  const status = useSubscriptionStatus();
  const cancel = useCancelSubscription();
  const date = useFormatDate();
  const euros = useFormatEuros();
  const [confirm, setConfirm] = useState<CancelType | null>(null);

  const doCancel = () => {
    if (!confirm) return;
    cancel.mutate(confirm, {
      onSuccess: (reply) => {
        setConfirm(null);
        toast.success(translateMessage(reply.message));
      },
      onError: () => setConfirm(null),
    });
  };

  const s = status.data;
  const trialing = s?.status === 'trialing';
  return (
    <Section title={t('account.subscription.title')} testId="subscription-card">
      {status.isPending ? (
        <Loading />
      ) : status.isError ? (
        <LoadError message={translateMessage(status.error.message)} onRetry={() => status.refetch()} />
      ) : s ? (
        <div className="space-y-4">
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-lg font-semibold" data-testid="subscription-plan">
              {trialing
                ? t('account.subscription.trialPlan')
                : s.isActive
                  ? s.plan.displayName
                  : t('account.subscription.none')}
            </span>
            {trialing && (
              <span
                className="rounded-full bg-accent px-2.5 py-0.5 text-xs font-semibold text-accent-fg"
                data-testid="trial-badge"
              >
                {t('account.subscription.freeTrial')}
              </span>
            )}
            {s.cancelAtPeriodEnd && (
              <span
                className="rounded-full border border-warning/40 bg-warning-soft px-2.5 py-0.5 text-xs font-semibold text-warning"
                data-testid="cancelling-badge"
              >
                {t('account.subscription.cancelling')}
              </span>
            )}
            {s.status && !trialing && (
              <span
                className={cn(
                  'rounded-full border px-2.5 py-0.5 text-xs font-medium',
                  s.isActive ? 'border-success/30 bg-success-soft text-success' : 'border-line bg-surface-2 text-muted',
                )}
              >
                {t(`account.subscription.status.${s.status}`)}
              </span>
            )}
          </div>

          <dl className="grid gap-3 text-sm sm:grid-cols-2">
            {trialing && (
              <div>
                <dt className="text-muted">{t('account.subscription.trialEnds')}</dt>
                <dd className="font-medium" data-testid="trial-end">
                  {date(s.trialEnd)}
                </dd>
              </div>
            )}
            {s.nextBillingDate && (
              <div>
                <dt className="text-muted">{t('account.subscription.nextBilling')}</dt>
                <dd className="font-medium">{date(s.nextBillingDate)}</dd>
              </div>
            )}
            <div>
              <dt className="text-muted">{t('account.subscription.price')}</dt>
              <dd className="font-medium">
                {t('account.subscription.pricePer', {
                  price: euros(s.plan.amount),
                  interval: t(`billing.subscription.interval.${s.plan.interval}`, { defaultValue: s.plan.interval }),
                })}
              </dd>
            </div>
          </dl>

          {s.cancelAtPeriodEnd && (
            <div
              className="flex items-start gap-2 rounded-lg border border-warning/30 bg-warning-soft px-3.5 py-2.5 text-sm"
              data-testid="cancelling-notice"
            >
              <CalendarClock className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
              <p>{t('account.subscription.cancellingNotice', { date: date(s.currentPeriodEnd ?? s.trialEnd) })}</p>
            </div>
          )}

          {cancel.isError && <FormMessage>{translateMessage(MESSAGES.payments.cancelFailed)}</FormMessage>}

          {s.canCancel && (
            <div className="flex flex-col gap-2 border-t border-line pt-4 sm:flex-row">
              <Button
                variant="secondary"
                onClick={() => setConfirm('end_of_period')}
                data-testid="cancel-end-of-period"
              >
                {t('account.subscription.cancelEnd')}
              </Button>
              <Button
                variant="ghost"
                className="text-danger hover:bg-danger-soft hover:text-danger"
                onClick={() => setConfirm('immediate')}
                data-testid="cancel-immediate"
              >
                {t('account.subscription.cancelNow')}
              </Button>
            </div>
          )}

          {s.canSubscribe && (
            <div className="space-y-2 border-t border-line pt-4">
              {!s.isActive && (
                <p className="flex items-start gap-2 text-sm text-muted">
                  <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
                  {t('account.subscription.inactive')}
                </p>
              )}
              <SubscribeButton className="sm:w-fit" />
            </div>
          )}
        </div>
      ) : null}

      <ConfirmPopup
        size="md"
        layerClassName="z-[70]"
        cancelLabel={t('account.common.cancel')}
        confirmTestId="cancel-subscription-dialog-confirm"
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={t('account.subscription.confirmTitle')}
        body={
          confirm === 'immediate' ? t('account.subscription.confirmImmediate') : t('account.subscription.confirmEnd')
        }
        confirmLabel={
          confirm === 'immediate' ? t('account.subscription.cancelNow') : t('account.subscription.cancelEnd')
        }
        onConfirm={doCancel}
        pending={cancel.isPending}
        testId="cancel-subscription-dialog"
      />
    </Section>
  );
}
