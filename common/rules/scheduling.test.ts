import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages.ts';
import {
  DEFAULT_TIME_SLOT,
  dayBadge,
  dayInZone,
  duplicateTime,
  editedMessage,
  emptyStats,
  formatReschedule,
  isChangeable,
  nextDay,
  parseMoment,
  parseReschedule,
  statsOf,
  TIME_SLOTS,
  TIMEZONE_PRESETS,
  timezoneOptions,
  validateSchedule,
  wallTimeToInstant,
} from './scheduling.ts';

const M = MESSAGES.social;

describe('time slots and zones', () => {
  it('offers a slot every 15 minutes over 24 h, default 09:00', () => {
    expect(TIME_SLOTS).toHaveLength(96);
    expect(TIME_SLOTS[0]).toBe('00:00');
    expect(TIME_SLOTS[1]).toBe('00:15');
    expect(TIME_SLOTS.at(-1)).toBe('23:45');
    expect(TIME_SLOTS).toContain(DEFAULT_TIME_SLOT);
    expect(DEFAULT_TIME_SLOT).toBe('09:00');
  });

  it('maps the 9 presets to IANA zones and puts the local zone first', () => {
    expect(TIMEZONE_PRESETS.map((p) => [p.label, p.zone])).toEqual([
      ['ET', 'America/New_York'],
      ['CT', 'America/Chicago'],
      ['MT', 'America/Denver'],
      ['PT', 'America/Los_Angeles'],
      ['London', 'Europe/London'],
      ['Paris', 'Europe/Paris'],
      ['Tokyo', 'Asia/Tokyo'],
      ['Shanghai', 'Asia/Shanghai'],
      ['Sydney', 'Australia/Sydney'],
    ]);
    expect(timezoneOptions('Africa/Cairo')).toHaveLength(10);
    expect(timezoneOptions('Asia/Tokyo')[0]?.zone).toBe('Asia/Tokyo');
    expect(timezoneOptions('Asia/Tokyo')).toHaveLength(9);
    expect(timezoneOptions('Not/AZone')[0]?.zone).toBe('UTC');
  });

  it('reads wall times in a zone across DST and the date line', () => {
    // New York: EST (-5) in January, EDT (-4) in July.
    expect(wallTimeToInstant('2026-01-15', '09:00', 'America/New_York')?.toISOString()).toBe(
      '2026-01-15T14:00:00.000Z',
    );
    expect(wallTimeToInstant('2026-07-15', '09:00', 'America/New_York')?.toISOString()).toBe(
      '2026-07-15T13:00:00.000Z',
    );
    // The spring-forward gap (02:30 does not exist on 2026-03-08) resolves after the jump.
    expect(wallTimeToInstant('2026-03-08', '02:30', 'America/New_York')?.toISOString()).toBe(
      '2026-03-08T07:30:00.000Z',
    );
    // Kiritimati is UTC+14, Pago Pago UTC-11: the same instant is on different days.
    const at = new Date('2026-05-01T11:30:00Z');
    expect(dayInZone(at, 'Pacific/Kiritimati')).toBe('2026-05-02');
    expect(dayInZone(at, 'Pacific/Pago_Pago')).toBe('2026-05-01');
    // 23:30 in Tokyo lands on Tokyo's day.
    const tokyo = wallTimeToInstant('2026-06-10', '23:30', 'Asia/Tokyo') as Date;
    expect(tokyo.toISOString()).toBe('2026-06-10T14:30:00.000Z');
    expect(dayInZone(tokyo, 'Asia/Tokyo')).toBe('2026-06-10');
    expect(dayInZone(tokyo, 'America/Los_Angeles')).toBe('2026-06-10');
    expect(wallTimeToInstant('2026-02-30', '09:00', 'UTC')).toBeNull();
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });

  it('parses moments as ISO instants or wall times in the zone', () => {
    expect(parseMoment('2026-06-10T09:00:00Z', 'Asia/Tokyo')?.toISOString()).toBe('2026-06-10T09:00:00.000Z');
    expect(parseMoment('2026-06-10T09:00', 'Asia/Tokyo')?.toISOString()).toBe('2026-06-10T00:00:00.000Z');
    expect(parseMoment('2026-06-10 09:00', 'Europe/Paris')?.toISOString()).toBe('2026-06-10T07:00:00.000Z');
    expect(parseMoment('tomorrow', 'UTC')).toBeNull();
  });
});

describe('posts', () => {
  const now = new Date('2026-06-01T12:00:00Z');

  it('duplicates 60 minutes later', () => {
    expect(duplicateTime(new Date('2026-06-02T09:00:00Z')).toISOString()).toBe('2026-06-02T10:00:00.000Z');
  });

  it('validates Schedule Post', () => {
    const base = { date: '2026-06-02', time: '09:00', zone: 'UTC', platforms: ['instagram'], message: 'Hi' };
    expect(validateSchedule(base, now)).toEqual({ ok: true, at: new Date('2026-06-02T09:00:00Z') });
    expect(validateSchedule({ ...base, date: '2026-05-31' }, now)).toEqual({ ok: false, message: M.futureDateTime });
    expect(validateSchedule({ ...base, platforms: [] }, now)).toEqual({ ok: false, message: M.platformsRequired });
    expect(validateSchedule({ ...base, message: '  ' }, now)).toEqual({ ok: false, message: M.messageRequired });
    expect(validateSchedule({ ...base, date: null }, now)).toEqual({ ok: false, message: M.dateRequired });
  });

  it('parses the reschedule prompt with the spec alerts', () => {
    expect(parseReschedule('2026-06-03 10:15', 'Asia/Tokyo', now)).toEqual({
      ok: true,
      at: new Date('2026-06-03T01:15:00Z'),
    });
    expect(parseReschedule('2026-05-03 10:15', 'UTC', now)).toEqual({ ok: false, message: M.rescheduleInvalid });
    expect(parseReschedule('2026-13-03 10:15', 'UTC', now)).toEqual({ ok: false, message: M.rescheduleInvalid });
    expect(parseReschedule('June 3 10am', 'UTC', now)).toEqual({ ok: false, message: M.rescheduleFormat });
    expect(M.rescheduleInvalid).toBe('Please enter a valid future date and time');
    expect(M.rescheduleFormat).toBe('Invalid date format. Please use YYYY-MM-DD HH:MM');
    expect(formatReschedule(new Date('2026-06-03T01:15:00Z'), 'Asia/Tokyo')).toBe('2026-06-03 10:15');
  });

  it('ignores a blank or unchanged message and allows changes only on future scheduled posts', () => {
    expect(editedMessage('Hello', '  ')).toBeNull();
    expect(editedMessage('Hello', 'Hello ')).toBeNull();
    expect(editedMessage('Hello', 'Bye')).toBe('Bye');
    expect(isChangeable({ status: 'scheduled', scheduled_time: '2026-06-02T00:00:00Z' }, now)).toBe(true);
    expect(isChangeable({ status: 'scheduled', scheduled_time: '2026-05-02T00:00:00Z' }, now)).toBe(false);
    expect(isChangeable({ status: 'published', scheduled_time: '2026-06-02T00:00:00Z' }, now)).toBe(false);
  });
});

describe('calendar badges', () => {
  const of = (...statuses: Array<'scheduled' | 'published' | 'failed' | 'cancelled'>) =>
    statsOf(statuses.map((status) => ({ status })));

  it('primary status: failed > scheduled > cancelled > published', () => {
    expect(dayBadge(of('published', 'cancelled', 'scheduled', 'failed')).primary).toBe('failed');
    expect(dayBadge(of('published', 'cancelled', 'scheduled')).primary).toBe('scheduled');
    expect(dayBadge(of('published', 'cancelled')).primary).toBe('cancelled');
    expect(dayBadge(of('published')).primary).toBe('published');
    expect(dayBadge(emptyStats()).primary).toBeNull();
  });

  it('shows a count from 5 posts, capped 99+', () => {
    expect(dayBadge(of('scheduled', 'scheduled', 'scheduled', 'scheduled')).count).toBeNull();
    expect(dayBadge(of('scheduled', 'scheduled', 'scheduled', 'scheduled', 'scheduled')).count).toBe('5');
    expect(dayBadge({ ...emptyStats(), total: 99, scheduled: 99 }).count).toBe('99');
    expect(dayBadge({ ...emptyStats(), total: 100, scheduled: 100 }).count).toBe('99+');
  });

  it('shows dots from 3 posts of mixed statuses, at most 4', () => {
    expect(dayBadge(of('scheduled', 'published')).dots).toEqual([]);
    expect(dayBadge(of('scheduled', 'scheduled', 'scheduled')).dots).toEqual([]);
    expect(dayBadge(of('published', 'scheduled', 'scheduled')).dots).toEqual(['scheduled', 'published']);
    expect(dayBadge(of('published', 'cancelled', 'scheduled', 'failed', 'failed')).dots).toEqual([
      'failed',
      'scheduled',
      'cancelled',
      'published',
    ]);
  });
});
