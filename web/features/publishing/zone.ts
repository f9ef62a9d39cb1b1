import { useEffect, useState } from 'react';
import { isValidTimeZone, timezoneOptions } from '../../../common/rules/scheduling.ts';

/** The browser's IANA zone ('UTC' when it reports none). */
export function localZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isValidTimeZone(zone) ? zone : 'UTC';
}

/**
 * The zone a schedule starts in: the account's time zone when the user chose one in Settings (the
 * account default is UTC), else the browser's.
 */
export function preferredZone(accountZone: string | null | undefined): string {
  return accountZone && accountZone !== 'UTC' && isValidTimeZone(accountZone) ? accountZone : localZone();
}

/** Local plus the presets (spec 9), and the zone in use when it is none of them. */
export function zoneOptions(localLabel: (zone: string) => string, current?: string) {
  const local = localZone();
  const options = timezoneOptions(local).map(({ label, zone }) => ({
    value: zone,
    label: zone === local ? localLabel(zone) : `${label} (${zone})`,
  }));
  if (current && isValidTimeZone(current) && !options.some((o) => o.value === current)) {
    options.unshift({ value: current, label: current });
  }
  return options;
}

/** Now, refreshed every minute: what is past and what is upcoming changes while the tab stays open. */
export function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/** A post's wall time in its zone, formatted for the user's language. */
export function formatInZone(at: string | Date, zone: string, language: string): string {
  return new Intl.DateTimeFormat(language, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: isValidTimeZone(zone) ? zone : 'UTC',
  }).format(new Date(at));
}

/** 'YYYY-MM-DD' in the user's language, read as a calendar date (no zone shift). */
export function formatDay(date: string, language: string, style: 'full' | 'medium' = 'medium'): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(language, { dateStyle: style, timeZone: 'UTC' }).format(
    new Date(Date.UTC(y, m - 1, d)),
  );
}
