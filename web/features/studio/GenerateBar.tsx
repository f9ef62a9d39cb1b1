// The Creator tab's action bar, in view while the form scrolls: the check message, why an engine cannot be called
// or how many credits are missing, the price and balance, and Generate.
import { CircleAlert, Coins, Sparkles } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { type StudioMode, studioAction } from '../../../common/rules/studio.ts';
import { useActionLabel, useCreditsText, useFormatNumber } from '../../i18n/format.ts';
import { Button } from '../../ui/Button.tsx';
import { CreditShortfall } from '../billing/CreditShortfall.tsx';

export function GenerateBar({
  mode,
  checkText,
  unavailable,
  shortfall,
  balance,
  price,
  loading,
  onGenerate,
  onAddCredits,
}: {
  mode: StudioMode;
  checkText: string | null;
  unavailable: string | null;
  shortfall: number;
  balance: number | null;
  price: number;
  loading: boolean;
  onGenerate: () => void;
  onAddCredits: () => void;
}) {
  const { t } = useTranslation();
  const format = useFormatNumber();
  const creditsText = useCreditsText();
  const actionLabel = useActionLabel();
  const short = shortfall > 0;
  return (
    <div
      data-testid="generate-bar"
      className="sticky bottom-[calc(4rem+env(safe-area-inset-bottom))] z-10 -mx-4 -mb-4 space-y-2.5 rounded-b-2xl border-t border-line bg-surface/95 px-4 py-3 backdrop-blur-md sm:-mx-5 sm:-mb-5 sm:px-5 md:bottom-0"
    >
      {checkText && (
        <p
          role="alert"
          data-testid="generate-check"
          className="flex items-start gap-2 rounded-lg border border-danger/30 bg-danger-soft px-3 py-2 text-sm text-danger"
        >
          <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          {checkText}
        </p>
      )}
      {unavailable && (
        <p
          id="studio-unavailable"
          role="status"
          data-testid="studio-unavailable"
          className="flex items-start gap-2 rounded-lg border border-line-strong bg-surface-2 px-3 py-2 text-sm text-fg"
        >
          <CircleAlert className="mt-0.5 size-4 shrink-0 text-danger" aria-hidden />
          {unavailable}
        </p>
      )}
      {short && !unavailable && (
        <CreditShortfall
          shortfall={shortfall}
          balance={balance}
          onAddCredits={onAddCredits}
          testId="studio-shortfall"
        />
      )}
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          <span
            data-testid="price-tag"
            data-credits={price}
            className="inline-flex shrink-0 items-center gap-1.5 whitespace-nowrap rounded-full border border-accent/30 bg-accent-soft px-2.5 py-1 font-semibold text-fg"
            title={t('studio.price.costTitle')}
          >
            <Coins className="size-4 text-accent" aria-hidden />
            <span className="sr-only">{t('studio.price.cost')}: </span>
            {creditsText(price)}
          </span>
          <span className="whitespace-nowrap text-xs text-muted" data-testid="studio-balance">
            {t('studio.price.balanceShort', { formatted: balance === null ? '—' : format(balance) })}
          </span>
        </div>
        <Button
          size="lg"
          onClick={onGenerate}
          loading={loading}
          disabled={short || unavailable !== null}
          aria-describedby={unavailable ? 'studio-unavailable' : short ? 'studio-shortfall-message' : undefined}
          data-testid="generate-button"
          className="w-full @md:w-auto"
        >
          {!loading && <Sparkles className="size-4" aria-hidden />}
          {actionLabel(studioAction('creator', mode), loading)}
        </Button>
      </div>
    </div>
  );
}
