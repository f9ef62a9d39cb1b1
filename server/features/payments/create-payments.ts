import type { Config } from '../../config.ts';
import type { PaymentProvider, Payments } from './provider.ts';
import { createStripeProvider } from './stripe.ts';

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
