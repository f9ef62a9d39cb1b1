import { describe, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { baseUrl, expect, logIn, openBrowser, signUpByApi, uniqueEmail } from './browser.ts';

const PASSWORD = 'amber-quarry-flute-8';

describe('the own account on an open page', () => {
  it("an admin's approval reaches the pending creator's open page without a reload", { timeout: 240_000 }, async () => {
    const email = uniqueEmail('live-approval');
    await signUpByApi({ first_name: 'Lina', last_name: 'Waiting', email, password: PASSWORD, role: 'creator' });

    const creatorBrowser = await openBrowser();
    const adminBrowser = await openBrowser();
    try {
      const creator = creatorBrowser.page;
      await logIn(creator, email, PASSWORD);
      const banner = creator.getByTestId('approval-banner');
      await banner.waitFor();
      expect(await banner.getAttribute('data-kind')).toBe('pending');
      expect(await creator.getByTestId('nav-myCampaigns').count()).toBe(0);
      // Anything a reload would lose: still here at the end means the page was never reloaded.
      await creator.evaluate(() => {
        (window as unknown as { notReloaded: boolean }).notReloaded = true;
      });

      // In another browser, the admin approves the creator with a type.
      const admin = adminBrowser.page;
      await logIn(admin, 'admin@genpro.local', 'genpro-admin');
      await admin.goto(`${baseUrl()}/dashboard?view=adminCreators`);
      await admin.getByTestId('admin-creators-view').waitFor();
      await admin.getByTestId('admin-search').fill(email);
      const card = admin.locator(`[data-testid="admin-creator-card"][data-email="${email}"]`);
      await card.waitFor();
      await card.getByTestId('admin-creator-type').selectOption('artist');
      await card.getByTestId('admin-approve').click();
      await admin
        .locator(`[data-testid="admin-creator-card"][data-email="${email}"][data-status="approved_creator"]`)
        .waitFor();

      // The creator's page (which reads /me again only after 30 s of staleness, and never on its own) drops the
      // banner and shows the menu items of approved creators. Waited for generously: the push is what is tested.
      await expect.poll(() => banner.count(), { timeout: 30_000 }).toBe(0);
      await creator.getByTestId('nav-myCampaigns').waitFor();
      expect(await creator.getByTestId('nav-campaignsPool').count()).toBe(1);
      expect(await creator.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
      expect(await seriousViolations(creator)).toEqual([]);
    } finally {
      await adminBrowser.close();
      await creatorBrowser.close();
    }
  });
});
