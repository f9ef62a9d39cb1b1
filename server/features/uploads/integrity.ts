import { open, readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { AppError } from '../../platform/errors.ts';
import type { Sniffed } from './sniff.ts';

/** Most pixels (width × height) an image may declare; larger ones are refused before any decoding. */
const MAX_IMAGE_PIXELS = 100_000_000;
/** Most pixels a video track may declare (8192 × 8192). */
const MAX_VIDEO_PIXELS = 8192 * 8192;
/** The moov box is read into memory to find the declared size; larger ones are not inspected. */
const MAX_MOOV_BYTES = 32 * 1024 * 1024;

export const INTEGRITY_MESSAGES = {
  trailingData: 'The file has extra data after the end of the media',
  markup: 'The image contains embedded HTML or script',
  malformed: 'The file is damaged or not a valid media file',
  imageTooLarge: `The image dimensions are too large (at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels)`,
  videoTooLarge: 'The video resolution is too large (at most 8192 × 8192)',
} as const;

const refuse = (code: string, message: string) => new AppError(400, code, message);

/**
 * Markup a browser or interpreter would act on. Seven-byte-plus needles: chance hits in compressed
 * image data are negligible, while HTML/PHP hidden in metadata (tEXt, COM, EXIF) is caught.
 */
const MARKUP = /<script|<\?php|<html|<body|<iframe|<svg[\s>]|<object|<embed/i;

/**
 * Checks an accepted file beyond its magic number, so that what is stored is only the media:
 * - images (jpg/png/gif/webp): nothing but zero padding after the format's end marker (JPEG EOI,
 *   PNG IEND, GIF trailer, the RIFF size) — JPEG multi-picture files may append further JPEGs;
 *   no HTML/PHP markup anywhere; at most MAX_IMAGE_PIXELS declared, read from the header (no decoding).
 *   A damaged image passes: its processing task marks the upload failed;
 * - mp4/mov: the file is exactly a sequence of ISO boxes (no trailing payload), and no track
 *   declares more than MAX_VIDEO_PIXELS.
 * Other formats pass. Throws a 400 AppError.
 */
export async function assertCleanMedia(source: Buffer | string, sniffed: Pick<Sniffed, 'ext' | 'kind'>): Promise<void> {
  if (sniffed.kind === 'image') {
    const data = typeof source === 'string' ? await readFile(source) : source;
    await assertCleanImage(data, sniffed.ext);
  } else if (sniffed.ext === 'mp4' || sniffed.ext === 'mov' || sniffed.ext === 'm4a') {
    const handle = typeof source === 'string' ? await open(source, 'r') : null;
    try {
      const size = handle ? (await handle.stat()).size : (source as Buffer).length;
      const read = handle
        ? async (position: number, length: number) => {
            const buffer = Buffer.alloc(length);
            const { bytesRead } = await handle.read(buffer, 0, length, position);
            return buffer.subarray(0, bytesRead);
          }
        : async (position: number, length: number) => (source as Buffer).subarray(position, position + length);
      await assertCleanIsoFile(size, read);
    } finally {
      await handle?.close();
    }
  }
}

async function assertCleanImage(data: Buffer, ext: string): Promise<void> {
  // A damaged file (no end marker, no readable header) is stored and its processing task marks it
  // failed, as for any undecodable upload; only what can be seen is refused here.
  const end = imageEnd(data, ext);
  if (end !== null && !isZeroPadding(data, end)) throw refuse('trailing_data', INTEGRITY_MESSAGES.trailingData);
  if (MARKUP.test(data.toString('latin1'))) throw refuse('embedded_markup', INTEGRITY_MESSAGES.markup);
  let width: number | undefined;
  let height: number | undefined;
  try {
    // Reads the header only (no decoding); the pixel limit is checked below with its own message.
    ({ width, height } = await sharp(data, { limitInputPixels: false }).metadata());
  } catch {
    return;
  }
  if (width && height && width * height > MAX_IMAGE_PIXELS)
    throw refuse('image_too_large', INTEGRITY_MESSAGES.imageTooLarge);
}

function isZeroPadding(data: Buffer, from: number): boolean {
  for (let i = from; i < data.length; i++) if (data[i] !== 0) return false;
  return true;
}

/** Offset just past the image's end marker, or null when the structure is broken. */
function imageEnd(data: Buffer, ext: string): number | null {
  try {
    switch (ext) {
      case 'jpg':
        return jpegEndWithPictures(data);
      case 'png':
        return pngEnd(data);
      case 'gif':
        return gifEnd(data);
      case 'webp':
        return webpEnd(data);
      default:
        return data.length;
    }
  } catch {
    return null;
  }
}

/** The end of the primary JPEG and of any further complete JPEGs right after it (MPF, gain maps). */
function jpegEndWithPictures(data: Buffer): number | null {
  let end = jpegEnd(data, 0);
  if (end === null) return null;
  while (end + 1 < data.length && data[end] === 0xff && data[end + 1] === 0xd8) {
    const next = jpegEnd(data, end);
    if (next === null) return end;
    end = next;
  }
  return end;
}

function jpegEnd(data: Buffer, start: number): number | null {
  if (data[start] !== 0xff || data[start + 1] !== 0xd8) return null;
  let i = start + 2;
  while (i < data.length) {
    if (data[i] !== 0xff) return null;
    while (data[i] === 0xff) i++;
    const marker = data[i++];
    if (marker === undefined) return null;
    if (marker === 0xd9) return i;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (i + 2 > data.length) return null;
    const length = data.readUInt16BE(i);
    if (length < 2) return null;
    i += length;
    if (marker === 0xda) {
      // Entropy-coded data: runs until a marker other than a stuffed 0xFF00 or a restart marker.
      while (i + 1 < data.length) {
        if (data[i] === 0xff) {
          const next = data[i + 1];
          if (next !== 0x00 && !(next >= 0xd0 && next <= 0xd7)) break;
        }
        i++;
      }
    }
  }
  return null;
}

function pngEnd(data: Buffer): number | null {
  let i = 8;
  while (i + 12 <= data.length) {
    const length = data.readUInt32BE(i);
    const type = data.toString('latin1', i + 4, i + 8);
    const next = i + 12 + length;
    if (next > data.length) return null;
    if (type === 'IEND') return next;
    i = next;
  }
  return null;
}

function gifEnd(data: Buffer): number | null {
  const packed = data[10];
  let i = 13;
  if (packed & 0x80) i += 3 * 2 ** ((packed & 7) + 1);
  const skipSubBlocks = () => {
    while (i < data.length) {
      const size = data[i];
      i += 1 + size;
      if (size === 0) return;
    }
    throw new RangeError('truncated');
  };
  while (i < data.length) {
    const block = data[i];
    if (block === 0x3b) return i + 1;
    if (block === 0x21) {
      i += 2;
      skipSubBlocks();
    } else if (block === 0x2c) {
      const local = data[i + 9];
      i += 10;
      if (local & 0x80) i += 3 * 2 ** ((local & 7) + 1);
      i += 1; // LZW minimum code size
      skipSubBlocks();
    } else {
      return null;
    }
  }
  return null;
}

function webpEnd(data: Buffer): number | null {
  if (data.toString('latin1', 0, 4) !== 'RIFF') return null;
  const size = data.readUInt32LE(4);
  const end = 8 + size + (size & 1);
  return end <= data.length + (size & 1) ? Math.min(end, data.length) : null;
}

type ReadAt = (position: number, length: number) => Promise<Buffer>;
const BOX_TYPE = /^[\x20-\x7e\xa9]{4}$/;

/** Top-level ISO boxes must tile the file exactly; the moov box is searched for declared track sizes. */
async function assertCleanIsoFile(size: number, read: ReadAt): Promise<void> {
  let position = 0;
  // Some writers pad the file with zeros after the last box; anything else there is a payload.
  const assertZeroTail = async () => {
    const rest = size - position;
    if (rest > 64 * 1024 || !isZeroPadding(await read(position, rest), 0)) {
      throw refuse('trailing_data', INTEGRITY_MESSAGES.trailingData);
    }
  };
  while (position < size) {
    if (size - position < 8) return assertZeroTail();
    const header = await read(position, 16);
    let boxSize = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    if (!BOX_TYPE.test(type)) return assertZeroTail();
    if (boxSize === 1) {
      if (header.length < 16) throw refuse('invalid_media', INTEGRITY_MESSAGES.malformed);
      boxSize = Number(header.readBigUInt64BE(8));
    } else if (boxSize === 0) {
      boxSize = size - position;
    }
    if (boxSize < 8 || position + boxSize > size) throw refuse('trailing_data', INTEGRITY_MESSAGES.trailingData);
    if (type === 'moov' && boxSize <= MAX_MOOV_BYTES) {
      const pixels = largestTrackPixels(await read(position + 8, boxSize - 8));
      if (pixels > MAX_VIDEO_PIXELS) throw refuse('video_too_large', INTEGRITY_MESSAGES.videoTooLarge);
    }
    position += boxSize;
  }
}

/** The largest width × height any track header (tkhd) or visual sample entry in a moov box declares. */
function largestTrackPixels(moov: Buffer): number {
  let largest = 0;
  const walk = (start: number, end: number, depth: number) => {
    let i = start;
    while (i + 8 <= end && depth < 8) {
      const size = moov.readUInt32BE(i);
      const type = moov.toString('latin1', i + 4, i + 8);
      if (size < 8 || i + size > end) return;
      const body = i + 8;
      if (type === 'trak' || type === 'mdia' || type === 'minf' || type === 'stbl') walk(body, i + size, depth + 1);
      else if (type === 'tkhd') {
        const offset = moov[body] === 1 ? 88 : 76;
        if (body + offset + 8 <= i + size) {
          const width = moov.readUInt32BE(body + offset) / 65536;
          const height = moov.readUInt32BE(body + offset + 4) / 65536;
          largest = Math.max(largest, width * height);
        }
      } else if (type === 'stsd' && body + 8 + 36 <= i + size) {
        // First sample entry: size, format, 6 reserved, data ref index (2), then for visual entries
        // 16 bytes of pre-defined/reserved and width, height as 16-bit integers.
        const entry = body + 8;
        const width = moov.readUInt16BE(entry + 32);
        const height = moov.readUInt16BE(entry + 34);
        const format = moov.toString('latin1', entry + 4, entry + 8);
        if (/^(avc1|avc3|hvc1|hev1|mp4v|av01|vp09|vp08|mjp2|jpeg)$/.test(format)) {
          largest = Math.max(largest, width * height);
        }
      }
      i += size;
    }
  };
  walk(0, moov.length, 0);
  return largest;
}
