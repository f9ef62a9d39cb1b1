import { Coins } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '../../../common/messages.ts';
import { useMe } from '../../api/auth.ts';
import { numberLocale } from '../../i18n/format.ts';
import { translateMessage } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { TopUpDialog } from './TopUpDialog.tsx';
import { creditShortfall, suggestedCredits } from './topup.ts';

export { creditShortfall };

/** The signed-in user's balance and what it lacks for `price` (0 while the balance is unknown). */
export function useCreditGuard(price: number): { balance: number | null; shortfall: number } {
  const balance = useMe().data?.credits ?? null;
  return { balance, shortfall: creditShortfall(price, balance) };
}

/** 'You need N more credits' in the current language (English verbatim from common/messages.ts). */
export function useNeedMoreText() {
  const { t, i18n } = useTranslation();
  return (count: number) => {
    if (i18n.language === 'en') return MESSAGES.credits.needMore(count);
    const formatted = new Intl.NumberFormat(numberLocale(i18n.language)).format(count);
    return t('messages.credits.needMore', { count, formatted, defaultValue: MESSAGES.credits.needMore(count) });
  };
}

/**
 * Beside a paid action the balance cannot cover: 'You need N more credits', the suggested top-up (the
 * shortfall rounded up plus 100) and Add Credits, which opens the top-up dialog with that suggestion
 * preselected. Pass `onAddCredits` to open a dialog of your own instead.
 */
export function CreditShortfall({
  shortfall,
  balance,
  onAddCredits,
  testId = 'credit-shortfall',
  compact = false,
  className,
}: {
  shortfall: number;
  balance: number | null;
  onAddCredits?: () => void;
  testId?: string;
  /** One line, for tight action bars. */
  compact?: boolean;
  className?: string;
}) {
  const { t, i18n } = useTranslation();
  const needMore = useNeedMoreText();
  const [open, setOpen] = useState(false);
  if (shortfall <= 0) return null;
  const suggested = suggestedCredits(shortfall);
  const formatted = new Intl.NumberFormat(numberLocale(i18n.language)).format(suggested);
  return (
    <div
      role="status"
      data-testid={testId}
      data-shortfall={shortfall}
      data-suggested={suggested}
      className={cn(
        'flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-warning/35 bg-warning-soft text-sm',
        compact ? 'px-3 py-1.5' : 'px-3.5 py-2.5',
        className,
      )}
    >
      <Coins className="size-4 shrink-0 text-warning" aria-hidden />
      <div className="min-w-0 flex-1 leading-snug">
        <p id={`${testId}-message`} className="font-medium text-fg" data-testid={`${testId}-message`}>
          {needMore(shortfall)}
        </p>
        <p className="text-xs text-muted">
          {t('billing.shortfallBar.suggestion', { suggested: t('billing.credits', { count: suggested, formatted }) })}
        </p>
      </div>
      <Button
        size="sm"
        variant="secondary"
        data-testid={`${testId}-add`}
        onClick={() => (onAddCredits ? onAddCredits() : setOpen(true))}
      >
        <Coins className="size-4 text-accent" aria-hidden />
        {translateMessage(MESSAGES.generation.addCredits)}
      </Button>
      {!onAddCredits && <TopUpDialog open={open} onOpenChange={setOpen} balance={balance} shortfall={shortfall} />}
    </div>
  );
}
