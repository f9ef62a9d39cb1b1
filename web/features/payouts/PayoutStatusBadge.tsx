import { useTranslation } from 'react-i18next';
import type { PayoutStatus } from '../../../common/api/payments.constants.ts';
import { cn } from '../../ui/cn.ts';

const TONES: Record<PayoutStatus, string> = {
  pending: 'bg-warning-soft text-warning',
  processing: 'bg-accent-soft text-accent',
  paid: 'bg-success-soft text-success',
  failed: 'bg-danger-soft text-danger',
  cancelled: 'bg-surface-3 text-muted',
};

export function PayoutStatusBadge({ status }: { status: PayoutStatus }) {
  const { t } = useTranslation();
  return (
    <span
      className={cn('inline-flex shrink-0 rounded-full px-2 py-0.5 text-xs font-medium', TONES[status])}
      data-testid="payout-status"
      data-status={status}
    >
      {t(`payouts.status.${status}`)}
    </span>
  );
}
