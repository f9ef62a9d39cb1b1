import { useTranslation } from 'react-i18next';
import { progressBarWidth } from '../../common/rules/generation-state.ts';

/** "1 min 5 s" / "40 s", in the current language. */
function useDurationText() {
  const { t } = useTranslation();
  return (seconds: number) => {
    const s = Math.max(0, Math.round(seconds));
    if (s < 60) return t('studio.time.seconds', { s });
    const m = Math.floor(s / 60);
    const rest = s % 60;
    return rest === 0 ? t('studio.time.minutes', { m }) : t('studio.time.minutesSeconds', { m, s: rest });
  };
}

/**
 * Progress with percentage and time left; the bar is never narrower than 5% (spec 9). `secondsLeft` null:
 * no estimate is known, so none is shown. `status` replaces the time left (e.g. 'Queued').
 */
export function ProgressBar({
  value,
  secondsLeft,
  label,
  status,
}: {
  value: number;
  secondsLeft: number | null;
  label: string;
  status?: string;
}) {
  const { t } = useTranslation();
  const duration = useDurationText();
  const left =
    status ??
    (secondsLeft === null
      ? null
      : secondsLeft > 0
        ? t('studio.progress.left', { time: duration(secondsLeft) })
        : t('studio.progress.finishing'));
  const percent = t('studio.progress.percent', { value });
  return (
    <div className="w-full space-y-2">
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span className="min-w-0 truncate font-medium text-fg">{label}</span>
        <span className="shrink-0 tabular-nums text-muted" data-testid="progress-text">
          {left ? `${percent} · ${left}` : percent}
        </span>
      </div>
      <div
        data-testid="progress-bar"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={left ? `${percent}, ${left}` : percent}
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
