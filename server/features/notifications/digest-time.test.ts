import { describe, expect, it } from 'vitest';
import { digestDueAt } from './service.ts';

const at = (iso: string) => new Date(iso);

describe('digestDueAt: the latest digest time at or before now, in the user’s zone', () => {
  it('is today’s 08:00 once it has passed, else yesterday’s', () => {
    expect(digestDueAt(at('2030-05-08T06:00:00Z'), 'Europe/Berlin', 'daily')).toEqual(at('2030-05-08T06:00:00Z'));
    expect(digestDueAt(at('2030-05-08T05:59:00Z'), 'Europe/Berlin', 'daily')).toEqual(at('2030-05-07T06:00:00Z'));
    // 21:00 in Tokyo on the 8th: 08:00 that day was 23:00 UTC on the 7th.
    expect(digestDueAt(at('2030-05-08T12:00:00Z'), 'Asia/Tokyo', 'daily')).toEqual(at('2030-05-07T23:00:00Z'));
  });

  it('is the Monday of the week for weekly, and the Monday before until 08:00 on Monday', () => {
    // Wednesday 8 May 2030 → Monday 6 May, 08:00 in New York (12:00 UTC in summer time).
    expect(digestDueAt(at('2030-05-08T15:00:00Z'), 'America/New_York', 'weekly')).toEqual(at('2030-05-06T12:00:00Z'));
    expect(digestDueAt(at('2030-05-13T11:59:00Z'), 'America/New_York', 'weekly')).toEqual(at('2030-05-06T12:00:00Z'));
    expect(digestDueAt(at('2030-05-13T12:00:00Z'), 'America/New_York', 'weekly')).toEqual(at('2030-05-13T12:00:00Z'));
    // Sunday counts to the week that began the Monday before.
    expect(digestDueAt(at('2030-05-12T20:00:00Z'), 'UTC', 'weekly')).toEqual(at('2030-05-06T08:00:00Z'));
  });

  it('follows daylight saving time and falls back to UTC for an unknown zone', () => {
    // Berlin moves to summer time on 31 March 2030: 08:00 is 07:00 UTC the day before and 06:00 UTC after.
    expect(digestDueAt(at('2030-03-30T12:00:00Z'), 'Europe/Berlin', 'daily')).toEqual(at('2030-03-30T07:00:00Z'));
    expect(digestDueAt(at('2030-03-31T12:00:00Z'), 'Europe/Berlin', 'daily')).toEqual(at('2030-03-31T06:00:00Z'));
    expect(digestDueAt(at('2030-05-08T12:00:00Z'), 'Mars/Olympus', 'daily')).toEqual(at('2030-05-08T08:00:00Z'));
  });
});
