// The canvas keeps the user's work and puts it where it can be seen (issue 18): autosave and restore across a
// reload, the leave warning while a save is pending, region edit of a 4K image over 10 MB, failures shown,
// placement of new images on free grid cells, and a stage that fills the window.
import { randomBytes } from 'node:crypto';
import type { Page, Route } from 'playwright-core';
import sharp from 'sharp';
import { describe, it } from 'vitest';
import { baseUrl, expect, freshCreator, openBrowser } from './browser.ts';
import { autosaved, openCanvas, upload } from './canvas.ts';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface PlacedImage extends Box {
  id: string;
  name: string;
}

function solidPng(r: number, g: number, b: number): Promise<Buffer> {
  return sharp({ create: { width: 320, height: 200, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
}

const placed = (page: Page) =>
  page.evaluate((): PlacedImage[] => {
    const state = window.__genproCanvas?.state();
    if (!state) throw new Error('no canvas handle');
    return state.images.map(({ id, name, x, y, width, height }) => ({ id, name, x, y, width, height }));
  });

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && a.x + a.width > b.x && a.y < b.y + b.height && a.y + a.height > b.y;

function overlappingPairs(images: PlacedImage[]): string[] {
  const pairs: string[] = [];
  images.forEach((a, i) => {
    for (const b of images.slice(i + 1)) if (overlaps(a, b)) pairs.push(`${a.name} × ${b.name}`);
  });
  return pairs;
}

/** The canvas area in sight (canvas units), from the store's view and the stage's viewport. */
const inSight = (page: Page) =>
  page.evaluate((): Box => {
    const state = window.__genproCanvas?.state();
    if (!state) throw new Error('no canvas handle');
    const { zoom, panX, panY, viewport } = state;
    return { x: -panX / zoom, y: -panY / zoom, width: viewport.width / zoom, height: viewport.height / zoom };
  });

const contains = (outer: Box, inner: Box) =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5;

/** Where a canvas point is on the screen. */
async function screenPoint(page: Page, point: { x: number; y: number }): Promise<{ x: number; y: number }> {
  const stage = page.getByTestId('canvas-stage');
  const box = await stage.boundingBox();
  if (!box) throw new Error('stage has no box');
  const { zoom, panX, panY, fit } = await page.evaluate(() => {
    const state = window.__genproCanvas?.state();
    const element = document.querySelector<HTMLElement>('[data-testid="canvas-stage"]');
    if (!state || !element) throw new Error('no canvas');
    return { zoom: state.zoom, panX: state.panX, panY: state.panY, fit: Number(element.dataset.fit) };
  });
  // The stage has a 1 px border around the konva content.
  return { x: box.x + 1 + (point.x * zoom + panX) * fit, y: box.y + 1 + (point.y * zoom + panY) * fit };
}

/** Holds every autosave PUT until `release()`: the save stays pending for as long as the test needs. */
async function holdAutosaves(page: Page): Promise<{ release: () => Promise<void> }> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const handler = async (route: Route) => {
    if (route.request().method() === 'PUT') await gate;
    await route.continue();
  };
  await page.route('**/api/editor-sessions/autosave/**', handler);
  // Released, the route lets every request straight through (unrouting would race the held one).
  return { release: async () => open() };
}

describe('canvas work is kept and placed in sight', () => {
  it('autosaves the canvas and its sequence: after a reload the images are back where they were', {
    timeout: 150_000,
  }, async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      await freshCreator(page);
      await openCanvas(page);
      await upload(
        page,
        [
          { name: 'harbour.png', buffer: await solidPng(20, 120, 160) },
          { name: 'lighthouse.png', buffer: await solidPng(220, 140, 40) },
          { name: 'dunes.png', buffer: await solidPng(200, 180, 120) },
        ],
        3,
      );

      // Move the second image with the Drag tool.
      const before = await placed(page);
      const second = before[1];
      if (!second) throw new Error('no second image');
      await page.getByTestId('canvas-tool-drag').click();
      const from = await screenPoint(page, { x: second.x + second.width / 2, y: second.y + second.height / 2 });
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      await page.mouse.move(from.x + 60, from.y + 180, { steps: 8 });
      await page.mouse.up();
      await expect.poll(async () => (await placed(page))[1]?.y).toBeGreaterThan(second.y + 100);

      // Pin the first image to the Cinema Sequences.
      await page.getByTestId('canvas-image-item').first().click();
      await page.getByTestId('canvas-pin').click();
      await expect.poll(() => page.getByTestId('sequence-item').count()).toBe(1);

      await autosaved(page);
      const kept = await placed(page);

      let autosavesSent = 0;
      page.on('request', (request) => {
        if (request.method() === 'PUT' && request.url().includes('/api/editor-sessions/autosave/')) autosavesSent += 1;
      });
      await page.reload();
      await page.getByTestId('canvas-overlay').waitFor();
      await expect.poll(async () => (await placed(page)).length, { timeout: 15_000 }).toBe(3);
      expect(await placed(page)).toEqual(kept);
      await expect.poll(() => page.getByTestId('sequence-item').count()).toBe(1);
      expect(await page.getByTestId('canvas-tool-drag').getAttribute('aria-pressed')).toBe('true');
      await page.getByText('Your canvas was restored from its autosave.').first().waitFor();
      // Nothing changed since the restore: it shows as saved and nothing is sent.
      expect(await page.getByTestId('canvas-autosave').getAttribute('data-state')).toBe('saved');
      await page.waitForTimeout(3000);
      expect(autosavesSent).toBe(0);

      // The autosave is one labelled row in Sessions, apart from the sessions saved by hand.
      await page.getByTestId('editor-sessions-open').click();
      const rows = page.getByTestId('session-row');
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().getByTestId('session-name-text').textContent()).toBe('Canvas autosave');
      await rows.first().getByTestId('session-autosave-badge').waitFor();
      expect(await rows.first().getByTestId('session-rename').count()).toBe(0);
    } finally {
      await browser.close();
    }
  });

  it('asks before leaving while a save is pending: reload (beforeunload) and Exit', { timeout: 120_000 }, async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      await freshCreator(page);
      await openCanvas(page);
      await upload(page, [{ name: 'harbour.png', buffer: await solidPng(20, 120, 160) }], 1);
      await autosaved(page);

      const held = await holdAutosaves(page);
      await upload(page, [{ name: 'lighthouse.png', buffer: await solidPng(220, 140, 40) }], 2);
      await expect.poll(() => page.getByTestId('canvas-autosave').getAttribute('data-state')).toMatch(/pending|saving/);

      // Reloading asks first (the browser's beforeunload prompt); staying keeps the page.
      const prompt = page.waitForEvent('dialog');
      const reload = page.reload({ timeout: 5_000 }).catch(() => undefined);
      const dialog = await prompt;
      expect(dialog.type()).toBe('beforeunload');
      await dialog.dismiss();
      await reload;
      expect((await placed(page)).length).toBe(2);

      // Exit asks too; Stay keeps the canvas open.
      await page.getByTestId('canvas-exit').click();
      await page.getByTestId('canvas-leave-confirm').waitFor();
      await page.getByTestId('canvas-leave-stay').click();
      await page.getByTestId('canvas-leave-confirm').waitFor({ state: 'detached' });
      expect(page.url()).toContain('canvas=1');

      // Asked again while the save is held, the question goes away by itself once the save is through.
      await page.getByTestId('canvas-exit').click();
      await page.getByTestId('canvas-leave-confirm').waitFor();
      await held.release();
      await page.waitForURL((url) => !url.searchParams.has('canvas'), { timeout: 20_000 });
      await page.getByTestId('canvas-overlay').waitFor({ state: 'detached' });

      // Nothing pending any more: the canvas opens with both images and closes without a question.
      await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=creator&mode=image&canvas=1`);
      await expect.poll(async () => (await placed(page)).length, { timeout: 15_000 }).toBe(2);
      await page.getByTestId('canvas-exit').click();
      await page.waitForURL((url) => !url.searchParams.has('canvas'));
      expect(await page.getByTestId('canvas-leave-confirm').count()).toBe(0);
    } finally {
      await browser.close();
    }
  });

  it('region edit works on a 4K canvas image over 10 MB; a failed Quick AI Edit or composition is shown', {
    timeout: 180_000,
  }, async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      await freshCreator(page);
      await openCanvas(page, '4k');
      // Random pixels: a 3840x2160 PNG of about 25 MB (the canvas's 4K images are often over 10 MB).
      const big = await sharp(randomBytes(3840 * 2160 * 3), { raw: { width: 3840, height: 2160, channels: 3 } })
        .png({ compressionLevel: 1 })
        .toBuffer();
      expect(big.length).toBeGreaterThan(10 * 1024 * 1024);
      await upload(page, [{ name: 'street-4k.png', buffer: big }], 1);

      await page.getByTestId('canvas-image-item').first().click();
      await page.getByTestId('canvas-region-edit').click();
      await page.getByTestId('region-modal').waitFor();
      const canvas = page.locator('canvas[data-testid="region-canvas"]');
      await canvas.waitFor({ timeout: 30_000 });
      const box = await canvas.boundingBox();
      if (!box) throw new Error('region canvas has no box');
      await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.3);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.7, { steps: 5 });
      await page.mouse.up();
      await page.getByTestId('region-prompt').first().fill('a red market stall');
      await page.getByTestId('region-generate').first().click();
      await page.getByTestId('region-result').waitFor({ timeout: 90_000 });
      expect(await page.getByText('File size exceeds').count()).toBe(0);
      // The result is on the canvas, on a free cell.
      await expect.poll(async () => (await placed(page)).length).toBe(2);
      expect(overlappingPairs(await placed(page))).toEqual([]);
      await page.keyboard.press('Escape');
      await page.getByTestId('region-modal').waitFor({ state: 'detached' });

      // A Quick AI Edit the server refuses tells the user why.
      await page.getByTestId('canvas-image-item').first().click();
      await page.getByTestId('canvas-edit-ai').click();
      await page.getByTestId('quick-edit-popover').waitFor();
      await page.getByTestId('quick-edit-prompt').fill('turn this into a deepfake of a politician');
      await page.getByTestId('quick-edit-apply').click();
      const toast = page.locator('[data-sonner-toast][data-type="error"]').first();
      await toast.waitFor({ timeout: 30_000 });
      expect(await toast.textContent()).toContain('content policy');
      expect((await placed(page)).length).toBe(2);

      // So does a multi-image composition the server refuses (two images selected).
      await page.getByTestId('quick-edit-popover').getByRole('button', { name: 'Close' }).click();
      await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached', timeout: 30_000 });
      await page.getByTestId('canvas-image-item').first().click();
      await page
        .getByTestId('canvas-image-item')
        .nth(1)
        .click({ modifiers: ['Shift'] });
      await page.getByTestId('canvas-edit-ai').click();
      await page.getByTestId('quick-edit-popover').waitFor();
      await page.getByTestId('quick-edit-prompt').fill('blend them into a deepfake of a politician');
      await page.getByTestId('multi-composition-apply').click();
      const composeToast = page.locator('[data-sonner-toast][data-type="error"]').first();
      await composeToast.waitFor({ timeout: 30_000 });
      expect(await composeToast.textContent()).toContain('content policy');
      expect((await placed(page)).length).toBe(2);
    } finally {
      await browser.close();
    }
  });

  it('puts new images on free grid cells, the enhanced ones 2150 px right or below, and brings them into view', {
    timeout: 150_000,
  }, async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      await freshCreator(page);
      await openCanvas(page);
      await upload(
        page,
        [
          { name: 'harbour.png', buffer: await solidPng(20, 120, 160) },
          { name: 'lighthouse.png', buffer: await solidPng(220, 140, 40) },
        ],
        2,
      );

      // Quick AI Edit of the first image: the result goes to the first free cell, not onto its neighbour.
      await page.getByTestId('canvas-image-item').first().click();
      await page.getByTestId('canvas-edit-ai').click();
      await page.getByTestId('quick-edit-popover').waitFor();
      await page.getByTestId('quick-edit-prompt').fill('make it black and white');
      await page.getByTestId('quick-edit-apply').click();
      await expect.poll(async () => (await placed(page)).length, { timeout: 60_000 }).toBe(3);
      const afterEdit = await placed(page);
      expect(overlappingPairs(afterEdit)).toEqual([]);
      expect(afterEdit[2]).toMatchObject({ x: 750, y: 50 });

      // Two enhancements of the first image: 2150 px to its right, the second below the first.
      // Each one lands (and is brought into view) before the next starts: a result arriving while the quick edit
      // of the first image is open pans the view to itself, and the toolbar of an image out of sight closes.
      for (let i = 0; i < 2; i++) {
        await page.getByTestId('canvas-image-item').first().click();
        await page.getByTestId('canvas-edit-ai').click();
        await page.getByTestId('quick-edit-enhance').click();
        await page.getByTestId('image-enhance-dialog').waitFor();
        await page.getByTestId('image-enhance-start').click();
        await page.getByTestId('image-enhance-dialog').waitFor({ state: 'detached' });
        await expect.poll(async () => (await placed(page)).length, { timeout: 90_000 }).toBe(4 + i);
      }
      const source = (await placed(page))[0];
      if (!source) throw new Error('no source image');
      // Each enhanced image keeps its pixels' aspect (the 320x200 source's 16:10) inside its 1920x1080 spot,
      // centred in it, once drawn (issue 29): 1728x1080, 96 px in.
      const fitted = 1080 * (320 / 200);
      await expect
        .poll(async () => (await placed(page)).slice(3).map(({ x, width, height }) => ({ x, width, height })), {
          timeout: 30_000,
        })
        .toEqual([
          { x: source.x + 2150 + (1920 - fitted) / 2, width: fitted, height: 1080 },
          { x: source.x + 2150 + (1920 - fitted) / 2, width: fitted, height: 1080 },
        ]);
      const all = await placed(page);
      expect(overlappingPairs(all)).toEqual([]);
      const enhanced = all.slice(3);
      expect(enhanced.map((image) => image.y).sort((a, b) => a - b)).toEqual([source.y, source.y + 1200]);
      // The view followed the last image added.
      const last = all.at(-1);
      if (!last) throw new Error('no last image');
      await expect.poll(async () => contains(await inSight(page), last)).toBe(true);
    } finally {
      await browser.close();
    }
  });

  it('the stage fills the overlay, follows the window (1440 and 375 px) and draws the images', {
    timeout: 90_000,
  }, async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      await freshCreator(page);
      await openCanvas(page);
      // An uploaded image is drawn in its own colours, not as the grey placeholder of an image still loading.
      await upload(page, [{ name: 'red.png', buffer: await solidPng(200, 40, 40) }], 1);
      const [red] = await placed(page);
      if (!red) throw new Error('no image');
      const centre = await screenPoint(page, { x: red.x + red.width / 2, y: red.y + red.height / 2 });
      const pixel = () =>
        page.evaluate((point) => {
          const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="canvas-stage"] canvas');
          if (!canvas) throw new Error('no stage canvas');
          const box = canvas.getBoundingClientRect();
          const scale = canvas.width / box.width;
          const data = canvas
            .getContext('2d')
            ?.getImageData(
              Math.round((point.x - box.left) * scale),
              Math.round((point.y - box.top) * scale),
              1,
              1,
            ).data;
          return data ? [data[0], data[1], data[2]] : [];
        }, centre);
      await expect.poll(pixel, { timeout: 15_000 }).toEqual([200, 40, 40]);

      const gapBelowToolbar = () =>
        page.evaluate(() => {
          const toolbar = document.querySelector('[data-testid="canvas-overlay"] [role="toolbar"]');
          if (!toolbar) throw new Error('no toolbar');
          return window.innerHeight - toolbar.getBoundingClientRect().bottom;
        });
      const stageBox = async () => {
        const box = await page.getByTestId('canvas-stage').boundingBox();
        if (!box) throw new Error('stage has no box');
        return box;
      };

      // Desktop: no empty third under the toolbar; the stage uses the whole middle column.
      expect(await gapBelowToolbar()).toBeLessThanOrEqual(16);
      const wide = await stageBox();
      expect(wide.height).toBeGreaterThan(600);

      await page.setViewportSize({ width: 1280, height: 720 });
      await expect.poll(gapBelowToolbar).toBeLessThanOrEqual(16);
      const smaller = await stageBox();
      expect(smaller.height).toBeLessThan(wide.height);
      expect(smaller.height).toBeGreaterThan(420);

      // Phone: the full width and most of the screen's height.
      await page.setViewportSize({ width: 375, height: 812 });
      await expect.poll(async () => (await stageBox()).width).toBeGreaterThanOrEqual(375 - 2 * 12 - 1);
      expect((await stageBox()).height).toBeGreaterThan(812 * 0.5);
    } finally {
      await browser.close();
    }
  });
});
