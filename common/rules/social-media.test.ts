import { describe, expect, it } from 'vitest';
import {
  checkPostMedia,
  convertedImageType,
  formatAspect,
  formatBytes,
  formatDuration,
  limitsSummary,
  type PostMediaFacts,
} from './social-media.ts';

const MB = 1024 * 1024;

const image = (over: Partial<PostMediaFacts> = {}): PostMediaFacts => ({
  kind: 'image',
  contentType: 'image/jpeg',
  sizeBytes: 500_000,
  width: 1080,
  height: 1080,
  durationSeconds: null,
  ...over,
});

const video = (over: Partial<PostMediaFacts> = {}): PostMediaFacts => ({
  kind: 'video',
  contentType: 'video/mp4',
  sizeBytes: 20 * MB,
  width: 1080,
  height: 1920,
  durationSeconds: 30,
  ...over,
});

describe('how limits are written', () => {
  it('sizes, durations and ratios read as people write them', () => {
    expect(formatBytes(8 * MB)).toBe('8 MB');
    expect(formatBytes(4 * 1024 * MB)).toBe('4 GB');
    expect(formatBytes(9.55 * MB)).toBe('9.6 MB');
    expect(formatDuration(17 * 60 + 3)).toBe('17 min 3 s');
    expect(formatDuration(15 * 60)).toBe('15 min');
    expect(formatDuration(12 * 3600)).toBe('12 h');
    expect(formatDuration(0.5)).toBe('0.5 s');
    expect(formatAspect(4 / 5)).toBe('4:5');
    expect(formatAspect(1.91)).toBe('1.91:1');
    expect(formatAspect(1 / 3)).toBe('1:3');
  });
});

describe('Instagram', () => {
  it('needs an image or a video', () => {
    expect(checkPostMedia('instagram', 'Hello', [])).toEqual([
      'Instagram needs an image or a video in every post; this post has none',
    ]);
    expect(checkPostMedia('instagram', 'Hello', [image()])).toEqual([]);
  });

  it('takes Reels of 3 s to 15 min, MOV or MP4, up to 300 MB', () => {
    expect(checkPostMedia('instagram', 'Reel', [video({ durationSeconds: 180 })])).toEqual([]);
    expect(checkPostMedia('instagram', 'Reel', [video({ durationSeconds: 17 * 60 + 3 })])).toEqual([
      'Instagram takes videos of at most 15 min; this video is 17 min 3 s',
    ]);
    expect(checkPostMedia('instagram', 'Reel', [video({ durationSeconds: 2 })])).toEqual([
      'Instagram takes videos of at least 3 s; this video is 2 s',
    ]);
    expect(checkPostMedia('instagram', 'Reel', [video({ sizeBytes: 301 * MB })])).toEqual([
      'Instagram takes videos of at most 300 MB; this video is 301 MB',
    ]);
    expect(checkPostMedia('instagram', 'Reel', [video({ contentType: 'video/webm' })])).toEqual([
      'Instagram takes videos in MP4, MOV only; this video is WebM',
    ]);
  });

  it('takes JPEG images (PNG, WebP converted) up to 8 MB with an aspect ratio from 4:5 to 1.91:1', () => {
    expect(checkPostMedia('instagram', 'x', [image({ width: 1080, height: 1350 })])).toEqual([]);
    expect(checkPostMedia('instagram', 'x', [image({ width: 1080, height: 566 })])).toEqual([]);
    expect(checkPostMedia('instagram', 'x', [image({ width: 1080, height: 1920 })])).toEqual([
      'Instagram takes images with an aspect ratio from 4:5 to 1.91:1; this image is 1080 × 1920',
    ]);
    expect(checkPostMedia('instagram', 'x', [image({ sizeBytes: 9 * MB })])).toEqual([
      'Instagram takes images of at most 8 MB; this image is 9 MB',
    ]);
    // PNG and WebP are converted to JPEG for Instagram; other formats are refused.
    expect(checkPostMedia('instagram', 'x', [image({ contentType: 'image/png' })])).toEqual([]);
    expect(checkPostMedia('instagram', 'x', [image({ contentType: 'image/webp' })])).toEqual([]);
    // What Instagram gets is the JPEG made of it, within 8 MB: a larger PNG is not refused for its size.
    expect(checkPostMedia('instagram', 'x', [image({ contentType: 'image/png', sizeBytes: 20 * MB })])).toEqual([]);
    expect(convertedImageType('instagram', 'image/png')).toBe('image/jpeg');
    expect(convertedImageType('instagram', 'image/webp; charset=binary')).toBe('image/jpeg');
    expect(convertedImageType('instagram', 'image/jpeg')).toBeNull();
    expect(convertedImageType('facebook', 'image/png')).toBeNull();
    expect(checkPostMedia('instagram', 'x', [image({ contentType: 'image/gif' })])).toEqual([
      'Instagram takes images in JPEG, PNG, WebP only; this image is GIF',
    ]);
  });

  it('takes carousels of up to 10 files, images and videos mixed', () => {
    expect(checkPostMedia('instagram', 'x', [image(), video(), image()])).toEqual([]);
    const eleven = Array.from({ length: 11 }, () => image());
    expect(checkPostMedia('instagram', 'x', eleven)).toEqual([
      'Instagram takes at most 10 files in a post; this one has 11',
    ]);
  });

  it('captions of at most 2,200 characters, unless they are shortened when posted', () => {
    expect(checkPostMedia('instagram', 'a'.repeat(2201), [image()])).toEqual([
      'Instagram takes captions of at most 2200 characters; this one has 2201',
    ]);
    expect(checkPostMedia('instagram', 'a'.repeat(2201), [image()], { shortenCaption: true })).toEqual([]);
  });
});

describe('TikTok', () => {
  it('posts one video of at most 10 minutes; images are refused', () => {
    expect(checkPostMedia('tiktok', 'Clip', [video()])).toEqual([]);
    expect(checkPostMedia('tiktok', 'Clip', [])).toEqual(['TikTok needs a video in every post; this post has none']);
    expect(checkPostMedia('tiktok', 'Pic', [image()])).toEqual([
      'TikTok needs a video in every post; this post has none',
      'TikTok takes videos only; remove the images from this post',
    ]);
    expect(checkPostMedia('tiktok', 'Long', [video({ durationSeconds: 601 })])).toEqual([
      'TikTok takes videos of at most 10 min; this video is 10 min 1 s',
    ]);
    expect(checkPostMedia('tiktok', 'Two', [video(), video()])).toEqual([
      'TikTok takes at most 1 file in a post; this one has 2',
    ]);
    expect(checkPostMedia('tiktok', 'Tiny', [video({ width: 320, height: 240 })])).toEqual([
      'TikTok takes videos of 360–4096 px a side; this video is 320 × 240',
    ]);
  });
});

describe('YouTube', () => {
  it('uploads one video of at most 12 hours; images and text alone are refused', () => {
    expect(checkPostMedia('youtube', 'Title', [video({ contentType: 'video/webm', durationSeconds: 3600 })])).toEqual(
      [],
    );
    expect(checkPostMedia('youtube', 'Title', [])).toEqual(['YouTube needs a video in every post; this post has none']);
    expect(checkPostMedia('youtube', 'Title', [image()])).toContain(
      'YouTube takes videos only; remove the images from this post',
    );
    expect(checkPostMedia('youtube', 'Title', [video({ durationSeconds: 13 * 3600 })])).toEqual([
      'YouTube takes videos of at most 12 h; this video is 13 h',
    ]);
  });
});

describe('X', () => {
  it('takes text alone, up to 4 photos or 1 video, not both', () => {
    expect(checkPostMedia('twitter', 'Hi', [])).toEqual([]);
    expect(checkPostMedia('twitter', 'Hi', [image(), image(), image(), image()])).toEqual([]);
    expect(
      checkPostMedia(
        'twitter',
        'Hi',
        Array.from({ length: 5 }, () => image()),
      ),
    ).toEqual(['X (Twitter) takes at most 4 files in a post; this one has 5']);
    expect(checkPostMedia('twitter', 'Hi', [image(), video()])).toEqual([
      'X (Twitter) does not take images and a video in the same post',
    ]);
    expect(checkPostMedia('twitter', 'Hi', [video(), video()])).toEqual([
      'X (Twitter) takes at most 1 video in a post; this one has 2',
    ]);
  });

  it('images up to 5 MB (GIF 15 MB), videos 0.5 s to 140 s up to 512 MB', () => {
    expect(checkPostMedia('twitter', 'Hi', [image({ contentType: 'image/png', sizeBytes: 6 * MB })])).toEqual([
      'X (Twitter) takes images of at most 5 MB; this image is 6 MB',
    ]);
    expect(checkPostMedia('twitter', 'Hi', [image({ contentType: 'image/gif', sizeBytes: 6 * MB })])).toEqual([]);
    expect(checkPostMedia('twitter', 'Hi', [video({ durationSeconds: 141, width: 1280, height: 720 })])).toEqual([
      'X (Twitter) takes videos of at most 2 min 20 s; this video is 2 min 21 s',
    ]);
    expect(checkPostMedia('twitter', 'a'.repeat(281), [])).toEqual([
      'X (Twitter) takes captions of at most 280 characters; this one has 281',
    ]);
  });

  it('in a post of several files, names which one', () => {
    expect(checkPostMedia('twitter', 'Hi', [image(), image({ sizeBytes: 7 * MB })])).toEqual([
      'X (Twitter) takes images of at most 5 MB; image 2 is 7 MB',
    ]);
  });
});

describe('LinkedIn', () => {
  it('images under 36,152,320 pixels, up to 20; one MP4 of 3 s to 30 min, 75 KB to 500 MB', () => {
    expect(checkPostMedia('linkedin', 'Hi', [])).toEqual([]);
    expect(
      checkPostMedia(
        'linkedin',
        'Hi',
        Array.from({ length: 20 }, () => image()),
      ),
    ).toEqual([]);
    expect(
      checkPostMedia(
        'linkedin',
        'Hi',
        Array.from({ length: 21 }, () => image()),
      ),
    ).toEqual(['LinkedIn takes at most 20 files in a post; this one has 21']);
    expect(checkPostMedia('linkedin', 'Hi', [image({ width: 8000, height: 6000 })])).toEqual([
      'LinkedIn takes images of at most 36,152,320 pixels; this image is 8000 × 6000',
    ]);
    expect(checkPostMedia('linkedin', 'Hi', [video({ contentType: 'video/quicktime' })])).toEqual([
      'LinkedIn takes videos in MP4 only; this video is MOV',
    ]);
    expect(checkPostMedia('linkedin', 'Hi', [video({ durationSeconds: 31 * 60 })])).toEqual([
      'LinkedIn takes videos of at most 30 min; this video is 31 min',
    ]);
    expect(checkPostMedia('linkedin', 'Hi', [video({ sizeBytes: 10_000 })])).toEqual([
      'LinkedIn takes videos of at least 75 KB; this video is 9.8 KB',
    ]);
  });
});

describe('Facebook', () => {
  it('photos up to 4 MB (up to 10) or one video of at most 240 minutes', () => {
    expect(checkPostMedia('facebook', 'Hi', [])).toEqual([]);
    expect(checkPostMedia('facebook', 'Hi', [image({ contentType: 'image/webp' })])).toEqual([]);
    expect(checkPostMedia('facebook', 'Hi', [image({ sizeBytes: 5 * MB })])).toEqual([
      'Facebook takes images of at most 4 MB; this image is 5 MB',
    ]);
    expect(checkPostMedia('facebook', 'Hi', [video({ durationSeconds: 241 * 60 })])).toEqual([
      'Facebook takes videos of at most 4 h; this video is 4 h 1 min',
    ]);
    expect(checkPostMedia('facebook', 'Hi', [image(), video()])).toEqual([
      'Facebook does not take images and a video in the same post',
    ]);
  });
});

describe('unknown facts', () => {
  it('are not held against a post', () => {
    const unknown = { sizeBytes: null, width: null, height: null, durationSeconds: null };
    expect(checkPostMedia('instagram', 'x', [video(unknown), image(unknown)])).toEqual([]);
  });
});

describe('the compose form summary', () => {
  it('says what each network takes', () => {
    expect(limitsSummary('instagram')).toMatchObject({
      captionLimit: 2200,
      requires: 'media',
      maxItems: 10,
      imageFormats: 'JPEG, PNG, WebP',
      imageMaxSize: '8 MB',
      imageAspect: '4:5 – 1.91:1',
      videoDuration: '3 s – 15 min',
    });
    expect(limitsSummary('tiktok')).toMatchObject({ requires: 'video', imageFormats: null, videoMaxSize: '4 GB' });
  });
});
