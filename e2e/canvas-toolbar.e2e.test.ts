// The selected canvas image's floating toolbar and the Magic Selector on a canvas image (issue 29, points 2–3):
// the toolbar and its quick edit never cover the image (1440 and 375 px), the model choices are readable, the
// Magic Selector opens on the canvas image without picking a file, shows a large before/after that toggles, and
// its result lands on the canvas beside the source, selected, in its own aspect, with a toast saying so.
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { baseUrl, expect, freshCreator, openBrowser } from './browser.ts';
import { type DrawnImage, drawnImages, openCanvas, upload } from './canvas.ts';

const WIDTH = 1600;
const HEIGHT = 900;

/** A 16:9 picture: teal left half, orange right half, a yellow ball in the middle. */
function picture(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}"><rect width="${WIDTH / 2}" height="${HEIGHT}" fill="rgb(20,140,150)"/><circle cx="${WIDTH / 2}" cy="${HEIGHT / 2}" r="250" fill="rgb(240,200,40)"/></svg>`;
  return sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: { r: 230, g: 130, b: 30 } } })
    .composite([{ input: Buffer.from(svg) }])
    .png()
    .toBuffer();
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && a.x + a.width > b.x && a.y < b.y + b.height && a.y + a.height > b.y;

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('no box');
  return box;
}

/** The one image on the stage, drawn with its picture. */
async function drawnImage(page: Page): Promise<DrawnImage> {
  await expect.poll(async () => (await drawnImages(page)).length, { timeout: 30_000 }).toBeGreaterThan(0);
  const [image] = await drawnImages(page);
  return image as DrawnImage;
}

/** The floating card (toolbar, and the quick edit when open) is shown, inside the window, off the image. */
async function expectBesideImage(page: Page, label: string): Promise<void> {
  const card = page.getByTestId('canvas-selection-card');
  await card.waitFor();
  // On a phone the editor scrolls: the stage is brought into sight as a person would.
  await page.getByTestId('canvas-stage').scrollIntoViewIfNeeded();
  await expect.poll(() => card.evaluate((el) => getComputedStyle(el).visibility)).toBe('visible');
  const image = (await drawnImage(page)).screen;
  const box = await boxOf(card);
  const viewport = page.viewportSize() ?? { width: 0, height: 0 };
  expect(overlaps(box, image), `${label}: card ${JSON.stringify(box)} image ${JSON.stringify(image)}`).toBe(false);
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
  // Every button at least 24×24 px and named.
  const buttons = page.getByTestId('canvas-selection-toolbar').getByRole('button');
  expect(await buttons.count()).toBe(6);
  for (const button of await buttons.all()) {
    const size = await boxOf(button);
    expect(size.width).toBeGreaterThanOrEqual(24);
    expect(size.height).toBeGreaterThanOrEqual(24);
    expect((await button.getAttribute('aria-label'))?.length ?? 0).toBeGreaterThan(0);
  }
}

/** The quick edit's model choices: each label fits its button, and no two overlap. */
async function expectReadableModels(page: Page): Promise<void> {
  const choices = page.getByTestId('quick-edit-popover').locator('[data-testid^="quick-edit-model-"]');
  expect(await choices.count()).toBe(2);
  const boxes: Box[] = [];
  for (const choice of await choices.all()) {
    const fit = await choice.evaluate((el) => ({
      scroll: el.scrollWidth,
      client: el.clientWidth,
      text: el.textContent,
    }));
    expect(fit.scroll, `${fit.text} fits`).toBeLessThanOrEqual(fit.client);
    expect(fit.text?.trim().length ?? 0).toBeGreaterThan(3);
    boxes.push(await boxOf(choice));
  }
  expect(overlaps(boxes[0] as Box, boxes[1] as Box)).toBe(false);
}

/**
 * Selects the image by clicking it on the stage. A click the stage missed (the layer does not listen while a
 * view change settles) is made again, after the double-click interval so it cannot count as one.
 */
async function clickImage(page: Page): Promise<void> {
  const toolbar = page.getByTestId('canvas-selection-toolbar');
  for (let attempt = 0; attempt < 4; attempt++) {
    const { screen } = await drawnImage(page);
    await page.mouse.click(screen.x + screen.width / 2, screen.y + screen.height / 2);
    const shown = await toolbar
      .waitFor({ timeout: 10_000 })
      .then(() => true)
      .catch(() => false);
    if (shown) return;
  }
  const selected = await page.evaluate(() => window.__genproCanvas?.state().selectedIds);
  throw new Error(`no toolbar after clicking the image (selected: ${JSON.stringify(selected)})`);
}

/** A horizontal stroke across the middle of the Magic Selector's mask, from 30 % to 70 % of its width. */
async function paintStroke(page: Page): Promise<void> {
  const canvas = page.getByTestId('magic-mask-canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = await boxOf(canvas);
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.3, y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(box.x + box.width * (0.3 + (0.4 * i) / 8), y, { steps: 2 });
  await page.mouse.up();
}

/** The comparison picture as a person sees it, as raw pixels. */
async function comparePixels(page: Page): Promise<Buffer> {
  const picture = page.getByTestId('magic-compare-after');
  const shot = await picture.screenshot();
  return sharp(shot).removeAlpha().resize(160, 90, { fit: 'fill' }).raw().toBuffer();
}

const meanDifference = (a: Buffer, b: Buffer) => {
  let total = 0;
  for (let i = 0; i < a.length; i++) total += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return total / a.length;
};

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `/tmp/canvas-tools-${name}.png` });
}

/** The whole flow in one look (theme, language): toolbar at 1440 and 375, quick edit, Magic Selector, placing. */
async function journey(page: Page, look: string, checks: boolean): Promise<void> {
  await openCanvas(page);
  await upload(page, [{ name: 'ball.png', buffer: await picture() }], 1);
  const source = await drawnImage(page);

  // Point 2: the toolbar beside the selected image, at 1440 px, then with the quick edit open.
  await clickImage(page);
  await expectBesideImage(page, `${look} 1440 toolbar`);
  await shot(page, `${look}-toolbar-1440`);
  // It follows zoom: three wheel notches in, around the image, and it is still beside it, not on it.
  const before = await drawnImage(page);
  await page.mouse.move(before.screen.x + before.screen.width / 2, before.screen.y + before.screen.height / 2);
  for (let i = 0; i < 3; i++) await page.mouse.wheel(0, -100);
  await expect.poll(() => page.evaluate(() => window.__genproCanvas?.state().zoom ?? 1)).toBeGreaterThan(1.2);
  await expectBesideImage(page, `${look} 1440 zoomed`);
  // Reached and used by keyboard: the quick edit button opens its panel with Enter.
  await page.getByTestId('canvas-toolbar-quick-edit').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('quick-edit-popover').waitFor();
  await expectBesideImage(page, `${look} 1440 quick edit`);
  await expectReadableModels(page);
  await shot(page, `${look}-quick-edit-1440`);
  if (checks) expect(await seriousViolations(page)).toEqual([]);

  // At 375 px: the same rules.
  await page.setViewportSize({ width: 375, height: 812 });
  await expectBesideImage(page, `${look} 375 quick edit`);
  await expectReadableModels(page);
  await shot(page, `${look}-quick-edit-375`);
  await page.getByTestId('quick-edit-prompt').press('Escape');
  await expect.poll(() => page.getByTestId('quick-edit-popover').count()).toBe(0);
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
    .toBe('canvas-toolbar-quick-edit');
  await expectBesideImage(page, `${look} 375 toolbar`);
  await shot(page, `${look}-toolbar-375`);
  if (checks) expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1440, height: 900 });

  // Point 3: the Magic Selector on this image, no file chooser.
  let chooser = false;
  page.on('filechooser', () => {
    chooser = true;
  });
  const url = await page.evaluate(() => window.__genproCanvas?.state().images[0]?.url ?? '');
  await page.getByTestId('canvas-toolbar-magic').click();
  await page.getByTestId('magic-selector').waitFor();
  expect(page.url()).toContain('editor=magic-selector');
  await page.getByTestId('magic-from-canvas').waitFor();
  expect(await page.getByTestId('magic-base-image').getAttribute('src')).toBe(url);
  const mask = page.getByTestId('magic-mask-canvas');
  await mask.waitFor();
  await expect.poll(() => mask.evaluate((c: HTMLCanvasElement) => `${c.width}x${c.height}`)).toBe(`${WIDTH}x${HEIGHT}`);
  await paintStroke(page);
  await page.getByTestId('magic-prompt').fill('a patch of green moss');
  await page.getByTestId('magic-apply').click();
  const compare = page.getByTestId('magic-compare');
  await compare.waitFor({ timeout: 90_000 });
  const after = page.getByTestId('magic-compare-after');
  await expect
    .poll(() => after.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0), { timeout: 15_000 })
    .toBe(true);
  expect(chooser).toBe(false);

  // Large: at least half the tool's width; and the before/after toggles what is shown.
  const panel = await boxOf(page.getByTestId('magic-selector'));
  const picture16x9 = await boxOf(after);
  expect(picture16x9.width).toBeGreaterThanOrEqual(panel.width * 0.5);
  await shot(page, `${look}-compare-1440`);
  await page.getByTestId('magic-compare-view-before').click();
  await expect.poll(() => compare.getAttribute('data-view')).toBe('before');
  const beforePixels = await comparePixels(page);
  await page.getByTestId('magic-compare-view-after').click();
  await expect.poll(() => compare.getAttribute('data-view')).toBe('after');
  const afterPixels = await comparePixels(page);
  // The painted stripe changed: the two views differ, but not everywhere (the rest is kept).
  expect(meanDifference(beforePixels, afterPixels)).toBeGreaterThan(0.5);
  // The split's divider moves with the keyboard.
  await page.getByTestId('magic-compare-view-split').click();
  const slider = page.getByTestId('magic-compare-split');
  await slider.focus();
  // Up raises the value in either reading direction (Right lowers it in Arabic, where the slider runs leftwards).
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect.poll(() => slider.inputValue()).toBe('52');
  if (checks) expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 375, height: 812 });
  await compare.scrollIntoViewIfNeeded();
  await shot(page, `${look}-compare-375`);
  const phonePanel = await boxOf(page.getByTestId('magic-selector'));
  expect((await boxOf(after)).width).toBeGreaterThanOrEqual(phonePanel.width * 0.5);
  await page.setViewportSize({ width: 1440, height: 900 });

  // Confirm: back on the canvas, the result beside its source, selected, in its own aspect, with a toast.
  await page.getByTestId('magic-result-canvas').click();
  await expect.poll(() => page.url()).not.toContain('editor=');
  await expect.poll(() => page.getByTestId('canvas-image-item').count(), { timeout: 20_000 }).toBe(2);
  const state = await page.evaluate(() => {
    const s = window.__genproCanvas?.state();
    return { images: s?.images ?? [], selected: s?.selectedIds ?? [] };
  });
  const placed = state.images.find((image) => image.id !== source.id);
  const original = state.images.find((image) => image.id === source.id);
  if (!placed || !original) throw new Error('no result on the canvas');
  expect(state.selected).toEqual([placed.id]);
  expect(Math.abs(placed.width / placed.height - WIDTH / HEIGHT)).toBeLessThan(0.02);
  expect(overlaps(placed, original)).toBe(false);
  await expect.poll(() => page.locator('[data-sonner-toast]').first().textContent()).toBeTruthy();
  expect(await page.getByTestId('canvas-selection-toolbar').isVisible()).toBe(true);
  await shot(page, `${look}-placed-1440`);
}

describe('the canvas selection toolbar', () => {
  it('sits beside the selected image, opens a readable quick edit and the Magic Selector on it, whose before/after result lands beside the source', {
    timeout: 300_000,
  }, async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      await freshCreator(page);
      await journey(page, 'dark-en', true);
      expect(await page.locator('[data-sonner-toast]').first().textContent()).toContain('next to the original');
    } finally {
      await browser.close();
    }
  });

  it('does the same in the light theme in Arabic (right to left)', { timeout: 300_000 }, async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      await freshCreator(page);
      await page.goto(`${baseUrl()}/auth/login`);
      await page.evaluate(() => {
        localStorage.setItem('theme', 'light');
        localStorage.setItem('language', 'ar');
      });
      await journey(page, 'light-ar', true);
    } finally {
      await browser.close();
    }
  });
});
