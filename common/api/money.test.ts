import { describe, expect, it } from 'vitest';
import { centsToEuros, euroAmount, eurosToCents, formatEuros, hasAtMostTwoDecimals } from './money.ts';

const amount = euroAmount(
  { invalid: 'invalid', min: 'min', max: 'max', decimals: 'decimals' },
  { minCents: 1, maxCents: 10_000 },
);
const firstError = (value: unknown) => amount.safeParse(value).error?.issues[0]?.message ?? null;

describe('euroAmount', () => {
  it('judges the bounds on the cents an amount is stored as', () => {
    expect(firstError(1e-9)).toBe('min');
    expect(firstError(0.004)).toBe('min');
    expect(firstError(0.01)).toBeNull();
    expect(firstError(100)).toBeNull();
    expect(firstError(100.01)).toBe('max');
  });

  it('allows two decimals (within float noise) and no more', () => {
    expect(firstError(0.1 + 0.2)).toBeNull();
    expect(firstError(10.005)).toBe('decimals');
  });

  it('refuses what is not a finite number; coerce reads numeric strings', () => {
    for (const value of ['5', Number.NaN, Number.POSITIVE_INFINITY, null]) expect(firstError(value)).toBe('invalid');
    const coerced = euroAmount(
      { invalid: 'invalid', min: 'min', max: 'max', decimals: 'decimals' },
      { minCents: 0, maxCents: 100 },
      { coerce: true },
    );
    expect(coerced.parse('0.5')).toBe(0.5);
  });
});

describe('euros and cents', () => {
  it('stores euros as whole cents and reads them back', () => {
    expect(eurosToCents(10.3)).toBe(1030);
    expect(eurosToCents(0.1 + 0.2)).toBe(30);
    expect(eurosToCents(19.99)).toBe(1999);
    expect(centsToEuros(1030)).toBe(10.3);
    expect(centsToEuros(1999.6)).toBe(20);
  });

  it('tells two decimals (within float noise) from more', () => {
    expect(hasAtMostTwoDecimals(19.99)).toBe(true);
    expect(hasAtMostTwoDecimals(0.1 + 0.2)).toBe(true);
    expect(hasAtMostTwoDecimals(10.005)).toBe(false);
  });

  it('writes cents as euros with two decimals', () => {
    expect(formatEuros(1030)).toBe('€10.30');
    expect(formatEuros(5)).toBe('€0.05');
    expect(formatEuros(0)).toBe('€0.00');
  });
});
