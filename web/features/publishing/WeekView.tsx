import { useDroppable } from '@dnd-kit/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { CalendarDay, ScheduledPost } from '../../../common/api/social.ts';
import { isChangeable } from '../../../common/rules/scheduling.ts';
import { cn } from '../../ui/cn.ts';
import { CalendarPost } from './CalendarPost.tsx';
import { HOURS, isPastSlot, type Slot, slotId, slotOf } from './calendarMath.ts';
import { DayBadges } from './postStatus.tsx';

export interface ViewProps {
  days: string[];
  byDate: Map<string, CalendarDay>;
  zone: string;
  today: string;
  now: Date;
  onOpenDay: (date: string) => void;
}

/** 'Mon 9' style heading parts of a day in the user's language. */
export function dayParts(date: string, language: string) {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const at = new Date(Date.UTC(y, m - 1, d));
  const format = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(language, { ...options, timeZone: 'UTC' }).format(at);
  return {
    weekday: format({ weekday: 'short' }),
    day: format({ day: 'numeric' }),
    full: format({ dateStyle: 'full' }),
  };
}

export function hourLabel(hour: number, language: string): string {
  return new Intl.DateTimeFormat(language, { hour: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2026, 0, 1, hour)),
  );
}

function HourSlot({
  slot,
  posts,
  zone,
  now,
  onOpenDay,
}: {
  slot: Slot;
  posts: ScheduledPost[];
  zone: string;
  now: Date;
  onOpenDay: (date: string) => void;
}) {
  const past = isPastSlot(slot, zone, now);
  const { setNodeRef, isOver } = useDroppable({ id: slotId(slot), disabled: past, data: { slot } });
  return (
    <td
      ref={setNodeRef}
      data-testid={`week-slot-${slotId(slot)}`}
      data-past={past || undefined}
      className={cn(
        'h-14 border-b border-s border-line p-1 align-top',
        past && 'bg-surface-2/60',
        isOver && 'bg-accent-soft ring-2 ring-inset ring-accent',
      )}
    >
      <div className="flex min-w-0 flex-col gap-1">
        {posts.map((post) => (
          <CalendarPost
            key={post.id}
            post={post}
            zone={zone}
            movable={isChangeable(post, now)}
            onOpen={() => onOpenDay(slot.date)}
          />
        ))}
      </div>
    </td>
  );
}

/**
 * Seven day columns by 24 hours in the calendar's zone, each post in its hour. It scrolls inside itself with the
 * days and the hours kept in view (at 375 px the days scroll sideways), opening at 8:00 or the week's first post.
 */
export function WeekView({ days, byDate, zone, today, now, onOpenDay }: ViewProps) {
  const { t, i18n } = useTranslation();
  const scroller = useRef<HTMLElement>(null);
  const slots = new Map<string, ScheduledPost[]>();
  for (const date of days) {
    for (const post of byDate.get(date)?.posts ?? []) {
      const key = slotId({ date, hour: slotOf(post.scheduled_time, zone).hour });
      slots.set(key, [...(slots.get(key) ?? []), post]);
    }
  }
  const firstHour = Math.min(
    8,
    ...days.flatMap((date) => (byDate.get(date)?.posts ?? []).map((p) => slotOf(p.scheduled_time, zone).hour)),
  );
  const scrolledFor = useRef<string | null>(null);
  const weekKey = `${days[0]}:${byDate.size > 0}`;
  useEffect(() => {
    const box = scroller.current;
    if (!box || scrolledFor.current === weekKey) return;
    scrolledFor.current = weekKey;
    const row = box.querySelector<HTMLElement>(`[data-hour="${firstHour}"]`);
    const head = box.querySelector<HTMLElement>('[data-week-head]');
    if (row) box.scrollTop = row.offsetTop - (head?.offsetHeight ?? 0);
  }, [weekKey, firstHour]);

  return (
    <section
      ref={scroller}
      className="relative max-h-[70vh] overflow-auto rounded-xl border border-line focus-visible:outline-2 focus-visible:outline-accent"
      data-testid="week-view"
      // A scroll region must be reachable by keyboard.
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the week scrolls and keyboard users scroll it
      tabIndex={0}
      aria-label={t('publishing.calendar.weekGrid')}
    >
      <table className="w-full min-w-[52rem] table-fixed border-separate border-spacing-0">
        <colgroup>
          <col className="w-14" />
        </colgroup>
        <thead>
          <tr>
            <th data-week-head scope="col" className="sticky start-0 top-0 z-20 border-b border-line bg-surface">
              <span className="sr-only">{t('publishing.calendar.hour')}</span>
            </th>
            {days.map((date) => (
              <DayHead key={date} date={date} day={byDate.get(date)} today={today} onOpenDay={onOpenDay} />
            ))}
          </tr>
        </thead>
        <tbody>
          {HOURS.map((hour) => (
            <tr key={hour}>
              <th
                scope="row"
                data-hour={hour}
                className="sticky start-0 z-[5] border-b border-line bg-surface pe-2 pt-1 text-end align-top text-xs font-normal tabular-nums text-muted"
              >
                {hourLabel(hour, i18n.language)}
              </th>
              {days.map((date) => (
                <HourSlot
                  key={date}
                  slot={{ date, hour }}
                  posts={slots.get(slotId({ date, hour })) ?? []}
                  zone={zone}
                  now={now}
                  onOpenDay={onOpenDay}
                />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function DayHead({
  date,
  day,
  today,
  onOpenDay,
}: {
  date: string;
  day: CalendarDay | undefined;
  today: string;
  onOpenDay: (date: string) => void;
}) {
  const { i18n } = useTranslation();
  const parts = dayParts(date, i18n.language);
  return (
    <th scope="col" className="sticky top-0 z-10 border-b border-s border-line bg-surface p-0 font-normal">
      <button
        type="button"
        onClick={() => onOpenDay(date)}
        data-testid={`week-day-${date}`}
        aria-current={date === today ? 'date' : undefined}
        className={cn(
          'flex min-h-11 w-full items-center justify-center gap-1.5 px-1 py-1.5 text-sm hover:bg-surface-2 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent',
          date === today ? 'font-semibold text-accent' : 'text-muted',
        )}
      >
        <span className="sr-only">{parts.full}</span>
        <span aria-hidden>{parts.weekday}</span>
        <span
          aria-hidden
          className={cn(
            'grid min-w-7 place-items-center rounded-full px-1 text-base tabular-nums leading-7',
            date === today ? 'bg-accent text-accent-fg' : 'text-fg',
          )}
        >
          {parts.day}
        </span>
        <DayBadges day={day} inline />
      </button>
    </th>
  );
}
