import Stripe from 'stripe';
import { PAYMENT_CURRENCY } from '../../../common/api/payments.constants.ts';
import type { Config } from '../../config.ts';
import { createStripeClient } from '../../platform/money/stripe-client.ts';

type TransferOutcome =
  | { kind: 'sent'; transferId: string }
  /** Stripe refused it (4xx): nothing was moved. */
  | { kind: 'refused'; message: string }
  /** No answer (network, 5xx after the SDK's retries): the transfer may exist; retry with the same key. */
  | { kind: 'unknown'; message: string };

/** Stripe Connect transfers from the platform balance to a creator's connected account. */
export interface PayoutTransfers {
  send(transfer: {
    payoutId: string;
    userId: string;
    amountCents: number;
    destination: string;
  }): Promise<TransferOutcome>;
}

/** Present when payments run on Stripe (PAYMENTS=stripe with STRIPE_SECRET_KEY); null otherwise. */
export function createPayoutTransfers(config: Config): PayoutTransfers | null {
  if (config.PAYMENTS !== 'stripe' || !config.STRIPE_SECRET_KEY) return null;
  const stripe = createStripeClient(config, config.STRIPE_SECRET_KEY);
  return {
    async send({ payoutId, userId, amountCents, destination }) {
      try {
        const transfer = await stripe.transfers.create(
          {
            amount: amountCents,
            currency: PAYMENT_CURRENCY,
            destination,
            description: 'GenPro creator payout',
            transfer_group: `payout_${payoutId}`,
            metadata: { payout_id: payoutId, user_id: userId },
          },
          // One key per payout: a retry after a lost answer can never transfer twice.
          { idempotencyKey: `genpro-payout-${payoutId}` },
        );
        return { kind: 'sent', transferId: transfer.id };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const status = error instanceof Stripe.errors.StripeError ? error.statusCode : undefined;
        if (status !== undefined && status >= 400 && status < 500 && status !== 409 && status !== 429) {
          return { kind: 'refused', message };
        }
        return { kind: 'unknown', message };
      }
    },
  };
}

/** A connected account's status as the studio keeps it (creator_stripe_accounts). */
export interface ConnectAccountStatus {
  stripeAccountId: string;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
  requirementsDue: string[];
  disabledReason: string | null;
}

/** The status columns of a Stripe `account` object (accounts.retrieve, or an account.updated event). */
export function connectAccountStatus(account: Record<string, unknown>): ConnectAccountStatus {
  const requirements = (account.requirements ?? {}) as { currently_due?: unknown; disabled_reason?: unknown };
  const due = Array.isArray(requirements.currently_due) ? requirements.currently_due.map(String) : [];
  return {
    stripeAccountId: String(account.id),
    chargesEnabled: account.charges_enabled === true,
    payoutsEnabled: account.payouts_enabled === true,
    detailsSubmitted: account.details_submitted === true,
    requirementsDue: due,
    disabledReason: typeof requirements.disabled_reason === 'string' ? requirements.disabled_reason : null,
  };
}

/** Stripe Connect onboarding (Express accounts and Account Links) and transfer reversals, through the SDK. */
export interface StripeConnect {
  /** POST /v1/accounts, once per creator (the idempotency key is the user's). */
  createExpressAccount(input: { userId: string; email: string; country: string | null }): Promise<string>;
  /** POST /v1/account_links (type account_onboarding): the one-time URL the creator is sent to. */
  onboardingLink(input: { account: string; refreshUrl: string; returnUrl: string }): Promise<string>;
  /** GET /v1/accounts/:id. */
  retrieve(account: string): Promise<ConnectAccountStatus>;
  /** POST /v1/transfers/:id/reversals: the whole transfer back to the platform (once per payout). */
  reverseTransfer(input: { payoutId: string; transferId: string; amountCents: number }): Promise<void>;
}

/** Present when payments run on Stripe (PAYMENTS=stripe with STRIPE_SECRET_KEY); null otherwise. */
export function createStripeConnect(config: Config): StripeConnect | null {
  if (config.PAYMENTS !== 'stripe' || !config.STRIPE_SECRET_KEY) return null;
  const stripe = createStripeClient(config, config.STRIPE_SECRET_KEY);
  return {
    async createExpressAccount({ userId, email, country }) {
      const account = await stripe.accounts.create(
        {
          type: 'express',
          ...(country ? { country } : {}),
          email,
          capabilities: { transfers: { requested: true } },
          metadata: { user_id: userId },
        },
        // Two clicks at once (or a retry after a lost answer) create one account.
        { idempotencyKey: `genpro-connect-account-${userId}` },
      );
      return account.id;
    },
    async onboardingLink({ account, refreshUrl, returnUrl }) {
      const link = await stripe.accountLinks.create({
        account,
        refresh_url: refreshUrl,
        return_url: returnUrl,
        type: 'account_onboarding',
      });
      return link.url;
    },
    async retrieve(account) {
      return connectAccountStatus((await stripe.accounts.retrieve(account)) as unknown as Record<string, unknown>);
    },
    async reverseTransfer({ payoutId, transferId, amountCents }) {
      await stripe.transfers.createReversal(
        transferId,
        { amount: amountCents, metadata: { payout_id: payoutId } },
        { idempotencyKey: `genpro-payout-reversal-${payoutId}` },
      );
    },
  };
}
