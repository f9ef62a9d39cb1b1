// The official Stripe SDK, shared by Checkout and subscriptions (payments) and Connect transfers (payouts).
import Stripe from 'stripe';
import type { Config } from '../../config.ts';

/** The SDK's host, port and protocol for STRIPE_API_BASE (the local fake in tests), or Stripe's own. */
function endpoint(base: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!base) return {};
  const url = new URL(base);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

/** The official SDK, pointed at STRIPE_API_BASE when set (the local fake in tests). */
export function createStripeClient(config: Pick<Config, 'STRIPE_API_BASE'>, secretKey: string): Stripe {
  return new Stripe(secretKey, {
    ...endpoint(config.STRIPE_API_BASE),
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'GenPro Studio' },
  });
}
