import Stripe from 'stripe';

/** Stripe's replay window: a signature older than this is refused (and, here, one this far in the future). */
const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Verifies a `Stripe-Signature: t=<unix>,v1=<hex>[,v1=…]` header with Stripe's own library
 * (`Stripe.webhooks.constructEvent`: HMAC-SHA256 with the endpoint secret over `t + "." + rawBody`,
 * compared in constant time with every v1, refused when older than 300 s at `nowMs`). Stripe's check
 * lets a timestamp from the future through; a signature more than 300 s ahead is refused here too.
 */
export function verifyStripeSignature(
  rawBody: Buffer,
  header: string | undefined,
  secret: string,
  nowMs: number,
): boolean {
  if (!header) return false;
  try {
    Stripe.webhooks.constructEvent(rawBody, header, secret, WEBHOOK_TOLERANCE_SECONDS, undefined, nowMs);
  } catch {
    return false;
  }
  const timestamp = Number(/(?:^|,)\s*t=(\d+)/.exec(header)?.[1]);
  return Number.isFinite(timestamp) && timestamp - Math.floor(nowMs / 1000) <= WEBHOOK_TOLERANCE_SECONDS;
}

/** The header Stripe would send for this body (tests and local tooling), made by Stripe's library. */
export function signStripePayload(rawBody: string | Buffer, secret: string, timestampSeconds: number): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload: typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8'),
    secret,
    timestamp: timestampSeconds,
  });
}
