import { CircleAlert, Coins, PencilLine, RotateCcw, ShieldAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '../../../../common/messages.ts';
import type { StudioMode } from '../../../../common/rules/studio.ts';
import { useCreditsText } from '../../../i18n/format.ts';
import { translateMessage } from '../../../i18n/index.ts';
import { localizeMessage } from '../../../i18n/localize.ts';
import { Button } from '../../../ui/Button.tsx';
import { cn } from '../../../ui/cn.ts';
import { creditShortfall, useNeedMoreText } from '../../billing/CreditShortfall.tsx';
import type { GenerationError } from '../store.ts';

const TONES = {
  filtered: { icon: ShieldAlert, box: 'border-warning/35 bg-warning-soft', badge: 'bg-warning/15 text-warning' },
  credits: { icon: Coins, box: 'border-accent/35 bg-accent-soft', badge: 'bg-accent/15 text-accent' },
  generic: { icon: CircleAlert, box: 'border-danger/35 bg-danger-soft', badge: 'bg-danger/15 text-danger' },
} as const;

/**
 * Spec 8 error panels: Content Filtered (Try Different Prompt), Credits Required (Add Credits, Retry) and
 * Action Failed (Retry Action). Video adds the spec's own filter and balance texts.
 */
export function ErrorPanel({
  mode,
  error,
  price,
  balance,
  onTryDifferentPrompt,
  onAddCredits,
  onRetry,
}: {
  mode: StudioMode;
  error: GenerationError;
  price: number;
  balance: number | null;
  onTryDifferentPrompt: () => void;
  onAddCredits: () => void;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  const creditsText = useCreditsText();
  const needMore = useNeedMoreText();
  const tone = TONES[error.kind];
  const Icon = tone.icon;
  const m = MESSAGES.generation;
  const title =
    error.kind === 'filtered' ? m.contentFiltered : error.kind === 'credits' ? m.creditsRequired : m.actionFailed;

  // A 402 from our own credit ledger is about the user's balance: say how many credits are missing. The
  // spec's provider text is kept for a vendor account that cannot pay (code vendor_balance).
  const ownBalance =
    error.kind === 'credits' &&
    error.code !== 'vendor_balance' &&
    (error.status === 402 || error.code === 'insufficient_credits');
  const missing = error.shortfall ?? creditShortfall(price, balance);
  let body: string;
  if (error.kind === 'filtered' && mode === 'video') body = m.videoFilterText;
  else if (ownBalance && missing > 0) body = needMore(missing);
  else if (error.kind === 'credits' && mode === 'video' && !ownBalance) body = m.videoBalanceText;
  else body = error.message;
  const detail = body !== error.message && !ownBalance ? error.message : null;

  return (
    <div
      role="alert"
      data-testid="error-panel"
      data-kind={error.kind}
      className={cn('flex w-full flex-col items-center rounded-2xl border px-5 py-8 text-center sm:px-8', tone.box)}
    >
      <span className={cn('mb-4 grid size-12 place-items-center rounded-2xl', tone.badge)}>
        <Icon className="size-6" aria-hidden />
      </span>
      <h3 className="text-lg font-semibold text-fg">{translateMessage(title)}</h3>
      <p className="mt-2 max-w-md text-sm leading-relaxed text-fg/90" data-testid="error-panel-message">
        {localizeMessage(body)}
      </p>
      {detail && <p className="mt-1.5 max-w-md text-xs text-muted">{localizeMessage(detail)}</p>}
      {error.kind === 'credits' && (
        <dl className="mt-4 flex gap-5 text-sm">
          <div>
            <dt className="text-xs text-subtle">{t('studio.price.cost')}</dt>
            <dd className="font-semibold tabular-nums">{creditsText(price)}</dd>
          </div>
          {balance !== null && (
            <div>
              <dt className="text-xs text-subtle">{t('studio.price.balance')}</dt>
              <dd className="font-semibold tabular-nums text-danger">{creditsText(balance)}</dd>
            </div>
          )}
        </dl>
      )}
      <div className="mt-6 flex flex-wrap justify-center gap-2.5">
        {error.kind === 'filtered' && (
          <Button onClick={onTryDifferentPrompt} data-testid="error-try-different-prompt">
            <PencilLine className="size-4" aria-hidden />
            {translateMessage(m.tryDifferentPrompt)}
          </Button>
        )}
        {error.kind === 'credits' && (
          <>
            <Button onClick={onAddCredits} data-testid="error-add-credits">
              <Coins className="size-4" aria-hidden />
              {translateMessage(m.addCredits)}
            </Button>
            <Button variant="secondary" onClick={onRetry} data-testid="error-retry">
              <RotateCcw className="size-4" aria-hidden />
              {translateMessage(m.retry)}
            </Button>
          </>
        )}
        {error.kind === 'generic' && (
          <Button onClick={onRetry} data-testid="error-retry">
            <RotateCcw className="size-4" aria-hidden />
            {translateMessage(m.retryAction)}
          </Button>
        )}
      </div>
    </div>
  );
}
