import { describe, it } from 'vitest';
import { WELCOME_CREDITS } from '../common/api/auth.constants.ts';
import { approvedCreator, baseUrl, expect, logIn, openBrowser } from './browser.ts';

describe('dashboard shell', () => {
  it('at 375 px shows the bottom tab bar and the full-screen menu with balance and Logout', async () => {
    const browser = await openBrowser({ width: 375, height: 740 });
    const { page } = browser;
    try {
      // A creator of its own: other journeys spend the demo creator's credits while this one runs.
      await approvedCreator(page);
      await page.goto(`${baseUrl()}/dashboard`);
      const tabbar = page.getByTestId('mobile-tabbar');
      await tabbar.waitFor();
      for (const view of ['creators', 'aiPersonas', 'brands', 'community', 'chatWithGenPro']) {
        expect(await tabbar.getByTestId(`nav-${view}`).count()).toBe(1);
      }
      expect(await page.getByTestId('sidebar').count()).toBe(0);
      const box = await tabbar.boundingBox();
      expect(box && box.y + box.height).toBeGreaterThan(700);
      // Nothing overflows sideways at phone width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

      await page.getByTestId('mobile-menu-button').click();
      const menu = page.getByTestId('mobile-menu');
      await menu.waitFor();
      expect(await menu.getByTestId('credit-balance').textContent()).toContain(String(WELCOME_CREDITS));
      expect(await menu.getByTestId('nav-genproStudio').count()).toBe(1);
      expect(await menu.getByTestId('logout-button').count()).toBe(1);
      await menu.getByTestId('nav-genproStudio').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('view')).toBe('genproStudio');
    } finally {
      await browser.close();
    }
  });

  it('Arabic turns the page right-to-left and is remembered', async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await page.goto(`${baseUrl()}/auth/login`);
      await page.getByTestId('language-select').first().selectOption('ar');
      await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('ar');
      await page.reload();
      await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      await logIn(page, 'brand@genpro.local', 'genpro-brand');
      expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      // The sidebar sits on the right in right-to-left layout.
      const sidebar = await page.getByTestId('sidebar').boundingBox();
      expect(sidebar?.x).toBeGreaterThan(600);
    } finally {
      await browser.close();
    }
  });

  it('a pending creator sees the review banner, hidden items and the approval gate', async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await logIn(page, 'pending@genpro.local', 'genpro-pending');
      const banner = page.getByTestId('approval-banner');
      await banner.waitFor();
      expect(await banner.getAttribute('data-kind')).toBe('pending');
      expect(await page.getByTestId('nav-myCampaigns').count()).toBe(0);
      expect(await page.getByTestId('nav-campaignsPool').count()).toBe(0);
      expect(await page.getByTestId('nav-adminCreators').count()).toBe(0);
      await page.goto(`${baseUrl()}/dashboard?view=campaignsPool`);
      await page.getByTestId('approval-gate').waitFor();
    } finally {
      await browser.close();
    }
  });

  it('an admin sees the admin views; dark theme is the default and light is remembered', async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await logIn(page, 'admin@genpro.local', 'genpro-admin');
      expect(await page.getByTestId('nav-adminCreators').count()).toBe(1);
      expect(await page.getByTestId('nav-adminBrands').count()).toBe(1);
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
      await page.getByTestId('theme-select').first().selectOption('light');
      await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false);
      await page.reload();
      await page.getByTestId('dashboard-shell').waitFor();
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false);
    } finally {
      await browser.close();
    }
  });

  it('a return flag refreshes the user and is removed from the URL', async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await logIn(page, 'brand@genpro.local', 'genpro-brand');
      await page.goto(`${baseUrl()}/dashboard?view=community&topup=success`);
      await page.getByTestId('dashboard-shell').waitFor();
      await expect.poll(() => new URL(page.url()).searchParams.has('topup')).toBe(false);
      expect(new URL(page.url()).searchParams.get('view')).toBe('community');
    } finally {
      await browser.close();
    }
  });
});

describe('a page revalidated by the browser', () => {
  // The 304 of a revalidated page once carried the API's `sandbox` policy: on reload the app was blank.
  it('still runs after reloads and second visits of the home page and the dashboard', async () => {
    const browser = await openBrowser();
    const { page } = browser;
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|sandbox/i.test(message.text())) blocked.push(message.text());
    });
    // What came over the wire: Playwright reports a revalidated page with its cached status (200).
    const wire: { status: number; csp: string; requestId: string }[] = [];
    const documents = new Set<string>();
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.enable');
    cdp.on('Network.requestWillBeSent', (event) => {
      if (event.type === 'Document') documents.add(event.requestId);
    });
    cdp.on('Network.responseReceivedExtraInfo', (event) => {
      const csp = Object.entries(event.headers).find(([name]) => name.toLowerCase() === 'content-security-policy');
      wire.push({ status: event.statusCode, csp: String(csp?.[1] ?? ''), requestId: event.requestId });
    });
    try {
      await page.goto(`${baseUrl()}/`);
      await page.getByTestId('home-cta-login').waitFor();
      await page.reload();
      await page.getByTestId('home-cta-login').waitFor();

      await logIn(page, 'creator@genpro.local', 'genpro-creator');
      await page.reload();
      await page.getByTestId('dashboard-shell').waitFor();
      await page.getByTestId('sidebar').waitFor();

      // A second visit of each, then a reload of the dashboard again.
      await page.goto(`${baseUrl()}/`);
      await page.getByTestId('home-cta-dashboard').waitFor();
      await page.goto(`${baseUrl()}/dashboard?view=creators`);
      await page.getByTestId('dashboard-shell').waitFor();
      await page.reload();
      await page.getByTestId('dashboard-shell').waitFor();

      // The browser did revalidate (304s came over the wire, with the page's own policy), and nothing was
      // blocked by a policy.
      const notModified = wire.filter((r) => r.status === 304 && documents.has(r.requestId));
      expect(notModified.length).toBeGreaterThan(0);
      for (const response of notModified) expect(response.csp).toMatch(/script-src 'self'/);
      expect(blocked).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
