import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { CREATOR_TYPES } from '../common/rules/directory.ts';
import { type StudioProcess, startStudio } from '../scripts/studio-process.ts';
import { type FakeStripe, startFakeStripe } from '../server/features/payments/fake-stripe.ts';
import { seriousViolations } from './axe.ts';
import { expect, logIn, openBrowser, signUpByApi, uniqueEmail } from './browser.ts';

// A studio of its own with Stripe configured and pointed at the local fake (server/features/payments/
// fake-stripe.ts), whose signed events go to this studio's webhook.
const SHOTS = path.resolve('test-results', 'screenshots');
const PASSWORD = 'amber-willow-kite-4';
const WEBHOOK_SECRET = 'whsec_e2e_connect';

let stripe: FakeStripe;
let studio: StudioProcess;
const base = () => studio.baseUrl;

beforeAll(async () => {
  stripe = await startFakeStripe();
  studio = await startStudio('e2e-stripe-connect', {
    env: {
      PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_e2e_connect',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.baseUrl,
    },
  });
  stripe.useWebhook({ secret: WEBHOOK_SECRET, url: `${studio.baseUrl}/api/payment/webhook` });
}, 180_000);

afterAll(async () => {
  await studio?.stop();
  await stripe?.close();
});

async function api(pathname: string, token: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(`${base()}${pathname}`, {
    method: init.method ?? 'GET',
    headers: {
      'x-requested-with': 'XMLHttpRequest',
      authorization: `Bearer ${token}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await res.json()) as { data?: Record<string, unknown> } & Record<string, unknown>;
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${pathname}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function register(role: 'creator' | 'brand', first: string) {
  const email = uniqueEmail(`connect-${role}`);
  const { token, user } = await signUpByApi(
    { first_name: first, last_name: 'Connect', email, password: PASSWORD, role },
    base(),
  );
  return { id: user.id, email, token };
}

/** A brand's wallet top-up paid on Stripe Checkout (the fake): the signed checkout.session.completed. */
async function payTopup(brandToken: string, amount: number) {
  const topup = await api('/api/brands/wallet/topup', brandToken, { method: 'POST', body: { amount } });
  const sessionId = String(topup.checkout_url).split('/').pop() ?? '';
  const orderId = String(topup.orderId);
  const completed = await stripe.sendEvent('checkout.session.completed', {
    id: sessionId,
    object: 'checkout.session',
    mode: 'payment',
    status: 'complete',
    payment_status: 'paid',
    client_reference_id: orderId,
    metadata: { order_id: orderId },
    amount_total: amount * 100,
    currency: 'eur',
  });
  expect(completed.status).toBe(200);
}

/** A creator earns €50 from a completed campaign of a brand that paid its wallet through Stripe. */
async function creatorWithEarnings() {
  const login = await fetch(`${base()}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ email: 'admin@genpro.local', password: 'genpro-admin' }),
  });
  const adminToken = ((await login.json()) as { data: { token: string } }).data.token;
  const brand = await register('brand', 'Bianca');
  const creator = await register('creator', 'Cyrus');
  await api('/api/admin/users/approve', adminToken, {
    method: 'POST',
    body: { userId: creator.id, action: 'approve', creatorType: CREATOR_TYPES[0] },
  });
  await payTopup(brand.token, 100);
  const campaign = await api('/api/campaigns', brand.token, {
    method: 'POST',
    body: {
      title: 'Connect payout test',
      objective: 'Awareness',
      budget: 80,
      platforms: ['instagram'],
      contentTypes: ['image'],
      status: 'draft',
    },
  });
  const campaignId = (campaign.data as { id: string }).id;
  await api(`/api/campaigns/${campaignId}`, brand.token, { method: 'PATCH', body: { status: 'open' } });
  const applied = await api(`/api/campaigns/${campaignId}/applications`, creator.token, {
    method: 'POST',
    body: { message: 'Happy to shoot this', rate: 50 },
  });
  const accepted = await api(`/api/applications/${(applied.data as { id: string }).id}/accept`, brand.token, {
    method: 'POST',
  });
  const collaborationId = (accepted.data as { collaboration_id: string }).collaboration_id;
  await api(`/api/collaborations/${collaborationId}/complete`, brand.token, { method: 'POST' });
  await api('/api/creators/bank-accounts', creator.token, {
    method: 'POST',
    body: { accountHolderName: 'Cyrus Connect', iban: 'DE89 3704 0044 0532 0130 00' },
  });
  return creator;
}

async function shot(target: Page | Locator, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await target.screenshot({ path: path.join(SHOTS, `stripe-connect-${name}.png`) });
}

describe('creator payouts through Stripe Connect', () => {
  it('a creator onboards to Stripe Connect from Settings, requests a payout, and sees it paid after the bank payout event', {
    timeout: 300_000,
  }, async () => {
    const creator = await creatorWithEarnings();
    const browser = await openBrowser({ width: 1280, height: 900 });
    const { page } = browser;
    try {
      await logIn(page, creator.email, PASSWORD, base());

      // ---- Settings: the studio pays through Stripe; nothing set up yet. ----
      await page.goto(`${base()}/dashboard?account=settings`);
      const card = page.getByTestId('stripe-connect');
      await card.getByTestId('stripe-connect-body').waitFor({ timeout: 20_000 });
      expect(await card.getByTestId('stripe-connect-body').getAttribute('data-mode')).toBe('stripe');
      expect(await card.getByTestId('payout-mode').textContent()).toBe(
        'This studio pays creators through Stripe Connect.',
      );
      expect(await seriousViolations(page)).toEqual([]);

      // ---- Onboarding: to Stripe's (the fake's) page and back to Settings, which reads the account. ----
      await card.getByTestId('connect-start').click();
      await page.waitForURL((url) => url.origin === base() && url.searchParams.get('account') === 'settings', {
        timeout: 20_000,
      });
      await expect
        .poll(() => card.getByTestId('connect-payouts').getAttribute('data-on'), { timeout: 20_000 })
        .toBe('true');
      expect(await card.getByTestId('connect-charges').getAttribute('data-on')).toBe('true');
      expect(await card.getByTestId('connect-requirements').count()).toBe(0);
      expect(new URL(page.url()).searchParams.get('stripe')).toBeNull();
      const [account] = [...stripe.accounts.keys()];
      expect(stripe.accounts.get(account)).toMatchObject({ type: 'express', email: creator.email, country: 'DE' });
      expect(await seriousViolations(page)).toEqual([]);
      await shot(card, 'settings-onboarded');

      // ---- Billing: €30 requested, transferred to the connected account, processing. ----
      await page.goto(`${base()}/dashboard?account=billing`);
      const payouts = page.getByTestId('creator-payouts');
      await payouts.getByTestId('payout-form').waitFor({ timeout: 20_000 });
      expect(await payouts.getByTestId('payouts-mode').getAttribute('data-mode')).toBe('stripe');
      await page.locator('#payout-amount').fill('30');
      await payouts.getByTestId('payout-request').click();
      const row = payouts.getByTestId('payout-row');
      await row.waitFor({ timeout: 15_000 });
      await expect.poll(() => row.getByTestId('payout-status').getAttribute('data-status')).toBe('processing');
      // The transfer's time comes with the account's next refresh (it may follow the status by a moment).
      await row.getByTestId('payout-transferred').waitFor({ timeout: 20_000 });
      const [transfer] = [...stripe.transfers.values()];
      expect(transfer).toMatchObject({ amount: 3_000, destination: account });

      // ---- The connected account pays it to the bank: payout.paid; the creator sees it paid. ----
      expect((await stripe.payOut(account, 3_000)).status).toBe(200);
      await page.reload();
      await payouts.getByTestId('payout-row').waitFor({ timeout: 20_000 });
      await expect
        .poll(() => payouts.getByTestId('payout-row').getByTestId('payout-status').getAttribute('data-status'))
        .toBe('paid');
      expect(await payouts.getByTestId('payout-paid').textContent()).toContain(String(transfer.id));
      expect(await seriousViolations(page)).toEqual([]);
      await shot(payouts, 'billing-paid');
    } finally {
      await browser.close();
    }
  });
});
