import { useState } from 'react';
import { DEFAULT_TIMEZONE } from '../../../common/api/account.constants.ts';
import { fieldErrorsOf } from '../../api/client.ts';
import { translateMessage } from '../../i18n/index.ts';

/** The runtime's IANA zones, with UTC first and the given value kept even if the runtime lacks it. */
export function timezoneOptions(current: string): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  const list = [DEFAULT_TIMEZONE, ...zones.filter((z) => z !== DEFAULT_TIMEZONE)];
  if (current && !list.includes(current)) list.unshift(current);
  return list;
}

/**
 * A plain controlled form: values, field errors (client checks or the server's fieldErrors), and the
 * values last saved so Save can stay disabled while nothing changed.
 */
export function useDraft<T extends Record<string, string>>(initial: T) {
  const [values, setValues] = useState(initial);
  const [saved, setSaved] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof T, string>>>({});
  const set = (field: keyof T) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const dirty = (Object.keys(values) as Array<keyof T>).some((key) => values[key] !== saved[key]);
  /** Take a server answer as the new saved state. */
  const reset = (next: T) => {
    setValues(next);
    setSaved(next);
    setErrors({});
  };
  /** Show the server's per-field messages; returns true when there were any. */
  const showServerErrors = (error: unknown) => {
    const fields = fieldErrorsOf(error);
    const mapped: Partial<Record<keyof T, string>> = {};
    for (const [field, message] of Object.entries(fields)) {
      if (field in values) mapped[field as keyof T] = translateMessage(message);
    }
    setErrors(mapped);
    return Object.keys(mapped).length > 0;
  };
  return { values, set, errors, setErrors, dirty, reset, showServerErrors };
}

/** '' for null, for the controlled inputs. */
export const str = (value: string | null | undefined) => value ?? '';

/** Comma-separated tags ↔ list. */
export const splitList = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
