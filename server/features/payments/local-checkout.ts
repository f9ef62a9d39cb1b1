import { createHmac, timingSafeEqual } from 'node:crypto';
import { formatEuros } from '../../../common/api/money.ts';
import { SUBSCRIPTION_PLAN } from '../../../common/api/payments.constants.ts';
import type { OrderRow } from './provider.ts';

/**
 * The embedded checkout's form token. A plain HTML form cannot send the X-Requested-With header the
 * other cookie writes need, so the Pay and Cancel forms carry this token instead: an HMAC keyed with
 * the signed-in session's token hash (a server-side secret) over the order id. Only a page served to
 * that session can know it, so another site cannot forge the POST (and the SameSite=Lax session cookie
 * is not sent on a cross-site POST anyway). The order can leave `open` only once, so each token acts
 * once.
 */
export function checkoutToken(sessionTokenHash: string, orderId: string): string {
  return createHmac('sha256', sessionTokenHash).update(`local-checkout:${orderId}`).digest('hex');
}

export function checkToken(sessionTokenHash: string, orderId: string, token: string): boolean {
  const expected = Buffer.from(checkoutToken(sessionTokenHash, orderId), 'hex');
  const given = Buffer.from(/^[0-9a-f]{64}$/i.test(token) ? token : '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Headers of every checkout page: no framing, no scripts, forms post only to this origin. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  // same-origin, not no-referrer: with no-referrer the browser sends `Origin: null` on the form posts.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
} as const;

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** What the order buys, in words. */
function orderTitle(order: OrderRow): string {
  if (order.kind === 'credits_topup') return `Credit top-up: ${order.credits ?? 0} credits`;
  if (order.kind === 'wallet_topup') return 'Campaign wallet top-up';
  return `${SUBSCRIPTION_PLAN.displayName} subscription (${formatEuros(order.amountCents)} / ${SUBSCRIPTION_PLAN.interval})`;
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · GenPro Studio</title>
<style>
  :root { color-scheme: dark; }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 24px 16px;
    background: #0b0d12; color: #e7e9ee; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { width: 100%; max-width: 420px; background: #141821; border: 1px solid #262c38; border-radius: 14px; padding: 28px 24px; }
  h1 { margin: 0 0 4px; font-size: 20px; }
  .muted { color: #9aa3b2; font-size: 13px; margin: 0 0 20px; }
  dl { margin: 0 0 24px; display: grid; grid-template-columns: auto 1fr; gap: 10px 16px; }
  dt { color: #9aa3b2; }
  dd { margin: 0; text-align: end; overflow-wrap: anywhere; }
  .amount { font-size: 18px; font-weight: 600; }
  .actions { display: flex; flex-direction: column; gap: 10px; }
  form { margin: 0; }
  button, a.button { display: block; width: 100%; padding: 12px 16px; border-radius: 10px; font: inherit; font-weight: 600;
    text-align: center; text-decoration: none; cursor: pointer; border: 1px solid transparent; }
  .pay { background: #7c5cff; color: #fff; }
  .pay:hover { background: #6a4bf0; }
  .cancel, a.button.cancel { background: transparent; color: #e7e9ee; border-color: #323949; }
  .cancel:hover { background: #1b202b; }
  button:focus-visible, a.button:focus-visible { outline: 2px solid #a996ff; outline-offset: 2px; }
  .note { margin: 20px 0 0; font-size: 12px; color: #7d8696; }
</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

export function checkoutPage(order: OrderRow, email: string, token: string, trialEnd: Date | null): string {
  const title = orderTitle(order);
  const trial =
    order.kind === 'subscription' && trialEnd
      ? `<dt>First charge</dt><dd>${escapeHtml(trialEnd.toISOString().slice(0, 10))} (after your free trial)</dd>`
      : '';
  const hidden = `<input type="hidden" name="token" value="${escapeHtml(token)}">`;
  return layout(
    'Checkout',
    `<h1>Checkout</h1>
<p class="muted">GenPro Studio local checkout</p>
<dl>
  <dt>Item</dt><dd data-testid="checkout-item">${escapeHtml(title)}</dd>
  <dt>Amount</dt><dd class="amount" data-testid="checkout-amount">${formatEuros(order.amountCents)}</dd>
  ${trial}
  <dt>Account</dt><dd data-testid="checkout-email">${escapeHtml(email)}</dd>
</dl>
<div class="actions">
  <form method="post" action="/api/payment/local/${order.id}/complete">${hidden}
    <button class="pay" type="submit" data-testid="checkout-pay" autofocus>Pay ${formatEuros(order.amountCents)}</button>
  </form>
  <form method="post" action="/api/payment/local/${order.id}/cancel">${hidden}
    <button class="cancel" type="submit" data-testid="checkout-cancel">Cancel</button>
  </form>
</div>
<p class="note">This studio runs without a payment provider: paying here completes the order at once and no card is charged. Set STRIPE_SECRET_KEY to take real payments.</p>`,
  );
}

/** A message page (order not open, not signed in, bad token) with a way back. */
export function messagePage(title: string, message: string, link: { href: string; label: string }): string {
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p class="muted" data-testid="checkout-message">${escapeHtml(message)}</p>
<a class="button cancel" href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a>`,
  );
}
