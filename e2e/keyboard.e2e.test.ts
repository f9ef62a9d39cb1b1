// Keyboard and reading (WCAG 2.2 AA) beyond what axe checks: the skip link, visible focus while tabbing through
// the studio, no text under 12 px on the main views, 24 px switches, and the shared controls in the side tools.
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, it } from 'vitest';
import { baseUrl, expect, freshCreator, openBrowser } from './browser.ts';

const STUDIO = '/dashboard?view=genproStudio&tab=creator&mode=image';

/** The studio's image form, loaded. */
async function openStudio(page: Page): Promise<void> {
  await page.goto(`${baseUrl()}${STUDIO}`);
  await page.getByTestId('prompt-input').waitFor();
  await page.waitForLoadState('networkidle');
}

/** What the focused element is, and whether it is on screen. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const box = el?.getBoundingClientRect();
    return {
      testId: el?.getAttribute('data-testid') ?? null,
      text: el?.textContent?.trim() ?? '',
      inMain: Boolean(el?.closest('main')),
      onScreen: Boolean(box && box.width > 1 && box.height > 1 && box.bottom > 0 && box.top < window.innerHeight),
    };
  });
}

/** From a fresh load: one Tab reaches the visible skip link, Enter moves the focus into <main>. */
async function skipToMain(page: Page, label: string): Promise<void> {
  await page.keyboard.press('Tab');
  expect(await focused(page)).toEqual({ testId: 'skip-link', text: label, inMain: false, onScreen: true });
  expect(await page.getByTestId('skip-link').evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
  await page.keyboard.press('Enter');
  expect((await focused(page)).inMain).toBe(true);
}

/** Visible text (not screen-reader-only) drawn under 12 px, as "size tag "text"". */
function smallText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const el = node.parentElement;
      if (!text || !el) continue;
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (box.width <= 1 || box.height <= 1 || style.visibility === 'hidden' || el.closest('.sr-only')) continue;
      const size = Number.parseFloat(style.fontSize);
      if (size < 12) found.push(`${size}px ${el.tagName.toLowerCase()} "${text.slice(0, 40)}"`);
    }
    return found;
  });
}

const FOCUS_LOOK = ['outlineStyle', 'outlineWidth', 'outlineColor', 'boxShadow'] as const;

describe('keyboard and reading', () => {
  it('a public page and its Arabic version start with a skip link', async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      for (const path of ['/', '/auth/login']) {
        await page.goto(`${baseUrl()}${path}`);
        await page.locator('main').waitFor();
        await skipToMain(page, 'Skip to main content');
      }
      await page.evaluate(() => localStorage.setItem('language', 'ar'));
      await page.goto(`${baseUrl()}/`);
      await page.locator('main').waitFor();
      expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      await skipToMain(page, 'انتقل إلى المحتوى الرئيسي');
    } finally {
      await browser.close();
    }
  });

  it('in the studio the skip link leads to the prompt and every focused control shows a ring', {
    timeout: 120_000,
  }, async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      await freshCreator(page);
      await openStudio(page);
      await skipToMain(page, 'Skip to main content');
      let tabs = 0;
      while ((await focused(page)).testId !== 'prompt-input' && tabs < 10) {
        await page.keyboard.press('Tab');
        tabs += 1;
      }
      expect((await focused(page)).testId).toBe('prompt-input');
      expect(tabs).toBeLessThanOrEqual(3);

      // Every Tab stop of the page, from the top: its look while focused, then the same element unfocused.
      await openStudio(page);
      const looks: Array<Record<string, string>> = [];
      for (let step = 0; step < 150; step++) {
        await page.keyboard.press('Tab');
        const look = await page.evaluate(
          ({ step, props }) => {
            const active = document.activeElement as HTMLElement | null;
            if (!active || active === document.body || active.closest('[data-focus-step]')) return null;
            // A visually hidden control (a file input) shows its focus on the label drawn for it.
            const box = active.getBoundingClientRect();
            const el = box.width <= 1 || box.height <= 1 ? (active.closest('label') ?? active) : active;
            el.dataset.focusStep = String(step);
            const style = getComputedStyle(el);
            const name = `${el.tagName.toLowerCase()} ${el.dataset.testid ?? el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30)}`;
            return { name, ...Object.fromEntries(props.map((p) => [p, String(style[p])])) };
          },
          { step, props: [...FOCUS_LOOK] },
        );
        if (!look) break;
        looks.push(look);
      }
      expect(looks.length).toBeGreaterThan(20);
      expect(looks.map((l) => l.name)).toContain(`textarea prompt-input`);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const unseen: string[] = [];
      for (const [step, look] of looks.entries()) {
        const rest = await page.evaluate(
          ({ step, props }) => {
            const el = document.querySelector(`[data-focus-step="${step}"]`);
            if (!el) return null;
            const style = getComputedStyle(el);
            return Object.fromEntries(props.map((p) => [p, String(style[p])]));
          },
          { step, props: [...FOCUS_LOOK] },
        );
        if (!rest) continue;
        const outline = look.outlineStyle !== 'none' && look.outlineWidth !== '0px';
        const changed = FOCUS_LOOK.some((p) => look[p] !== rest[p]);
        if (!changed || (!outline && look.boxShadow === rest.boxShadow)) unseen.push(look.name as string);
      }
      expect(unseen).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('no text under 12 px on the main views; switches are 24 px high', { timeout: 300_000 }, async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      const views = ['/', '/auth/login', '/auth/register'];
      for (const path of views) {
        await page.goto(`${baseUrl()}${path}`);
        await page.locator('main').waitFor();
        await page.waitForLoadState('networkidle');
        expect(await smallText(page), path).toEqual([]);
      }
      await freshCreator(page);
      for (const path of [
        '/dashboard?view=creators',
        '/dashboard?view=aiPersonas',
        STUDIO,
        '/dashboard?view=genproStudio&tab=creator&mode=video',
        '/dashboard?view=genproStudio&tab=personas',
        '/dashboard?view=genproStudio&tab=campaigns',
        '/dashboard?view=genproStudio&tab=publish',
        '/dashboard?view=chatWithGenPro',
        '/dashboard?view=campaignsPool',
        '/dashboard?view=creators&account=billing',
      ]) {
        await page.goto(`${baseUrl()}${path}`);
        await page.getByTestId('dashboard-shell').waitFor();
        await page.waitForLoadState('networkidle');
        expect(await smallText(page), path).toEqual([]);
      }
      await page.goto(`${baseUrl()}${STUDIO}`);
      await page.getByTestId('image-auto-upscale').waitFor();
      const switches = page.getByRole('switch');
      expect(await switches.count()).toBeGreaterThan(0);
      for (const box of await switches.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height))) {
        expect(box).toBeGreaterThanOrEqual(24);
      }
    } finally {
      await browser.close();
    }
  });
});

/** Native form controls in a tool's panel that no shared control of web/ui styles. */
function unstyledControls(page: Page, testId: string): Promise<string[]> {
  return page.getByTestId(testId).evaluate((panel) => {
    const found: string[] = [];
    for (const el of panel.querySelectorAll('select, input[type="range"], input[type="checkbox"]')) {
      const style = getComputedStyle(el);
      const styled =
        (el.tagName === 'SELECT' && style.appearance === 'none') ||
        (el.getAttribute('type') === 'range' &&
          style.accentColor !== 'auto' &&
          el.getBoundingClientRect().height >= 24);
      if (!styled) found.push(`${el.tagName.toLowerCase()}[${el.getAttribute('type') ?? ''}]`);
    }
    return found;
  });
}

describe('side tools use the shared controls', () => {
  it('Multi-Reference and Magic Selector have no unstyled select, slider or checkbox', {
    timeout: 120_000,
  }, async () => {
    const browser = await openBrowser({ width: 1440, height: 1000 });
    const { page } = browser;
    try {
      await freshCreator(page);
      await openStudio(page);
      const png = await sharp({ create: { width: 96, height: 96, channels: 3, background: '#3080c0' } })
        .png()
        .toBuffer();

      await page.getByTestId('tool-multiReference').click();
      await page.getByTestId('multi-reference').waitFor();
      await page
        .getByTestId('mr-upload-input')
        .setInputFiles([{ name: 'blue.png', mimeType: 'image/png', buffer: png }]);
      await page.getByTestId('mr-reference').waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('multi-reference').locator('select').count()).toBeGreaterThan(0);
      expect(await unstyledControls(page, 'multi-reference')).toEqual([]);
      // The shared switch and selects still drive the tool's settings.
      const preserve = page.getByTestId('mr-preserve-details');
      const before = await preserve.getAttribute('aria-checked');
      await preserve.click();
      expect(await preserve.getAttribute('aria-checked')).not.toBe(before);
      await page.getByTestId('mr-quality').selectOption({ index: 0 });
      await page.getByTestId('mr-weight').fill('80');
      expect(await page.getByTestId('mr-reference').getByRole('status').textContent()).toBe('80');

      await page.getByTestId('tool-magicSelector').click();
      await page.getByTestId('magic-selector').waitFor();
      await page
        .getByTestId('magic-base-input')
        .setInputFiles({ name: 'base.png', mimeType: 'image/png', buffer: png });
      await page.getByTestId('magic-mask-canvas').waitFor();
      await page.getByTestId('magic-mode-style-transfer').click();
      await page.getByTestId('magic-style-strength').fill('30');
      expect(await unstyledControls(page, 'magic-selector')).toEqual([]);
      expect(await page.getByTestId('magic-selector').getByRole('status').first().textContent()).toBe('30%');
    } finally {
      await browser.close();
    }
  });
});
