import { createHmac, timingSafeEqual } from 'node:crypto';

/** Stripe's replay window: a signature older or newer than this is refused. */
const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Verifies a `Stripe-Signature: t=<unix>,v1=<hex>[,v1=…]` header: HMAC-SHA256 with the endpoint secret
 * over `t + "." + rawBody`, compared in constant time with every v1, and |now − t| ≤ 300 s.
 */
export function verifyStripeSignature(
  rawBody: Buffer,
  header: string | undefined,
  secret: string,
  nowMs: number,
): boolean {
  if (!header) return false;
  let timestamp: number | null = null;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value && /^\d+$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && value && /^[0-9a-f]{64}$/i.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === null || signatures.length === 0) return false;
  if (Math.abs(Math.floor(nowMs / 1000) - timestamp) > WEBHOOK_TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  let match = false;
  for (const signature of signatures) {
    if (signature.length === expected.length && timingSafeEqual(signature, expected)) match = true;
  }
  return match;
}

/** The header Stripe would send for this body (tests and local tooling). */
export function signStripePayload(rawBody: string | Buffer, secret: string, timestampSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${timestampSeconds}.`).update(rawBody).digest('hex');
  return `t=${timestampSeconds},v1=${mac}`;
}
