import type { paymentOrders } from '../../db/schema/index.ts';

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
