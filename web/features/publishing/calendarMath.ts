// Date maths of the scheduling calendar (week and month views): the days a view shows, the slot a post sits in and
// the instant a post dropped on another slot moves to, all in the zone the calendar is shown in.
import type { CalendarDay, ScheduledPost } from '../../../common/api/social.ts';
import { formatReschedule, statsOf, wallTimeToInstant } from '../../../common/rules/scheduling.ts';

export const CALENDAR_VIEWS = ['week', 'month'] as const;
export type CalendarView = (typeof CALENDAR_VIEWS)[number];

export const HOURS: readonly number[] = Array.from({ length: 24 }, (_, h) => h);

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function utcDay(date: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d));
}

function dayString(at: Date): string {
  return `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`;
}

/** 'YYYY-MM-DD' moved by whole calendar days. */
export function addDays(date: string, delta: number): string {
  const at = utcDay(date);
  at.setUTCDate(at.getUTCDate() + delta);
  return dayString(at);
}

/** The Sunday on or before a day (the month grid starts its weeks on Sunday too). */
function weekStart(date: string): string {
  return addDays(date, -utcDay(date).getUTCDay());
}

/** The 7 days of the week holding `date`, Sunday first. */
export function weekDays(date: string): string[] {
  const start = weekStart(date);
  return Array.from({ length: 7 }, (_, i) => addDays(start, i));
}

/** The 6×7 days shown for the month of `date`, from the Sunday on or before its first day. */
export function monthDays(date: string): string[] {
  const start = weekStart(`${date.slice(0, 7)}-01`);
  return Array.from({ length: 42 }, (_, i) => addDays(start, i));
}

export function viewDays(view: CalendarView, anchor: string): string[] {
  return view === 'week' ? weekDays(anchor) : monthDays(anchor);
}

/** Previous / next week or month: the anchor day moved by a week, or to the first of the next month. */
export function shiftAnchor(view: CalendarView, anchor: string, delta: -1 | 1): string {
  if (view === 'week') return addDays(anchor, 7 * delta);
  const at = utcDay(`${anchor.slice(0, 7)}-01`);
  at.setUTCMonth(at.getUTCMonth() + delta);
  return dayString(at);
}

/** The day, hour and minute a moment falls on in a zone. */
export function slotOf(at: Date | string, zone: string): { date: string; hour: number; minute: number } {
  const [date = '', time = '00:00'] = formatReschedule(new Date(at), zone).split(' ');
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return { date, hour, minute };
}

/** A drop target: a day (month view) or an hour of a day (week view). */
export interface Slot {
  date: string;
  hour: number | null;
}

export function slotId(slot: Slot): string {
  return slot.hour === null ? slot.date : `${slot.date}T${pad(slot.hour)}`;
}

export function parseSlotId(id: string): Slot | null {
  const match = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}))?$/.exec(id);
  if (!match) return null;
  return { date: match[1] as string, hour: match[2] === undefined ? null : Number(match[2]) };
}

/**
 * Where a post dropped on a slot goes: the slot's day, and its hour in the week view, keeping the post's other
 * wall-clock parts (its minutes; in the month view its time of day) as read in `zone`. A wall time a daylight-saving
 * jump skips resolves after the jump (02:30 → 03:30). Null when the post stays where it is.
 */
export function movedTime(scheduled: Date | string, zone: string, slot: Slot): Date | null {
  const from = slotOf(scheduled, zone);
  const hour = slot.hour ?? from.hour;
  if (slot.date === from.date && hour === from.hour) return null;
  return wallTimeToInstant(slot.date, `${pad(hour)}:${pad(from.minute)}`, zone);
}

/** Whether anything scheduled in the slot would be in the past: the whole hour (or day) is over. */
export function isPastSlot(slot: Slot, zone: string, now: Date): boolean {
  const end =
    slot.hour === null || slot.hour === 23
      ? wallTimeToInstant(addDays(slot.date, 1), '00:00', zone)
      : wallTimeToInstant(slot.date, `${pad(slot.hour + 1)}:00`, zone);
  return !end || end.getTime() <= now.getTime();
}

/**
 * The calendar days after a post moved to `at` (the optimistic picture while the server is asked): it leaves its
 * day and joins the day of `at` in `zone` when that day is between `start` and `end`; stats follow.
 */
export function movedInCalendar(
  days: readonly CalendarDay[],
  post: ScheduledPost,
  at: Date,
  range: { start: string; end: string; zone: string },
): CalendarDay[] {
  const moved: ScheduledPost = { ...post, scheduled_time: at.toISOString() };
  const target = slotOf(at, range.zone).date;
  const byDate = new Map(days.map((day) => [day.date, day.posts.filter((p) => p.id !== post.id)]));
  if (target >= range.start && target <= range.end) byDate.set(target, [...(byDate.get(target) ?? []), moved]);
  return [...byDate.entries()]
    .filter(([, posts]) => posts.length > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, posts]) => {
      const sorted = [...posts].sort((a, b) => a.scheduled_time.localeCompare(b.scheduled_time));
      return { date, stats: statsOf(sorted), posts: sorted };
    });
}

/**
 * The slot an arrow key moves a picked-up post to: a day sideways (following the reading direction), an hour (week)
 * or a week (month) up and down; slots that are past or out of view are stepped over.
 */
export function neighbourSlot(
  from: string,
  key: string,
  view: CalendarView,
  rtl: boolean,
  open: (id: string) => boolean,
): string | null {
  const forward = rtl ? 'ArrowLeft' : 'ArrowRight';
  const back = rtl ? 'ArrowRight' : 'ArrowLeft';
  const step = (slot: Slot): Slot | null => {
    if (key === forward) return { ...slot, date: addDays(slot.date, 1) };
    if (key === back) return { ...slot, date: addDays(slot.date, -1) };
    const delta = key === 'ArrowDown' ? 1 : key === 'ArrowUp' ? -1 : 0;
    if (delta === 0) return null;
    if (view === 'month' || slot.hour === null) return { ...slot, date: addDays(slot.date, 7 * delta) };
    const hour = slot.hour + delta;
    return hour < 0 || hour > 23 ? null : { ...slot, hour };
  };
  let slot = parseSlotId(from);
  for (let i = 0; slot && i < 24 * 7; i++) {
    slot = step(slot);
    if (slot && open(slotId(slot))) return slotId(slot);
  }
  return null;
}
