import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { pageParams, pagination } from './directory.ts';
import { ok } from './envelope.ts';
import { euroAmount } from './money.ts';
import { PAYOUT_LIMITS, PAYOUT_METHODS, PAYOUT_STATUSES } from './payments.constants.ts';

// Creator payouts (issue 21.4; docs/payments.md "Payouts"): earnings out to the primary bank account,
// recorded by an admin (manual) or sent as a Stripe Connect transfer.

const P = MESSAGES.payments;
const M = MESSAGES.payouts;

/** POST /api/creators/payouts: `amount` in euros (at least PAYOUT_LIMITS.minEuros, at most 2 decimals). */
export const requestPayoutBody = z.object({
  amount: euroAmount(
    {
      invalid: P.amountRequired,
      min: P.amountMin(PAYOUT_LIMITS.minEuros),
      max: P.amountMax(PAYOUT_LIMITS.maxEuros),
      decimals: P.amountDecimals,
    },
    { minCents: PAYOUT_LIMITS.minEuros * 100, maxCents: PAYOUT_LIMITS.maxEuros * 100 },
  ),
});

/** The optional Idempotency-Key header: a retried request with the same key answers the first payout. */
export const payoutRequestHeaders = z.object({ 'idempotency-key': z.string().trim().min(1).max(200).optional() });

/** The bank account a payout goes to, as the creator sees it (IBAN masked). */
const payoutDestination = z.object({
  accountHolderName: z.string(),
  iban: z.string(),
  ibanLast4: z.string(),
  bankName: z.string().nullable(),
});

const payoutDto = z.object({
  id: z.string(),
  amount: z.number(),
  amountCents: z.number().int(),
  currency: z.string(),
  status: z.enum(PAYOUT_STATUSES),
  method: z.enum(PAYOUT_METHODS),
  destination: payoutDestination,
  /** The bank reference recorded by the admin (manual) or the Stripe transfer id. */
  reference: z.string().nullable(),
  failureReason: z.string().nullable(),
  /** Stripe mode: when the transfer reached the creator's Stripe account (then Stripe pays it to the bank). */
  transferredAt: z.string().nullable(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  failedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
});
export type PayoutDto = z.infer<typeof payoutDto>;

export const payoutReply = z.object({ success: z.literal(true), message: z.string(), data: payoutDto });
export type PayoutReply = z.infer<typeof payoutReply>;

/** GET /api/creators/payouts: newest first, with what can be paid out now and why not. */
export const payoutsReply = ok(
  z.object({
    availableEarnings: z.number(),
    availableEarningsCents: z.number().int(),
    minimumAmount: z.number(),
    /** The primary bank account payouts go to; null when there is none. */
    destination: payoutDestination.nullable(),
    /** Why a payout cannot be requested now (no bank account, one in progress, below the minimum), or null. */
    blockedReason: z.string().nullable(),
    method: z.enum(PAYOUT_METHODS),
    /** How this studio pays creators: through Stripe Connect when Stripe is configured, by hand otherwise. */
    studioMode: z.enum(PAYOUT_METHODS),
    payouts: z.array(payoutDto),
  }),
);
export type PayoutsReply = z.infer<typeof payoutsReply>;
export type PayoutsOverview = PayoutsReply['data'];

export const payoutIdParams = z.object({ id: z.uuid({ error: M.notFound }) });

// ---- Admin ----

export const adminPayoutsQuery = z.object({ status: z.enum(PAYOUT_STATUSES).optional(), ...pageParams });

/** What an admin needs to pay by hand: the full IBAN and BIC, and who asked. */
const adminPayoutDto = payoutDto.extend({
  creator: z.object({ id: z.string(), email: z.string(), name: z.string() }),
  fullIban: z.string(),
  bicSwift: z.string().nullable(),
  stripeAccountId: z.string().nullable(),
});
export type AdminPayoutDto = z.infer<typeof adminPayoutDto>;

export const adminPayoutsReply = z.object({
  success: z.literal(true),
  data: z.array(adminPayoutDto),
  pagination,
  /** `stripe`: payouts to onboarded creators go through Stripe Connect; `manual`: every payout is paid by hand. */
  studioMode: z.enum(PAYOUT_METHODS),
});
export type AdminPayoutsReply = z.infer<typeof adminPayoutsReply>;

export const markPayoutPaidBody = z.object({
  reference: z
    .string({ error: M.referenceRequired })
    .trim()
    .min(1, M.referenceRequired)
    .max(PAYOUT_LIMITS.referenceMax),
});

export const markPayoutFailedBody = z.object({
  reason: z.string({ error: M.reasonRequired }).trim().min(1, M.reasonRequired).max(PAYOUT_LIMITS.reasonMax),
});

export const adminPayoutReply = z.object({ success: z.literal(true), message: z.string(), data: adminPayoutDto });
export type AdminPayoutReply = z.infer<typeof adminPayoutReply>;

/** PUT /api/admin/creators/:id/stripe-account: the creator's Stripe Connect account. */
export const stripeAccountBody = z.object({
  stripeAccountId: z
    .string({ error: M.stripeAccountInvalid })
    .trim()
    .regex(/^acct_[A-Za-z0-9]{1,100}$/, M.stripeAccountInvalid),
});
export const stripeAccountReply = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ userId: z.string(), stripeAccountId: z.string() }),
});

// ---- Stripe Connect onboarding (the creator's own payouts account) ----

/** The creator's connected account as Stripe last reported it; null before onboarding starts. */
const connectAccountDto = z.object({
  stripeAccountId: z.string(),
  chargesEnabled: z.boolean(),
  payoutsEnabled: z.boolean(),
  detailsSubmitted: z.boolean(),
  /** requirements.currently_due, e.g. `external_account`, `individual.dob.day`. */
  requirementsDue: z.array(z.string()),
  /** requirements.disabled_reason, e.g. `requirements.past_due`. */
  disabledReason: z.string().nullable(),
  /** When this was last read from Stripe; null for an id an admin typed. */
  statusSyncedAt: z.string().nullable(),
});
export type ConnectAccountDto = z.infer<typeof connectAccountDto>;

/** GET /api/creators/stripe-connect and POST …/refresh. */
export const connectStatusReply = ok(
  z.object({ studioMode: z.enum(PAYOUT_METHODS), account: connectAccountDto.nullable() }),
);
export type ConnectStatusReply = z.infer<typeof connectStatusReply>;
export type ConnectStatus = ConnectStatusReply['data'];

/** POST /api/creators/stripe-connect/onboarding: the Stripe-hosted onboarding page to send the creator to. */
export const connectOnboardingReply = ok(z.object({ url: z.string(), stripeAccountId: z.string() }));
export type ConnectOnboardingReply = z.infer<typeof connectOnboardingReply>;
