import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { DASHBOARD_RETURN_FLAGS } from '../../../common/api/app.constants.ts';

/**
 * Returns from a checkout that was not completed (`?topup=cancelled`, `?wallet_topup=cancelled`,
 * `?subscription=cancelled`): say so once and drop the flag; with `openBilling`, a payment's return opens the
 * Account dialog's Billing tab, where the balance and subscription are. Successful returns are handled by the
 * dashboard guard, which refreshes the balance first.
 */
export function useCancelledReturnNotices(enabled = true, openBilling = false) {
  const [params, setParams] = useSearchParams();
  const { t } = useTranslation();
  const cancelled = DASHBOARD_RETURN_FLAGS.filter((flag) => {
    const value = params.get(flag);
    return value !== null && value !== 'success';
  });
  const key = cancelled.join(',');

  useEffect(() => {
    if (!enabled || !key) return;
    for (const flag of key.split(',')) toast.info(t(`billing.returnCancelled.${flag}`));
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const flag of key.split(',')) next.delete(flag);
        if (openBilling && key.split(',').some((flag) => flag !== 'onboarding')) next.set('account', 'billing');
        return next;
      },
      { replace: true },
    );
  }, [enabled, openBilling, key, setParams, t]);
}
