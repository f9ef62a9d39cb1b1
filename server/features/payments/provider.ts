import type { Config } from '../../config.ts';
import type { paymentOrders } from '../../db/schema/index.ts';
import { createStripeProvider } from './stripe.ts';

export type OrderRow = typeof paymentOrders.$inferSelect;

export interface CheckoutRequest {
  order: OrderRow;
  email: string;
  /** The line item's name ("Creator – 300 credits", "Campaign wallet top-up", "GenPro Pro"). */
  productName: string;
  /** Subscriptions only: free days before the first charge (Stripe subscription_data[trial_period_days]). */
  trialDays: number | null;
}

/** What Stripe tells about a subscription, mapped onto our subscriptions row. */
export interface SubscriptionState {
  providerSubscriptionId: string;
  status: string;
  cancelAtPeriodEnd: boolean;
  trialEnd: Date | null;
  currentPeriodEnd: Date | null;
  /** subscription_data[metadata][user_id] set at checkout. */
  userId: string | null;
}

/**
 * The payments interface. `local` is the embedded checkout page of our own (GET /checkout/local/:id);
 * `stripe` is Stripe Checkout with signed webhooks. Both end in the same fulfilOrder.
 */
export interface PaymentProvider {
  readonly name: 'local' | 'stripe';
  /** Starts the checkout of an open order: the URL to send the browser to, and the provider's session id. */
  createCheckout(request: CheckoutRequest): Promise<{ url: string; sessionId: string | null }>;
}

/** Stripe's subscription calls; present only when STRIPE_SECRET_KEY is set. */
export interface StripeSubscriptions {
  retrieve(id: string): Promise<SubscriptionState>;
  cancelNow(id: string): Promise<SubscriptionState>;
  cancelAtPeriodEnd(id: string): Promise<SubscriptionState>;
}

export interface Payments {
  /** Null when payments are off (PAYMENTS=off, the production default without Stripe): paying answers 503. */
  provider: PaymentProvider | null;
  stripe: StripeSubscriptions | null;
}

const localProvider: PaymentProvider = {
  name: 'local',
  // A relative URL: the page is served by this same process and reads the session cookie of this origin.
  createCheckout: async ({ order }) => ({ url: `/checkout/local/${order.id}`, sessionId: null }),
};

/** As PAYMENTS says (config.ts resolves it): Stripe, the embedded local checkout, or none. */
export function createPayments(config: Config): Payments {
  if (config.PAYMENTS === 'off') return { provider: null, stripe: null };
  if (config.PAYMENTS === 'local' || !config.STRIPE_SECRET_KEY) return { provider: localProvider, stripe: null };
  const stripe = createStripeProvider(config, config.STRIPE_SECRET_KEY);
  return { provider: stripe.provider, stripe: stripe.subscriptions };
}
