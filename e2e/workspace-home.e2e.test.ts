import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { baseUrl, expect, freshCreator, logIn, openBrowser } from './browser.ts';

// Issue 18, point 1: the workspace view (?view=creators), where every role and every payment return lands,
// showed a title and nothing else.

const JSON_HEADERS = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };

async function openHome(page: Page, query = ''): Promise<void> {
  await page.goto(`${baseUrl()}/dashboard?view=creators${query}`);
  await page.getByTestId('workspace-home').waitFor();
}

/** True once a toast on the page reads `text`. */
async function hasToast(page: Page, text: string): Promise<boolean> {
  const texts = await page.locator('[data-sonner-toast]').allTextContents();
  return texts.some((t) => t.includes(text));
}

describe('workspace home', () => {
  it('shows a new creator their credits, next steps and an empty state in every section, then a running video with rising progress that lands in recent assets', {
    timeout: 180_000,
  }, async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      const token = await freshCreator(page);
      await openHome(page);
      await expect.poll(() => page.getByTestId('home-credits-balance').textContent()).toBe('200');
      await page.getByTestId('home-tasks-empty').waitFor();
      await page.getByTestId('home-assets-empty').waitFor();
      await page.getByTestId('home-campaigns-empty').waitFor();
      const steps = page.getByTestId('home-next-steps');
      await steps.waitFor();
      for (const step of ['generate', 'persona', 'network']) {
        expect(await steps.getByTestId(`home-step-${step}`).getAttribute('data-done')).toBe('false');
      }

      // A video started elsewhere shows here with its progress, refreshed while it runs.
      const started = await fetch(`${baseUrl()}/api/ai/generate/video`, {
        method: 'POST',
        headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` },
        // Long enough (30 s of 1080p) to be watched while it renders on a fast machine too.
        body: JSON.stringify({
          prompt: 'slow aerial shot over a misty mountain lake at sunrise',
          duration: 30,
          resolution: '1080p',
        }),
      });
      expect(started.status).toBe(200);
      // Started in another tab: the home picks it up on its next check, or at once on a visit.
      await openHome(page);
      const row = page.getByTestId('running-task');
      await row.waitFor({ timeout: 30_000 });
      expect(await row.getAttribute('data-kind')).toBe('generate.video');
      expect(await row.getByRole('progressbar').count()).toBe(1);
      const seen: number[] = [];
      while ((await row.count()) > 0) {
        const raw = await row
          .getByRole('progressbar')
          .getAttribute('aria-valuenow', { timeout: 500 })
          .catch(() => null);
        const value = raw === null ? Number.NaN : Number(raw);
        if (Number.isFinite(value) && value !== seen.at(-1)) seen.push(value);
        await page.waitForTimeout(150);
      }
      // More than one reading between start and finish: the row moved while the video rendered.
      expect(seen.filter((v) => v > 0 && v < 100).length).toBeGreaterThanOrEqual(2);
      for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);

      // Finished: the list is empty again, the clip is in recent assets and the first step is done.
      await page.getByTestId('home-tasks-empty').waitFor();
      await expect.poll(() => page.getByTestId('home-asset').count(), { timeout: 15_000 }).toBe(1);
      expect(await page.getByTestId('home-asset').getAttribute('data-type')).toBe('video');
      await expect.poll(() => steps.getByTestId('home-step-generate').getAttribute('data-done')).toBe('true');
      await expect.poll(() => page.getByTestId('home-credits-balance').textContent()).not.toBe('200');
    } finally {
      await browser.close();
    }
  });

  it('gives a brand its campaigns and an admin the review queue', async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await logIn(page, 'brand@genpro.local', 'genpro-brand');
      await openHome(page);
      const campaigns = page.getByTestId('home-campaigns');
      await campaigns.waitFor();
      expect(await campaigns.textContent()).toContain('Your active campaigns');
      await expect
        .poll(
          async () =>
            (await campaigns.getByTestId('home-campaign').count()) +
            (await page.getByTestId('home-campaigns-empty').count()),
        )
        .toBeGreaterThan(0);
      await page.getByTestId('home-credits').waitFor();
      await page.getByTestId('home-tasks').waitFor();
      await page.getByTestId('home-assets').waitFor();

      await page.getByTestId('logout-button').click();
      await page.waitForURL('**/auth/login');
      await logIn(page, 'admin@genpro.local', 'genpro-admin');
      await openHome(page);
      // The demo data has a creator awaiting approval (pending@genpro.local).
      await expect.poll(() => page.getByTestId('home-review-creators').getAttribute('data-count')).not.toBe('0');
      await page.getByTestId('home-review-brands').waitFor();
    } finally {
      await browser.close();
    }
  });

  it('lands payment returns on the Billing tab with a success or cancelled toast', async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await logIn(page, 'creator@genpro.local', 'genpro-creator');
      for (const [query, toast] of [
        ['topup=success', 'Credits added to your balance.'],
        ['subscription=success', 'Your subscription is updated.'],
        ['topup=cancelled', 'Purchase cancelled. You were not charged.'],
        ['subscription=cancelled', 'Subscription checkout cancelled. You were not charged.'],
      ] as const) {
        await page.goto(`${baseUrl()}/dashboard?${query}`);
        await page.getByTestId('account-billing').waitFor();
        await expect.poll(() => new URL(page.url()).searchParams.get('account')).toBe('billing');
        const flag = query.split('=')[0];
        await expect.poll(() => new URL(page.url()).searchParams.get(flag)).toBeNull();
        await expect.poll(() => hasToast(page, toast)).toBe(true);
      }

      await page.getByTestId('account-close').click();
      await page.getByTestId('logout-button').click();
      await page.waitForURL('**/auth/login');
      await logIn(page, 'brand@genpro.local', 'genpro-brand');
      for (const [query, toast] of [
        ['wallet_topup=success', 'Your campaign wallet is topped up.'],
        ['wallet_topup=cancelled', 'Wallet top-up cancelled. You were not charged.'],
      ] as const) {
        await page.goto(`${baseUrl()}/dashboard?${query}`);
        await page.getByTestId('account-billing').waitFor();
        await expect.poll(() => new URL(page.url()).searchParams.get('wallet_topup')).toBeNull();
        await expect.poll(() => hasToast(page, toast)).toBe(true);
      }
    } finally {
      await browser.close();
    }
  });
});
