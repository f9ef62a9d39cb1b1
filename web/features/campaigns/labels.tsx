import { CircleAlert, RefreshCw, UserRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type AudienceGeneration, durationLabel } from '../../../common/rules/campaigns.ts';
import { numberLocale } from '../../i18n/format.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';

const GENERATION_KEYS: Record<AudienceGeneration, string> = {
  'Gen Z': 'genZ',
  Millennials: 'millennials',
  'Gen X': 'genX',
  Boomers: 'boomers',
  'Multi-Gen': 'multiGen',
};

/** Display names of the campaign option lists, statuses and labels computed by common/rules/campaigns.ts. */
export function useCampaignLabels() {
  const { t, i18n } = useTranslation();
  const locale = numberLocale(i18n.language);
  return {
    platform: (p: string) => t(`campaigns.platforms.${p}`, { defaultValue: p }),
    contentType: (c: string) => t(`campaigns.contentTypes.${c}`, { defaultValue: c }),
    kpi: (k: string) => t(`campaigns.kpis.${k}`, { defaultValue: k.replace(/_/g, ' ') }),
    status: (s: string) => t(`campaigns.status.${s}`, { defaultValue: s }),
    generation: (g: string) =>
      t(`campaigns.generations.${GENERATION_KEYS[g as AudienceGeneration] ?? 'multiGen'}`, { defaultValue: g }),
    /** The spec's duration label ("1 Week"), worded in the current language from the shared rule's unit and count. */
    duration: (days: number) => {
      const [count, unit] = durationLabel(days).split(' ');
      const base = unit.replace(/s$/, '').toLowerCase();
      return t(`campaigns.durationUnits.${base}`, { count: Number(count) });
    },
    number: (n: number) => new Intl.NumberFormat(locale).format(n),
    compact: (n: number) => new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(n),
  };
}

const TONES: Record<string, string> = {
  open: 'bg-success-soft text-success',
  active: 'bg-success-soft text-success',
  accepted: 'bg-success-soft text-success',
  running: 'bg-accent-soft text-accent',
  pending: 'bg-warning-soft text-warning',
  draft: 'bg-warning-soft text-warning',
  completed: 'bg-surface-3 text-muted',
  withdrawn: 'bg-surface-3 text-muted',
  declined: 'bg-danger-soft text-danger',
  cancelled: 'bg-danger-soft text-danger',
};

export function StatusBadge({ status, className }: { status: string; className?: string }) {
  const labels = useCampaignLabels();
  return (
    <span
      data-testid="status-badge"
      data-status={status}
      className={cn(
        'inline-flex h-6 shrink-0 items-center rounded-full px-2.5 text-xs font-medium',
        TONES[status] ?? 'bg-surface-3 text-muted',
        className,
      )}
    >
      {labels.status(status)}
    </span>
  );
}

/** A load failure with its message and Try Again. */
export function LoadFailed({ message, onRetry, testId }: { message: string; onRetry: () => void; testId?: string }) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      data-testid={testId ?? 'load-failed'}
      className="flex flex-col items-center gap-3 rounded-2xl border border-danger/30 bg-danger-soft px-6 py-10 text-center"
    >
      <CircleAlert className="size-7 text-danger" aria-hidden />
      <p className="text-sm font-medium text-fg">{message}</p>
      <Button variant="secondary" size="sm" onClick={onRetry} data-testid="try-again">
        <RefreshCw className="size-4" aria-hidden />
        {t('campaigns.tryAgain')}
      </Button>
    </div>
  );
}

export function EmptyState({
  icon,
  title,
  children,
  testId,
}: {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
  testId: string;
}) {
  return (
    <div
      data-testid={testId}
      className="flex flex-col items-center rounded-2xl border border-dashed border-line-strong bg-surface px-6 py-12 text-center"
    >
      <span className="mb-3 grid size-12 place-items-center rounded-2xl bg-accent-soft text-accent">{icon}</span>
      <p className="text-base font-semibold">{title}</p>
      {children}
    </div>
  );
}

/** A creator's round picture, or a person icon when there is none. */
export function CreatorAvatar({ url }: { url: string | null }) {
  return url ? (
    <img src={url} alt="" className="size-9 rounded-full object-cover" />
  ) : (
    <span className="grid size-9 place-items-center rounded-full bg-surface-3 text-subtle">
      <UserRound className="size-4" aria-hidden />
    </span>
  );
}
