import { useTranslation } from 'react-i18next';
import { cn } from '../../ui/cn.ts';
import { creditBadge } from './topup.ts';

const TONES = {
  low: 'border-danger/30 bg-danger-soft text-danger',
  runningLow: 'border-warning/30 bg-warning-soft text-warning',
  good: 'border-success/30 bg-success-soft text-success',
} as const;

/** Low Balance (≤ 10), Running Low (≤ 25) or Good. */
export function CreditBadge({ credits, className }: { credits: number; className?: string }) {
  const { t } = useTranslation();
  const badge = creditBadge(credits);
  return (
    <span
      data-testid="credit-badge"
      data-badge={badge}
      className={cn(
        'inline-flex h-6 items-center rounded-full border px-2.5 text-xs font-semibold whitespace-nowrap',
        TONES[badge],
        className,
      )}
    >
      {t(`billing.badge.${badge}`)}
    </span>
  );
}
