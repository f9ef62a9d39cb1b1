import { describe, expect, it } from 'vitest';
import { LOCAL_PREVIEW_PRICES, PRICE_ITEMS, PRICES } from '../api/generation.constants.ts';
import {
  canvasImagePrice,
  imageCount,
  imageDimensions,
  priceFor,
  priceOf,
  priceTableFor,
  videoFamily,
  videoWantsAudio,
  withSpecImageCount,
} from './pricing.ts';

describe('imageDimensions', () => {
  it('uses size as written when no aspect ratio or sample size is given', () => {
    expect(imageDimensions({})).toEqual({ width: 1024, height: 1024 });
    expect(imageDimensions({ size: '640x360' })).toEqual({ width: 640, height: 360 });
  });
  it('derives the size from aspect ratio and sample size (Seedream 16:9 4K, NanoBana 1:1 2K)', () => {
    expect(imageDimensions({ aspectRatio: '16:9', sampleImageSize: '4K' })).toEqual({ width: 3840, height: 2160 });
    expect(imageDimensions({ aspectRatio: '1:1', sampleImageSize: '2k' })).toEqual({ width: 2048, height: 2048 });
    expect(imageDimensions({ size: '1024x1024', aspectRatio: '9:16' })).toEqual({ width: 576, height: 1024 });
    expect(imageDimensions({ size: '1024x576', sampleImageSize: '2K' })).toEqual({ width: 2048, height: 1152 });
  });
  it('ignores an aspect ratio it cannot read', () => {
    expect(imageDimensions({ size: '800x600', aspectRatio: 'wide' })).toEqual({ width: 800, height: 600 });
  });
});

describe('imageCount', () => {
  it('is the larger of variations and numberOfImages, default 1, at most 4', () => {
    expect(imageCount({})).toBe(1);
    // The spec's image call defaults to 2 variations when it names no count; a count it names stays.
    expect(imageCount(withSpecImageCount({}))).toBe(2);
    expect(imageCount(withSpecImageCount({ variations: 1 }))).toBe(1);
    expect(imageCount(withSpecImageCount({ numberOfImages: 3 }))).toBe(3);
    expect(imageCount({ variations: 2, numberOfImages: 1 })).toBe(2);
    expect(imageCount({ numberOfImages: 3 })).toBe(3);
    expect(imageCount({ variations: 9 })).toBe(4);
  });
});

describe('priceOf', () => {
  it('prices images per image, 4K above 2048 px on the long side', () => {
    expect(priceOf('image', {}, PRICES)).toBe(PRICES.image);
    expect(priceOf('image', { size: '2048x2048', variations: 2 }, PRICES)).toBe(2 * PRICES.image);
    expect(priceOf('image', { size: '2049x1024' }, PRICES)).toBe(PRICES.image4k);
    expect(priceOf('image', { aspectRatio: '16:9', sampleImageSize: '4K', numberOfImages: 2 }, PRICES)).toBe(
      2 * PRICES.image4k,
    );
  });

  it('adds the 4K upscale per image when autoUpscale is on', () => {
    expect(priceOf('image', { variations: 2, autoUpscale: true }, PRICES)).toBe(
      2 * (PRICES.image + PRICES.imageUpscale),
    );
    expect(priceOf('image', { variations: 2, autoUpscale: false }, PRICES)).toBe(2 * PRICES.image);
  });

  it('prices video by model family: Veo with audio is pro (101), Seedance is dream (41)', () => {
    expect(priceOf('video', { model: 'veo-3.0-generate-001' }, PRICES)).toBe(101);
    expect(priceOf('video', { model: 'veo-3.0-generate-001', generateAudio: true }, PRICES)).toBe(PRICES.videoPro);
    expect(priceOf('video', { model: 'veo-3.0-fast-generate-preview', generateAudio: false }, PRICES)).toBe(
      PRICES.videoStandard,
    );
    expect(priceOf('video', { model: 'veo-3.1-generate-preview', include_audio: false }, PRICES)).toBe(
      PRICES.videoStandard,
    );
    expect(priceOf('video', { model: 'seedance' }, PRICES)).toBe(41);
    expect(priceOf('video', { model: 'seedream4' }, PRICES)).toBe(PRICES.videoDream);
    expect(priceOf('video', { model: 'runway-gen4_aleph' }, PRICES)).toBe(PRICES.videoRunway);
    expect(priceOf('video', { model: 'runway-act_two', generateAudio: true }, PRICES)).toBe(PRICES.videoRunway);
  });

  it('prices audio by type', () => {
    expect(priceOf('audio', {}, PRICES)).toBe(PRICES.music);
    expect(priceOf('audio', { type: 'music' }, PRICES)).toBe(PRICES.music);
    expect(priceOf('audio', { type: 'voice' }, PRICES)).toBe(PRICES.voice);
  });
});

describe('video audio default', () => {
  it('is on for Veo, off for others, and generateAudio wins over include_audio', () => {
    expect(videoWantsAudio({ model: 'veo-3.0-generate-001' })).toBe(true);
    expect(videoWantsAudio({ model: 'seedance' })).toBe(false);
    expect(videoWantsAudio({ model: 'veo-3', generateAudio: false, include_audio: true })).toBe(false);
    expect(videoFamily('Runway-Gen4_turbo')).toBe('runway');
  });
});

describe('canvasImagePrice', () => {
  it('charges an edit, a composition and each multi-composition step from the price list', () => {
    expect(canvasImagePrice('edit', PRICES)).toBe(PRICES.imageEdit);
    expect(canvasImagePrice('compose', PRICES)).toBe(PRICES.composition);
    expect(canvasImagePrice('multi-composition', PRICES, 3)).toBe(3 * PRICES.compositionStep);
    expect(canvasImagePrice('multi-composition', PRICES, 0)).toBe(PRICES.compositionStep);
  });

  it('prices the canvas formats: NanoBana 1:1 2K as an image, Seedream 16:9 4K as a 4K image', () => {
    expect(priceOf('image', { aspectRatio: '1:1', sampleImageSize: '2K' }, PRICES)).toBe(PRICES.image);
    expect(priceOf('image', { aspectRatio: '16:9', sampleImageSize: '4K' }, PRICES)).toBe(PRICES.image4k);
  });
});

describe('prices by the engine that serves the model (issue 19)', () => {
  it('charges a local preview far less than the vendor model it stands in for', () => {
    for (const item of PRICE_ITEMS) {
      expect(LOCAL_PREVIEW_PRICES[item], item).toBeLessThanOrEqual(PRICES[item]);
      expect(priceFor(item, 'vendor'), item).toBe(PRICES[item]);
      expect(priceFor(item, 'local'), item).toBe(LOCAL_PREVIEW_PRICES[item]);
    }
    // A Ken Burns pan over a painting is not a 101-credit Veo render.
    expect(priceOf('video', { model: 'veo-3.0-generate-001' }, priceTableFor('local'))).toBe(
      LOCAL_PREVIEW_PRICES.videoPro,
    );
    expect(LOCAL_PREVIEW_PRICES.videoPro).toBeLessThan(PRICES.videoPro / 10);
  });

  it("uses the operator's local list when one is given", () => {
    const custom = { ...LOCAL_PREVIEW_PRICES, videoPro: 9 };
    expect(priceFor('videoPro', 'local', custom)).toBe(9);
    expect(priceFor('videoPro', 'vendor', custom)).toBe(PRICES.videoPro);
    expect(priceOf('image', { variations: 2 }, priceTableFor('local', custom))).toBe(2 * custom.image);
  });
});
