import { open, readFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { UPLOAD_SNIFFED_TYPES } from '../../../common/api/media.constants.ts';
import { AppError } from '../errors.ts';

/** Most pixels (width × height) an image may declare; larger ones are refused before any decoding. */
const MAX_IMAGE_PIXELS = 100_000_000;
/** Most pixels a video track may declare (8192 × 8192). */
const MAX_VIDEO_PIXELS = 8192 * 8192;
/** The moov box is read into memory to find the declared size; larger ones are not inspected. */
const MAX_MOOV_BYTES = 32 * 1024 * 1024;
/** Some writers pad a file with zeros after its end; more than this (or any other byte) is refused. */
const MAX_ZERO_PADDING = 64 * 1024;
/** The IEND chunk as every PNG ends: length 0, type, CRC. */
const PNG_IEND = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

export const INTEGRITY_MESSAGES = {
  trailingData: 'The file has extra data after the end of the media',
  markup: 'The image contains embedded HTML or script',
  malformed: 'The file is damaged or not a valid media file',
  incomplete: 'The image is incomplete: it does not end the way its format requires',
  imageTooLarge: `The image dimensions are too large (at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels)`,
  videoTooLarge: 'The video resolution is too large (at most 8192 × 8192)',
} as const;

const refuse = (code: string, message: string) => new AppError(400, code, message);

/**
 * Markup a browser or interpreter would act on, anywhere in an image (metadata chunks, comments, even
 * crafted pixel data). Each needle is specific enough that a chance hit in compressed image data is
 * negligible: a bare `on\w+=` would match about once in 14 MB of random bytes, so event handlers count
 * only inside a tag, where a browser would run them.
 */
const MARKUP = new RegExp(
  [
    /<script/,
    /<\?php/,
    /<html/,
    /<body/,
    /<iframe/,
    /<object/,
    /<embed/,
    /<meta[\s/]/,
    /<svg[\s/>]/,
    /<img[\s/][^<>]*?(?:src|on[a-z]{3,})\s*=/,
    // An event handler in any tag: <x … onload=…>, <svg/onload=…>, <a href=""onclick=…>.
    /<[a-z][a-z0-9-]*(?:[\s/][^<>]*?)?[\s/"']on[a-z]{3,}\s*=/,
    /javascript:/,
  ]
    .map((needle) => needle.source)
    .join('|'),
  'i',
);

/**
 * Checks an accepted file beyond its magic number, so that what is stored is only the media, and
 * answers how many of its leading bytes to store (the whole file, unless a camera trailer is dropped):
 * - images (jpg/png/gif/webp) must end as their format says — JPEG EOI (multi-picture files may append
 *   further JPEGs), a PNG IEND chunk, the GIF trailer, the RIFF size of a WebP — followed by nothing
 *   but at most MAX_ZERO_PADDING zero bytes. A phone's trailer after a JPEG (Samsung's SEFH…SEFT
 *   metadata, a motion photo's MP4) is not stored. No HTML/script markup anywhere; at most
 *   MAX_IMAGE_PIXELS declared (read from the header, before decoding); and the image must decode;
 * - mp4/mov: the file is exactly a sequence of ISO boxes (no trailing payload), and no track
 *   declares more than MAX_VIDEO_PIXELS.
 * Other formats pass. Throws a 400 AppError.
 */
export async function assertCleanMedia(
  source: Buffer | string,
  sniffed: { ext: string; kind: (typeof UPLOAD_SNIFFED_TYPES)[string] | null },
): Promise<number> {
  if (sniffed.kind === 'image') {
    const data = typeof source === 'string' ? await readFile(source) : source;
    return assertCleanImage(data, sniffed.ext);
  }
  const handle = typeof source === 'string' ? await open(source, 'r') : null;
  try {
    const size = handle ? (await handle.stat()).size : (source as Buffer).length;
    if (sniffed.ext === 'mp4' || sniffed.ext === 'mov' || sniffed.ext === 'm4a') {
      const read = handle
        ? async (position: number, length: number) => {
            const buffer = Buffer.alloc(length);
            const { bytesRead } = await handle.read(buffer, 0, length, position);
            return buffer.subarray(0, bytesRead);
          }
        : async (position: number, length: number) => (source as Buffer).subarray(position, position + length);
      await assertCleanIsoFile(size, read);
    }
    return size;
  } finally {
    await handle?.close();
  }
}

async function assertCleanImage(data: Buffer, ext: string): Promise<number> {
  const end = imageEnd(data, ext);
  if (end === null) throw refuse('invalid_media', INTEGRITY_MESSAGES.incomplete);
  const kept = ext === 'jpg' && isCameraTrailer(data, end) ? end : data.length;
  if (kept === data.length && !isZeroPadding(data, end)) throw refuse('trailing_data', INTEGRITY_MESSAGES.trailingData);
  if (MARKUP.test(data.toString('latin1'))) throw refuse('embedded_markup', INTEGRITY_MESSAGES.markup);
  const image = data.subarray(0, kept);
  let width: number | undefined;
  let height: number | undefined;
  try {
    // Reads the header only; the pixel limit is checked with its own message before anything is decoded.
    ({ width, height } = await sharp(image, { limitInputPixels: false }).metadata());
  } catch {
    throw refuse('invalid_media', INTEGRITY_MESSAGES.malformed);
  }
  if (!width || !height) throw refuse('invalid_media', INTEGRITY_MESSAGES.malformed);
  if (width * height > MAX_IMAGE_PIXELS) throw refuse('image_too_large', INTEGRITY_MESSAGES.imageTooLarge);
  await assertDecodes(image);
  return kept;
}

/**
 * Decodes every pixel row of the (first) frame, as small as the decoder allows, refusing a file whose
 * data is cut short or corrupt even though its structure looked whole.
 */
async function assertDecodes(image: Buffer): Promise<void> {
  try {
    await sharp(image, { failOn: 'truncated', limitInputPixels: MAX_IMAGE_PIXELS, sequentialRead: true })
      .resize(64, 64, { fit: 'inside' })
      .raw()
      .toBuffer();
  } catch {
    throw refuse('invalid_media', INTEGRITY_MESSAGES.malformed);
  }
}

/** Samsung's metadata trailer (…SEFH directory, its length, "SEFT") or a motion photo's MP4 after a JPEG. */
function isCameraTrailer(data: Buffer, from: number): boolean {
  if (from + 12 <= data.length && data.toString('latin1', from + 4, from + 8) === 'ftyp') return true;
  if (from + 8 > data.length || data.toString('latin1', data.length - 4) !== 'SEFT') return false;
  const directory = data.length - 8 - data.readUInt32LE(data.length - 8);
  return directory >= from && data.toString('latin1', directory, directory + 4) === 'SEFH';
}

function isZeroPadding(data: Buffer, from: number): boolean {
  if (data.length - from > MAX_ZERO_PADDING) return false;
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
    if (type === 'IEND') return data.subarray(i, next).equals(PNG_IEND) ? next : null;
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

/** Where the RIFF size says the file ends; null when the file is shorter (cut). */
function webpEnd(data: Buffer): number | null {
  if (data.toString('latin1', 0, 4) !== 'RIFF' || data.toString('latin1', 8, 12) !== 'WEBP') return null;
  const end = 8 + data.readUInt32LE(4);
  return end <= data.length ? end : null;
}

type ReadAt = (position: number, length: number) => Promise<Buffer>;
const BOX_TYPE = /^[\x20-\x7e\xa9]{4}$/;

/** Top-level ISO boxes must tile the file exactly; the moov box is searched for declared track sizes. */
async function assertCleanIsoFile(size: number, read: ReadAt): Promise<void> {
  let position = 0;
  // Some writers pad the file with zeros after the last box; anything else there is a payload.
  const assertZeroTail = async () => {
    const rest = size - position;
    if (rest > MAX_ZERO_PADDING || !isZeroPadding(await read(position, rest), 0)) {
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
