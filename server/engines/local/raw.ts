import sharp, { type Sharp } from 'sharp';
import type { MediaBuffer } from '../types.ts';
import type { Rgb } from './prompt-words.ts';

/** Decoded pixels the local image engine works on between operations. */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

export type OutputFormat = 'png' | 'webp' | 'jpeg';

const MIME: Record<OutputFormat, string> = { png: 'image/png', webp: 'image/webp', jpeg: 'image/jpeg' };

/** Decodes an image (upright per EXIF) to raw RGB, or RGBA when it has alpha and keepAlpha is set. */
export async function decode(input: MediaBuffer | Buffer, keepAlpha = false): Promise<RawImage> {
  const bytes = Buffer.isBuffer(input) ? input : input.data;
  let pipeline = sharp(bytes, { failOn: 'error' }).rotate();
  const meta = await sharp(bytes).metadata();
  const alpha = keepAlpha && meta.hasAlpha === true;
  pipeline = alpha ? pipeline.ensureAlpha() : pipeline.removeAlpha();
  const { data, info } = await pipeline.toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return widen(data, info.width, info.height, info.channels);
}

export function fromRaw(image: RawImage): Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });
}

/** Grey (1 band) or grey+alpha (2 bands) raw pixels widened to RGB / RGBA. */
function widen(data: Buffer, width: number, height: number, bands: number): RawImage {
  if (bands === 3 || bands === 4) return { data, width, height, channels: bands };
  const alpha = bands === 2;
  const channels = alpha ? 4 : 3;
  const out = Buffer.alloc(width * height * channels);
  for (let p = 0; p < width * height; p++) {
    const v = data[p * bands];
    out[p * channels] = v;
    out[p * channels + 1] = v;
    out[p * channels + 2] = v;
    if (alpha) out[p * 4 + 3] = data[p * 2 + 1];
  }
  return { data: out, width, height, channels };
}

/** Runs a sharp step on raw pixels and decodes back (so chained steps apply in the order written). */
export async function step(image: RawImage, fn: (s: Sharp) => Sharp): Promise<RawImage> {
  const { data, info } = await fn(fromRaw(image)).raw().toBuffer({ resolveWithObject: true });
  const out = widen(data, info.width, info.height, info.channels);
  // Some operations (composite) add an alpha band; an opaque input stays opaque RGB.
  if (image.channels === 3 && out.channels === 4) {
    const n = out.width * out.height;
    const rgb = Buffer.alloc(n * 3);
    for (let p = 0; p < n; p++) {
      rgb[p * 3] = out.data[p * 4];
      rgb[p * 3 + 1] = out.data[p * 4 + 1];
      rgb[p * 3 + 2] = out.data[p * 4 + 2];
    }
    return { ...out, data: rgb, channels: 3 };
  }
  return out;
}

export async function resizeRaw(
  image: RawImage,
  width: number,
  height: number,
  fit: 'cover' | 'fill' | 'contain' | 'inside' = 'cover',
): Promise<RawImage> {
  if (image.width === width && image.height === height) return image;
  return step(image, (s) =>
    s.resize(width, height, { kernel: 'lanczos3', fit, background: { r: 0, g: 0, b: 0, alpha: 1 } }),
  );
}

export function formatOf(requested: string | undefined): OutputFormat {
  const f = (requested ?? 'png').toLowerCase().replace('image/', '');
  if (f === 'webp') return 'webp';
  if (f === 'jpeg' || f === 'jpg') return 'jpeg';
  return 'png';
}

/** Encodes a pipeline; PNG is lossless (what inpaint's untouched-pixel guarantee relies on). */
export async function encode(
  pipeline: Sharp,
  format: OutputFormat,
): Promise<MediaBuffer & { width: number; height: number }> {
  const encoded =
    format === 'webp'
      ? pipeline.webp({ quality: 90 })
      : format === 'jpeg'
        ? pipeline.jpeg({ quality: 92, mozjpeg: false })
        : pipeline.png({ compressionLevel: 6, adaptiveFiltering: false });
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
  return { data, mimeType: MIME[format], width: info.width, height: info.height };
}

/** Per-channel mean and standard deviation (RGB). */
export function channelStats(image: RawImage): { mean: Rgb; std: Rgb } {
  const n = image.width * image.height;
  const c = image.channels;
  const sum = [0, 0, 0];
  const sq = [0, 0, 0];
  const stride = n > 1_000_000 ? 4 : 1;
  let count = 0;
  for (let i = 0; i < n; i += stride) {
    const o = i * c;
    for (let k = 0; k < 3; k++) {
      const v = image.data[o + k];
      sum[k] += v;
      sq[k] += v * v;
    }
    count++;
  }
  const mean: Rgb = [sum[0] / count, sum[1] / count, sum[2] / count];
  const sd = (k: number) => Math.sqrt(Math.max(1, sq[k] / count - mean[k] * mean[k]));
  const std: Rgb = [sd(0), sd(1), sd(2)];
  return { mean, std };
}

export async function meanColour(input: MediaBuffer): Promise<Rgb> {
  const small = await step(await decode(input), (s) => s.resize(64, 64, { fit: 'fill' }));
  return channelStats(small).mean;
}
