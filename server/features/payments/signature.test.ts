import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { verifyStripeSignature } from './signature.ts';

const SECRET = 'whsec_unit_secret';
const body = Buffer.from(JSON.stringify({ id: 'evt_1', object: 'event', type: 'ping', data: { object: {} } }));
const now = 1_800_000_000_000;
const at = (seconds: number, secret = SECRET) =>
  Stripe.webhooks.generateTestHeaderString({ payload: body.toString('utf8'), secret, timestamp: seconds });

describe('verifyStripeSignature (Stripe.webhooks.constructEvent)', () => {
  it('accepts what Stripe signs, within 300 s, including a rolled secret’s second v1', () => {
    expect(verifyStripeSignature(body, at(now / 1000), SECRET, now)).toBe(true);
    expect(verifyStripeSignature(body, at(now / 1000 - 299), SECRET, now)).toBe(true);
    // While an endpoint secret is rolled, Stripe sends one v1 per secret.
    const old = at(now / 1000, 'whsec_old');
    const rolled = `${old},v1=${at(now / 1000).split('v1=')[1]}`;
    expect(verifyStripeSignature(body, rolled, SECRET, now)).toBe(true);
  });

  it('refuses another secret, other bytes, a stale or future timestamp and a malformed header', () => {
    expect(verifyStripeSignature(body, at(now / 1000, 'whsec_other'), SECRET, now)).toBe(false);
    expect(verifyStripeSignature(Buffer.from(`${body} `), at(now / 1000), SECRET, now)).toBe(false);
    expect(verifyStripeSignature(body, at(now / 1000 - 301), SECRET, now)).toBe(false);
    expect(verifyStripeSignature(body, at(now / 1000 + 301), SECRET, now)).toBe(false);
    expect(verifyStripeSignature(body, 't=123', SECRET, now)).toBe(false);
    expect(verifyStripeSignature(body, undefined, SECRET, now)).toBe(false);
  });
});
