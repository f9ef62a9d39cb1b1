import { useTranslation } from 'react-i18next';
import { progressBarWidth } from '../../../common/rules/generation-state.ts';

/** A labelled progress bar with its percentage (never narrower than 5% so it shows from the start). */
export function PercentBar({ value, label, testId }: { value: number; label: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="w-full space-y-2">
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span className="font-medium text-fg">{label}</span>
        <span className="tabular-nums text-muted">{t('personas.progress.percent', { value })}</span>
      </div>
      <div
        data-testid={testId}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        className="h-2.5 w-full overflow-hidden rounded-full bg-surface-3"
      >
        <div
          className="h-full rounded-full bg-brand-gradient transition-[width] duration-700 ease-out"
          style={{ width: `${progressBarWidth(value)}%` }}
        />
      </div>
    </div>
  );
}
