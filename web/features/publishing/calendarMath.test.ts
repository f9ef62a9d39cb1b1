import { describe, expect, it } from 'vitest';
import type { CalendarDay, ScheduledPost } from '../../../common/api/social.ts';
import {
  isPastSlot,
  monthDays,
  movedInCalendar,
  movedTime,
  neighbourSlot,
  parseSlotId,
  shiftAnchor,
  slotId,
  slotOf,
  weekDays,
} from './calendarMath.ts';

describe('calendar views', () => {
  it('shows the week of a day, Sunday first, across a month and a year end', () => {
    expect(weekDays('2026-03-04')).toEqual([
      '2026-03-01',
      '2026-03-02',
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
    ]);
    expect(weekDays('2026-12-31')[0]).toBe('2026-12-27');
    expect(weekDays('2026-12-31')[6]).toBe('2027-01-02');
  });

  it('finds the week of an instant in the zone the calendar is shown in', () => {
    // 03:30 UTC on Sunday 8 March: still Saturday evening in New York, already Sunday noon in Tokyo.
    const at = new Date('2026-03-08T03:30:00Z');
    expect(weekDays(slotOf(at, 'America/New_York').date)[0]).toBe('2026-03-01');
    expect(weekDays(slotOf(at, 'Asia/Tokyo').date)[0]).toBe('2026-03-08');
    expect(slotOf(at, 'Asia/Tokyo')).toEqual({ date: '2026-03-08', hour: 12, minute: 30 });
  });

  it('lays a month out as 6 weeks from the Sunday before its first day and steps by weeks and months', () => {
    const days = monthDays('2026-02-17');
    expect(days).toHaveLength(42);
    expect(days[0]).toBe('2026-02-01');
    expect(monthDays('2026-03-10')[0]).toBe('2026-03-01');
    expect(monthDays('2026-05-10')[0]).toBe('2026-04-26');
    expect(shiftAnchor('week', '2026-12-29', 1)).toBe('2027-01-05');
    expect(shiftAnchor('month', '2026-01-31', 1)).toBe('2026-02-01');
    expect(shiftAnchor('month', '2026-01-31', -1)).toBe('2025-12-01');
  });

  it('names slots and reads them back', () => {
    expect(slotId({ date: '2026-03-08', hour: 9 })).toBe('2026-03-08T09');
    expect(parseSlotId('2026-03-08T09')).toEqual({ date: '2026-03-08', hour: 9 });
    expect(parseSlotId('2026-03-08')).toEqual({ date: '2026-03-08', hour: null });
    expect(parseSlotId('post-1')).toBeNull();
  });
});

describe('moving a post', () => {
  const at = '2026-03-04T14:45:00.000Z'; // 09:45 in New York (EST), 15:45 in Paris

  it('keeps the minutes when dropped on an hour and the time of day when dropped on a day', () => {
    expect(movedTime(at, 'America/New_York', { date: '2026-03-06', hour: 13 })?.toISOString()).toBe(
      '2026-03-06T18:45:00.000Z',
    );
    expect(movedTime(at, 'Europe/Paris', { date: '2026-03-20', hour: null })?.toISOString()).toBe(
      '2026-03-20T14:45:00.000Z',
    );
    expect(movedTime(at, 'America/New_York', { date: '2026-03-04', hour: 9 })).toBeNull();
  });

  it('follows the wall clock over a daylight-saving change', () => {
    // New York springs forward on 8 March 2026: the day has 23 hours and 02:xx does not exist.
    expect(movedTime(at, 'America/New_York', { date: '2026-03-09', hour: 9 })?.toISOString()).toBe(
      '2026-03-09T13:45:00.000Z',
    );
    expect(movedTime(at, 'America/New_York', { date: '2026-03-08', hour: 2 })?.toISOString()).toBe(
      '2026-03-08T07:45:00.000Z',
    );
    expect(slotOf('2026-03-08T07:45:00.000Z', 'America/New_York')).toEqual({
      date: '2026-03-08',
      hour: 3,
      minute: 45,
    });
  });

  it('counts a slot as past only when its whole hour or day is over in the zone', () => {
    const now = new Date('2026-03-04T14:45:00.000Z');
    expect(isPastSlot({ date: '2026-03-04', hour: 9 }, 'America/New_York', now)).toBe(false);
    expect(isPastSlot({ date: '2026-03-04', hour: 8 }, 'America/New_York', now)).toBe(true);
    expect(isPastSlot({ date: '2026-03-04', hour: null }, 'America/New_York', now)).toBe(false);
    expect(isPastSlot({ date: '2026-03-03', hour: 23 }, 'America/New_York', now)).toBe(true);
    expect(isPastSlot({ date: '2026-03-04', hour: 15 }, 'Europe/Paris', now)).toBe(false);
  });

  it('moves the post between calendar days with their stats, dropping days left empty', () => {
    const post = (id: string, time: string): ScheduledPost =>
      ({ id, scheduled_time: time, status: 'scheduled' }) as ScheduledPost;
    const a = post('a', '2026-03-04T14:45:00.000Z');
    const b = post('b', '2026-03-05T10:00:00.000Z');
    const days: CalendarDay[] = [
      { date: '2026-03-04', stats: { total: 1, scheduled: 1, published: 0, failed: 0, cancelled: 0 }, posts: [a] },
      { date: '2026-03-05', stats: { total: 1, scheduled: 1, published: 0, failed: 0, cancelled: 0 }, posts: [b] },
    ];
    const range = { start: '2026-03-01', end: '2026-03-07', zone: 'UTC' };
    const next = movedInCalendar(days, a, new Date('2026-03-05T08:00:00.000Z'), range);
    expect(next.map((d) => d.date)).toEqual(['2026-03-05']);
    expect(next[0]?.posts.map((p) => p.id)).toEqual(['a', 'b']);
    expect(next[0]?.stats.total).toBe(2);
    // Moved out of the range shown: it leaves the view.
    expect(movedInCalendar(days, a, new Date('2026-03-12T08:00:00.000Z'), range).map((d) => d.date)).toEqual([
      '2026-03-05',
    ]);
  });
});

describe('keyboard moves', () => {
  const all = () => true;
  it('steps a day sideways in the reading direction and an hour (week) or a week (month) up and down', () => {
    expect(neighbourSlot('2026-03-04T14', 'ArrowRight', 'week', false, all)).toBe('2026-03-05T14');
    expect(neighbourSlot('2026-03-04T14', 'ArrowRight', 'week', true, all)).toBe('2026-03-03T14');
    expect(neighbourSlot('2026-03-04T14', 'ArrowDown', 'week', false, all)).toBe('2026-03-04T15');
    expect(neighbourSlot('2026-03-04T00', 'ArrowUp', 'week', false, all)).toBeNull();
    expect(neighbourSlot('2026-03-04', 'ArrowUp', 'month', false, all)).toBe('2026-02-25');
    expect(neighbourSlot('2026-03-04', 'Enter', 'month', false, all)).toBeNull();
  });

  it('steps over slots that are past or not shown', () => {
    const open = (id: string) => id >= '2026-03-03' && id <= '2026-03-07';
    expect(neighbourSlot('2026-03-05', 'ArrowLeft', 'month', false, (id) => open(id) && id !== '2026-03-04')).toBe(
      '2026-03-03',
    );
    expect(neighbourSlot('2026-03-03', 'ArrowLeft', 'month', false, open)).toBeNull();
  });
});
