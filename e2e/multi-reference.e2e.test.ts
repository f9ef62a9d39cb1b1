import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ffmpeg from '@ffmpeg-installer/ffmpeg';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, it } from 'vitest';
import { MESSAGES } from '../common/messages.ts';
import { runTool } from '../server/platform/media/tools.ts';
import { baseUrl, expect, freshCreator, openBrowser } from './browser.ts';

// Multi-Reference in video-to-video mode (canvas spec 7): switch the mode, see the upload rules, upload
// a small mp4 and an image, generate, and play the video result.

async function openMultiReference(page: Page): Promise<void> {
  await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=creator&mode=image`);
  await page.getByTestId('studio').waitFor();
  await page.getByTestId('tool-multiReference').click();
  await page.getByTestId('multi-reference').waitFor();
}

/** A 2 s 320x240 H.264 test pattern, made with the bundled ffmpeg. */
async function smallMp4(): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mr-e2e-'));
  try {
    const file = path.join(dir, 'clip.mp4');
    await runTool(ffmpeg.path, [
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=duration=2:size=320x240:rate=12',
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-y',
      file,
    ]);
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('Multi-Reference video-to-video', () => {
  it('switches to video-to-video, takes an mp4 and an image, and shows a playable video', {
    timeout: 180_000,
  }, async () => {
    const browser = await openBrowser({ width: 1280, height: 1000 });
    const { page } = browser;
    try {
      await freshCreator(page);
      await openMultiReference(page);
      const input = page.getByTestId('mr-upload-input');

      // Image mode refuses a video with the spec message.
      expect(await input.getAttribute('accept')).toBe('image/*');
      await input.setInputFiles([{ name: 'clip.mp4', mimeType: 'video/mp4', buffer: await smallMp4() }]);
      await expect.poll(() => page.getByRole('alert').textContent()).toContain(MESSAGES.multiReference.unsupportedType);

      await page.getByTestId('mr-mode-video-to-video').click();
      expect(await page.getByTestId('mr-mode-video-to-video').getAttribute('aria-pressed')).toBe('true');
      expect(await page.getByTestId('mr-rules').textContent()).toContain('mp4, mov, webm, avi');
      expect(await input.getAttribute('accept')).toContain('.mp4');

      // Generate without a video: the mode's message.
      await input.setInputFiles([
        {
          name: 'red.png',
          mimeType: 'image/png',
          buffer: await sharp({ create: { width: 96, height: 96, channels: 3, background: '#e02020' } })
            .png()
            .toBuffer(),
        },
      ]);
      const refs = page.getByTestId('mr-reference');
      await expect.poll(() => refs.count(), { timeout: 30_000 }).toBe(1);
      await page.getByTestId('mr-prompt').fill('restyle the clip in warm red');
      await page.getByTestId('mr-generate').click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain(MESSAGES.multiReference.videoRequired);

      // A text file is refused; the mp4 is taken.
      await input.setInputFiles([
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not media') },
        { name: 'clip.mp4', mimeType: 'video/mp4', buffer: await smallMp4() },
      ]);
      await expect.poll(() => refs.count(), { timeout: 30_000 }).toBe(2);
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toContain(`notes.txt: ${MESSAGES.multiReference.unsupportedType}`);
      expect(await refs.nth(1).locator('video').count()).toBe(1);

      await page.getByTestId('mr-generate').click();
      const video = page.getByTestId('mr-result-video');
      await video.waitFor({ timeout: 150_000 });
      expect(await video.getAttribute('src')).toMatch(/^\/api\/videos\//);
      await expect
        .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 })
        .toBeGreaterThanOrEqual(1);
      const seconds = await video.evaluate((v: HTMLVideoElement) => v.duration);
      expect(seconds).toBeGreaterThan(1.5);
      expect(seconds).toBeLessThan(2.6);
      const [w, h] = await video.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight]);
      expect(w / h).toBeCloseTo(1, 1); // the default aspect 1:1
    } finally {
      await browser.close();
    }
  });
});
