import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, it } from 'vitest';
import { baseUrl, expect, freshCreator, openBrowser } from './browser.ts';

// Issue 18, points 8, 10, 13 and 14a: credit guards, the one disabled look, the Creator tab's sticky action
// bar and result, side tools at 1280 px, and the studio tabs at 375 px.

const STUDIO_TOOLS = ['magicSelector', 'ugcVideo', 'characters', 'multiReference'] as const;

async function openCreator(page: Page, mode: 'image' | 'video'): Promise<void> {
  await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=creator&mode=${mode}`);
  await page.getByTestId('studio').waitFor();
  await page.getByTestId('generate-button').waitFor();
}

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not laid out');
  return b;
}

/** Fully inside the viewport. */
async function inViewport(page: Page, locator: Locator): Promise<boolean> {
  const b = await box(locator);
  const size = page.viewportSize();
  if (!size) return false;
  return b.x >= 0 && b.y >= 0 && b.x + b.width <= size.width + 0.5 && b.y + b.height <= size.height + 0.5;
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** WCAG contrast ratio of two `rgb(…)`/`rgba(…)` colours (alpha ignored: the label sits on an opaque surface). */
function contrast(fg: string, bg: string): number {
  const channels = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  const luminance = (c: string) => {
    const [r, g, b] = channels(c).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [luminance(fg), luminance(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}

const styleOf = (locator: Locator) =>
  locator.evaluate((el) => {
    const s = getComputedStyle(el);
    return { background: s.backgroundColor, color: s.color, cursor: s.cursor, opacity: s.opacity };
  });

/** Spends the welcome credits from another "tab" (two Veo videos: 101 + 81), leaving 18. */
async function spendDown(token: string): Promise<number> {
  const headers = {
    'content-type': 'application/json',
    authorization: `Bearer ${token}`,
    'x-requested-with': 'XMLHttpRequest',
  };
  for (const generateAudio of [true, false]) {
    const res = await fetch(`${baseUrl()}/api/ai/generate/video`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ prompt: 'a quiet harbour at dawn', generateAudio, duration: 2 }),
    });
    expect(res.status).toBe(200);
  }
  const me = await fetch(`${baseUrl()}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  return ((await me.json()) as { data: { credits: number } }).data.credits;
}

describe('studio layout and guards', () => {
  it('keeps Generate and its cost in view while the form scrolls, the result beside it, and side tools from squeezing it at 1280 px', {
    timeout: 120_000,
  }, async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      await freshCreator(page);
      await openCreator(page, 'video');
      const generate = page.getByTestId('generate-button');
      const price = page.getByTestId('price-tag');
      // At 900 px the long video form does not fit, yet the action bar is on screen at once…
      expect(await inViewport(page, generate)).toBe(true);
      expect(await inViewport(page, price)).toBe(true);
      const result = page.getByTestId('creator-result');
      const resultTop = (await box(result)).y;
      // …and stays there while the form scrolls, with the result panel beside it.
      await page.mouse.move(700, 500);
      await page.mouse.wheel(0, 450);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
      expect(await inViewport(page, generate)).toBe(true);
      expect(await inViewport(page, price)).toBe(true);
      const stuck = await box(result);
      expect(stuck.y).toBeGreaterThanOrEqual(0);
      expect(stuck.y).toBeLessThan(resultTop);
      expect(await inViewport(page, page.getByTestId('creator-result').getByRole('heading').first())).toBe(true);

      // 1280 px with each side tool open: the form keeps a usable width and the cost never covers Generate.
      await page.setViewportSize({ width: 1280, height: 900 });
      await openCreator(page, 'video');
      for (const tool of STUDIO_TOOLS) {
        await page.getByTestId(`tool-${tool}`).click();
        await expect.poll(() => page.getByTestId(`tool-${tool}`).getAttribute('aria-pressed')).toBe('true');
        const form = await box(page.getByTestId('creator-form'));
        expect(form.width).toBeGreaterThanOrEqual(480);
        expect(overlaps(await box(price), await box(generate))).toBe(false);
        expect(await inViewport(page, generate)).toBe(true);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
        await page.getByTestId(`tool-${tool}`).click();
      }
    } finally {
      await browser.close();
    }
  });

  it('at 375 px every studio tab is on screen and reachable, Publish included', async () => {
    const browser = await openBrowser({ width: 375, height: 812 });
    const { page } = browser;
    try {
      await freshCreator(page);
      await openCreator(page, 'image');
      for (const tab of ['creator', 'personas', 'campaigns', 'publish']) {
        expect(await inViewport(page, page.getByTestId(`studio-tab-${tab}`))).toBe(true);
      }
      await page.getByTestId('studio-tab-publish').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('publish');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      // The side tools fit too.
      for (const tool of STUDIO_TOOLS) expect(await inViewport(page, page.getByTestId(`tool-${tool}`))).toBe(true);
    } finally {
      await browser.close();
    }
  });

  it('disables paid actions the balance cannot cover, with one muted disabled look that keeps its label legible', {
    timeout: 150_000,
  }, async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      const token = await freshCreator(page);
      await openCreator(page, 'image');
      const generate = page.getByTestId('generate-button');
      const enabled = await styleOf(generate);

      const balance = await spendDown(token);
      expect(balance).toBe(18);
      await openCreator(page, 'video');
      await expect.poll(() => generate.isDisabled()).toBe(true);
      expect(await page.getByTestId('studio-shortfall-message').textContent()).toBe('You need 83 more credits');
      expect(await page.getByTestId('studio-shortfall').getAttribute('data-suggested')).toBe('183');

      // Issue 18, point 10: disabled is visibly muted (not the accent), not-allowed, and still readable.
      const disabled = await styleOf(generate);
      expect(disabled.background).not.toBe(enabled.background);
      expect(disabled.cursor).toBe('not-allowed');
      expect(Number(disabled.opacity)).toBe(1);
      expect(contrast(disabled.color, disabled.background)).toBeGreaterThanOrEqual(4.5);

      // The same look on the canvas's 'Edit with AI' with nothing selected.
      await page.getByTestId('open-canvas').click();
      await page.getByTestId('canvas-overlay').waitFor();
      const editWithAi = page.getByTestId('canvas-edit-ai');
      expect(await editWithAi.isDisabled()).toBe(true);
      const canvasDisabled = await styleOf(editWithAi);
      expect(canvasDisabled.background).toBe(disabled.background);
      expect(canvasDisabled.cursor).toBe('not-allowed');

      // A cinema sequence item cannot start a video the balance cannot pay for (dream 41 > 18).
      const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 40, g: 90, b: 160 } } })
        .png()
        .toBuffer();
      await page
        .getByTestId('canvas-upload-input')
        .setInputFiles({ name: 'blue.png', mimeType: 'image/png', buffer: png });
      await expect.poll(() => page.getByTestId('canvas-image-item').count(), { timeout: 60_000 }).toBe(1);
      await page.getByTestId('canvas-image-item').first().click();
      await page.getByTestId('canvas-pin').click();
      await page.getByTestId('sequence-mode-dream').click();
      await expect.poll(() => page.getByTestId('sequence-generate').isDisabled()).toBe(true);
      expect(await page.getByTestId('sequence-shortfall-message').textContent()).toBe('You need 23 more credits');
      // Multi-Reference: an image variation (6) fits the 18 credits; a video-to-video one (61) does not.
      await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=creator&mode=image`);
      await page.getByTestId('tool-multiReference').click();
      await page.getByTestId('multi-reference').waitFor();
      expect(await page.getByTestId('mr-generate').isDisabled()).toBe(false);
      expect(await page.getByTestId('mr-shortfall').count()).toBe(0);
      await page.getByTestId('mr-mode-video-to-video').click();
      await expect.poll(() => page.getByTestId('mr-generate').isDisabled()).toBe(true);
      expect(await page.getByTestId('mr-shortfall-message').textContent()).toBe('You need 43 more credits');
      await page.goto(`${baseUrl()}/dashboard?view=aiPersonas`);

      // Persona creation (five images, 20 credits) is guarded the same way.
      await page.getByTestId('persona-create').first().click();
      await page.getByTestId('build-persona-dialog').waitFor();
      expect(await page.getByTestId('persona-cost').getAttribute('data-credits')).toBe('20');
      expect(await page.getByTestId('persona-submit').isDisabled()).toBe(true);
      expect(await page.getByTestId('persona-shortfall-message').textContent()).toBe('You need 2 more credits');
      await page.getByTestId('persona-shortfall-add').click();
      await page.getByTestId('topup-dialog').waitFor();
      await page.getByTestId('topup-shortfall').waitFor();
    } finally {
      await browser.close();
    }
  });
});
