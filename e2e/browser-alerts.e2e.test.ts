import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { baseUrl, expect, freshCreator, openBrowser } from './browser.ts';

// Settings › Push notifications: alerts from this browser when work the page waits for finishes while the studio
// is not in front. Chromium is given the notifications permission; the page's Notification constructor is
// wrapped to record what the studio shows (the browser's own alert still runs). Playwright keeps every page
// focused unless focus emulation is switched off, so the test turns it off and brings another tab to the front.

const SHOTS = path.resolve('test-results', 'screenshots');

declare global {
  interface Window {
    __alerts?: Array<{ title: string; body?: string; tag?: string }>;
  }
}

/** Starts a video (a task the page waits for) and goes to another tab until it is done. */
async function makeVideoAway(page: Page, prompt: string): Promise<void> {
  await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=creator&mode=video`);
  await page.getByTestId('studio').waitFor();
  await page.getByTestId('studio-mode-video').click();
  await page.getByTestId('prompt-input').fill(prompt);
  // Seedance, the cheapest model: two clips fit the welcome credits.
  await page.getByTestId('video-model').selectOption('seedance');
  // Playwright turns focus emulation back on with each document: off again, so focus is the window's real one.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false });
  await page.getByTestId('generate-button').click();
  // The user goes to another tab while it runs.
  const other = await page.context().newPage();
  await other.bringToFront();
  await expect.poll(() => page.evaluate(() => document.hasFocus())).toBe(false);
  await page.getByTestId('result-video').locator('video').waitFor({ timeout: 150_000 });
  await page.bringToFront();
  await other.close();
}

describe('browser alerts (Settings › Push notifications)', () => {
  it('alerts when a video finishes while the studio is in the background, and not once turned off', {
    timeout: 400_000,
  }, async () => {
    const browser = await openBrowser({ width: 1280, height: 900 });
    const { page, context } = browser;
    try {
      await context.grantPermissions(['notifications'], { origin: baseUrl() });
      await context.addInitScript(() => {
        const Real = window.Notification;
        window.__alerts = [];
        class Recorded extends Real {
          constructor(title: string, options?: NotificationOptions) {
            super(title, options);
            window.__alerts?.push({ title, body: options?.body, tag: options?.tag });
          }
        }
        window.Notification = Recorded as typeof Notification;
      });
      await freshCreator(page);

      // On by default; this browser allows it, and the Settings tab says so.
      await page.goto(`${baseUrl()}/dashboard?account=settings`);
      const status = page.getByTestId('push-permission');
      await status.waitFor({ timeout: 20_000 });
      expect(await status.getAttribute('data-state')).toBe('granted');
      expect(await status.innerText()).toContain('This browser will alert you');
      expect(await seriousViolations(page)).toEqual([]);
      mkdirSync(SHOTS, { recursive: true });
      await page
        .getByTestId('settings-notifications')
        .screenshot({ path: path.join(SHOTS, 'alerts-settings-1280.png') });

      await makeVideoAway(page, 'waves breaking on a lighthouse in a storm');
      await expect.poll(() => page.evaluate(() => window.__alerts?.length ?? 0), { timeout: 15_000 }).toBe(1);
      const [alert] = await page.evaluate(() => window.__alerts ?? []);
      expect(alert).toMatchObject({ title: 'Your video is ready', body: 'Open GenPro Studio to see it.' });

      // Turned off in Settings: the next one finishes without an alert.
      await page.goto(`${baseUrl()}/dashboard?account=settings`);
      const toggle = page.getByTestId('setting-pushNotifications');
      await toggle.waitFor({ timeout: 20_000 });
      await toggle.click();
      await page.getByTestId('settings-saved').waitFor();
      await expect.poll(() => status.count()).toBe(0);
      await makeVideoAway(page, 'a calm sea at noon around a lighthouse');
      await page.waitForTimeout(1000);
      expect(await page.evaluate(() => window.__alerts?.length ?? 0)).toBe(0);
    } finally {
      await browser.close();
    }
  });
});
