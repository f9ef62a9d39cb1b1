import sharp from 'sharp';
import { loadConfig } from '../config.ts';
import type { MediaBuffer } from './types.ts';

// Small media fixtures for the engine tests (generated, never files on disk).

/** Config for engine tests: bundled ffmpeg/ffprobe unless FFMPEG_PATH/FFPROBE_PATH are set. */
export const testToolConfig = loadConfig({
  FFMPEG_PATH: process.env.FFMPEG_PATH,
  FFPROBE_PATH: process.env.FFPROBE_PATH,
});

/** A solid-colour PNG. */
export async function solidPng(width: number, height: number, rgb: [number, number, number]): Promise<MediaBuffer> {
  const data = await sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .png()
    .toBuffer();
  return { data, mimeType: 'image/png' };
}

/** A PNG with a left-to-right gradient and a few shapes, so edits and motion have something to move. */
export async function patternPng(width: number, height: number): Promise<MediaBuffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#1e3a8a"/><stop offset="1" stop-color="#f59e0b"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width * 0.3}" cy="${height * 0.4}" r="${height * 0.2}" fill="#10b981"/><rect x="${width * 0.6}" y="${height * 0.5}" width="${width * 0.25}" height="${height * 0.3}" fill="#ef4444"/></svg>`;
  return { data: await sharp(Buffer.from(svg)).removeAlpha().png().toBuffer(), mimeType: 'image/png' };
}

/** A black PNG mask with a white rectangle. */
export async function rectMask(
  width: number,
  height: number,
  box: { left: number; top: number; width: number; height: number },
): Promise<MediaBuffer> {
  const white = await sharp({ create: { width: box.width, height: box.height, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();
  const data = await sharp({ create: { width, height, channels: 3, background: '#000000' } })
    .composite([{ input: white, left: box.left, top: box.top }])
    .png()
    .toBuffer();
  return { data, mimeType: 'image/png' };
}

/** Mean RGB of an encoded image. */
export async function meanRgb(bytes: Buffer): Promise<[number, number, number]> {
  const stats = await sharp(bytes).removeAlpha().stats();
  return [stats.channels[0].mean, stats.channels[1].mean, stats.channels[2].mean];
}

export function colourDistance(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}
