import { useTranslation } from 'react-i18next';
import type { CalendarDay, ScheduledPostStatus } from '../../../common/api/social.ts';
import { dayBadge } from '../../../common/rules/scheduling.ts';
import { cn } from '../../ui/cn.ts';

// How a post's status reads: its pill, and the badges of a calendar day.

export const STATUS_DOT: Record<ScheduledPostStatus, string> = {
  failed: 'bg-danger',
  scheduled: 'bg-accent',
  cancelled: 'bg-subtle',
  published: 'bg-success',
};
const STATUS_PILL: Record<ScheduledPostStatus, string> = {
  failed: 'bg-danger-soft text-danger',
  scheduled: 'bg-accent-soft text-accent',
  cancelled: 'bg-surface-3 text-muted',
  published: 'bg-success-soft text-success',
};

/** Spec 2.3 badges of a day: the count from 5 posts ('99+' cap), dots for 3+ posts of mixed statuses, else one dot. */
export function DayBadges({ day, inline }: { day: CalendarDay | undefined; inline?: boolean }) {
  const { t } = useTranslation();
  if (!day || day.stats.total === 0) return null;
  const badge = dayBadge(day.stats);
  const primary = badge.primary ?? 'scheduled';
  return (
    <span
      className={cn('flex items-center gap-1', !inline && 'flex-col')}
      data-testid="calendar-badge"
      data-primary={primary}
      data-count={badge.count ?? undefined}
      data-dots={badge.dots.join(',') || undefined}
      title={t('publishing.calendar.posts', { count: day.stats.total })}
    >
      <span className="sr-only">{t('publishing.calendar.posts', { count: day.stats.total })}</span>
      {badge.count && (
        <span
          className={cn(
            'min-w-6 rounded-full px-1.5 text-center text-xs font-semibold leading-5 tabular-nums',
            STATUS_PILL[primary],
          )}
          data-testid="calendar-badge-count"
          aria-hidden
        >
          {badge.count}
        </span>
      )}
      {badge.dots.length > 0 ? (
        <span className="flex gap-1" aria-hidden>
          {badge.dots.map((status) => (
            <span
              key={status}
              className={cn('size-2 rounded-full ring-1 ring-surface', STATUS_DOT[status])}
              data-testid="calendar-badge-dot"
            />
          ))}
        </span>
      ) : (
        !badge.count && (
          <span
            className={cn('size-2 rounded-full', STATUS_DOT[primary])}
            data-testid="calendar-badge-dot"
            aria-hidden
          />
        )
      )}
    </span>
  );
}

export function StatusPill({ status }: { status: ScheduledPostStatus }) {
  const { t } = useTranslation();
  return (
    <span className={cn('rounded-full px-2 py-0.5 text-xs font-semibold', STATUS_PILL[status])}>
      {t(`publishing.postStatus.${status}`)}
    </span>
  );
}
