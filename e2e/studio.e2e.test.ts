import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, it } from 'vitest';
import { IMAGE_DEFAULTS } from '../common/api/generation.constants.ts';
import { baseUrl, expect, freshCreator, openBrowser } from './browser.ts';

async function openStudio(page: Page, mode: 'image' | 'video' | 'audio'): Promise<void> {
  await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=creator&mode=${mode}`);
  await page.getByTestId('studio').waitFor();
  await page.getByTestId(`studio-mode-${mode}`).click();
}

describe('creation studio', () => {
  it('generates an image and finds it in the media library', async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await freshCreator(page);
      await openStudio(page, 'image');
      await page.getByTestId('prompt-input').fill('a red fox in a snowy forest at dawn');
      // Issue 19: the picker names the engine that will serve the model, and Generate shows its price —
      // the local preview list the server reports, not the vendor's.
      const picked = page.getByTestId('image-model').locator('option:checked');
      await expect.poll(() => picked.textContent()).toBe('Nano Banana (local preview)');
      const token = await page.evaluate(() => localStorage.getItem('auth_token'));
      const engines = (await (
        await fetch(`${baseUrl()}/api/ai/engines`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { prices: { local: { image: number }; vendor: { image: number } } };
      expect(engines.prices.local.image).not.toBe(engines.prices.vendor.image);
      // The form asks for IMAGE_DEFAULTS.variations images of up to 2K.
      const expected = IMAGE_DEFAULTS.variations * engines.prices.local.image;
      const price = page.getByTestId('price-tag');
      expect(await price.getAttribute('data-credits')).toBe(String(expected));
      expect(await price.textContent()).toContain(`${expected} credits`);
      await page.getByTestId('generate-button').click();
      const results = page.getByTestId('result-images');
      await results.waitFor({ timeout: 45_000 });
      const src = await results.locator('img').first().getAttribute('src');
      expect(src).toBeTruthy();
      // The result says which engine made it: the embedded one here.
      expect(await page.getByTestId('engine-badge').first().getAttribute('data-engine')).toBe('local');
      const grid = page.getByTestId('assets-grid');
      await grid.waitFor();
      await expect.poll(() => grid.getByTestId('asset-card').count(), { timeout: 15_000 }).toBeGreaterThan(0);
      // The library card shows a thumbnail that really loads.
      await expect
        .poll(() =>
          grid
            .getByTestId('asset-card')
            .first()
            .locator('img')
            .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
        )
        .toBe(true);
    } finally {
      await browser.close();
    }
  });

  it('generates a video with a bar that rises through real progress, plays it, then disables Generate and suggests a top-up when the credits run out', {
    timeout: 240_000,
  }, async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await freshCreator(page);
      await openStudio(page, 'video');
      await page.getByTestId('prompt-input').fill('slow aerial shot over a misty mountain lake at sunrise');
      // The longest clip the form offers, so the bar is watched over several polls.
      await page.getByTestId('video-duration').selectOption('15');
      await page.getByTestId('generate-button').click();
      const bar = page.getByTestId('progress-bar');
      await bar.waitFor({ timeout: 15_000 });
      const firstValue = Number(await bar.getAttribute('aria-valuenow'));
      expect(firstValue).toBeGreaterThanOrEqual(5);

      // Issue 18, point 7: the bar follows the engine's progress through intermediate values and never goes back.
      const video = page.getByTestId('result-video').locator('video');
      const values: number[] = [firstValue];
      const texts: string[] = [];
      const deadline = Date.now() + 120_000;
      while ((await video.count()) === 0 && Date.now() < deadline) {
        const raw = await bar.getAttribute('aria-valuenow', { timeout: 500 }).catch(() => null);
        const text = await page
          .getByTestId('progress-text')
          .textContent({ timeout: 500 })
          .catch(() => null);
        if (raw !== null && Number(raw) !== values.at(-1)) values.push(Number(raw));
        if (text && text !== texts.at(-1)) texts.push(text);
        await page.waitForTimeout(200);
      }
      await video.waitFor({ timeout: 5_000 });
      for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThanOrEqual(values[i - 1]);
      expect(new Set(values.filter((v) => v > 5 && v < 100)).size).toBeGreaterThanOrEqual(2);
      // While it rendered, the text gave a time left, not only 'finishing…'.
      expect(texts.some((text) => /left/.test(text))).toBe(true);

      await expect
        .poll(() => video.evaluate((v: HTMLVideoElement) => (Number.isFinite(v.duration) ? v.duration : 0)), {
          timeout: 20_000,
        })
        .toBeGreaterThan(1);
      await video.evaluate((v: HTMLVideoElement) => {
        v.muted = true;
        return v.play();
      });
      await expect
        .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 })
        .toBeGreaterThan(0);

      // Issue 18, point 8: 200 welcome credits − 101 for the pro video leave 99, which cannot pay for another.
      // Generate is disabled beside 'You need 2 more credits' and a top-up of 102 (shortfall + 100).
      const generate = page.getByTestId('generate-button');
      await expect.poll(() => generate.isDisabled()).toBe(true);
      const shortfall = page.getByTestId('studio-shortfall');
      await shortfall.waitFor();
      expect(await shortfall.getByTestId('studio-shortfall-message').textContent()).toBe('You need 2 more credits');
      expect(await shortfall.getAttribute('data-suggested')).toBe('102');
      await shortfall.getByTestId('studio-shortfall-add').click();
      const dialog = page.getByTestId('topup-dialog');
      await dialog.waitFor();
      await dialog.getByTestId('topup-shortfall').waitFor();
      await expect.poll(() => dialog.locator('[data-testid^="topup-package-"]').count()).toBeGreaterThan(0);
    } finally {
      await browser.close();
    }
  });

  it('says how many credits are missing when our own balance refuses a generation (402), not that a provider is short', {
    timeout: 120_000,
  }, async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      const token = await freshCreator(page);
      // This page does not hear of the other tab's spending (its account events are cut off), so it still offers
      // Generate: the case of a balance changed between what the page knows and the server's check.
      await page.route('**/api/tasks/events**', (route) => route.abort());
      await openStudio(page, 'video');
      await page.getByTestId('prompt-input').fill('a paper boat drifting down a rainy street');
      const price = Number(await page.getByTestId('price-tag').getAttribute('data-credits'));
      expect(await page.getByTestId('generate-button').isDisabled()).toBe(false);

      // Another tab spends most of the balance: this page still shows 200 and lets Generate be pressed.
      const spent = await fetch(`${baseUrl()}/api/ai/generate/video`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          'x-requested-with': 'XMLHttpRequest',
        },
        body: JSON.stringify({ prompt: 'a quiet harbour at dawn', generateAudio: true }),
      });
      expect(spent.status).toBe(200);
      const me = await fetch(`${baseUrl()}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
      const balance = ((await me.json()) as { data: { credits: number } }).data.credits;
      expect(balance).toBeLessThan(price);

      await page.getByTestId('generate-button').click();
      const panel = page.getByTestId('error-panel');
      await panel.waitFor({ timeout: 15_000 });
      expect(await panel.getAttribute('data-kind')).toBe('credits');
      expect(await panel.textContent()).toContain('Credits Required');
      const message = await panel.getByTestId('error-panel-message').textContent();
      expect(message).toBe(`You need ${price - balance} more credits`);
      expect(await panel.textContent()).not.toMatch(/provider/i);
      // The balance is refreshed: Generate is now disabled with the same shortfall.
      await expect.poll(() => page.getByTestId('generate-button').isDisabled()).toBe(true);
    } finally {
      await browser.close();
    }
  });

  it('upscales an image asset and shows it replaced by the 4K file', { timeout: 180_000 }, async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      const token = await freshCreator(page);
      const gen = await fetch(`${baseUrl()}/api/ai/generate/image`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          'x-requested-with': 'XMLHttpRequest',
        },
        body: JSON.stringify({ prompt: 'portrait of a lighthouse keeper', numberOfImages: 1 }),
      });
      expect(gen.status).toBe(200);
      await openStudio(page, 'image');
      const card = page.getByTestId('asset-card').first();
      await card.waitFor({ timeout: 15_000 });
      const assetId = await card.getAttribute('data-asset-id');
      await card.hover();
      await card.getByTestId('asset-upscale').click();
      await expect
        .poll(
          () => page.locator(`[data-testid="asset-card"][data-asset-id="${assetId}"]`).getAttribute('data-status'),
          {
            timeout: 90_000,
            interval: 1_000,
          },
        )
        .toBe('upscaled');
      const asset = await fetch(`${baseUrl()}/api/ai/assets/${assetId}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const { data } = (await asset.json()) as { data: { url: string; metadata: Record<string, unknown> } };
      expect(data.metadata.replaced_by_enhancement).toBe(true);
      const file = await fetch(`${baseUrl()}${data.url}`, { headers: { authorization: `Bearer ${token}` } });
      expect(file.status).toBe(200);
      const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
      expect(meta.width).toBe(3840);
    } finally {
      await browser.close();
    }
  });
});
