import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, it } from 'vitest';
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
      expect(await page.getByTestId('price-tag').textContent()).toMatch(/\d/);
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

  it('generates a video with a progress bar, plays it, then hits Credits Required when the credits run out', {
    timeout: 240_000,
  }, async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await freshCreator(page);
      await openStudio(page, 'video');
      await page.getByTestId('prompt-input').fill('slow aerial shot over a misty mountain lake at sunrise');
      await page.getByTestId('generate-button').click();
      const bar = page.getByTestId('progress-bar');
      await bar.waitFor({ timeout: 15_000 });
      const firstValue = Number(await bar.getAttribute('aria-valuenow'));
      expect(firstValue).toBeGreaterThanOrEqual(5);
      const video = page.getByTestId('result-video').locator('video');
      await video.waitFor({ timeout: 120_000 });
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

      // 200 welcome credits − 101 for the pro video leaves 99: the next one cannot be paid for.
      await page.getByTestId('generate-button').click();
      const panel = page.getByTestId('error-panel');
      await panel.waitFor({ timeout: 15_000 });
      expect(await panel.getAttribute('data-kind')).toBe('credits');
      expect(await panel.textContent()).toContain('Credits Required');
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
