// Shared steps of the canvas journeys: open the canvas overlay, upload images onto it, wait for the autosave.
import type { Page } from 'playwright-core';
import { baseUrl, expect } from './browser.ts';

/** The canvas overlay over the studio, in the given image format. */
export async function openCanvas(page: Page, format: '2k' | '4k' = '2k'): Promise<void> {
  await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=creator&mode=image&canvas=1`);
  await page.getByTestId('canvas-overlay').waitFor();
  await page.getByTestId(`canvas-format-${format}`).click();
}

/** Uploads PNG files through the canvas's file input and waits until the canvas lists `expected` images. */
export async function upload(page: Page, files: { name: string; buffer: Buffer }[], expected: number): Promise<void> {
  await page
    .getByTestId('canvas-upload-input')
    .setInputFiles(files.map((file) => ({ ...file, mimeType: 'image/png' })));
  await expect.poll(() => page.getByTestId('canvas-image-item').count(), { timeout: 60_000 }).toBe(expected);
}

/** Waits until the autosave indicator says everything is saved. */
export async function autosaved(page: Page): Promise<void> {
  await expect
    .poll(() => page.getByTestId('canvas-autosave').getAttribute('data-state'), { timeout: 20_000 })
    .toBe('saved');
}
