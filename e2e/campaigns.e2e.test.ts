import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { baseUrl, expect, logIn, openBrowser, signUpByApi, uniqueEmail } from './browser.ts';

const PASSWORD = 'maple-river-drum-8';

/** A verified user of the given role, registered through the API. */
async function register(prefix: string, role: 'brand' | 'creator', firstName: string): Promise<string> {
  const email = uniqueEmail(prefix);
  await signUpByApi({ first_name: firstName, last_name: 'Journey', email, password: PASSWORD, role });
  return email;
}

async function logOut(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.clear());
  await page.context().clearCookies();
}

describe('campaigns', () => {
  it('a brand funds its wallet and opens a planned campaign; an approved creator applies and is accepted', {
    timeout: 300_000,
  }, async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      const brandEmail = await register('brand', 'brand', 'Bea');
      const creatorEmail = await register('creator', 'creator', 'Cody');

      // ---- The brand tops up its campaign wallet through the local checkout. ----
      await logIn(page, brandEmail, PASSWORD);
      await page.goto(`${baseUrl()}/dashboard?account=billing`);
      await page.getByTestId('brand-wallet').waitFor();
      await page.locator('#wallet-amount').fill('500');
      await page.getByTestId('wallet-add-funds').click();
      await page.waitForURL('**/checkout/local/**');
      await page.getByTestId('checkout-pay').click();
      await page.waitForURL((url) => url.pathname === '/dashboard');
      await page.getByTestId('dashboard-shell').waitFor();

      // ---- The plan form: budget bounded by the wallet, the age slider's generation label. ----
      await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=campaigns`);
      await page.getByTestId('plan-form').waitFor();
      await expect.poll(() => page.getByTestId('plan-wallet').textContent(), { timeout: 15_000 }).toContain('500.00');
      await page.getByTestId('plan-objective').fill('Launch our recycled running shoe to young city runners');
      // The draft is kept in local storage and comes back after a reload.
      await page.getByTestId('draft-save').click();
      await page.reload();
      await page.getByTestId('draft-restored').waitFor();
      expect(await page.getByTestId('plan-objective').inputValue()).toBe(
        'Launch our recycled running shoe to young city runners',
      );
      expect(await page.getByTestId('audience-generation').getAttribute('data-generation')).toBe('Multi-Gen');
      // 18–25 is Gen Z: move the upper thumb down with the keyboard.
      await page.getByTestId('age-max').focus();
      for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowLeft');
      await expect.poll(() => page.getByTestId('audience-generation').getAttribute('data-generation')).toBe('Gen Z');
      expect(await page.getByTestId('duration-label').textContent()).toBe('1 Week');

      await page.getByTestId('plan-budget').fill('750');
      await page.getByTestId('build-plan').click();
      await expect
        .poll(() => page.getByTestId('plan-error-budget').textContent())
        .toContain('Insufficient funds. Need $250.00 more.');
      await page.getByTestId('plan-budget').fill('300');
      await page.getByTestId('plan-platform-tiktok').click();
      await page.getByTestId('build-plan').click();

      const plan = page.getByTestId('plan-result');
      await plan.waitFor({ timeout: 60_000 });
      const title = ((await page.getByTestId('plan-title').textContent()) ?? '').trim();
      expect(title.length).toBeGreaterThan(0);
      expect(await page.getByTestId('plan-schedule').locator('[data-platform]').count()).toBe(2);
      expect(await page.getByTestId('plan-budget-split').locator('li').count()).toBe(2);
      expect(await page.getByTestId('plan-reach-basis').textContent()).toBeTruthy();

      await page.getByTestId('plan-create-open').click();
      const created = page.getByTestId('campaign-created');
      await created.waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('created-title').textContent()).toBe(title);
      expect(await page.getByTestId('created-budget').textContent()).toContain('300.00');
      const campaignId = (await created.getAttribute('data-campaign-id')) ?? '';
      expect(campaignId).toMatch(/^[0-9a-f-]{36}$/);
      // The draft is cleared once the campaign exists.
      expect(
        await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('genpro.draft.campaign.'))),
      ).toEqual([]);

      // ---- The admin approves the creator on the adminCreators view. ----
      await logOut(page);
      await logIn(page, 'admin@genpro.local', 'genpro-admin');
      await page.goto(`${baseUrl()}/dashboard?view=adminCreators`);
      await page.getByTestId('admin-creators-view').waitFor();
      await page.getByTestId('admin-search').fill(creatorEmail);
      const card = page.locator(`[data-testid="admin-creator-card"][data-email="${creatorEmail}"]`);
      await card.waitFor({ timeout: 15_000 });
      await card.getByTestId('admin-creator-type').selectOption('influencer');
      await card.getByTestId('admin-approve').click();
      await expect
        .poll(
          () =>
            page
              .locator(`[data-testid="admin-creator-card"][data-email="${creatorEmail}"]`)
              .getAttribute('data-status'),
          {
            timeout: 15_000,
          },
        )
        .toBe('approved_creator');

      // ---- The creator applies from the pool. ----
      await logOut(page);
      await logIn(page, creatorEmail, PASSWORD);
      await page.goto(`${baseUrl()}/dashboard?view=campaignsPool`);
      await page.getByTestId('campaigns-pool').waitFor();
      const poolCard = page.locator(`[data-testid="campaign-card"][data-campaign-id="${campaignId}"]`);
      await poolCard.waitFor({ timeout: 15_000 });
      await poolCard.getByTestId('campaign-details-open').click();
      const details = page.getByTestId('campaign-details');
      await details.getByTestId('campaign-details-body').waitFor();
      expect(await details.getByTestId('details-budget').textContent()).toContain('300.00');
      await page.keyboard.press('Escape');
      await details.waitFor({ state: 'detached' });

      await poolCard.getByTestId('campaign-apply').click();
      const apply = page.getByTestId('apply-dialog');
      await apply.waitFor();
      await apply.getByTestId('apply-submit').click();
      await apply.getByText('Please write a message to the brand').waitFor();
      await page.locator('#apply-message').fill('I run 40 km a week and film every run. Two reels and a TikTok.');
      await page.locator('#apply-rate').fill('120');
      await apply.getByTestId('apply-submit').click();
      await apply.waitFor({ state: 'detached' });
      await expect.poll(() => poolCard.getByTestId('status-badge').last().getAttribute('data-status')).toBe('pending');

      // ---- The brand accepts on the manage page. ----
      await logOut(page);
      await logIn(page, brandEmail, PASSWORD);
      await page.goto(`${baseUrl()}/dashboard?view=myCampaigns`);
      const mine = page.locator(`[data-testid="campaign-card"][data-campaign-id="${campaignId}"]`);
      await mine.waitFor({ timeout: 15_000 });
      // One primary action on the card (Manage); Details and the status changes sit in its menu (issue 18).
      // Visible controls: the thumbnail (opens the details), Manage and the menu.
      expect(await mine.locator('a:visible, button:visible').count()).toBe(3);
      expect(await mine.getByTestId('status-to-running').count()).toBe(0);
      await mine.getByTestId('campaign-more').click();
      const menu = page.getByTestId('campaign-menu');
      await menu.waitFor();
      expect((await menu.getByRole('menuitem').allInnerTexts()).map((s) => s.trim())).toEqual([
        'Details',
        'Start running',
        'Complete campaign',
      ]);
      await page.screenshot({ path: 'test-results/screenshots/campaigns-card-menu-1280.png' });
      await menu.getByTestId('status-to-running').click();
      await page.getByTestId('status-confirm-running').waitFor();
      await page.keyboard.press('Escape');
      await page.getByTestId('status-confirm-running').waitFor({ state: 'detached' });
      await mine.getByTestId('campaign-more').click();
      await page.getByTestId('campaign-menu-details').click();
      await page.getByTestId('campaign-details').getByTestId('campaign-details-body').waitFor();
      await page.keyboard.press('Escape');
      await page.getByTestId('campaign-details').waitFor({ state: 'detached' });
      await mine.getByTestId('campaign-manage').click();
      await page.waitForURL(`**/dashboard/campaigns/${campaignId}/manage`);
      await page.getByTestId('manage-campaign').waitFor();
      expect(await page.getByTestId('manage-held').textContent()).toContain('300.00');
      const application = page.getByTestId('application').first();
      await application.waitFor();
      expect(await application.textContent()).toContain('I run 40 km a week');
      await application.getByTestId('application-accept').click();
      await expect.poll(() => application.getAttribute('data-status'), { timeout: 15_000 }).toBe('accepted');
      const collaboration = page.getByTestId('manage-collaborations').getByTestId('collaboration');
      await collaboration.waitFor({ timeout: 15_000 });
      expect(await collaboration.getAttribute('data-status')).toBe('active');
      expect(await collaboration.getByTestId('metric-reach').textContent()).toBe('N/A');

      // ---- The creator sees the collaboration in My Active Collaborations. ----
      await logOut(page);
      await logIn(page, creatorEmail, PASSWORD);
      await page.goto(`${baseUrl()}/dashboard?view=myCampaigns`);
      const active = page.getByTestId('my-active-collaborations').getByTestId('active-collaboration');
      await active.waitFor({ timeout: 15_000 });
      expect(await active.getAttribute('data-status')).toBe('active');
      expect(await active.getByTestId('active-collaboration-title').textContent()).toBe(title);
      expect(await page.locator('[data-testid="my-application"]').first().getAttribute('data-status')).toBe('accepted');
    } finally {
      await browser.close();
    }
  });
});
