import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages.ts';
import { checkReferenceFile, referenceAccept } from './upload-rules.ts';

const MB = 1024 * 1024;

describe('Multi-Reference upload rules', () => {
  it('image mode takes images up to 10 MB and nothing else', () => {
    expect(checkReferenceFile({ name: 'a.png', type: 'image/png', size: 2 * MB }, 'image')).toEqual({
      mediaType: 'image',
      maxMb: 10,
    });
    expect(checkReferenceFile({ name: 'a.png', type: 'image/png', size: 11 * MB }, 'image')).toEqual({
      error: MESSAGES.upload.tooLarge(10),
    });
    expect(checkReferenceFile({ name: 'clip.mp4', type: 'video/mp4', size: MB }, 'image')).toEqual({
      error: MESSAGES.multiReference.unsupportedType,
    });
    expect(referenceAccept('image')).toBe('image/*');
  });

  it('video-to-video mode takes images and mp4/mov/webm/avi up to 100 MB; a GIF is an image, mkv is refused', () => {
    expect(checkReferenceFile({ name: 'clip.mp4', type: 'video/mp4', size: 90 * MB }, 'video-to-video')).toEqual({
      mediaType: 'video',
      maxMb: 100,
    });
    expect(checkReferenceFile({ name: 'clip.MOV', type: 'video/quicktime', size: MB }, 'video-to-video')).toMatchObject(
      {
        mediaType: 'video',
      },
    );
    expect(checkReferenceFile({ name: 'big.png', type: 'image/png', size: 40 * MB }, 'video-to-video')).toEqual({
      mediaType: 'image',
      maxMb: 100,
    });
    expect(checkReferenceFile({ name: 'clip.mp4', type: 'video/mp4', size: 101 * MB }, 'video-to-video')).toEqual({
      error: MESSAGES.upload.tooLarge(100),
    });
    expect(checkReferenceFile({ name: 'clip.mkv', type: 'video/x-matroska', size: MB }, 'video-to-video')).toEqual({
      error: MESSAGES.multiReference.unsupportedType,
    });
    expect(checkReferenceFile({ name: 'anim.gif', type: 'image/gif', size: MB }, 'video-to-video')).toMatchObject({
      mediaType: 'image',
    });
    expect(checkReferenceFile({ name: 'notes.txt', type: 'text/plain', size: 10 }, 'video-to-video')).toEqual({
      error: MESSAGES.multiReference.unsupportedType,
    });
    expect(referenceAccept('video-to-video')).toContain('.mp4');
  });
});
