import Stripe from 'stripe';
import { PAYMENT_CURRENCY } from '../../../common/api/payments.constants.ts';
import type { Config } from '../../config.ts';
import { createStripeClient } from '../payments/stripe.ts';

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
