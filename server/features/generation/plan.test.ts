import { describe, expect, it } from 'vitest';
import { ACT_STUDIO_MODEL, DUAL_FRAME_MODEL, MAGIC_MODIFY_MODEL } from '../../../common/api/generation.constants.ts';
import { generateVideoBody } from '../../../common/api/generation.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { planVideo, serviceOf, videoDimensions } from './plan.ts';

describe('planVideo', () => {
  it('MagicModify needs a video and modifies it', () => {
    expect(() => planVideo({ model: MAGIC_MODIFY_MODEL })).toThrow(
      MESSAGES.generation.videoInputRequired('MagicModify'),
    );
    expect(planVideo({ model: MAGIC_MODIFY_MODEL, videoUri: 'v', referenceImages: ['r'] })).toMatchObject({
      mode: 'magic-modify',
      video: 'v',
      references: ['r'],
    });
  });

  it('ActStudio needs a character (characterImages[0] or inputImage) and a reference video', () => {
    expect(() => planVideo({ model: ACT_STUDIO_MODEL, inputImage: 'c' })).toThrow();
    expect(() => planVideo({ model: ACT_STUDIO_MODEL, videoUri: 'v' })).toThrow(
      MESSAGES.generation.characterImageRequired,
    );
    expect(planVideo({ model: ACT_STUDIO_MODEL, videoUri: 'v', characterImages: ['c1', 'c2'] })).toMatchObject({
      mode: 'act-studio',
      video: 'v',
      character: 'c1',
      references: ['c2'],
    });
    expect(planVideo({ model: ACT_STUDIO_MODEL, videoUri: 'v', inputImage: 'i' }).character).toBe('i');
  });

  it('FilmmakerPro takes the first frame from references and the last from characters, merged and de-duplicated', () => {
    const plan = planVideo({
      model: DUAL_FRAME_MODEL,
      referenceImages: ['a', 'b', 'a'],
      characterImages: ['a', 'z'],
    });
    expect(plan).toMatchObject({ mode: 'first-last-frame', firstFrame: 'a', lastFrame: 'z', references: ['b'] });
    expect(plan.limitCount).toBe(3);
    expect(
      planVideo({ model: DUAL_FRAME_MODEL, inputImage: 'first', lastFrameImage: 'last', referenceImages: ['first'] }),
    ).toMatchObject({ firstFrame: 'first', lastFrame: 'last', references: [] });
    expect(planVideo({ model: DUAL_FRAME_MODEL }).mode).toBe('text-to-video');
  });

  it('uses image-to-video with an input image, else text-to-video', () => {
    expect(planVideo({ model: 'veo-3.0-generate-001', inputImage: 'i', referenceImages: ['i', 'r'] })).toMatchObject({
      mode: 'image-to-video',
      firstFrame: 'i',
      references: ['r'],
      limitCount: 2,
    });
    expect(planVideo({ model: 'seedance', characterImages: ['c'], product_images: ['p'] })).toMatchObject({
      mode: 'text-to-video',
      references: ['c', 'p'],
      limitCount: 1,
    });
  });
});

describe('videoDimensions', () => {
  it('takes the short side from the resolution and the shape from the aspect ratio', () => {
    expect(videoDimensions(undefined, undefined)).toEqual({ width: 1280, height: 720 });
    expect(videoDimensions('16:9', '1080p')).toEqual({ width: 1920, height: 1080 });
    expect(videoDimensions('9:16', '480p')).toEqual({ width: 480, height: 854 });
    expect(videoDimensions('1:1', '4K')).toEqual({ width: 2160, height: 2160 });
  });

  it('fits the Film Production Studio sizes (8K, wide 4K) within 3840 px, keeping the shape', () => {
    expect(videoDimensions('16:9', '4K')).toEqual({ width: 3840, height: 2160 });
    expect(videoDimensions('16:9', '8K')).toEqual({ width: 3840, height: 2160 });
    expect(videoDimensions('2.39:1', '4K')).toEqual({ width: 3840, height: 1606 });
    expect(videoDimensions('1.85:1', '1440p')).toEqual({ width: 2664, height: 1440 });
    expect(videoDimensions('21:9', '1080p')).toEqual({ width: 2520, height: 1080 });
  });
});

describe('generateVideoBody (film production values)', () => {
  it('accepts veo-3 with 120 fps and the film aspect ratios and resolutions', () => {
    const parsed = generateVideoBody.parse({
      prompt: 'a shot',
      service: 'veo',
      model: 'veo-3',
      duration: 5,
      resolution: '8K',
      fps: 120,
      aspectRatio: '2.39:1',
      enhancePrompt: true,
    });
    expect(parsed).toMatchObject({ model: 'veo-3', fps: 120, resolution: '8K', aspectRatio: '2.39:1' });
    expect(generateVideoBody.safeParse({ prompt: 'a shot', fps: 121 }).success).toBe(false);
  });
});

describe('serviceOf', () => {
  it('names the vendor part of a model', () => {
    expect(serviceOf('veo-3.0-generate-001')).toBe('veo');
    expect(serviceOf('seedream4')).toBe('seedream');
    expect(serviceOf('runway-gen4_aleph')).toBe('runway');
    expect(serviceOf('suno-v3.5')).toBe('suno');
    expect(serviceOf('nanobana')).toBe('nanobana');
  });
});
