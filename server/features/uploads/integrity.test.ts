import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.ts';
import { assertCleanMedia } from './integrity.ts';

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
