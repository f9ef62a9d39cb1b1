import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.ts';
import { assertCleanMedia } from '../../platform/media/integrity.ts';
import { hostileImages, samsungJpeg } from '../../test/security/attack-files.ts';
import { sniffBuffer } from './sniff.ts';

const image = (format: 'jpeg' | 'png' | 'gif' | 'webp') =>
  sharp({ create: { width: 12, height: 8, channels: 3, background: '#446688' } })
    .toFormat(format)
    .toBuffer();

function box(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}
const mp4 = Buffer.concat([
  box('ftyp', Buffer.from('isom\0\0\x02\0isomiso2', 'latin1')),
  box('mdat', Buffer.alloc(64, 7)),
]);

async function codeOf(data: Buffer, ext: string, kind: 'image' | 'video' = 'image'): Promise<string | null> {
  try {
    await assertCleanMedia(data, { ext, kind });
    return null;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return error.code;
  }
}

describe('assertCleanMedia', () => {
  it('passes images as encoders write them, zero padding, and JPEG multi-picture files', async () => {
    for (const [format, ext] of [
      ['jpeg', 'jpg'],
      ['png', 'png'],
      ['gif', 'gif'],
      ['webp', 'webp'],
    ] as const) {
      const data = await image(format);
      expect(await codeOf(data, ext), ext).toBeNull();
      expect(await codeOf(Buffer.concat([data, Buffer.alloc(16)]), ext), `${ext} + zeros`).toBeNull();
      expect(await codeOf(Buffer.concat([data, Buffer.from('x')]), ext), `${ext} + byte`).toBe('trailing_data');
    }
    const jpeg = await image('jpeg');
    expect(await codeOf(Buffer.concat([jpeg, jpeg]), 'jpg'), 'MPF: a second JPEG').toBeNull();
    const png = await image('png');
    expect(await codeOf(Buffer.concat([png, Buffer.alloc(64 * 1024 + 1)]), 'png'), 'over 64 KB of zeros').toBe(
      'trailing_data',
    );
  });

  it('keeps a phone JPEG but not its camera trailer (Samsung SEFT, a motion photo MP4)', async () => {
    const samsung = await samsungJpeg();
    expect(await assertCleanMedia(samsung.data, { ext: 'jpg', kind: 'image' })).toBe(samsung.photoBytes);
    const jpeg = await image('jpeg');
    const motion = Buffer.concat([jpeg, mp4]);
    expect(await assertCleanMedia(motion, { ext: 'jpg', kind: 'image' })).toBe(jpeg.length);
    expect(await assertCleanMedia(jpeg, { ext: 'jpg', kind: 'image' })).toBe(jpeg.length);
  });

  it('refuses images that do not end as their format says, or do not decode', async () => {
    const [jpeg, png, gif, webp] = await Promise.all([image('jpeg'), image('png'), image('gif'), image('webp')]);
    expect(await codeOf(jpeg.subarray(0, jpeg.length - 2), 'jpg'), 'JPEG without EOI').toBe('invalid_media');
    expect(await codeOf(png.subarray(0, png.length - 12), 'png'), 'PNG without IEND').toBe('invalid_media');
    const badIend = Buffer.from(png);
    badIend.writeUInt32BE(0, png.length - 4);
    expect(await codeOf(badIend, 'png'), 'IEND with a wrong CRC').toBe('invalid_media');
    expect(await codeOf(gif.subarray(0, gif.length - 1), 'gif'), 'GIF without trailer').toBe('invalid_media');
    expect(await codeOf(webp.subarray(0, webp.length - 2), 'webp'), 'WebP shorter than its RIFF size').toBe(
      'invalid_media',
    );
  });

  it('refuses every hostile image of the attack set', async () => {
    const codes = new Map<string, string | null>();
    for (const file of await hostileImages()) {
      // Files whose bytes are no accepted image are refused earlier, by their sniffed type.
      const sniffed = await sniffBuffer(file.data);
      if (sniffed?.kind === 'image') codes.set(file.name, await codeOf(file.data, sniffed.ext));
    }
    expect(codes.get('PNG header + <img onerror>, no IEND')).toBe('invalid_media');
    expect(codes.get('PNG header + a link, no IEND')).toBe('invalid_media');
    expect(codes.get('GIF header + <svg/onload>, no trailer')).toBe('invalid_media');
    expect(codes.get('JPEG cut before EOI + markup')).toBe('invalid_media');
    expect(codes.get('WebP whose RIFF size runs past the file')).toBe('invalid_media');
    expect(codes.get('WebP + HTML after its RIFF size')).toBe('trailing_data');
    expect(codes.get('WebP with <meta refresh> inside its RIFF size')).toBe('embedded_markup');
    expect(codes.get('PNG with an event handler in a tEXt chunk')).toBe('embedded_markup');
    expect(codes.get('PNG with a javascript: URL in a tEXt chunk')).toBe('embedded_markup');
    expect(codes.get('JPEG with <img onerror> in a comment')).toBe('embedded_markup');
    expect(codes.get('PNG with pixel data that does not decode')).toBe('invalid_media');
    for (const [name, code] of codes) expect(code, name).not.toBeNull();
  });

  it('passes ISO files that are exactly their boxes (or zero-padded), refuses anything after', async () => {
    expect(await codeOf(mp4, 'mp4', 'video')).toBeNull();
    expect(await codeOf(Buffer.concat([mp4, Buffer.alloc(5)]), 'mp4', 'video')).toBeNull();
    expect(await codeOf(Buffer.concat([mp4, Buffer.from('PK\x03\x04rest')]), 'mp4', 'video')).toBe('trailing_data');
    const overlong = Buffer.from(mp4);
    overlong.writeUInt32BE(10_000, mp4.length - 72); // mdat claims more than the file holds
    expect(await codeOf(overlong, 'mp4', 'video')).toBe('trailing_data');
  });

  it('leaves other formats alone', async () => {
    expect(await codeOf(Buffer.from('OggS anything'), 'ogg', 'video')).toBeNull();
  });
});
