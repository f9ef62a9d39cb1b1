import { describe, expect, it } from 'vitest';
import {
  CANVAS_DIALOG_MESSAGES,
  canCompose,
  canQuickEdit,
  compositionSelection,
  decideEnhancePoll,
  enhancedPlacement,
  IMAGE_ENHANCE_POLL,
  imageEnhanceRequest,
  isImageFile,
  normaliseRegion,
  qualityPreset,
  qualityPresetText,
  quickEditOutput,
  regionAt,
  regionCanvasSize,
  regionGenerateCheck,
  regionLook,
  regionPrompt,
  regionToImageMask,
  taskResultUrl,
  VIDEO_ENHANCE_POLL,
  videoEnhanceError,
} from './rules.ts';

describe('quick edit and composition', () => {
  it('uses seedream4 at 16:9 4K and nanobana at 1:1 2K', () => {
    expect(quickEditOutput('seedream4')).toEqual({ aspectRatio: '16:9', quality: '4k', width: 3840, height: 2160 });
    expect(quickEditOutput('nanobana')).toEqual({ aspectRatio: '1:1', quality: '2k', width: 2048, height: 2048 });
  });

  it('needs a prompt and a selection; composition needs two and uses at most ten', () => {
    expect(canQuickEdit('  ', 1)).toBe(false);
    expect(canQuickEdit('sky', 0)).toBe(false);
    expect(canQuickEdit('sky', 1)).toBe(true);
    expect(canCompose('mix', 1)).toBe(false);
    expect(canCompose('mix', 2)).toBe(true);
    expect(compositionSelection(Array.from({ length: 14 }, (_, i) => i))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('places the enhanced image 2150 px right at 1920x1080, below an earlier one rather than over it', () => {
    const source = { x: 50, y: 350, width: 300, height: 200 };
    const first = enhancedPlacement(source, [source]);
    expect(first).toEqual({ x: 2200, y: 350, width: 1920, height: 1080 });
    expect(enhancedPlacement(source, [source, first])).toEqual({
      x: 2200,
      y: 350 + 4 * 300,
      width: 1920,
      height: 1080,
    });
  });
});

describe('image enhancement', () => {
  it('sends each service its parameters and the source asset when known', () => {
    expect(imageEnhanceRequest('portrait-upscaler', '/api/images/a.png', 'asset-1')).toEqual({
      path: '/api/proxy/enhancor/portrait-upscaler/queue',
      body: { img_url: '/api/images/a.png', mode: 'fast', original_asset_id: 'asset-1' },
    });
    expect(imageEnhanceRequest('detailed', 'https://x/y.png').body).toEqual({
      img_url: 'https://x/y.png',
      enhancementLevel: 0.8,
    });
    expect(imageEnhanceRequest('realistic-skin', 'u', null).body).toEqual({ img_url: 'u' });
  });
});

describe('enhancement polling', () => {
  it('polls every 10 s: 180 attempts for images, 360 for video', () => {
    expect(IMAGE_ENHANCE_POLL).toEqual({ intervalMs: 10_000, maxAttempts: 180 });
    expect(VIDEO_ENHANCE_POLL).toEqual({ intervalMs: 10_000, maxAttempts: 360 });
  });

  it('is done on completed or succeeded with a url', () => {
    expect(decideEnhancePoll(1, { status: 'completed', result: { url: '/a.png' } }, IMAGE_ENHANCE_POLL)).toEqual({
      kind: 'done',
      url: '/a.png',
    });
    expect(decideEnhancePoll(3, { status: 'succeeded', result: { videoUrl: '/v.mp4' } }, VIDEO_ENHANCE_POLL)).toEqual({
      kind: 'done',
      url: '/v.mp4',
    });
  });

  it('fails on failed or error, waits otherwise, and times out at the limit', () => {
    expect(decideEnhancePoll(1, { status: 'failed', error: { message: 'boom' } }, IMAGE_ENHANCE_POLL)).toEqual({
      kind: 'failed',
      message: 'boom',
    });
    expect(decideEnhancePoll(1, { status: 'error' }, IMAGE_ENHANCE_POLL).kind).toBe('failed');
    expect(decideEnhancePoll(1, { status: 'processing' }, IMAGE_ENHANCE_POLL)).toEqual({
      kind: 'wait',
      delayMs: 10_000,
    });
    expect(decideEnhancePoll(179, null, IMAGE_ENHANCE_POLL).kind).toBe('wait');
    expect(decideEnhancePoll(180, null, IMAGE_ENHANCE_POLL)).toEqual({ kind: 'timeout' });
    expect(decideEnhancePoll(360, { status: 'queued' }, VIDEO_ENHANCE_POLL)).toEqual({ kind: 'timeout' });
    // Completed without a url keeps polling until the attempts run out.
    expect(decideEnhancePoll(5, { status: 'completed', result: {} }, IMAGE_ENHANCE_POLL).kind).toBe('wait');
  });

  it('reads the result url', () => {
    expect(taskResultUrl(null)).toBeNull();
    expect(taskResultUrl({ url: '', outputUrl: '/o.png' })).toBe('/o.png');
  });
});

describe('video enhancement', () => {
  it('maps quality to denoise/sharpen/enhance', () => {
    expect(qualityPreset('high')).toEqual({ denoise: 0.8, sharpen: 0.7, enhance: 0.9 });
    expect(qualityPreset('medium')).toEqual({ denoise: 0.5, sharpen: 0.4, enhance: 0.6 });
    expect(qualityPreset('low')).toEqual({ denoise: 0.5, sharpen: 0.4, enhance: 0.6 });
    expect(qualityPresetText('high')).toBe('Denoise 0.8 · Sharpen 0.7 · Enhance 0.9');
  });

  it('needs a model and option', () => {
    expect(videoEnhanceError('proteus', 'prob-4')).toBeNull();
    expect(videoEnhanceError('proteus', '')).toBe(CANVAS_DIALOG_MESSAGES.selectModelAndOption);
    expect(videoEnhanceError(null, 'prob-4')).toBe('Please select a model and option');
  });
});

describe('region edit', () => {
  it('normalises a drag in any direction and discards regions under 20x20', () => {
    expect(normaliseRegion({ x: 100, y: 80 }, { x: 40, y: 20 })).toEqual({ x: 40, y: 20, width: 60, height: 60 });
    expect(normaliseRegion({ x: 0, y: 0 }, { x: 19, y: 100 })).toBeNull();
    expect(normaliseRegion({ x: 0, y: 0 }, { x: 100, y: 19 })).toBeNull();
    expect(normaliseRegion({ x: 0, y: 0 }, { x: 20, y: 20 })).toEqual({ x: 0, y: 0, width: 20, height: 20 });
  });

  it('clamps to the canvas box', () => {
    expect(normaliseRegion({ x: -10, y: 10 }, { x: 50, y: 700 }, { width: 800, height: 600 })).toEqual({
      x: 0,
      y: 10,
      width: 50,
      height: 590,
    });
    expect(normaliseRegion({ x: 790, y: 10 }, { x: 900, y: 100 }, { width: 800, height: 600 })).toBeNull();
  });

  it('fits the image into 800x600 without enlarging it', () => {
    expect(regionCanvasSize({ width: 3840, height: 2160 })).toEqual({ width: 800, height: 450, scale: 800 / 3840 });
    expect(regionCanvasSize({ width: 2048, height: 2048 })).toEqual({ width: 600, height: 600, scale: 600 / 2048 });
    expect(regionCanvasSize({ width: 400, height: 300 })).toEqual({ width: 400, height: 300, scale: 1 });
    expect(regionCanvasSize({ width: 0, height: 10 })).toEqual({ width: 0, height: 0, scale: 1 });
  });

  it('scales a display region to image pixels, clamped to the image', () => {
    const scale = 800 / 3840;
    const natural = { width: 3840, height: 2160 };
    expect(regionToImageMask({ x: 100, y: 50, width: 200, height: 100 }, scale, natural)).toEqual({
      x: 480,
      y: 240,
      width: 960,
      height: 480,
    });
    expect(regionToImageMask({ x: 700, y: 400, width: 200, height: 100 }, scale, natural)).toEqual({
      x: 3360,
      y: 1920,
      width: 480,
      height: 240,
    });
  });

  it('finds the topmost region at a point and only accepts image files', () => {
    const regions = [
      { id: 'a', x: 0, y: 0, width: 100, height: 100 },
      { id: 'b', x: 50, y: 50, width: 100, height: 100 },
    ];
    expect(regionAt(regions, { x: 60, y: 60 })?.id).toBe('b');
    expect(regionAt(regions, { x: 10, y: 10 })?.id).toBe('a');
    expect(regionAt(regions, { x: 500, y: 10 })).toBeNull();
    expect(isImageFile({ type: 'image/png' })).toBe(true);
    expect(isImageFile({ type: 'video/mp4' })).toBe(false);
    expect(isImageFile({ type: '' })).toBe(false);
  });

  it('colours a drop target, the active region and one with an image differently', () => {
    expect(regionLook({ id: 'a', hasImage: true }, 'a', 'a')).toBe('dropTarget');
    expect(regionLook({ id: 'a', hasImage: true }, 'a', null)).toBe('active');
    expect(regionLook({ id: 'a', hasImage: true }, 'b', null)).toBe('hasImage');
    expect(regionLook({ id: 'a', hasImage: false }, 'b', null)).toBe('idle');
  });

  it('checks region generate and adds the style prompt', () => {
    const base = { hasRegion: true, imageLoaded: true, prompt: 'a cat', busy: false };
    expect(regionGenerateCheck(base)).toBe('ok');
    expect(regionGenerateCheck({ ...base, hasRegion: false })).toBe('alert');
    expect(regionGenerateCheck({ ...base, imageLoaded: false })).toBe('alert');
    expect(regionGenerateCheck({ ...base, prompt: ' ' })).toBe('blocked');
    expect(regionGenerateCheck({ ...base, busy: true })).toBe('blocked');
    expect(regionPrompt(' a cat ', '')).toBe('a cat');
    expect(regionPrompt('a cat', 'noir')).toBe('a cat. Style: noir');
  });
});
