import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, it } from 'vitest';
import { baseUrl, expect, freshCreator, openBrowser } from './browser.ts';

function solidPng(width: number, height: number, r: number, g: number, b: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
}

async function attr(locator: Locator, name: string): Promise<number> {
  return Number(await locator.getAttribute(name));
}

/** Drags from the centre of `locator` by (dx, dy) screen pixels in small steps. */
async function drag(page: Page, locator: Locator, dx: number, dy: number) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('nothing to drag');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 4 });
  await page.mouse.move(x + dx, y + dy, { steps: 4 });
  await page.mouse.up();
}

describe('multi-composition', () => {
  it('places two uploaded layers, moves one, composes them and shows a decodable result', {
    timeout: 180_000,
  }, async () => {
    const browser = await openBrowser({ width: 1280, height: 900 });
    const { page } = browser;
    try {
      const token = await freshCreator(page);
      await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=creator&mode=image&canvas=1`);
      await page.getByTestId('canvas-overlay').waitFor();
      await page.getByTestId('editor-tab-multi-composition').click();
      const tool = page.getByTestId('multi-composition-tool');
      await tool.waitFor();
      expect(await page.getByTestId('mc-compose').isDisabled()).toBe(true);

      // A file that only claims to be an image is refused by its bytes.
      await page.getByTestId('mc-upload-input').setInputFiles({
        name: 'fake.png',
        mimeType: 'image/png',
        buffer: Buffer.from('not really a png at all'),
      });
      await expect.poll(() => page.getByTestId('mc-notices').textContent()).toContain('fake.png');

      await page.getByTestId('mc-upload-input').setInputFiles([
        { name: 'sky.png', mimeType: 'image/png', buffer: await solidPng(320, 200, 40, 110, 220) },
        { name: 'sun.png', mimeType: 'image/png', buffer: await solidPng(160, 160, 240, 190, 30) },
      ]);
      const layers = page.getByTestId('mc-layer');
      await expect.poll(() => layers.count(), { timeout: 30_000 }).toBe(2);
      expect(await page.getByTestId('mc-layer-count').textContent()).toBe('2/10');
      // Both images decode on the artboard, stacked in upload order.
      await expect
        .poll(() =>
          layers.locator('img').evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0)),
        )
        .toBe(true);
      expect(await attr(layers.nth(0), 'data-z')).toBe(0);
      expect(await attr(layers.nth(1), 'data-z')).toBe(1);

      // Drag the sun layer up and to the left on the artboard.
      const sun = layers.nth(1);
      const before = { x: await attr(sun, 'data-x'), y: await attr(sun, 'data-y') };
      await drag(page, sun, -80, -60);
      await expect.poll(() => attr(sun, 'data-x')).toBeLessThan(before.x - 50);
      expect(await attr(sun, 'data-y')).toBeLessThan(before.y - 30);
      expect(await sun.getAttribute('aria-pressed')).toBe('true');

      // Resize it with its corner handle (aspect kept) and move it with the keyboard.
      const widthBefore = Number(await page.getByTestId('mc-layer-width').inputValue());
      await drag(page, page.getByTestId('mc-resize-handle'), 40, 40);
      await expect
        .poll(async () => Number(await page.getByTestId('mc-layer-width').inputValue()))
        .toBeGreaterThan(widthBefore);
      const keyX = await attr(sun, 'data-x');
      await sun.focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => attr(sun, 'data-x')).toBe(keyX + 10);

      // Send it behind the sky and bring it back.
      await page.getByTestId('mc-layer-down').first().click();
      await expect.poll(() => attr(sun, 'data-z')).toBe(0);
      await page.getByTestId('mc-layer-up').last().click();
      await expect.poll(() => attr(sun, 'data-z')).toBe(1);

      await page.getByTestId('mc-prompt').fill('a bright sun rising over a clear blue sky');
      await page.getByTestId('mc-compose').click();
      const image = page.getByTestId('mc-result-image');
      await image.waitFor({ timeout: 90_000 });
      await expect
        .poll(() => image.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0), { timeout: 15_000 })
        .toBe(true);
      expect(await page.getByTestId('mc-error').count()).toBe(0);

      const src = (await image.getAttribute('src')) as string;
      const res = await fetch(src.startsWith('http') ? src : `${baseUrl()}${src}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      // The default 1024×1024 artboard asks for a square result.
      expect(meta.width).toBeGreaterThan(0);
      expect(meta.width).toBe(meta.height);

      // The result can go onto the canvas.
      await page.getByTestId('mc-result-canvas').click();
      await page.getByText('Composition added to the canvas').waitFor();
      expect(await page.getByTestId('mc-result-download').getAttribute('href')).toContain('download=1');
    } finally {
      await browser.close();
    }
  });
});
