import { afterAll, beforeAll, describe, it } from 'vitest';
import { type StudioProcess, startStudio } from '../scripts/studio-process.ts';
import { expect, logIn, openBrowser } from './browser.ts';

// NODE_ENV=production with the mail variable and the demo accounts but no vendor key and no LOCAL_ENGINES:
// what a creator sees in the studio. Every model is unavailable, so Generate is off and says why, instead of
// offering a local preview under a vendor's name or answering a 503 after the click.
describe('production mode without engines, in the browser', () => {
  let studio: StudioProcess;
  beforeAll(async () => {
    studio = await startStudio('e2e-production', {
      env: {
        NODE_ENV: 'production',
        SMTP_URL: 'smtp://127.0.0.1:9',
        SEED_DEMO: 'true',
        LOCAL_PREVIEW_PRICES: '',
        // No proxy in front; the browser talks plain HTTP to 127.0.0.1, which production allows only when told so.
        TRUST_PROXY: 'false',
        SECURE_COOKIES: 'false',
      },
    });
  }, 120_000);
  afterAll(async () => {
    await studio?.stop();
  });

  it('keeps Generate off for a model no engine serves and a network without credentials unconnectable, each named unavailable with what enables it', async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await logIn(page, 'creator@genpro.local', 'genpro-creator', studio.baseUrl);
      await page.goto(`${studio.baseUrl}/dashboard?view=genproStudio&tab=creator&mode=video`);
      const generate = page.getByTestId('generate-button');
      await generate.waitFor();
      await expect.poll(() => page.getByTestId('studio-unavailable').count(), { timeout: 15_000 }).toBe(1);
      expect(await page.getByTestId('studio-unavailable').textContent()).toContain('LOCAL_ENGINES=true');
      expect(await generate.isDisabled()).toBe(true);
      expect(await page.locator('select, [role="combobox"]').allTextContents()).toEqual(
        expect.arrayContaining([expect.stringContaining('(unavailable)')]),
      );
      // No network has live credentials and SANDBOX_NETWORKS is off: Instagram is unavailable, with the reason,
      // and there is no Connect button that would lead to the studio's own sandbox network (issue 27).
      await page.goto(`${studio.baseUrl}/dashboard?view=genproStudio&tab=publish&account=social`);
      const instagram = page.getByTestId('account-social').getByTestId('social-instagram');
      await instagram.waitFor();
      expect(await instagram.getAttribute('data-available')).toBe('false');
      expect(await instagram.textContent()).toContain('Not available on this server');
      expect(
        await page.getByTestId('account-social').getByTestId('social-instagram-unavailable').textContent(),
      ).toContain('SANDBOX_NETWORKS=true');
      expect(await page.getByTestId('account-social').getByTestId('social-instagram-connect').count()).toBe(0);
      // The outbox page of demo mode is not there.
      expect((await page.request.get(`${studio.baseUrl}/dev/mail`)).status()).toBe(404);
    } finally {
      await browser.close();
    }
  });
});
