// Canvas images keep their aspect ratio (issue 29): a 16:9 and a 1:1 image are drawn in their own shape, also
// after a reload, and a canvas saved with the old 300×200 boxes is shown undistorted and saved corrected. The
// proof a person would see: a round ball drawn in each image stays round in the screenshot.
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, it } from 'vitest';
import { expect, freshCreator, openBrowser } from './browser.ts';
import { autosaved, type DrawnImage, drawnImages, openCanvas, upload } from './canvas.ts';

interface Ball {
  name: string;
  width: number;
  height: number;
  background: { r: number; g: number; b: number };
  colour: { r: number; g: number; b: number };
}

const WIDE: Ball = {
  name: 'wide-ball.png',
  width: 1600,
  height: 900,
  background: { r: 20, g: 40, b: 70 },
  colour: { r: 230, g: 40, b: 40 },
};
const SQUARE: Ball = {
  name: 'square-ball.png',
  width: 1000,
  height: 1000,
  background: { r: 30, g: 70, b: 40 },
  colour: { r: 240, g: 200, b: 40 },
};

/** A `width`×`height` PNG with a filled circle whose diameter is two thirds of the shorter side, centred. */
function ballPng(ball: Ball): Promise<Buffer> {
  const { width, height, colour } = ball;
  const r = Math.round(Math.min(width, height) / 3);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${r}" fill="rgb(${colour.r},${colour.g},${colour.b})"/></svg>`;
  return sharp({ create: { width, height, channels: 3, background: ball.background } })
    .composite([{ input: Buffer.from(svg) }])
    .png()
    .toBuffer();
}

async function bothDrawn(page: Page): Promise<[DrawnImage, DrawnImage]> {
  await expect.poll(async () => (await drawnImages(page)).length, { timeout: 30_000 }).toBe(2);
  const drawn = await drawnImages(page);
  const find = (ball: Ball) => {
    const found = drawn.find((image) => image.name === ball.name);
    if (!found) throw new Error(`${ball.name} is not drawn`);
    return found;
  };
  return [find(WIDE), find(SQUARE)];
}

const ratio = (size: { width: number; height: number }) => size.width / size.height;

/** The node and the stored box both have the image's own aspect, within 1 %. */
function expectUndistorted(image: DrawnImage, ball: Ball): void {
  const natural = ball.width / ball.height;
  expect(Math.abs(ratio(image.node) / natural - 1), `${ball.name} node ${JSON.stringify(image.node)}`).toBeLessThan(
    0.01,
  );
  expect(Math.abs(ratio(image.box) / natural - 1), `${ball.name} box ${JSON.stringify(image.box)}`).toBeLessThan(0.01);
}

/**
 * The ball's width and height in the screenshot of the image on screen: its bounding box of pixels near the
 * ball's colour. Equal for a round ball; a 16:9 picture squeezed into 3:2 gives 0.84 : 1, a square one 1.5 : 1.
 */
async function ballRoundness(
  page: Page,
  image: DrawnImage,
  ball: Ball,
  file?: string,
): Promise<{ width: number; height: number }> {
  const shot = await page.screenshot({ clip: image.screen, path: file });
  const { data, info } = await sharp(shot).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let [left, top, right, bottom] = [info.width, info.height, -1, -1];
  for (let y = 0; y < info.height; y += 1) {
    for (let x = 0; x < info.width; x += 1) {
      const i = (y * info.width + x) * info.channels;
      const near =
        Math.abs(data[i] - ball.colour.r) < 40 &&
        Math.abs(data[i + 1] - ball.colour.g) < 40 &&
        Math.abs(data[i + 2] - ball.colour.b) < 40;
      if (!near) continue;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  }
  // The ball is two thirds of the image's shorter side: a ball much smaller was not found or not drawn.
  const [width, height] = [right - left + 1, bottom - top + 1];
  expect(Math.min(width, height), `${ball.name} ball in the screenshot`).toBeGreaterThan(
    Math.min(info.width, info.height) / 2,
  );
  return { width, height };
}

/**
 * Round within what anti-aliasing explains: each edge can gain or lose a pixel at the colour threshold, so a ball
 * 35 px across (the square image at 375 px) may measure 35×37; a squeezed or stretched one is off by a third or more.
 */
function expectRound(measured: { width: number; height: number }, message: string) {
  const allowed = Math.max(2, 0.05 * Math.max(measured.width, measured.height));
  expect(Math.abs(measured.width - measured.height), `${message} ${JSON.stringify(measured)}`).toBeLessThanOrEqual(
    allowed,
  );
}

/** Both images drawn and kept in their own aspect, their balls round in a screenshot (kept in /tmp). */
async function expectShapesKept(page: Page, label: string): Promise<[DrawnImage, DrawnImage]> {
  const drawn = await bothDrawn(page);
  for (const [image, ball] of [
    [drawn[0], WIDE],
    [drawn[1], SQUARE],
  ] as const) {
    expectUndistorted(image, ball);
    const file = `/tmp/canvas-aspect-${label}-${ball.name}`;
    expectRound(await ballRoundness(page, image, ball, file), `${label}: ${ball.name}`);
  }
  await page.screenshot({ path: `/tmp/canvas-aspect-${label}.png` });
  return drawn;
}

type SavedImage = { name: string; width: number; height: number; naturalWidth?: number; naturalHeight?: number };

/** The canvas autosave as the server keeps it. */
const savedImages = (page: Page) =>
  page.evaluate(async (): Promise<SavedImage[]> => {
    const res = await fetch('/api/editor-sessions/autosave/multi-image-canvas', {
      headers: { authorization: `Bearer ${localStorage.getItem('auth_token')}`, 'x-requested-with': 'XMLHttpRequest' },
    });
    const body = (await res.json()) as { data: { data: { canvasImages: SavedImage[] } } | null };
    return body.data?.data.canvasImages ?? [];
  });

describe('canvas images keep their aspect ratio', () => {
  it('draws a 16:9 and a 1:1 image in their own shape, after a reload too, and heals a canvas saved in 3:2 boxes', {
    timeout: 180_000,
  }, async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      await freshCreator(page);
      await openCanvas(page);
      await upload(
        page,
        await Promise.all([WIDE, SQUARE].map(async (ball) => ({ name: ball.name, buffer: await ballPng(ball) }))),
        2,
      );

      // Freshly placed: each in its own shape, side by side without overlapping.
      const [wide, square] = await expectShapesKept(page, 'placed-1440');
      expect(
        wide.screen.x + wide.screen.width <= square.screen.x || square.screen.x + square.screen.width <= wide.screen.x,
      ).toBe(true);

      // Phone width: still in shape.
      await page.setViewportSize({ width: 375, height: 812 });
      await expectShapesKept(page, 'placed-375');
      await page.setViewportSize({ width: 1440, height: 900 });

      // After a reload the saved canvas comes back in the same shapes.
      await autosaved(page);
      await page.reload();
      await page.getByTestId('canvas-overlay').waitFor();
      await expectShapesKept(page, 'reloaded');

      // A canvas saved before boxes kept the aspect: every image in a 300×200 box and no natural size.
      await page.route('**/api/editor-sessions/autosave/**', async (route) => {
        if (route.request().method() !== 'GET') return route.continue();
        const response = await route.fetch();
        const body = (await response.json()) as { data: { data: { canvasImages: Record<string, unknown>[] } } };
        body.data.data.canvasImages = body.data.data.canvasImages.map(
          ({ naturalWidth: _w, naturalHeight: _h, ...image }) => ({ ...image, width: 300, height: 200 }),
        );
        await route.fulfill({ response, json: body });
      });
      await page.reload();
      await page.getByTestId('canvas-overlay').waitFor();
      await expectShapesKept(page, 'legacy');
      // The corrected boxes are what is saved now (read past the rewriting route).
      await autosaved(page);
      await page.unroute('**/api/editor-sessions/autosave/**');
      await expect
        .poll(async () => (await savedImages(page)).map((image) => Math.round(ratio(image) * 100) / 100).sort(), {
          timeout: 20_000,
        })
        .toEqual([1, 1.78]);
    } finally {
      await browser.close();
    }
  });
});
