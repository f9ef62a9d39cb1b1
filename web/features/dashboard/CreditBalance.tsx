import { Coins } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CREDIT_BADGE } from '../../../common/api/app.constants.ts';
import { cn } from '../../ui/cn.ts';

function formatCount(value: number, language: string): string {
  // Western digits in both languages so balances read the same everywhere.
  return new Intl.NumberFormat(language === 'ar' ? 'ar-u-nu-latn' : 'en').format(value);
}

function tone(credits: number) {
  if (credits <= CREDIT_BADGE.lowAtOrBelow) return 'text-danger';
  if (credits <= CREDIT_BADGE.runningLowAtOrBelow) return 'text-warning';
  return 'text-fg';
}

/** The credit balance; `testId` is set on the one instance the current layout shows. */
export function CreditBalance({
  credits,
  testId,
  variant = 'card',
  onClick,
}: {
  credits: number;
  testId?: string;
  variant?: 'card' | 'pill' | 'icon';
  /** Makes the balance a button (it opens Billing in the account dialog). */
  onClick?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const label = t('credits.balance', { count: credits, formatted: formatCount(credits, i18n.language) });
  const number = (
    <span data-testid={testId} className={cn('font-semibold tabular-nums', tone(credits))}>
      {formatCount(credits, i18n.language)}
    </span>
  );

  const Root = onClick ? 'button' : 'div';
  // The name is the visible text plus this hint (WCAG 2.5.3: the visible label is part of the name).
  const buttonProps = onClick
    ? { type: 'button' as const, onClick, 'data-testid': testId ? `${testId}-button` : undefined }
    : {};
  const hint = onClick ? <span className="sr-only"> — {t('account.entry.openBilling')}</span> : null;

  if (variant === 'icon') {
    return (
      <Root
        {...buttonProps}
        className={cn('flex flex-col items-center gap-0.5 rounded-lg p-1 text-xs', onClick && 'hover:bg-surface-2')}
        title={label}
      >
        <Coins className="size-4 text-accent" aria-hidden />
        {number}
        <span className="sr-only">{t('credits.label')}</span>
        {hint}
      </Root>
    );
  }
  if (variant === 'pill') {
    return (
      <Root
        {...buttonProps}
        className={cn(
          'inline-flex h-8 items-center gap-1.5 rounded-full border border-line bg-surface-2 px-3 text-sm',
          onClick && 'transition-colors hover:border-line-strong',
        )}
        title={label}
      >
        <Coins className="size-4 text-accent" aria-hidden />
        {number}
        <span className="sr-only">{t('credits.label')}</span>
        {hint}
      </Root>
    );
  }
  return (
    <Root
      {...buttonProps}
      className={cn(
        'flex w-full items-center gap-3 rounded-xl border border-line bg-surface-2 px-3 py-2.5 text-start',
        onClick && 'transition-colors hover:border-line-strong',
      )}
    >
      <span className="grid size-8 place-items-center rounded-lg bg-accent-soft text-accent">
        <Coins className="size-4" aria-hidden />
      </span>
      <div className="min-w-0 leading-tight">
        <div className="text-xs font-medium uppercase tracking-wide text-subtle">{t('credits.label')}</div>
        <div className="text-sm">{number}</div>
      </div>
      {hint}
    </Root>
  );
}
