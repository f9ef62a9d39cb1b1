import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { baseUrl, expect, logIn, openBrowser } from './browser.ts';
import { type Account, activeCollaboration, api, MARKET_PASSWORD as PASSWORD } from './marketplace.ts';

const SHOTS = path.resolve('test-results', 'screenshots');

/** A creator earns €50: a brand funds its wallet, runs a campaign, accepts the creator and completes the work. */
async function creatorWithEarnings(): Promise<Account> {
  const { brand, creator, collaborationId } = await activeCollaboration({
    title: 'Autumn payout test',
    platforms: ['instagram'],
    contentTypes: ['image'],
    rate: 50,
    prefix: 'payout',
  });
  await api(`/api/collaborations/${collaborationId}/complete`, brand.token, { method: 'POST' });
  const earnings = await api('/api/creators/earnings', creator.token);
  expect((earnings.data as { totalEarnings: number }).totalEarnings).toBe(50);
  return creator;
}

/** The element itself (the account dialog scrolls inside a fixed layer, which a full-page shot cuts badly). */
async function shot(target: Page | Locator, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await target.screenshot({ path: path.join(SHOTS, `payouts-${name}.png`) });
}

/** The Billing tab of the account dialog, scrolled to the payouts card. */
async function openBilling(page: Page) {
  await page.goto(`${baseUrl()}/dashboard?account=billing`);
  await page.getByTestId('creator-payouts').getByTestId('payout-form').waitFor({ timeout: 20_000 });
  await page.getByTestId('creator-payouts').scrollIntoViewIfNeeded();
}

describe('creator payouts', () => {
  it('a creator with earnings asks for a payout, sees it pending, an admin pays it, the creator sees it paid', {
    timeout: 300_000,
  }, async () => {
    const creator = await creatorWithEarnings();

    const browser = await openBrowser({ width: 375, height: 812 });
    const { page } = browser;
    try {
      await logIn(page, creator.email, PASSWORD);
      await openBilling(page);
      const card = page.getByTestId('creator-payouts');

      // ---- This studio has no Stripe: the card says payouts are paid by hand. ----
      expect(await card.getByTestId('payouts-mode').getAttribute('data-mode')).toBe('manual');

      // ---- Without a bank account the request is disabled, with the reason. ----
      expect(await card.getByTestId('payout-available').textContent()).toBe('€50.00');
      expect(await card.getByTestId('payout-blocked').textContent()).toBe(
        'Add a bank account in Billing before requesting a payout',
      );
      expect(await card.getByTestId('payout-request').isDisabled()).toBe(true);
      expect(await card.getByTestId('payouts-empty').isVisible()).toBe(true);

      // ---- A bank account added below in the same tab reaches the card at once, without a reload. ----
      await page.evaluate(() => {
        (window as unknown as { notReloaded: boolean }).notReloaded = true;
      });
      expect(await page.locator('#payout-amount').isDisabled()).toBe(true);
      const bank = page.getByTestId('bank-accounts');
      await bank.getByTestId('bank-account-new').click();
      await page.locator('#bank-holder').fill('Cyrus Payout');
      await page.locator('#bank-name').fill('Commerzbank');
      await page.locator('#bank-iban').fill('DE89 3704 0044 0532 0130 00');
      await bank.getByTestId('bank-account-add').click();
      await bank.getByTestId('bank-account-row').waitFor({ timeout: 15_000 });
      await expect
        .poll(() => card.getByTestId('payout-destination').textContent(), { timeout: 15_000 })
        .toContain('DE** **** **** **** **30 00');
      expect(await page.locator('#payout-amount').isDisabled()).toBe(false);
      expect(await card.getByTestId('payout-request').isDisabled()).toBe(false);
      expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

      // ---- Amounts the earnings cannot cover are refused before any request. ----
      await page.locator('#payout-amount').fill('60');
      await card.getByTestId('payout-request').click();
      expect(await page.locator('#payout-amount-error').textContent()).toBe(
        'The amount is more than your available earnings',
      );
      await page.locator('#payout-amount').fill('5');
      await card.getByTestId('payout-request').click();
      expect(await page.locator('#payout-amount-error').textContent()).toBe('The amount must be at least €10');

      // ---- €30 requested: pending, €20 left, no second request. ----
      const earnings = page.getByTestId('creator-earnings');
      const figures = async () => ({
        earned: await earnings.getByTestId('earnings-earned').textContent(),
        available: await earnings.getByTestId('earnings-available').textContent(),
        pending: await earnings.getByTestId('earnings-pending').textContent(),
      });
      expect(await figures()).toEqual({ earned: '€50.00', available: '€50.00', pending: '€0.00' });
      await page.locator('#payout-amount').fill('30');
      await card.getByTestId('payout-request').click();
      const row = card.getByTestId('payout-row');
      await row.waitFor({ timeout: 15_000 });
      expect(await row.getByTestId('payout-amount').textContent()).toBe('€30.00');
      expect(await row.getByTestId('payout-status').getAttribute('data-status')).toBe('pending');
      await expect.poll(() => card.getByTestId('payout-available').textContent()).toBe('€20.00');
      // Earned stays what was earned; the payout moves from available to pending.
      await expect.poll(figures).toEqual({ earned: '€50.00', available: '€20.00', pending: '€30.00' });
      expect(await earnings.innerText()).toMatch(/Total earned[\s\S]*Available to pay out[\s\S]*In payouts pending/);
      expect(await card.getByTestId('payout-blocked').textContent()).toBe(
        'You already have a payout in progress. Payouts are made one at a time.',
      );
      expect(await card.getByTestId('payout-request').isDisabled()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(card, 'creator-pending-375');

      // ---- Arabic, right to left, at 375 px. ----
      await page.evaluate(() => localStorage.setItem('language', 'ar'));
      await openBilling(page);
      expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
      expect(await card.getByTestId('payout-status').textContent()).toBe('معلّق');
      expect(await card.getByTestId('payout-blocked').textContent()).toBe(
        'لديك طلب سحب قيد التنفيذ. تُنفَّذ طلبات السحب واحدًا تلو الآخر.',
      );
      await shot(card, 'creator-pending-375-ar');
      expect(await earnings.innerText()).toContain('إجمالي ما كسبته');
      await shot(earnings, 'earnings-375-ar');
      // Desktop, Arabic then English (dark theme is the default).
      await page.setViewportSize({ width: 1440, height: 900 });
      await openBilling(page);
      await shot(card, 'creator-pending-1440-ar');
      await shot(earnings, 'earnings-1440-ar');
      await page.evaluate(() => localStorage.setItem('language', 'en'));
      await openBilling(page);
      expect(await page.locator('html').getAttribute('class')).toContain('dark');
      await shot(card, 'creator-pending-1440');
      await shot(earnings, 'earnings-1440');
      await page.setViewportSize({ width: 375, height: 812 });
      await page.evaluate(() => localStorage.setItem('language', 'en'));

      // ---- The admin pays it by hand and records the reference. ----
      const adminBrowser = await openBrowser({ width: 375, height: 812 });
      try {
        const admin = adminBrowser.page;
        await logIn(admin, 'admin@genpro.local', 'genpro-admin');
        await admin.goto(`${baseUrl()}/dashboard?view=adminPayouts`);
        const mine = admin.locator(`[data-testid="admin-payout-card"][data-status="pending"]`, {
          hasText: creator.email,
        });
        await mine.waitFor({ timeout: 20_000 });
        expect(await admin.getByTestId('admin-payouts-mode').getAttribute('data-mode')).toBe('manual');
        expect(await mine.getByTestId('admin-payout-iban').textContent()).toBe('DE89370400440532013000');
        expect(await mine.getByTestId('admin-payout-amount').textContent()).toBe('€30.00');
        // The card fits the 375 px screen (a long email is truncated, not widening the list).
        const box = await mine.boundingBox();
        expect(box && box.x + box.width).toBeLessThanOrEqual(375);
        await mine.getByTestId('admin-payout-paid').click();
        await mine.getByTestId('admin-payout-confirm').click();
        expect(await admin.locator(`[id$="-paid-error"]`).first().textContent()).toBe(
          'Enter the bank transfer reference',
        );
        await mine.getByLabel('Bank transfer reference').fill('SEPA-2026-1126');
        expect(await seriousViolations(admin)).toEqual([]);
        await shot(mine, 'admin-confirm-375');
        await mine.getByTestId('admin-payout-confirm').click();
        // Paid payouts leave the pending list; the Paid filter shows it with its reference.
        await expect.poll(() => mine.count(), { timeout: 15_000 }).toBe(0);
        await admin.getByTestId('admin-payouts-status').selectOption('paid');
        const paid = admin.locator('[data-testid="admin-payout-card"][data-status="paid"]', { hasText: creator.email });
        await paid.waitFor({ timeout: 15_000 });
        expect(await paid.getByTestId('admin-payout-reference').textContent()).toBe('SEPA-2026-1126');
        await shot(admin, 'admin-paid-375');
        await admin.setViewportSize({ width: 1280, height: 800 });
        await shot(admin, 'admin-paid-1280');
      } finally {
        await adminBrowser.close();
      }

      // ---- The creator sees it paid, the balance unchanged, and can ask again. ----
      await openBilling(page);
      expect(await row.getByTestId('payout-status').getAttribute('data-status')).toBe('paid');
      expect(await row.getByTestId('payout-paid').textContent()).toContain('SEPA-2026-1126');
      expect(await card.getByTestId('payout-available').textContent()).toBe('€20.00');
      expect(await card.getByTestId('payout-request').isDisabled()).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(card, 'creator-paid-375');
      // The creator was told by email at once (notifications are instant by default).
      const outbox = await fetch(`${baseUrl()}/dev/mail.json?to=${encodeURIComponent(creator.email)}`);
      const mails = ((await outbox.json()) as { data: Array<{ subject: string; text: string }> }).data;
      const told = mails.find((m) => m.subject === 'Your payout of €30.00 has been paid');
      expect(told?.text).toContain('was paid to the bank account ending in 3000 (reference SEPA-2026-1126)');

      // ---- A second payout, cancelled before it is sent: the money comes back. ----
      await page.locator('#payout-amount').fill('12.50');
      await card.getByTestId('payout-request').click();
      await expect.poll(() => card.getByTestId('payout-available').textContent(), { timeout: 15_000 }).toBe('€7.50');
      const newest = row.first();
      expect(await newest.getByTestId('payout-status').getAttribute('data-status')).toBe('pending');
      await newest.getByTestId('payout-cancel').click();
      await page.getByTestId('payout-cancel-dialog').waitFor();
      await page.getByTestId('payout-cancel-confirm').click();
      await expect.poll(() => newest.getByTestId('payout-status').getAttribute('data-status')).toBe('cancelled');
      await expect.poll(() => card.getByTestId('payout-available').textContent()).toBe('€20.00');
      // Paid €30 is neither available nor pending; what was earned is unchanged.
      await expect.poll(figures).toEqual({ earned: '€50.00', available: '€20.00', pending: '€0.00' });
      expect(await row.count()).toBe(2);
      await shot(card, 'creator-cancelled-375');

      // ---- Settings say when digests go out. ----
      await page.goto(`${baseUrl()}/dashboard?account=settings`);
      const notices = page.getByTestId('settings-notifications');
      await notices.waitFor({ timeout: 20_000 });
      expect(await notices.innerText()).toContain('Each update by email when it happens.');
      await page.getByTestId('setting-frequency').selectOption('daily');
      await expect
        .poll(() => notices.innerText())
        .toContain("One email a day at 08:00 in your time zone, with the day's updates.");
      await page.reload();
      await expect.poll(() => page.getByTestId('setting-frequency').inputValue(), { timeout: 20_000 }).toBe('daily');
      expect(await seriousViolations(page)).toEqual([]);
      await shot(notices, 'settings-notifications-375');
    } finally {
      await browser.close();
    }
  });
});
