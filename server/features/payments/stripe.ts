import type Stripe from 'stripe';
import { PAYMENT_CURRENCY } from '../../../common/api/payments.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { Config } from '../../config.ts';
import { AppError } from '../../platform/errors.ts';
import { createStripeClient } from '../../platform/money/stripe-client.ts';
import type { CheckoutRequest, PaymentProvider, StripeSubscriptions, SubscriptionState } from './provider.ts';
import { absoluteUrl } from './urls.ts';

function providerError(error: unknown): AppError {
  const detail = error instanceof Error ? error.message : String(error);
  return new AppError(502, 'payment_provider', MESSAGES.payments.providerFailed, { provider: 'stripe', detail });
}

const toDate = (seconds: unknown): Date | null =>
  typeof seconds === 'number' && Number.isFinite(seconds) ? new Date(seconds * 1000) : null;

/**
 * A Stripe subscription object as our row needs it. Newer API versions moved current_period_end onto
 * the subscription items, so both places are read.
 */
export function subscriptionState(object: Record<string, unknown>): SubscriptionState {
  const items = (object.items as { data?: Array<{ current_period_end?: unknown }> } | undefined)?.data ?? [];
  const periodEnd = toDate(object.current_period_end) ?? toDate(items[0]?.current_period_end);
  const metadata = (object.metadata ?? {}) as Record<string, unknown>;
  return {
    providerSubscriptionId: String(object.id),
    status: String(object.status),
    cancelAtPeriodEnd: object.cancel_at_period_end === true,
    trialEnd: toDate(object.trial_end),
    currentPeriodEnd: periodEnd,
    userId: typeof metadata.user_id === 'string' ? metadata.user_id : null,
  };
}

/** Stripe Checkout Sessions (form-encoded by the SDK, with an Idempotency-Key per order). */
export function createStripeProvider(
  config: Config,
  secretKey: string,
): { provider: PaymentProvider; subscriptions: StripeSubscriptions } {
  const stripe = createStripeClient(config, secretKey);

  async function createCheckout(request: CheckoutRequest): Promise<{ url: string; sessionId: string | null }> {
    const { order } = request;
    const metadata: Record<string, string> = { order_id: order.id, user_id: order.userId, kind: order.kind };
    if (order.credits !== null) metadata.credits = String(order.credits);
    if (order.packageId) metadata.package_id = order.packageId;
    const common = {
      success_url: absoluteUrl(order.successUrl, config.publicUrl),
      cancel_url: absoluteUrl(order.cancelUrl, config.publicUrl),
      client_reference_id: order.id,
      customer_email: request.email,
      metadata,
    };
    let params: Stripe.Checkout.SessionCreateParams;
    if (order.kind === 'subscription') {
      const lineItem: Stripe.Checkout.SessionCreateParams.LineItem = config.STRIPE_SUBSCRIPTION_PRICE_ID
        ? { price: config.STRIPE_SUBSCRIPTION_PRICE_ID, quantity: 1 }
        : {
            price_data: {
              currency: PAYMENT_CURRENCY,
              unit_amount: order.amountCents,
              recurring: { interval: 'month' },
              product_data: { name: request.productName },
            },
            quantity: 1,
          };
      params = {
        ...common,
        mode: 'subscription',
        line_items: [lineItem],
        subscription_data: {
          metadata: { user_id: order.userId, order_id: order.id },
          ...(request.trialDays ? { trial_period_days: request.trialDays } : {}),
        },
      };
    } else {
      params = {
        ...common,
        mode: 'payment',
        line_items: [
          {
            price_data: {
              currency: PAYMENT_CURRENCY,
              unit_amount: order.amountCents,
              product_data: { name: request.productName },
            },
            quantity: 1,
          },
        ],
      };
    }
    try {
      const session = await stripe.checkout.sessions.create(params, { idempotencyKey: `genpro-order-${order.id}` });
      if (!session.url) throw new Error('Stripe returned a Checkout Session without a url');
      return { url: session.url, sessionId: session.id };
    } catch (error) {
      throw providerError(error);
    }
  }

  async function call(run: () => Promise<unknown>): Promise<SubscriptionState> {
    try {
      return subscriptionState((await run()) as Record<string, unknown>);
    } catch (error) {
      throw providerError(error);
    }
  }

  return {
    provider: { name: 'stripe', createCheckout },
    subscriptions: {
      retrieve: (id) => call(() => stripe.subscriptions.retrieve(id)),
      cancelNow: (id) => call(() => stripe.subscriptions.cancel(id)),
      cancelAtPeriodEnd: (id) => call(() => stripe.subscriptions.update(id, { cancel_at_period_end: true })),
    },
  };
}
