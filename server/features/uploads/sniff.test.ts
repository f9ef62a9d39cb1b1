import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { largestUploadLimitMb, sniffBuffer, uploadLimitMb } from './sniff.ts';

describe('upload limits', () => {
  it('is UPLOAD_MAX_MB capped by the storage ceiling of the kind (image 75, video 750, other 100)', () => {
    expect(uploadLimitMb({ UPLOAD_MAX_MB: 50 }, 'image')).toBe(50);
    expect(uploadLimitMb({ UPLOAD_MAX_MB: 50 }, 'video')).toBe(50);
    expect(uploadLimitMb({ UPLOAD_MAX_MB: 50 }, 'audio')).toBe(50);
    expect(uploadLimitMb({ UPLOAD_MAX_MB: 1000 }, 'image')).toBe(75);
    expect(uploadLimitMb({ UPLOAD_MAX_MB: 1000 }, 'video')).toBe(750);
    expect(uploadLimitMb({ UPLOAD_MAX_MB: 1000 }, 'audio')).toBe(100);
    expect(uploadLimitMb({ UPLOAD_MAX_MB: 1000 }, null)).toBe(100);
    expect(uploadLimitMb({ UPLOAD_MAX_MB: 90 }, 'image')).toBe(75);
    expect(uploadLimitMb({ UPLOAD_MAX_MB: 90 }, 'video')).toBe(90);
  });

  it('streams at most the largest per-kind limit before the kind is known', () => {
    expect(largestUploadLimitMb({ UPLOAD_MAX_MB: 50 })).toBe(50);
    expect(largestUploadLimitMb({ UPLOAD_MAX_MB: 2048 })).toBe(750);
  });
});

describe('sniffBuffer', () => {
  it('types by the bytes and maps file-type names to browser ones', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    expect(await sniffBuffer(png)).toEqual({ ext: 'png', mime: 'image/png', kind: 'image' });
    const tiff = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .tiff()
      .toBuffer();
    expect(await sniffBuffer(tiff)).toMatchObject({ ext: 'tif', kind: null });
    expect(await sniffBuffer(Buffer.from('hello world'))).toBeNull();
  });
});
