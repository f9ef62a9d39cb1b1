import { describe, expect, it } from 'vitest';
import { euroAmount } from './money.ts';

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
