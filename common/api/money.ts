import { z } from 'zod';

// Money is integer cents everywhere it is stored; euros are what people type and read.

/** Euros (at most 2 decimals) as integer cents. */
export function eurosToCents(euros: number): number {
  return Math.round(euros * 100);
}

/** True when a euro amount has at most two decimals (within float noise). */
export function hasAtMostTwoDecimals(euros: number): boolean {
  return Math.abs(euros * 100 - Math.round(euros * 100)) < 1e-6;
}

/** Cents as a plain amount with two decimals: 1030 → "10.30". */
export function formatAmount(cents: number): string {
  return (Math.round(cents) / 100).toFixed(2);
}

/** Cents as euros for mails and messages: 1030 → "€10.30". */
export function formatEuros(cents: number): string {
  return `€${formatAmount(cents)}`;
}

/** Cents as euros with two decimals, as a number (1030 → 10.3). */
export function centsToEuros(cents: number): number {
  return Math.round(cents) / 100;
}

export interface EuroAmountMessages {
  /** Not a number. */
  invalid: string;
  /** Below `minCents` once rounded to cents. */
  min: string;
  /** Above `maxCents` once rounded to cents. */
  max: string;
  /** More than two decimals. */
  decimals: string;
}

/**
 * A euro amount as a request gives it: a number with at most two decimals whose bounds are judged on
 * the cents it is stored as. So €0.000000001 is 0 cents and fails "more than €0" instead of being
 * stored as nothing. `coerce` accepts numeric strings (form fields).
 */
export function euroAmount(
  messages: EuroAmountMessages,
  bounds: { minCents: number; maxCents: number },
  options: { coerce?: boolean } = {},
) {
  const number = options.coerce ? z.coerce.number({ error: messages.invalid }) : z.number({ error: messages.invalid });
  return number
    .refine((euros) => eurosToCents(euros) >= bounds.minCents, messages.min)
    .refine((euros) => eurosToCents(euros) <= bounds.maxCents, messages.max)
    .refine(hasAtMostTwoDecimals, messages.decimals);
}
