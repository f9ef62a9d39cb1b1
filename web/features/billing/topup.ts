import { CREDIT_BADGE } from '../../../common/api/app.constants.ts';

// Pure helpers of the top-up dialog (accounts spec 2.5 and 9).

export type CreditBadge = 'low' | 'runningLow' | 'good';

/** Low Balance at 10 credits or fewer, Running Low at 25 or fewer, otherwise Good. */
export function creditBadge(credits: number): CreditBadge {
  if (credits <= CREDIT_BADGE.lowAtOrBelow) return 'low';
  if (credits <= CREDIT_BADGE.runningLowAtOrBelow) return 'runningLow';
  return 'good';
}

/** Credits the balance lacks for `price`: 0 when it covers it, or while the balance is unknown. */
export function creditShortfall(price: number, balance: number | null | undefined): number {
  if (balance === null || balance === undefined) return 0;
  return Math.max(0, Math.ceil(price - balance));
}

/** Spec 9: the top-up suggested for a shortfall is the shortfall rounded up plus 100 credits. */
export function suggestedCredits(shortfall: number): number {
  return Math.ceil(shortfall) + 100;
}

interface PackageLike {
  id: string;
  credits: number;
  popular: boolean;
}

/**
 * The package to preselect: with a shortfall, the smallest one that covers the suggestion (else the largest);
 * without one, the popular package (else the first).
 */
export function preselectedPackage<T extends PackageLike>(packages: readonly T[], shortfall?: number): T | undefined {
  if (packages.length === 0) return undefined;
  if (shortfall !== undefined && shortfall > 0) {
    const wanted = suggestedCredits(shortfall);
    const bySize = [...packages].sort((a, b) => a.credits - b.credits);
    return bySize.find((p) => p.credits >= wanted) ?? bySize[bySize.length - 1];
  }
  return packages.find((p) => p.popular) ?? packages[0];
}
