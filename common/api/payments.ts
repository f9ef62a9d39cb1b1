import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { SUBSCRIPTION_STATUSES } from './auth.constants.ts';
import { ok } from './envelope.ts';
import { euroAmount } from './money.ts';
import { CREDITS_HISTORY_PAGE, WALLET_TOPUP } from './payments.constants.ts';

// Payments, credit top-ups, subscriptions, the brand wallet and creator earnings (accounts spec 2.5,
// 3, 4, 7). Money is kept in integer cents; every euro figure is also given in cents (`…Cents`).

const M = MESSAGES.payments;

/**
 * Where a checkout returns to: a same-origin path ("/dashboard?topup=success") or an absolute URL on
 * the studio's PUBLIC_URL origin. The server refuses anything else (no open redirect).
 */
const returnUrl = z.string().trim().min(1).max(2000);

// ---- Top-up packages and credit top-up ----

/** A credit top-up package (spec 3 Top-up package); `amount` in euros. */
const topupPackage = z.object({
  id: z.string(),
  amount: z.number(),
  amountCents: z.number().int(),
  credits: z.number().int(),
  displayName: z.string(),
  description: z.string(),
  popular: z.boolean(),
});
export type TopupPackage = z.infer<typeof topupPackage>;

/** GET /api/payment/packages */
export const packagesReply = ok(z.array(topupPackage));

/** POST /api/payment/topup; the web returns to /dashboard?topup=success|cancelled. */
export const topupBody = z.object({
  topupId: z.string().trim().min(1, M.unknownPackage).max(100),
  successUrl: returnUrl,
  cancelUrl: returnUrl,
});
export type TopupBody = z.input<typeof topupBody>;

/** Reply of every call that starts a checkout: open `url` (Stripe Checkout or the local checkout page). */
export const checkoutReply = z.object({
  success: z.literal(true),
  url: z.string(),
  orderId: z.string(),
});
export type CheckoutReply = z.infer<typeof checkoutReply>;

// ---- Subscription ----

const subscriptionStatus = z.object({
  isActive: z.boolean(),
  /** 'trial' during the free trial, then the paid plan ('pro'); null with no subscription at all. */
  planType: z.string().nullable(),
  /** Stripe's statuses (trialing, active, past_due, canceled, …); null with no subscription at all. */
  status: z.enum(SUBSCRIPTION_STATUSES).nullable(),
  /** ISO date of the next charge; null when nothing will be charged (trial without card, cancelling, canceled). */
  nextBillingDate: z.string().nullable(),
  /** Access continues until `currentPeriodEnd` (or `trialEnd`), then ends: show "Cancelling". */
  cancelAtPeriodEnd: z.boolean(),
  /** When true the options end_of_period and immediate are offered. */
  canCancel: z.boolean(),
  trialEnd: z.string().nullable(),
  currentPeriodEnd: z.string().nullable(),
  /** True when the subscribe flow (POST /api/payment/subscription/checkout) should be offered. */
  canSubscribe: z.boolean(),
  /** The paid plan on offer, in euros per interval. */
  plan: z.object({
    planType: z.string(),
    displayName: z.string(),
    amount: z.number(),
    amountCents: z.number().int(),
    interval: z.string(),
  }),
});
export type SubscriptionStatusDto = z.infer<typeof subscriptionStatus>;

/** GET /api/payment/subscription/status */
export const subscriptionStatusReply = ok(subscriptionStatus);

const CANCEL_TYPES = ['immediate', 'end_of_period'] as const;
export type CancelType = (typeof CANCEL_TYPES)[number];

/** POST /api/payment/subscription/cancel */
export const cancelSubscriptionBody = z.object({ cancelType: z.enum(CANCEL_TYPES) });
export const cancelSubscriptionReply = z.object({
  success: z.literal(true),
  message: z.string(),
  data: subscriptionStatus,
});

/** POST /api/payment/subscription/checkout: the subscribe flow (trial ended or cancelled). Replies checkoutReply. */
export const subscriptionCheckoutBody = z.object({
  successUrl: returnUrl.optional(),
  cancelUrl: returnUrl.optional(),
});
export type SubscriptionCheckoutBody = z.input<typeof subscriptionCheckoutBody>;

// ---- Credit history ----

export const creditHistoryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(CREDITS_HISTORY_PAGE.maxLimit).default(CREDITS_HISTORY_PAGE.defaultLimit),
  offset: z.coerce.number().int().min(0).default(0),
});

/** Spec 3 Credit transaction. */
const creditTransaction = z.object({
  id: z.string(),
  description: z.string(),
  source: z.string(),
  generationType: z.string().nullable(),
  createdAt: z.string(),
  type: z.enum(['addition', 'deduction']),
  amount: z.number().int(),
  balanceAfter: z.number().int(),
});
export type CreditTransactionDto = z.infer<typeof creditTransaction>;

/** GET /api/credits/history: newest first. */
export const creditHistoryReply = ok(
  z.object({
    transactions: z.array(creditTransaction),
    balance: z.number().int(),
    pagination: z.object({
      offset: z.number().int(),
      limit: z.number().int(),
      hasMore: z.boolean(),
      total: z.number().int(),
    }),
  }),
);
export type CreditHistory = z.infer<typeof creditHistoryReply>['data'];

// ---- Brand wallet and creator earnings (euro ledgers) ----

/** One row of the wallet or earnings ledger; euros with 2 decimals plus exact cents. */
const moneyTransaction = z.object({
  id: z.string(),
  type: z.enum(['credit', 'debit']),
  amount: z.number(),
  amountCents: z.number().int(),
  balanceAfter: z.number(),
  balanceAfterCents: z.number().int(),
  /** 'topup', 'campaign_hold', 'campaign_release', 'collaboration_payout', 'payout', … */
  source: z.string(),
  referenceId: z.string().nullable(),
  description: z.string(),
  createdAt: z.string(),
});
export type MoneyTransactionDto = z.infer<typeof moneyTransaction>;

/** GET /api/brands/wallet (spec: reads wallet.balance). Brands only. Newest transactions first. */
export const walletReply = z.object({
  success: z.literal(true),
  wallet: z.object({ balance: z.number(), balanceCents: z.number().int() }),
  transactions: z.array(moneyTransaction),
});
export type WalletReply = z.infer<typeof walletReply>;

/** POST /api/brands/wallet/topup: `amount` in euros, 1–10000, at most 2 decimals. Brands only. */
export const walletTopupBody = z.object({
  amount: euroAmount(
    {
      invalid: M.amountRequired,
      min: M.amountMin(WALLET_TOPUP.minEuros),
      max: M.amountMax(WALLET_TOPUP.maxEuros),
      decimals: M.amountDecimals,
    },
    { minCents: WALLET_TOPUP.minEuros * 100, maxCents: WALLET_TOPUP.maxEuros * 100 },
  ),
  successUrl: returnUrl.optional(),
  cancelUrl: returnUrl.optional(),
});
export type WalletTopupBody = z.input<typeof walletTopupBody>;
export const walletTopupReply = z.object({
  success: z.literal(true),
  checkout_url: z.string(),
  orderId: z.string(),
});

/**
 * GET /api/creators/earnings (spec: reads data.totalEarnings). Creators only. `totalEarnings` (the spec's name) is
 * the earnings balance: what is available to pay out now. `earnedTotal` is everything earned so far, and
 * `pendingPayouts` what requested payouts not yet paid hold (earned = available + pending + paid out).
 */
export const earningsReply = ok(
  z.object({
    totalEarnings: z.number(),
    totalEarningsCents: z.number().int(),
    earnedTotal: z.number(),
    earnedTotalCents: z.number().int(),
    pendingPayouts: z.number(),
    pendingPayoutsCents: z.number().int(),
    transactions: z.array(moneyTransaction),
  }),
);
export type EarningsDto = z.infer<typeof earningsReply>['data'];

// ---- Local checkout (embedded mode) ----

export const orderIdParams = z.object({ orderId: z.uuid() });

/**
 * POST /api/payment/local/:orderId/complete|cancel, sent by the plain HTML form of
 * GET /checkout/local/:orderId (application/x-www-form-urlencoded). `token` is the order's one-time
 * form token; the reply is a 303 redirect to the order's success or cancel URL.
 */
export const localCheckoutForm = z.object({ token: z.string().trim().min(1).max(200) });

/** Reply of POST /api/payment/webhook (`duplicate`: the event id was handled before; nothing changed). */
export const receivedReply = z.object({ received: z.literal(true), duplicate: z.boolean() });
