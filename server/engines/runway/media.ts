// Helpers the vendor video adapters share (Runway, BytePlus Seedance): inputs as data URIs, and the
// facts of a downloaded output (size, length, frame rate, audio) read with ffprobe.
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { Config } from '../../config.ts';
import { probeMedia } from '../../platform/media/probe.ts';
import { makeWorkDir } from '../../platform/media/work-dir.ts';
import type { MediaBuffer } from '../types.ts';
import { VendorError } from '../vendor/http.ts';

export type ToolConfig = Pick<Config, 'FFMPEG_PATH' | 'FFPROBE_PATH'>;

export function dataUri(media: MediaBuffer): string {
  return `data:${media.mimeType};base64,${media.data.toString('base64')}`;
}

/**
 * An image as a data URI no longer than `maxChars`: when the original is larger it is re-encoded as
 * JPEG, at most 2048 px on the long side (vendors cap data URI sizes).
 */
export async function imageDataUri(vendor: string, image: MediaBuffer, maxChars: number): Promise<string> {
  const uri = dataUri(image);
  if (uri.length <= maxChars) return uri;
  for (const [side, quality] of [
    [2048, 88],
    [1536, 82],
    [1024, 78],
  ] as const) {
    const data = await sharp(image.data)
      .rotate()
      .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality })
      .toBuffer();
    const smaller = dataUri({ data, mimeType: 'image/jpeg' });
    if (smaller.length <= maxChars) return smaller;
  }
  throw new VendorError(vendor, 'the input image is too large to send', false);
}

export interface VideoFacts {
  width: number;
  height: number;
  durationSeconds: number;
  fps: number;
  hasAudio: boolean;
}

/** Reads a downloaded video's size, length, frame rate and audio; a file that is not a video is a vendor error. */
export async function videoFacts(
  vendor: string,
  tools: ToolConfig,
  data: Buffer,
  signal?: AbortSignal,
): Promise<VideoFacts> {
  const dir = await makeWorkDir('vendor');
  try {
    const file = path.join(dir, 'output.mp4');
    await writeFile(file, data);
    const probe = await probeMedia(tools, file, signal).catch(() => undefined);
    if (!probe?.video) throw new VendorError(vendor, 'the output is not a playable video', true);
    return {
      width: probe.video.width,
      height: probe.video.height,
      durationSeconds: (probe.durationMs ?? 0) / 1000,
      fps: probe.video.fps ?? 24,
      hasAudio: probe.audio !== null,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The entry of `options` ("W:H" or "W:H"-like labels with `parse`) whose aspect ratio is closest to width/height. */
export function nearestRatio<T extends string>(
  width: number,
  height: number,
  options: readonly T[],
  parse: (o: T) => [number, number],
): T {
  const target = Math.log(width / height);
  let best = options[0];
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const option of options) {
    const [w, h] = parse(option);
    const distance = Math.abs(Math.log(w / h) - target);
    if (distance < bestDistance) {
      best = option;
      bestDistance = distance;
    }
  }
  return best;
}
