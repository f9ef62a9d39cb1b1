import { MESSAGES } from '../messages.ts';

// Scheduling rules (accounts spec 2.3, 4, 5, 9): time slots, time zones, calendar badges, reschedule input.
// Times are instants (UTC) plus an IANA zone; wall times and days are computed with Intl in that zone.

const M = MESSAGES.social;

export type PostStatus = 'scheduled' | 'published' | 'failed' | 'cancelled';

/** Spec 9: a time slot every 15 minutes over 24 h, default 09:00. */
const SLOT_MINUTES = 15;
export const DEFAULT_TIME_SLOT = '09:00';
export const TIME_SLOTS: readonly string[] = Array.from({ length: (24 * 60) / SLOT_MINUTES }, (_, i) => {
  const minutes = i * SLOT_MINUTES;
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
});

/** Spec 9: the 9 preset zones offered beside the local one. */
export const TIMEZONE_PRESETS = [
  { label: 'ET', zone: 'America/New_York' },
  { label: 'CT', zone: 'America/Chicago' },
  { label: 'MT', zone: 'America/Denver' },
  { label: 'PT', zone: 'America/Los_Angeles' },
  { label: 'London', zone: 'Europe/London' },
  { label: 'Paris', zone: 'Europe/Paris' },
  { label: 'Tokyo', zone: 'Asia/Tokyo' },
  { label: 'Shanghai', zone: 'Asia/Shanghai' },
  { label: 'Sydney', zone: 'Australia/Sydney' },
] as const;

/** The zone select: the local zone first (labelled with its name), then the presets not equal to it. */
export function timezoneOptions(localZone: string): { label: string; zone: string }[] {
  const local = isValidTimeZone(localZone) ? localZone : 'UTC';
  return [{ label: local, zone: local }, ...TIMEZONE_PRESETS.filter((p) => p.zone !== local)];
}

/** Spec 9: a duplicate is scheduled 60 minutes after the original. */
const DUPLICATE_OFFSET_MINUTES = 60;
export function duplicateTime(original: Date): Date {
  return new Date(original.getTime() + DUPLICATE_OFFSET_MINUTES * 60_000);
}

/** Spec 2.3 / 9: badge count from 5 posts, capped '99+'. Dots from 3 posts with mixed statuses, at most 4. */
const BADGE_COUNT_MIN = 5;
const BADGE_COUNT_CAP = 99;
const BADGE_DOTS_MIN = 3;
const BADGE_DOTS_MAX = 4;
/** Spec 4: calendar primary status priority. */
const STATUS_PRIORITY: readonly PostStatus[] = ['failed', 'scheduled', 'cancelled', 'published'];

export type DayStats = Record<PostStatus, number> & { total: number };

export interface DayBadge {
  primary: PostStatus | null;
  /** '5'…'99', '99+', or null under 5 posts. */
  count: string | null;
  /** One dot per status present, in priority order; empty unless 3+ posts of mixed statuses. */
  dots: PostStatus[];
}

export function dayBadge(stats: DayStats): DayBadge {
  const present = STATUS_PRIORITY.filter((s) => stats[s] > 0);
  const count =
    stats.total >= BADGE_COUNT_MIN
      ? stats.total > BADGE_COUNT_CAP
        ? `${BADGE_COUNT_CAP}+`
        : String(stats.total)
      : null;
  const dots = stats.total >= BADGE_DOTS_MIN && present.length > 1 ? present.slice(0, BADGE_DOTS_MAX) : [];
  return { primary: present[0] ?? null, count, dots };
}

export function emptyStats(): DayStats {
  return { total: 0, scheduled: 0, published: 0, failed: 0, cancelled: 0 };
}

export function statsOf(posts: readonly { status: PostStatus }[]): DayStats {
  const stats = emptyStats();
  for (const post of posts) {
    stats.total += 1;
    stats[post.status] += 1;
  }
  return stats;
}

/** Cancel, edit, reschedule and duplicate: only scheduled posts in the future (spec 4). */
export function isChangeable(post: { status: PostStatus; scheduled_time: string | Date }, now: Date): boolean {
  return post.status === 'scheduled' && new Date(post.scheduled_time).getTime() > now.getTime();
}

/** Spec 5: a blank or unchanged message is ignored (null: nothing to send). */
export function editedMessage(original: string, input: string | null | undefined): string | null {
  const next = (input ?? '').trim();
  if (next === '' || next === original.trim()) return null;
  return next;
}

export type TimeResult = { ok: true; at: Date } | { ok: false; message: string };

/** Spec 5 Schedule Post checks, in order; `time` is a slot 'HH:MM' read in `zone`. */
export function validateSchedule(
  input: { date: string | null; time: string | null; zone: string; platforms: readonly string[]; message: string },
  now: Date,
): TimeResult {
  if (!input.date) return { ok: false, message: M.dateRequired };
  if (!input.time) return { ok: false, message: M.timeRequired };
  if (input.platforms.length === 0) return { ok: false, message: M.platformsRequired };
  if (input.message.trim() === '') return { ok: false, message: M.messageRequired };
  const at = wallTimeToInstant(input.date, input.time, input.zone);
  if (!at || at.getTime() <= now.getTime()) return { ok: false, message: M.futureDateTime };
  return { ok: true, at };
}

const RESCHEDULE_FORMAT = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})$/;

/** Spec 5 reschedule prompt: 'YYYY-MM-DD HH:MM' in `zone`, in the future. */
export function parseReschedule(input: string, zone: string, now: Date): TimeResult {
  const match = RESCHEDULE_FORMAT.exec(input.trim());
  if (!match) return { ok: false, message: M.rescheduleFormat };
  const at = wallTimeToInstant(match[1] as string, match[2] as string, zone);
  if (!at || at.getTime() <= now.getTime()) return { ok: false, message: M.rescheduleInvalid };
  return { ok: true, at };
}

/** The reschedule prompt's default value: the post's wall time in its zone. */
export function formatReschedule(at: Date, zone: string): string {
  const w = wallTime(at, zone);
  return `${w.date} ${w.time}`;
}

export function isValidTimeZone(zone: string): boolean {
  if (!zone) return false;
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

function parts(at: Date, zone: string): { y: number; mo: number; d: number; h: number; mi: number; s: number } {
  const out: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(at)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return {
    y: out.year ?? 0,
    mo: out.month ?? 0,
    d: out.day ?? 0,
    h: out.hour ?? 0,
    mi: out.minute ?? 0,
    s: out.second ?? 0,
  };
}

/** Minutes the zone is ahead of UTC at that instant. */
function zoneOffsetMinutes(at: Date, zone: string): number {
  const p = parts(at, zone);
  const asUtc = Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi, p.s);
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/** The calendar day ('YYYY-MM-DD') and wall time ('HH:MM') of an instant in a zone. */
function wallTime(at: Date, zone: string): { date: string; time: string } {
  const p = parts(at, zone);
  return { date: `${p.y}-${pad(p.mo)}-${pad(p.d)}`, time: `${pad(p.h)}:${pad(p.mi)}` };
}

export function dayInZone(at: Date, zone: string): string {
  return wallTime(at, zone).date;
}

/**
 * The instant a wall time in a zone names, or null if the date or time is not a real one. A time skipped by a
 * daylight-saving jump resolves to the same wall-clock distance after the jump (02:30 → 03:30).
 */
export function wallTimeToInstant(date: string, time: string, zone: string): Date | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t || !isValidTimeZone(zone)) return null;
  const [y, mo, day, h, mi] = [Number(d[1]), Number(d[2]), Number(d[3]), Number(t[1]), Number(t[2])];
  if (mo < 1 || mo > 12 || h > 23 || mi > 59) return null;
  const wall = Date.UTC(y, mo - 1, day, h, mi);
  const check = new Date(wall);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== day) return null;
  const first = wall - zoneOffsetMinutes(new Date(wall), zone) * 60_000;
  const second = wall - zoneOffsetMinutes(new Date(first), zone) * 60_000;
  const candidates = [first, second].filter((t) => {
    const w = wallTime(new Date(t), zone);
    return w.date === date && w.time === time;
  });
  // Both name it in a repeated hour: the earlier. Neither (a skipped hour): the later, after the jump.
  return new Date(candidates.length > 0 ? Math.min(...candidates) : Math.max(first, second));
}

/** A real calendar day written 'YYYY-MM-DD' (not 2026-02-30). */
export function isCalendarDay(date: string): boolean {
  return wallTimeToInstant(date, '00:00', 'UTC') !== null;
}

/** Start (inclusive) of a zone's day as an instant. */
export function dayStart(date: string, zone: string): Date | null {
  return wallTimeToInstant(date, '00:00', zone);
}

/** The day after 'YYYY-MM-DD'. */
export function nextDay(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + 1));
  return `${next.getUTCFullYear()}-${pad(next.getUTCMonth() + 1)}-${pad(next.getUTCDate())}`;
}

/**
 * A request's moment: an ISO instant with Z or an offset, else a wall time 'YYYY-MM-DD[T ]HH:MM' in `zone`.
 * Null when it cannot be read.
 */
export function parseMoment(value: string, zone: string): Date | null {
  const text = value.trim();
  const wall = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::00(?:\.0+)?)?$/.exec(text);
  if (wall) return wallTimeToInstant(wall[1] as string, wall[2] as string, zone);
  if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(text)) return null;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? null : at;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
