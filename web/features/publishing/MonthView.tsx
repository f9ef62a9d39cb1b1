import { useDroppable } from '@dnd-kit/core';
import { useTranslation } from 'react-i18next';
import type { CalendarDay } from '../../../common/api/social.ts';
import { isChangeable } from '../../../common/rules/scheduling.ts';
import { cn } from '../../ui/cn.ts';
import { CalendarPost } from './CalendarPost.tsx';
import { isPastSlot } from './calendarMath.ts';
import { DayBadges } from './postStatus.tsx';
import { dayParts, type ViewProps } from './WeekView.tsx';

/** Chips a day shows before '+N more' (the day dialog lists them all). */
const CHIPS_PER_DAY = 3;

function MonthCell({
  date,
  day,
  outside,
  zone,
  today,
  now,
  onOpenDay,
}: {
  date: string;
  day: CalendarDay | undefined;
  outside: boolean;
  zone: string;
  today: string;
  now: Date;
  onOpenDay: (date: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const past = isPastSlot({ date, hour: null }, zone, now);
  const { setNodeRef, isOver } = useDroppable({ id: date, disabled: past, data: { slot: { date, hour: null } } });
  const posts = day?.posts ?? [];
  const more = posts.length - CHIPS_PER_DAY;
  const parts = dayParts(date, i18n.language);
  return (
    <td
      ref={setNodeRef}
      data-testid={`month-cell-${date}`}
      data-past={past || undefined}
      className={cn(
        'h-24 border-b border-s border-line p-0.5 align-top first:border-s-0 @3xl:h-32 @3xl:p-1',
        (outside || past) && 'bg-surface-2/50',
        isOver && 'bg-accent-soft ring-2 ring-inset ring-accent',
      )}
    >
      <div className="flex min-w-0 flex-col gap-1">
        <button
          type="button"
          data-date={date}
          data-testid={`posts-calendar-day-${date}`}
          aria-current={date === today ? 'date' : undefined}
          onClick={() => onOpenDay(date)}
          className={cn(
            'flex min-h-7 w-full flex-wrap items-center justify-center gap-1 rounded-md px-0.5 text-sm tabular-nums hover:bg-surface-3 focus-visible:outline-2 focus-visible:outline-accent @3xl:justify-between',
            outside ? 'text-subtle' : 'text-fg',
            date === today && 'font-semibold text-accent',
          )}
        >
          <span className="sr-only">{parts.full}</span>
          <span
            aria-hidden
            className={cn(
              'grid min-w-6 place-items-center rounded-full leading-6',
              date === today && 'bg-accent text-accent-fg',
            )}
          >
            {parts.day}
          </span>
          <DayBadges day={day} inline />
        </button>
        {posts.slice(0, CHIPS_PER_DAY).map((post) => (
          <CalendarPost
            key={post.id}
            post={post}
            zone={zone}
            compact
            movable={isChangeable(post, now)}
            onOpen={() => onOpenDay(date)}
          />
        ))}
        {more > 0 && (
          <button
            type="button"
            onClick={() => onOpenDay(date)}
            data-testid="month-more"
            className="min-h-6 rounded-md text-xs font-medium text-accent hover:bg-surface-3 focus-visible:outline-2 focus-visible:outline-accent"
          >
            {t('publishing.calendar.more', { count: more })}
          </button>
        )}
      </div>
    </td>
  );
}

/** A month as 6 weeks of days, each with its first posts as chips; a post can be dropped on another day. */
export function MonthView({ days, byDate, zone, today, now, onOpenDay, month }: ViewProps & { month: string }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="relative overflow-hidden rounded-xl border border-line" data-testid="month-view">
      <table
        className="w-full table-fixed border-separate border-spacing-0"
        aria-label={t('publishing.calendar.monthGrid')}
      >
        <thead>
          <tr>
            {days.slice(0, 7).map((date) => (
              <th
                key={date}
                scope="col"
                className="border-b border-s border-line py-1.5 text-xs font-medium text-muted first:border-s-0"
              >
                {dayParts(date, i18n.language).weekday}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: days.length / 7 }, (_, week) => (
            <tr key={days[week * 7]}>
              {days.slice(week * 7, week * 7 + 7).map((date) => (
                <MonthCell
                  key={date}
                  date={date}
                  day={byDate.get(date)}
                  outside={date.slice(0, 7) !== month}
                  zone={zone}
                  today={today}
                  now={now}
                  onOpenDay={onOpenDay}
                />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
