import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, it } from 'vitest';
import { baseUrl, expect, freshCreator, openBrowser } from './browser.ts';

interface CanvasView {
  count: number;
  names: string[];
  zoom: number;
  panX: number;
  panY: number;
}

function solidPng(r: number, g: number, b: number): Promise<Buffer> {
  return sharp({ create: { width: 320, height: 200, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
}

async function openCanvas(page: Page, extra = ''): Promise<void> {
  await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=creator&mode=image&canvas=1${extra}`);
  await page.getByTestId('canvas-overlay').waitFor();
}

const canvasView = (page: Page) =>
  page.evaluate((): CanvasView => {
    const state = window.__genproCanvas?.state();
    if (!state) throw new Error('no canvas handle');
    return {
      count: state.images.length,
      names: state.images.map((img) => img.name),
      zoom: state.zoom,
      panX: state.panX,
      panY: state.panY,
    };
  });

async function createSessionViaApi(token: string, body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${baseUrl()}/api/editor-sessions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

async function loadFromList(page: Page, name: string): Promise<void> {
  await page.getByTestId('editor-sessions-open').click();
  await page.getByTestId('sessions-dialog').waitFor();
  const row = page.getByTestId('session-row').filter({ hasText: name });
  await row.waitFor();
  await row.getByTestId('session-load').click();
}

describe('saved editor sessions', () => {
  it('saves the canvas, reloads, and loads the same canvas back; loads another tool’s session', {
    timeout: 180_000,
  }, async () => {
    const browser = await openBrowser({ width: 1440, height: 960 });
    const { page } = browser;
    try {
      const token = await freshCreator(page);
      await openCanvas(page);
      await page.getByTestId('canvas-welcome').waitFor();

      // Two uploads.
      await page.getByTestId('canvas-upload-input').setInputFiles([
        { name: 'harbour.png', mimeType: 'image/png', buffer: await solidPng(20, 120, 160) },
        { name: 'lighthouse.png', mimeType: 'image/png', buffer: await solidPng(220, 140, 40) },
      ]);
      await expect.poll(() => page.getByTestId('canvas-image-item').count(), { timeout: 30_000 }).toBe(2);

      // Pin the second one to the sequence.
      await page.getByTestId('canvas-image-item').nth(1).click();
      await page.getByTestId('canvas-pin').click();
      await expect.poll(() => page.getByTestId('sequence-item').count()).toBe(1);

      // Zoom with the wheel and pan with the Pan tool.
      const stage = page.getByTestId('canvas-stage');
      const box = await stage.boundingBox();
      if (!box) throw new Error('stage has no box');
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      for (let i = 0; i < 3; i++) {
        await page.mouse.wheel(0, -120);
        await page.waitForTimeout(60);
      }
      await page.getByTestId('canvas-tool-pan').click();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 - 80, box.y + box.height / 2 + 40, { steps: 6 });
      await page.mouse.up();
      await expect.poll(async () => (await canvasView(page)).zoom).toBeGreaterThan(1.2);
      await expect.poll(async () => (await canvasView(page)).panX).not.toBe(0);
      await page.waitForTimeout(300);
      const saved = await canvasView(page);
      expect(saved.names).toEqual(['harbour.png', 'lighthouse.png']);

      // Save with a name: the default name says the tool and the date.
      await page.getByTestId('editor-session-save').click();
      const nameField = page.getByTestId('session-name');
      await nameField.waitFor();
      expect(await nameField.inputValue()).toMatch(/^Canvas – /);
      await nameField.fill('Harbour board');
      await page.getByTestId('session-save-submit').click();
      await page.getByText('Session "Harbour board" saved successfully!').first().waitFor();

      // Reload: the canvas's autosave brings it back by itself.
      await expect
        .poll(() => page.getByTestId('canvas-autosave').getAttribute('data-state'), { timeout: 20_000 })
        .toBe('saved');
      await page.reload();
      await page.getByTestId('canvas-overlay').waitFor();
      await expect.poll(async () => (await canvasView(page)).count, { timeout: 15_000 }).toBe(2);

      // Cleared, the canvas starts empty (and so does its autosave).
      await page.getByTestId('canvas-clear-all').click();
      await page.getByTestId('canvas-clear-confirm-ok').click();
      await page.getByTestId('canvas-welcome').waitFor();
      expect((await canvasView(page)).count).toBe(0);

      // Load it from the list: the same canvas comes back.
      await loadFromList(page, 'Harbour board');
      await expect.poll(() => page.getByTestId('canvas-image-item').count(), { timeout: 10_000 }).toBe(2);
      const loaded = await canvasView(page);
      expect(loaded.names).toEqual(saved.names);
      expect(loaded.zoom).toBeCloseTo(saved.zoom, 5);
      expect(loaded.panX).toBeCloseTo(saved.panX, 5);
      expect(loaded.panY).toBeCloseTo(saved.panY, 5);
      const items = page.getByTestId('sequence-item');
      await expect.poll(() => items.count()).toBe(1);
      expect(await page.getByTestId('canvas-count').textContent()).toContain('2');
      expect(await page.getByTestId('canvas-tool-pan').getAttribute('aria-pressed')).toBe('true');

      // The saved session has a preview and its size in the list; saving again offers to update it.
      await page.getByTestId('editor-sessions-open').click();
      const row = page.getByTestId('session-row').filter({ hasText: 'Harbour board' });
      expect(await row.getByTestId('session-thumbnail').getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/);
      await page.keyboard.press('Escape');
      await page.getByTestId('editor-session-save').click();
      expect(await page.getByTestId('session-save-target-update').getAttribute('data-state')).toBe('on');
      expect(await page.getByTestId('session-name').inputValue()).toBe('Harbour board');
      await page.getByTestId('session-save-submit').click();
      await page.getByText('Session "Harbour board" saved successfully!').first().waitFor();

      // A session saved from the multi-composition tool switches the tab, which then reports that state.
      await createSessionViaApi(token, {
        name: 'Poster layout',
        component_type: 'multi-composition',
        data: { layers: [], canvasWidth: 1024, canvasHeight: 768, prompt: 'a poster' },
      });
      await loadFromList(page, 'Poster layout');
      await page.getByText('Session “Poster layout” loaded').first().waitFor({ timeout: 10_000 });
      expect(await page.getByTestId('canvas-overlay').getAttribute('data-editor-tab')).toBe('multi-composition');
      expect(page.url()).toContain('editor=multi-composition');
      expect(await page.getByTestId('editor-tab-multi-composition').getAttribute('data-state')).toBe('active');

      // A Magic Selector session: the tab switches to Magic Selector and its prompt shows the saved prompt.
      await createSessionViaApi(token, {
        name: 'Lantern edit',
        component_type: 'magic-selector',
        data: { baseImage: null, prompt: 'a glowing paper lantern', mode: 'add-remove', result: null },
      });
      await loadFromList(page, 'Lantern edit');
      await page.getByText('Session “Lantern edit” loaded').first().waitFor({ timeout: 10_000 });
      expect(page.url()).toContain('editor=magic-selector');
      expect(await page.getByTestId('editor-tab-magic-selector').getAttribute('data-state')).toBe('active');
      await expect.poll(() => page.getByTestId('magic-prompt').inputValue()).toBe('a glowing paper lantern');

      // Rename and delete from the list, filtered by type.
      await page.getByTestId('editor-sessions-open').click();
      await page.getByTestId('sessions-filter-multi-composition').click();
      await expect.poll(() => page.getByTestId('session-row').count()).toBe(1);
      const poster = page.getByTestId('session-row').first();
      await poster.getByTestId('session-rename').click();
      await page.getByTestId('session-rename-input').fill('Poster v2');
      await page.getByTestId('session-rename-save').click();
      await page.getByTestId('session-row').filter({ hasText: 'Poster v2' }).waitFor();
      await page.getByTestId('session-row').first().getByTestId('session-delete').click();
      await page.getByTestId('session-delete-ok').click();
      await page.getByText('Session deleted successfully').first().waitFor();
      await page.getByTestId('sessions-empty').waitFor();
    } finally {
      await browser.close();
    }
  });

  it('pages through sessions 10 at a time and remembers the tab, theme and sidebar', {
    timeout: 90_000,
  }, async () => {
    const browser = await openBrowser({ width: 1280, height: 900 });
    const { page } = browser;
    try {
      const token = await freshCreator(page);
      for (let i = 1; i <= 12; i++) {
        await createSessionViaApi(token, {
          name: `Reference set ${String(i).padStart(2, '0')}`,
          component_type: 'multi-reference',
          data: { referenceImages: [], prompt: `set ${i}` },
        });
      }
      await openCanvas(page, '&editor=multi-composition');
      expect(await page.getByTestId('editor-tab-multi-composition').getAttribute('data-state')).toBe('active');

      await page.getByTestId('editor-sessions-open').click();
      await expect.poll(() => page.getByTestId('session-row').count()).toBe(10);
      expect(await page.getByTestId('sessions-prev').isDisabled()).toBe(true);
      const firstPage = await page.getByTestId('session-name-text').allTextContents();
      await page.getByTestId('sessions-next').click();
      await expect.poll(() => page.getByTestId('session-row').count()).toBe(2);
      expect(await page.getByTestId('sessions-next').isDisabled()).toBe(true);
      await page.getByTestId('sessions-prev').click();
      await expect.poll(() => page.getByTestId('session-name-text').allTextContents()).toEqual(firstPage);
      await page.keyboard.press('Escape');
      await page.getByTestId('sessions-dialog').waitFor({ state: 'detached' });

      // Keyboard: arrows move between tabs, Enter opens one.
      // The closing dialog's focus scope may take focus back once: focus the tab until it keeps it.
      const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
      await expect
        .poll(async () => {
          await page.getByTestId('editor-tab-multi-composition').focus();
          return focused();
        })
        .toBe('editor-tab-multi-composition');
      await page.keyboard.press('ArrowLeft');
      await expect.poll(focused).toBe('editor-tab-canvas');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('canvas-overlay').getAttribute('data-editor-tab')).toBe('canvas');

      // Sidebar collapse and theme survive a reload.
      await page.getByTestId('canvas-prompt').waitFor();
      await page.getByTestId('editor-sidebar-toggle').click();
      expect(await page.getByTestId('canvas-prompt').count()).toBe(0);
      await page.getByTestId('editor-theme-toggle').click();
      await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false);
      await page.reload();
      await page.getByTestId('canvas-overlay').waitFor();
      expect(await page.getByTestId('canvas-prompt').count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false);
      expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
    } finally {
      await browser.close();
    }
  });
});
