import { ChevronLeft, ChevronRight } from 'lucide-react';
import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../ui/cn.ts';
import { useDir } from '../../ui/controls.tsx';
import { addDays, monthDays, shiftAnchor } from './calendarMath.ts';

/** 'YYYY-MM' of a 'YYYY-MM-DD'. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

function shiftMonth(month: string, delta: -1 | 1): string {
  return monthOf(shiftAnchor('month', `${month}-01`, delta));
}

/** The 6×7 days shown for a month, from the Sunday on or before its first day. */
function monthGrid(month: string): string[] {
  return monthDays(`${month}-01`);
}

/**
 * A month grid of day buttons. Arrow keys move by a day (following the reading direction) or a week,
 * Home/End to the week's ends, PageUp/PageDown by a month. `today` is the current day in the chosen zone.
 */
export function MonthCalendar({
  month,
  onMonthChange,
  today,
  selected,
  onSelect,
  disablePast,
  renderDay,
  label,
  testId,
}: {
  month: string;
  onMonthChange: (month: string) => void;
  today: string;
  selected: string | null;
  onSelect: (date: string) => void;
  disablePast?: boolean;
  /** Extra content under the day number (badges). */
  renderDay?: (date: string) => ReactNode;
  label: string;
  testId: string;
}) {
  const { t, i18n } = useTranslation();
  const dir = useDir();
  const days = monthGrid(month);
  const [focused, setFocused] = useState<string>(() =>
    selected && monthOf(selected) === month ? selected : monthOf(today) === month ? today : `${month}-01`,
  );
  const focusNext = useRef(false);
  const grid = useRef<HTMLTableElement>(null);

  // Keep the roving focus inside the shown month.
  useEffect(() => {
    if (monthOf(focused) !== month) setFocused(monthOf(today) === month ? today : `${month}-01`);
  }, [month, focused, today]);

  useEffect(() => {
    if (!focusNext.current) return;
    focusNext.current = false;
    grid.current?.querySelector<HTMLButtonElement>(`[data-date="${focused}"]`)?.focus();
  }, [focused]);

  const [y, m] = month.split('-').map(Number) as [number, number];
  const title = new Intl.DateTimeFormat(i18n.language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(y, m - 1, 1)),
  );
  const weekdays = days.slice(0, 7).map((date) => {
    const [yy, mm, dd] = date.split('-').map(Number) as [number, number, number];
    return new Intl.DateTimeFormat(i18n.language, { weekday: 'narrow', timeZone: 'UTC' }).format(
      new Date(Date.UTC(yy, mm - 1, dd)),
    );
  });
  const fullDate = (date: string) => {
    const [yy, mm, dd] = date.split('-').map(Number) as [number, number, number];
    return new Intl.DateTimeFormat(i18n.language, { dateStyle: 'full', timeZone: 'UTC' }).format(
      new Date(Date.UTC(yy, mm - 1, dd)),
    );
  };

  const move = (date: string) => {
    focusNext.current = true;
    setFocused(date);
    if (monthOf(date) !== month) onMonthChange(monthOf(date));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, date: string) => {
    const forward = dir === 'rtl' ? -1 : 1;
    const weekday = days.indexOf(date) % 7;
    const moves: Record<string, () => string> = {
      ArrowRight: () => addDays(date, forward),
      ArrowLeft: () => addDays(date, -forward),
      ArrowDown: () => addDays(date, 7),
      ArrowUp: () => addDays(date, -7),
      Home: () => addDays(date, -weekday),
      End: () => addDays(date, 6 - weekday),
      PageUp: () => `${shiftMonth(month, -1)}-01`,
      PageDown: () => `${shiftMonth(month, 1)}-01`,
    };
    const next = moves[event.key];
    if (!next) return;
    event.preventDefault();
    move(next());
  };

  const prevDisabled = Boolean(disablePast) && month <= monthOf(today);
  const PrevIcon = dir === 'rtl' ? ChevronRight : ChevronLeft;
  const NextIcon = dir === 'rtl' ? ChevronLeft : ChevronRight;

  return (
    <div data-testid={testId} data-month={month}>
      <div className="mb-3 flex items-center gap-2">
        <h3 className="flex-1 text-sm font-semibold" aria-live="polite" data-testid={`${testId}-title`}>
          {title}
        </h3>
        <button
          type="button"
          className="rounded-lg px-2 py-1 text-xs font-medium text-muted hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-accent"
          onClick={() => onMonthChange(monthOf(today))}
        >
          {t('publishing.calendar.today')}
        </button>
        <button
          type="button"
          aria-label={t('publishing.calendar.previous')}
          disabled={prevDisabled}
          data-testid={`${testId}-prev`}
          onClick={() => onMonthChange(shiftMonth(month, -1))}
          className="grid size-8 place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-accent disabled:opacity-40 disabled:hover:bg-transparent"
        >
          <PrevIcon className="size-4" aria-hidden />
        </button>
        <button
          type="button"
          aria-label={t('publishing.calendar.next')}
          data-testid={`${testId}-next`}
          onClick={() => onMonthChange(shiftMonth(month, 1))}
          className="grid size-8 place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-accent"
        >
          <NextIcon className="size-4" aria-hidden />
        </button>
      </div>
      <table
        className="w-full table-fixed border-separate border-spacing-1"
        aria-label={`${label}, ${title}`}
        ref={grid}
      >
        <thead>
          <tr>
            {weekdays.map((day, i) => (
              <th
                // biome-ignore lint/suspicious/noArrayIndexKey: narrow weekday names repeat (S, T)
                key={i}
                scope="col"
                className="text-center text-xs font-medium text-subtle"
              >
                {day}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: 6 }, (_, week) => (
            <tr key={days[week * 7]}>
              {days.slice(week * 7, week * 7 + 7).map((date) => {
                const outside = monthOf(date) !== month;
                const past = date < today;
                const disabled = Boolean(disablePast) && past;
                const isSelected = date === selected;
                return (
                  <td key={date} className="p-0">
                    <button
                      type="button"
                      data-date={date}
                      data-testid={`${testId}-day-${date}`}
                      tabIndex={date === focused ? 0 : -1}
                      disabled={disabled}
                      aria-label={fullDate(date)}
                      aria-current={date === today ? 'date' : undefined}
                      aria-pressed={isSelected}
                      onClick={() => {
                        setFocused(date);
                        onSelect(date);
                      }}
                      onKeyDown={(event) => onKeyDown(event, date)}
                      className={cn(
                        'flex w-full flex-col items-center rounded-lg border tabular-nums transition-colors',
                        renderDay
                          ? 'min-h-16 justify-start gap-1 pb-1.5 pt-2 text-sm sm:min-h-20 sm:text-base'
                          : 'h-10 justify-center text-sm',
                        'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent',
                        isSelected
                          ? 'border-accent bg-accent text-accent-fg'
                          : 'border-transparent hover:border-line-strong hover:bg-surface-2',
                        outside && !isSelected && 'text-subtle',
                        date === today && !isSelected && 'border-accent/60 font-semibold text-accent',
                        disabled && 'cursor-not-allowed opacity-35 hover:border-transparent hover:bg-transparent',
                      )}
                    >
                      <span>{Number(date.slice(8))}</span>
                      {renderDay?.(date)}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
