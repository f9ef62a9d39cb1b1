// Issue 29 (9): the media library has its own place in the navigation (not under Studio ▸ Campaigns below a
// brands-only lock panel): filter by type, search by prompt, sort, select several (checkbox, Select all, Ctrl+A,
// Esc), delete them after a confirmation, and use them in the studio, on the canvas or in a post.
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { baseUrl, expect, freshCreator, openBrowser } from './browser.ts';

const PROMPTS = ['red fox in fresh snow', 'blue boat on a calm lake', 'golden desert dunes at noon'];
const VOICE = 'welcome to the harbour';

async function api(token: string, path: string, body: unknown) {
  const res = await fetch(`${baseUrl()}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'x-requested-with': 'XMLHttpRequest',
    },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
}

/** Three images (oldest first, in PROMPTS order) and a voice track, made through the studio's API. */
async function seedLibrary(token: string): Promise<void> {
  for (const prompt of PROMPTS) await api(token, '/api/ai/generate/image', { prompt, numberOfImages: 1 });
  await api(token, '/api/ai/generate/audio', { prompt: VOICE, type: 'voice', duration: 15 });
}

async function listTotal(token: string): Promise<number> {
  const res = await fetch(`${baseUrl()}/api/ai/assets`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { pagination: { total: number } }).pagination.total;
}

const cards = (page: Page) => page.getByTestId('library').getByTestId('asset-card');
const card = (page: Page, prompt: string) =>
  page.getByTestId('library').locator(`[data-testid="asset-card"]:has(img[alt="${prompt}"])`);
const promptsShown = (page: Page) =>
  cards(page)
    .locator('img')
    .evaluateAll((imgs) => imgs.map((img) => img.getAttribute('alt')));

describe('the Library view', () => {
  it('is in the navigation for a creator, filters, searches, sorts, bulk-selects and deletes, and hands an image to the studio', {
    timeout: 240_000,
  }, async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      const token = await freshCreator(page);
      await seedLibrary(token);

      // In the sidebar for a creator who is not a brand; no lock panel on the way.
      await page.goto(`${baseUrl()}/dashboard`);
      await page.getByTestId('dashboard-shell').waitFor();
      await page.getByTestId('nav-library').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('view')).toBe('library');
      await expect.poll(() => page.getByTestId('view-title').innerText()).toBe('Library');
      await expect.poll(() => cards(page).count(), { timeout: 30_000 }).toBe(4);
      expect(await page.getByTestId('plan-brand-only').count()).toBe(0);

      // Type: audio alone, then the images.
      await page.getByTestId('library-type-audio').click();
      await expect.poll(() => cards(page).count()).toBe(1);
      expect(await cards(page).first().getAttribute('data-type')).toBe('audio');
      await page.getByTestId('library-type-images').click();
      await expect.poll(() => cards(page).count()).toBe(3);
      expect(new URL(page.url()).searchParams.get('type')).toBe('images');

      // Sort: newest first by default, oldest first, prompt A to Z.
      await expect.poll(() => promptsShown(page)).toEqual([...PROMPTS].reverse());
      await page.getByTestId('library-sort').selectOption('oldest');
      await expect.poll(() => promptsShown(page)).toEqual(PROMPTS);
      await page.getByTestId('library-sort').selectOption('prompt');
      await expect.poll(() => promptsShown(page)).toEqual([PROMPTS[1], PROMPTS[2], PROMPTS[0]]);

      // Search by prompt (any case), kept in the URL; nothing found offers to clear the filters.
      await page.getByTestId('library-search').fill('FOX');
      await expect.poll(() => promptsShown(page)).toEqual([PROMPTS[0]]);
      expect(new URL(page.url()).searchParams.get('q')).toBe('FOX');
      await page.getByTestId('library-search').fill('volcano');
      await page.getByTestId('library-no-match').waitFor();
      await page.getByTestId('library-clear-filters').click();
      await expect.poll(() => cards(page).count()).toBe(4);

      // Select by checkbox, then with the keyboard: Space on a focused checkbox, Ctrl+A, Esc.
      await card(page, PROMPTS[1]).getByTestId('asset-select').check();
      await page.getByTestId('library-selection-bar').waitFor();
      await card(page, PROMPTS[2]).getByTestId('asset-select').focus();
      await page.keyboard.press('Space');
      await expect.poll(() => page.getByTestId('library-selected-count').innerText()).toBe('2 selected');
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Control+a');
      await expect.poll(() => page.getByTestId('library-selected-count').innerText()).toBe('4 selected');
      await page.keyboard.press('Escape');
      await page.getByTestId('library-selection-bar').waitFor({ state: 'detached' });

      // Bulk delete, after a confirmation.
      await card(page, PROMPTS[1]).getByTestId('asset-select').check();
      await card(page, PROMPTS[2]).getByTestId('asset-select').check();
      await page.getByTestId('library-delete').click();
      const dialog = page.getByTestId('library-delete-dialog');
      expect(await dialog.innerText()).toContain('Delete 2 assets?');
      await page.getByTestId('library-delete-confirm').click();
      await expect.poll(() => cards(page).count(), { timeout: 30_000 }).toBe(2);
      expect(await listTotal(token)).toBe(2);
      await page.getByTestId('library-selection-bar').waitFor({ state: 'detached' });

      // Use one in the studio: it becomes a reference image of a new image.
      await card(page, PROMPTS[0]).getByTestId('asset-select').check();
      expect(await page.getByTestId('library-use-canvas').isEnabled()).toBe(true);
      await page.getByTestId('library-use-studio').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('view')).toBe('genproStudio');
      expect(new URL(page.url()).searchParams.get('mode')).toBe('image');
      const input = page.getByTestId('media-input');
      await input.waitFor();
      expect(await input.getAttribute('data-status')).toBe('ready');
      expect(await input.locator('img').getAttribute('alt')).toBe(PROMPTS[0]);
    } finally {
      await browser.close();
    }
  });

  it('puts images on the canvas and attaches media to a post, and is in the phone menu', {
    timeout: 180_000,
  }, async () => {
    const browser = await openBrowser({ width: 375, height: 812 });
    const { page } = browser;
    try {
      const token = await freshCreator(page);
      await api(token, '/api/ai/generate/image', { prompt: PROMPTS[0], numberOfImages: 2 });

      await page.goto(`${baseUrl()}/dashboard`);
      await page.getByTestId('mobile-menu-button').click();
      await page.getByTestId('mobile-menu').getByTestId('nav-library').click();
      await expect.poll(() => cards(page).count(), { timeout: 30_000 }).toBe(2);

      // Both images onto the canvas.
      await cards(page).nth(0).getByTestId('asset-select').check();
      await cards(page).nth(1).getByTestId('asset-select').check();
      await page.getByTestId('library-use-canvas').click();
      await page.getByTestId('canvas-overlay').waitFor();
      await expect.poll(() => page.getByTestId('canvas-image-item').count(), { timeout: 30_000 }).toBe(2);

      // One image into a new post.
      await page.goto(`${baseUrl()}/dashboard?view=library`);
      await cards(page).nth(0).getByTestId('asset-select').check();
      await page.getByTestId('library-use-publish').click();
      await page.getByTestId('publish-tab').waitFor();
      await expect.poll(() => page.getByTestId('publish-media-clear').innerText(), { timeout: 20_000 }).toContain('1');
      await expect.poll(() => new URL(page.url()).searchParams.get('media')).toBe(null);
    } finally {
      await browser.close();
    }
  });
});
