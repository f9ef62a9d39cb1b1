import { describe, expect, it } from 'vitest';
import { creditBadge, creditShortfall, preselectedPackage, suggestedCredits } from './topup.ts';

const packages = [
  { id: 'starter', credits: 100, popular: false },
  { id: 'creator', credits: 300, popular: true },
  { id: 'pro', credits: 650, popular: false },
];

describe('top-up helpers', () => {
  it('badges the balance at the spec thresholds', () => {
    expect(creditBadge(0)).toBe('low');
    expect(creditBadge(10)).toBe('low');
    expect(creditBadge(11)).toBe('runningLow');
    expect(creditBadge(25)).toBe('runningLow');
    expect(creditBadge(26)).toBe('good');
  });

  it('suggests the shortfall rounded up plus 100', () => {
    expect(suggestedCredits(1)).toBe(101);
    expect(suggestedCredits(12.2)).toBe(113);
    expect(suggestedCredits(250)).toBe(350);
  });

  it('measures what the balance lacks for a price (nothing while the balance is unknown)', () => {
    // Issue 18: the Film's 26 shots cost 2,626 credits against a balance of 168.
    expect(creditShortfall(2626, 168)).toBe(2458);
    expect(suggestedCredits(creditShortfall(2626, 168))).toBe(2558);
    expect(creditShortfall(101, 200)).toBe(0);
    expect(creditShortfall(101, 101)).toBe(0);
    expect(creditShortfall(101, null)).toBe(0);
    expect(creditShortfall(101, undefined)).toBe(0);
  });

  it('preselects the smallest package covering the suggestion, else the largest', () => {
    expect(preselectedPackage(packages, 0)?.id).toBe('creator');
    expect(preselectedPackage(packages)?.id).toBe('creator');
    expect(preselectedPackage(packages, 201)?.id).toBe('pro');
    expect(preselectedPackage(packages, 199.5)?.id).toBe('creator');
    expect(preselectedPackage(packages, 5000)?.id).toBe('pro');
    expect(preselectedPackage([], 10)).toBeUndefined();
    expect(preselectedPackage([{ id: 'a', credits: 5, popular: false }])?.id).toBe('a');
  });
});
