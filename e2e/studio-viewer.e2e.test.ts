// Issue 29 (4): the output is the hero. The Creation Studio shows the current result large at its own shape (zoom,
// download, use on canvas, make a video from it), the progress where the result will appear with the engine named,
// and a history strip of this session's generations that a reload keeps (it is read from the server).
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { baseUrl, expect, freshCreator, openBrowser } from './browser.ts';

const SHOTS = '/tmp/studio-viewer';

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not laid out');
  return found;
}

async function openStudio(page: Page): Promise<void> {
  await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=creator&mode=image`);
  await page.getByTestId('prompt-input').waitFor();
}

/** Records, in the page, every progress value shown inside the result area (and the engine named there). */
async function recordViewerProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: { values: number[]; engines: string[] } = { values: [], engines: [] };
    (window as unknown as { viewerProgress: typeof seen }).viewerProgress = seen;
    const look = () => {
      const area = document.querySelector('[data-testid="studio-results"]');
      const bar = area?.querySelector('[data-testid="viewer-progress"] [data-testid="progress-bar"]');
      const value = bar ? Number(bar.getAttribute('aria-valuenow')) : null;
      if (value !== null && value !== seen.values.at(-1)) seen.values.push(value);
      const engine = area?.querySelector('[data-testid="viewer-engine"]')?.textContent;
      if (engine && !seen.engines.includes(engine)) seen.engines.push(engine);
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
}

const viewerProgress = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { viewerProgress: { values: number[]; engines: string[] } }).viewerProgress,
  );

/** The image in the viewer once it has loaded: its natural size and the src it shows. */
async function loadedImage(page: Page) {
  const image = page.getByTestId('viewer-media');
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 30_000 })
    .toBe(true);
  return image.evaluate((img: HTMLImageElement) => ({
    src: img.getAttribute('src') ?? '',
    width: img.naturalWidth,
    height: img.naturalHeight,
  }));
}

async function generate(page: Page, prompt: string): Promise<void> {
  await page.getByTestId('prompt-input').fill(prompt);
  await page.getByTestId('generate-button').click();
  await expect
    .poll(() => page.getByTestId('studio-results').getAttribute('data-phase'), { timeout: 90_000 })
    .toBe('success');
}

describe('studio result viewer', () => {
  it('shows progress where the result appears, the result large at its shape with zoom and download, and a session history that survives a reload', {
    timeout: 300_000,
  }, async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      await freshCreator(page);
      await openStudio(page);
      // One image a generation, 16:9 at 1920 × 1080: a shape other than the square, and long enough to report progress.
      await page.getByTestId('image-variations-1').click();
      await page.getByLabel('Aspect ratio', { exact: true }).selectOption('16:9');
      await page.getByTestId('image-size').selectOption('1920x1080');
      await recordViewerProgress(page);
      await page.getByTestId('prompt-input').fill('a lighthouse on a basalt cliff under a violet storm sky');
      await page.getByTestId('generate-button').click();
      // A picture of the progress for the record, if it is still there to take (it may already have finished).
      await page
        .getByTestId('viewer-progress')
        .getByTestId('progress-bar')
        .waitFor({ timeout: 10_000 })
        .then(() => page.screenshot({ path: `${SHOTS}-progress-1440.png` }))
        .catch(() => undefined);
      await expect
        .poll(() => page.getByTestId('studio-results').getAttribute('data-phase'), { timeout: 90_000 })
        .toBe('success');

      // The task's progress was shown inside the result area, naming the engine that made it.
      const progress = await viewerProgress(page);
      expect(progress.values.length).toBeGreaterThan(0);
      expect(progress.values.some((value) => value > 5)).toBe(true);
      expect(progress.engines).toEqual(['Engine: Nano Banana (local preview)']);

      // The result is large, at the file's own shape.
      const first = await loadedImage(page);
      expect(first.width / first.height).toBeCloseTo(16 / 9, 2);
      const stage = page.getByTestId('viewer-stage');
      const image = page.getByTestId('viewer-media');
      const stageBox = await box(stage);
      const fitted = await box(image);
      expect(fitted.width >= 0.6 * stageBox.width || fitted.height >= 0.6 * stageBox.height).toBe(true);
      expect(
        Math.abs(fitted.width / fitted.height - first.width / first.height) / (first.width / first.height),
      ).toBeLessThan(0.01);
      // The viewer is the main column: wider than the form.
      expect(stageBox.width).toBeGreaterThan((await box(page.getByTestId('creator-form'))).width);
      expect(await page.getByTestId('viewer-actions').getByTestId('engine-badge').getAttribute('data-engine')).toBe(
        'local',
      );

      // Zoom: the button shows the pixels at 100 % (the stage scrolls), the keys go back and forth.
      const zoom = page.getByTestId('viewer-zoom');
      await zoom.click();
      await expect.poll(() => stage.getAttribute('data-zoom')).toBe('actual');
      expect(await zoom.getAttribute('aria-pressed')).toBe('true');
      expect(Math.round((await box(image)).width)).toBe(first.width);
      expect(await stage.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      await stage.focus();
      await page.keyboard.press('-');
      await expect.poll(() => stage.getAttribute('data-zoom')).toBe('fit');
      expect(Math.round((await box(image)).width)).toBe(Math.round(fitted.width));
      await page.keyboard.press('+');
      await expect.poll(() => stage.getAttribute('data-zoom')).toBe('actual');
      await page.keyboard.press('0');
      await expect.poll(() => stage.getAttribute('data-zoom')).toBe('fit');

      // Download gives the file itself, and it decodes.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('result-download').click(),
      ]);
      const file = await download.path();
      const meta = await sharp(await readFile(file)).metadata();
      expect(meta.width).toBe(first.width);
      expect(meta.height).toBe(first.height);
      // The stored asset is known: it can be upscaled from here.
      await expect.poll(() => page.getByTestId('viewer-upscale').isEnabled(), { timeout: 15_000 }).toBe(true);

      // A second generation: the history holds both, newest first, the newest shown.
      await generate(page, 'a red fox asleep in fresh snow, soft morning light');
      const second = await loadedImage(page);
      expect(second.src).not.toBe(first.src);
      const history = page.getByTestId('history-item');
      await expect.poll(() => history.count(), { timeout: 15_000 }).toBe(2);
      expect(await history.nth(0).getAttribute('aria-pressed')).toBe('true');
      // Choosing the first (keyboard) shows it.
      await history.nth(1).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => history.nth(1).getAttribute('aria-pressed')).toBe('true');
      expect((await loadedImage(page)).src).toBe(first.src);
      // Tiles have their media's shape.
      const tile = await box(history.nth(1));
      expect(tile.width / tile.height).toBeCloseTo(16 / 9, 1);
      expect(await seriousViolations(page)).toEqual([]);

      // A reload keeps the history: it is the server's.
      await page.reload();
      await page.getByTestId('prompt-input').waitFor();
      await expect.poll(() => history.count(), { timeout: 15_000 }).toBe(2);
      expect((await loadedImage(page)).src).toBe(second.src);
      await history.nth(1).click();
      expect((await loadedImage(page)).src).toBe(first.src);
      await page.screenshot({ path: `${SHOTS}-1440-dark.png` });

      // At 375 px the viewer takes the width and its image fits in it.
      await page.setViewportSize({ width: 375, height: 812 });
      await page.getByTestId('viewer-stage').scrollIntoViewIfNeeded();
      const narrowStage = await box(page.getByTestId('viewer-stage'));
      expect(narrowStage.x).toBeGreaterThanOrEqual(0);
      expect(narrowStage.x + narrowStage.width).toBeLessThanOrEqual(375);
      expect(narrowStage.width).toBeGreaterThan(300);
      const narrowImage = await box(page.getByTestId('viewer-media'));
      expect(narrowImage.width).toBeLessThanOrEqual(narrowStage.width);
      expect(narrowImage.width).toBeGreaterThanOrEqual(0.9 * narrowStage.width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}-375-dark.png` });

      // The light theme and Arabic (right to left), at both widths.
      for (const [theme, language] of [
        ['light', 'en'],
        ['dark', 'ar'],
        ['light', 'ar'],
      ] as const) {
        await page.evaluate(
          ([th, lang]) => {
            localStorage.setItem('theme', th);
            localStorage.setItem('language', lang);
          },
          [theme, language],
        );
        for (const width of [1440, 375]) {
          await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
          await page.reload();
          await expect.poll(() => history.count(), { timeout: 15_000 }).toBe(2);
          await loadedImage(page);
          await page.getByTestId('viewer-stage').scrollIntoViewIfNeeded();
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
          await page.screenshot({ path: `${SHOTS}-${width}-${theme}-${language}.png` });
        }
      }
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('puts the result on the canvas, and makes a video from it with the image as the reference', {
    timeout: 180_000,
  }, async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      await freshCreator(page);
      await openStudio(page);
      await page.getByTestId('image-variations-1').click();
      await generate(page, 'a paper lantern floating over a dark lake');
      const shown = await loadedImage(page);

      await page.getByTestId('viewer-make-video').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('mode')).toBe('video');
      const reference = page.getByTestId('slot-videoReferences').getByTestId('media-input');
      await expect.poll(() => reference.count()).toBe(1);
      expect(await reference.getAttribute('data-status')).toBe('ready');
      // The prompt is kept, and the price of a video is shown: Generate is ready to go.
      expect(await page.getByTestId('prompt-input').inputValue()).toBe('a paper lantern floating over a dark lake');
      expect(await page.getByTestId('generate-button').isEnabled()).toBe(true);

      // Back in image mode the viewer still shows the image; 'Use on canvas' opens the canvas with it placed.
      await page.getByTestId('studio-mode-image').click();
      expect((await loadedImage(page)).src).toBe(shown.src);
      await page.getByTestId('viewer-to-canvas').click();
      await page.getByTestId('canvas-overlay').waitFor();
      await expect.poll(() => page.getByTestId('canvas-image-item').count(), { timeout: 30_000 }).toBe(1);
    } finally {
      await browser.close();
    }
  });
});
