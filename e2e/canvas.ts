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

export interface DrawnImage {
  id: string;
  name: string;
  /** The Konva node as drawn (canvas units). */
  node: { width: number; height: number };
  /** The image's box in the canvas store (what is saved). */
  box: { width: number; height: number };
  /** On screen (CSS px, page coordinates). */
  screen: { x: number; y: number; width: number; height: number };
}

/** Every image node the stage draws with its picture loaded (grey placeholders are Rects, not Images). */
export const drawnImages = (page: Page) =>
  page.evaluate((): DrawnImage[] => {
    type KonvaNode = {
      id(): string;
      width(): number;
      height(): number;
      getClientRect(): { x: number; y: number; width: number; height: number };
    };
    const konva = (window as unknown as { Konva?: { stages: { find(selector: string): KonvaNode[] }[] } }).Konva;
    const state = window.__genproCanvas?.state();
    const host = document.querySelector('[data-testid="canvas-stage"] canvas');
    const stage = konva?.stages[0];
    if (!stage || !state || !host) throw new Error('no canvas stage');
    const origin = host.getBoundingClientRect();
    return stage.find('Image').map((node) => {
      const image = state.images.find((img) => img.id === node.id());
      const rect = node.getClientRect();
      return {
        id: node.id(),
        name: image?.name ?? '',
        node: { width: node.width(), height: node.height() },
        box: { width: image?.width ?? 0, height: image?.height ?? 0 },
        screen: { x: origin.left + rect.x, y: origin.top + rect.y, width: rect.width, height: rect.height },
      };
    });
  });
