import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type StudioProcess, startStudio } from '../scripts/studio-process.ts';
import { openPglite } from '../server/db/client.ts';
import { seriousViolations } from './axe.ts';
import { expect, logIn, openBrowser } from './browser.ts';

// Issue 21 point 7: the spec's 'Database setup required' state. A studio whose database lacks the saved-sessions
// table (its migrations recorded as applied, the table gone: a database nobody finished setting up) answers
// every sessions call 503 storage_unavailable; the canvas's Sessions dialog says so, Retry asks again, and saving
// keeps the dialog and the typed name with the same reason. The canvas itself keeps working.

const SHOTS = path.resolve('test-results', 'screenshots');

/** The embedded database of a fresh data directory, migrated, then without its editor_sessions table. */
async function databaseWithoutSessions(dataDir: string): Promise<void> {
  const database = await openPglite({ dataDir: path.join(dataDir, 'pg') });
  try {
    await database.migrate();
    await database.db.execute(sql`DROP TABLE editor_sessions`);
  } finally {
    await database.close();
  }
}

describe("the Sessions dialog when the sessions storage is unavailable (spec: 'Database setup required')", () => {
  let studio: StudioProcess;
  beforeAll(async () => {
    studio = await startStudio('e2e-no-sessions', { prepareData: databaseWithoutSessions });
  }, 120_000);
  afterAll(async () => {
    await studio?.stop();
  });

  it('shows the setup state in the list, keeps it on Retry, and refuses a save without losing the name', {
    timeout: 120_000,
  }, async () => {
    const browser = await openBrowser({ width: 1280, height: 860 });
    const { page } = browser;
    try {
      await logIn(page, 'creator@genpro.local', 'genpro-creator', studio.baseUrl);

      await page.goto(`${studio.baseUrl}/dashboard?view=genproStudio&tab=creator&mode=image&canvas=1`);
      await page.getByTestId('canvas-overlay').waitFor();
      // The canvas works without the sessions storage: an upload lands on it.
      const png = await sharp({ create: { width: 160, height: 120, channels: 3, background: '#2a7fba' } })
        .png()
        .toBuffer();
      await page
        .getByTestId('canvas-upload-input')
        .setInputFiles([{ name: 'sea.png', mimeType: 'image/png', buffer: png }]);
      await expect.poll(() => page.getByTestId('canvas-image-item').count(), { timeout: 30_000 }).toBe(1);

      const open = page.getByTestId('editor-sessions-open');
      await expect.poll(() => open.isEnabled(), { timeout: 20_000 }).toBe(true);
      await open.click();
      const dialog = page.getByTestId('sessions-dialog');
      await dialog.waitFor();
      const setup = dialog.getByTestId('sessions-setup-required');
      await setup.waitFor({ timeout: 20_000 });
      expect(await setup.innerText()).toBe('Database setup required');
      expect(await dialog.getByTestId('sessions-setup-hint').innerText()).toContain('administrator');
      expect(await dialog.getByRole('alert').count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SHOTS, 'sessions-setup-required-1280.png') });

      // Retry asks the server again (a real request) and shows the same state.
      const retried = page.waitForResponse((r) => r.url().includes('/api/editor-sessions') && r.status() === 503);
      await dialog.getByTestId('sessions-retry').click();
      await retried;
      await setup.waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // Saving: the dialog stays open with the name typed and says why.
      await page.getByTestId('editor-session-save').click();
      const save = page.getByTestId('session-save-dialog');
      await save.waitFor();
      await save.getByTestId('session-name').fill('Sea study');
      await save.getByTestId('session-save-submit').click();
      await expect.poll(() => save.innerText(), { timeout: 20_000 }).toContain('Database setup required');
      expect(await save.getByTestId('session-name').inputValue()).toBe('Sea study');
      await page.keyboard.press('Escape');
      await save.waitFor({ state: 'detached' });
      expect(await page.getByTestId('canvas-image-item').count()).toBe(1);

      // At 375 px, in Arabic, right to left: the same state, translated.
      await page.evaluate(() => localStorage.setItem('language', 'ar'));
      const ar = await browser.context.newPage();
      await page.close();
      await ar.setViewportSize({ width: 375, height: 812 });
      await ar.goto(`${studio.baseUrl}/dashboard?view=genproStudio&tab=creator&mode=image&canvas=1`);
      await ar.getByTestId('canvas-overlay').waitFor();
      expect(await ar.evaluate(() => document.documentElement.dir)).toBe('rtl');
      const openAr = ar.getByTestId('editor-sessions-open');
      await expect.poll(() => openAr.isEnabled(), { timeout: 20_000 }).toBe(true);
      // The canvas says its autosave could not be read; at 375 px that toast covers the header for a few seconds.
      await expect.poll(() => ar.locator('[data-sonner-toast]').count(), { timeout: 20_000 }).toBe(0);
      await openAr.click();
      const setupAr = ar.getByTestId('sessions-setup-required');
      await setupAr.waitFor({ timeout: 20_000 });
      expect(await setupAr.innerText()).toMatch(/[\u0600-\u06FF]/);
      expect(await ar.getByTestId('sessions-setup-hint').innerText()).toMatch(/[\u0600-\u06FF]/);
      const box = await setupAr.boundingBox();
      expect(box?.width).toBeGreaterThan(0);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
      expect(await seriousViolations(ar)).toEqual([]);
      await ar.screenshot({ path: path.join(SHOTS, 'sessions-setup-required-375-ar.png') });
    } finally {
      await browser.close();
    }
  });
});
