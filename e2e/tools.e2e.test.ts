import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, it } from 'vitest';
import { baseUrl, expect, freshCreator, openBrowser, shot } from './browser.ts';

const SIZE = 256;

async function openImageStudio(page: Page): Promise<void> {
  await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=creator&mode=image`);
  await page.getByTestId('studio').waitFor();
}

/** A 256×256 PNG: left half teal, right half orange. */
function twoColourPng(): Promise<Buffer> {
  const data = Buffer.alloc(SIZE * SIZE * 3);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const i = (y * SIZE + x) * 3;
      const [r, g, b] = x < SIZE / 2 ? [20, 140, 150] : [230, 130, 30];
      data[i] = r;
      data[i + 1] = g;
      data[i + 2] = b;
    }
  }
  return sharp(data, { raw: { width: SIZE, height: SIZE, channels: 3 } })
    .png()
    .toBuffer();
}

function solidPng(r: number, g: number, b: number): Promise<Buffer> {
  return sharp({ create: { width: 128, height: 128, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
}

/** Fetches a media URL the page shows, as the signed-in creator. */
async function fetchImage(url: string, token: string): Promise<Buffer> {
  const absolute = url.startsWith('http') ? url : `${baseUrl()}${url}`;
  const res = await fetch(absolute, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

async function rawRgb(png: Buffer, width: number, height: number): Promise<Buffer> {
  return sharp(png).removeAlpha().resize(width, height, { fit: 'fill' }).raw().toBuffer();
}

describe('side tools', () => {
  it('Magic Selector inpaints only inside the painted mask', { timeout: 120_000 }, async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      const token = await freshCreator(page);
      await openImageStudio(page);
      await page.getByTestId('tool-magicSelector').click();
      await page.getByTestId('magic-selector').waitFor();

      const base = await twoColourPng();
      await page
        .getByTestId('magic-base-input')
        .setInputFiles({ name: 'base.png', mimeType: 'image/png', buffer: base });
      const canvas = page.getByTestId('magic-mask-canvas');
      await canvas.waitFor();
      await expect.poll(() => canvas.evaluate((c: HTMLCanvasElement) => c.width)).toBe(SIZE);
      await canvas.scrollIntoViewIfNeeded();
      const box = await canvas.boundingBox();
      if (!box) throw new Error('mask canvas has no box');

      // A horizontal stroke across the middle, from 30 % to 70 % of the width.
      const y = box.y + box.height * 0.5;
      await page.mouse.move(box.x + box.width * 0.3, y);
      await page.mouse.down();
      for (let i = 1; i <= 8; i++) await page.mouse.move(box.x + box.width * (0.3 + (0.4 * i) / 8), y, { steps: 2 });
      await page.mouse.up();
      const painted = await canvas.evaluate((c: HTMLCanvasElement) => {
        const d = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        if (d) for (let i = 0; i < d.length; i += 4) if ((d[i] ?? 0) > 128) n++;
        return n;
      });
      expect(painted).toBeGreaterThan(200);

      await page.getByTestId('magic-mode-inpaint').click();
      await page.getByTestId('magic-prompt').fill('a patch of green moss');
      await page.getByTestId('magic-apply').click();
      const result = page.getByTestId('magic-result');
      await result.waitFor({ timeout: 60_000 });
      // Issue 19: the tool names the engine that serves it, and the result the engine that made it.
      expect(await page.getByTestId('engine-note').first().innerText()).toContain('(local preview)');
      expect(await result.getByTestId('engine-badge').getAttribute('data-engine')).toBe('local');
      // Issue 30: the result says what the preview did with the prompt, and what it could not.
      expect(await result.getByTestId('preview-note').innerText()).toBe(
        'Local preview applied: shape of the marked area, colour: green, material: moss, shading. Not applied: “patch” — needs an AI engine.',
      );
      await shot(page, 'magic-selector-preview-note');
      const img = result.getByTestId('magic-compare-after');
      await expect
        .poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0), { timeout: 15_000 })
        .toBe(true);
      const src = await img.getAttribute('src');
      expect(src).toBeTruthy();

      const out = await fetchImage(src as string, token);
      const meta = await sharp(out).metadata();
      expect(meta.width).toBe(SIZE);
      expect(meta.height).toBe(SIZE);
      const before = await rawRgb(base, SIZE, SIZE);
      const after = await rawRgb(out, SIZE, SIZE);
      const diffAt = (x: number, yy: number) => {
        const i = (yy * SIZE + x) * 3;
        return (
          Math.abs((before[i] ?? 0) - (after[i] ?? 0)) +
          Math.abs((before[i + 1] ?? 0) - (after[i + 1] ?? 0)) +
          Math.abs((before[i + 2] ?? 0) - (after[i + 2] ?? 0))
        );
      };
      // Far outside the stroke (top and bottom bands, both colours): byte-identical.
      let outsideChanged = 0;
      for (const yy of [0, 10, 30, 50, 205, 225, 245, 255])
        for (let x = 0; x < SIZE; x += 5) if (diffAt(x, yy) !== 0) outsideChanged++;
      expect(outsideChanged).toBe(0);
      // Along the stroke: pixels changed.
      let insideChanged = 0;
      for (let x = Math.round(SIZE * 0.35); x <= Math.round(SIZE * 0.65); x += 2)
        if (diffAt(x, SIZE / 2) > 0) insideChanged++;
      expect(insideChanged).toBeGreaterThan(10);
    } finally {
      await browser.close();
    }
  });

  it('Magic Selector result opens in a modal dialog above the page: focus trapped, Esc closes, focus returns', {
    timeout: 120_000,
  }, async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      await freshCreator(page);
      await openImageStudio(page);
      await page.getByTestId('tool-magicSelector').click();
      await page.getByTestId('magic-selector').waitFor();
      await page
        .getByTestId('magic-base-input')
        .setInputFiles({ name: 'base.png', mimeType: 'image/png', buffer: await twoColourPng() });
      const canvas = page.getByTestId('magic-mask-canvas');
      await canvas.waitFor();
      await canvas.scrollIntoViewIfNeeded();
      const box = await canvas.boundingBox();
      if (!box) throw new Error('mask canvas has no box');
      await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.7, box.y + box.height / 2, { steps: 6 });
      await page.mouse.up();
      await page.getByTestId('magic-prompt').fill('a patch of green moss');
      const apply = page.getByTestId('magic-apply');
      await apply.click();

      const result = page.getByRole('dialog', { name: 'Magic Selector result' });
      await result.waitFor({ timeout: 60_000 });
      expect(await result.getAttribute('data-testid')).toBe('magic-result');
      // Drawn above everything: the media grid, the Result panel and the tool panel lie under it.
      const covered = await result.evaluate((dialog) => {
        const rect = dialog.getBoundingClientRect();
        const points = [
          [rect.left + rect.width / 2, rect.top + rect.height / 2],
          [rect.left + 12, rect.top + 12],
          [rect.right - 12, rect.top + 12],
          [rect.left + 12, rect.bottom - 12],
          [rect.right - 12, rect.bottom - 12],
        ];
        return points.filter(([x, y]) => {
          const hit = document.elementFromPoint(x as number, y as number);
          return !hit || !dialog.contains(hit);
        }).length;
      });
      expect(covered).toBe(0);
      // The rest of the page lies under the overlay: the tool rail and the studio's tabs cannot be reached.
      for (const testId of ['tool-magicSelector', 'studio-tabs', 'magic-apply']) {
        const reachable = await page.getByTestId(testId).evaluate((el) => {
          const rect = el.getBoundingClientRect();
          const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
          return Boolean(hit && el.contains(hit));
        });
        expect(reachable, testId).toBe(false);
      }

      // Focus moves into the dialog and stays there.
      const inDialog = () =>
        page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid="magic-result"]')));
      await expect.poll(inDialog).toBe(true);
      for (let i = 0; i < 8; i++) {
        await page.keyboard.press('Tab');
        expect(await inDialog()).toBe(true);
      }

      // Esc closes it and gives focus back to Apply Magic, which opened it.
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByTestId('magic-result').count()).toBe(0);
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null))
        .toBe('magic-apply');
    } finally {
      await browser.close();
    }
  });

  it('Multi-Reference blends two weighted references into two variations', { timeout: 120_000 }, async () => {
    const browser = await openBrowser({ width: 1280, height: 1000 });
    const { page } = browser;
    try {
      const token = await freshCreator(page);
      await openImageStudio(page);
      await page.getByTestId('tool-multiReference').click();
      const panel = page.getByTestId('multi-reference');
      await panel.waitFor();

      await page.getByTestId('mr-upload-input').setInputFiles([
        { name: 'red.png', mimeType: 'image/png', buffer: await solidPng(220, 20, 20) },
        { name: 'blue.png', mimeType: 'image/png', buffer: await solidPng(20, 20, 220) },
      ]);
      const refs = page.getByTestId('mr-reference');
      await expect.poll(() => refs.count(), { timeout: 30_000 }).toBe(2);
      expect(await refs.nth(0).locator('img').getAttribute('alt')).toBe('red.png');

      const weights = page.getByTestId('mr-weight');
      await weights.nth(0).fill('100');
      await weights.nth(1).fill('10');
      expect(await weights.nth(0).inputValue()).toBe('100');
      expect(await weights.nth(1).inputValue()).toBe('10');

      await page.getByTestId('mr-variations').fill('2');
      expect(await page.getByTestId('mr-variations').inputValue()).toBe('2');
      await page.getByTestId('mr-prompt').fill('an abstract colour field study, soft focus');
      await page.getByTestId('mr-generate').click();

      const results = page.getByTestId('mr-result');
      await expect.poll(() => results.count(), { timeout: 90_000, interval: 500 }).toBe(2);
      expect(await results.first().getByTestId('engine-badge').getAttribute('data-engine')).toBe('local');
      // Issue 30: what the preview did with the prompt, under the results.
      expect(await panel.getByTestId('preview-note').first().innerText()).toBe(
        'Local preview applied: soft focus. Not applied: “an abstract colour field study” — needs an AI engine.',
      );
      // The two new images join the studio's media list without a reload.
      await expect
        .poll(() => page.getByTestId('assets-grid').getByTestId('asset-card').count(), { timeout: 15_000 })
        .toBe(2);
      await panel.getByTestId('preview-note').first().scrollIntoViewIfNeeded();
      await shot(page, 'multi-reference-preview-note');
      const src = await results.first().locator('img').getAttribute('src');
      expect(src).toBeTruthy();
      const out = await fetchImage(src as string, token);
      const { channels } = await sharp(out).stats();
      const [r, g, b] = channels.map((c) => c.mean) as [number, number, number];
      const dist = (c: [number, number, number]) => Math.hypot(r - c[0], g - c[1], b - c[2]);
      expect(dist([220, 20, 20])).toBeLessThan(dist([20, 20, 220]));
      expect(r).toBeGreaterThan(b);
    } finally {
      await browser.close();
    }
  });
});
