// Payments, wallet and earnings (issue 6). Named by the spec; server and web import them.

const TOPUP_KINDS = ['credits_topup', 'wallet_topup', 'subscription'] as const;

export type TopupKind = (typeof TOPUP_KINDS)[number];

export const PAYMENT_CURRENCY = 'eur';

/** Default credit top-up packages (amounts in euro cents); TOPUP_PACKAGES in the environment replaces them. */
export const DEFAULT_TOPUP_PACKAGES = [
  {
    id: 'starter',
    amountCents: 1000,
    credits: 100,
    displayName: 'Starter',
    description: 'Try a few images and a short video',
    popular: false,
  },
  {
    id: 'creator',
    amountCents: 2500,
    credits: 300,
    displayName: 'Creator',
    description: 'Best value for regular content',
    popular: true,
  },
  {
    id: 'pro',
    amountCents: 5000,
    credits: 650,
    displayName: 'Pro',
    description: 'For weekly campaigns and pro video',
    popular: false,
  },
  {
    id: 'studio',
    amountCents: 10000,
    credits: 1400,
    displayName: 'Studio',
    description: 'For teams producing every day',
    popular: false,
  },
] as const;

/** Brand wallet top-up bounds, in euros (2 decimals). */
export const WALLET_TOPUP = { minEuros: 1, maxEuros: 10_000 } as const;

/** The paid plan the subscribe flow sells (price in euro cents per month); SUBSCRIPTION_* variables override. */
export const SUBSCRIPTION_PLAN = {
  planType: 'pro',
  amountCents: 2900,
  interval: 'month',
  displayName: 'GenPro Pro',
  /** Credits granted at each renewal (SUBSCRIPTION_MONTHLY_CREDITS overrides); the plan grants none by default. */
  monthlyCredits: 0,
} as const;

export const CREDITS_HISTORY_PAGE = { defaultLimit: 50, maxLimit: 100 } as const;

export const MONEY_HISTORY_LIMIT = 100;

/** Creator payouts (docs/payments.md): the smallest payout, in euros, and the statuses a payout goes through. */
export const PAYOUT_LIMITS = { minEuros: 10, maxEuros: 100_000, referenceMax: 200, reasonMax: 500 } as const;

export const PAYOUT_STATUSES = ['pending', 'processing', 'paid', 'failed', 'cancelled'] as const;

export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export const PAYOUT_METHODS = ['manual', 'stripe'] as const;

export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

/** Where the top-up, wallet and subscribe flows return to (spec 2.5: /dashboard?topup=success|cancelled). */
export const PAYMENT_RETURN_URLS = {
  topup: { success: '/dashboard?topup=success', cancel: '/dashboard?topup=cancelled' },
  wallet: { success: '/dashboard?wallet_topup=success', cancel: '/dashboard?wallet_topup=cancelled' },
  subscription: { success: '/dashboard?subscription=success', cancel: '/dashboard?subscription=cancelled' },
} as const;
