import { CreditCard } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useFormatEuros } from '../../i18n/format.ts';
import { Button } from '../../ui/Button.tsx';
import { FormMessage } from '../../ui/Field.tsx';
import { useSubscribe, useSubscriptionStatus } from './api.ts';
import { purchaseErrorMessage } from './errors.ts';
import { useCancelledReturnNotices } from './returnNotices.ts';

/** The subscribe flow: opens the subscription checkout, which returns to /dashboard?subscription=success. */
export function SubscribeButton({
  className,
  announceReturns = false,
}: {
  className?: string;
  announceReturns?: boolean;
}) {
  const { t } = useTranslation();
  const status = useSubscriptionStatus();
  const subscribe = useSubscribe();
  const euros = useFormatEuros();
  // On the subscription gate the dashboard is not mounted: a cancelled checkout is announced here.
  useCancelledReturnNotices(announceReturns);
  const plan = status.data?.plan;
  return (
    <div className={className}>
      <Button
        data-testid="subscribe-button"
        onClick={() => subscribe.mutate()}
        loading={subscribe.isPending || subscribe.isSuccess}
        className="w-full"
      >
        <CreditCard className="size-4" aria-hidden />
        {plan
          ? t('billing.subscription.subscribeFor', {
              price: euros(plan.amount),
              interval: t(`billing.subscription.interval.${plan.interval}`, { defaultValue: plan.interval }),
            })
          : t('billing.subscription.subscribe')}
      </Button>
      {subscribe.isError && (
        <div className="mt-3 text-start">
          <FormMessage>{purchaseErrorMessage(subscribe.error)}</FormMessage>
        </div>
      )}
    </div>
  );
}
