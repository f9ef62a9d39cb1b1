import { describe, expect, it } from 'vitest';
import {
  canUpscale,
  isUpscaleReplaced,
  upscaleErrorMessage,
  upscaleOutcome,
  upscaleStartRequest,
} from './asset-upscale.ts';

const image = { id: 'a1', type: 'image', url: '/api/images/a.png', metadata: {} };
const video = { id: 'v1', type: 'video', url: '/api/videos/v.mp4', metadata: {} };

describe('asset upscale', () => {
  it('sends images to the image upscaler and videos to the 4K enhancer', () => {
    expect(upscaleStartRequest(image)).toEqual({
      path: '/api/proxy/enhancor/image-upscaler/queue',
      body: { img_url: '/api/images/a.png', original_asset_id: 'a1' },
    });
    expect(upscaleStartRequest(video)).toEqual({
      path: '/api/topaz/enhance',
      body: { videoUrl: '/api/videos/v.mp4', model: 'upscale_4k', options: { original_asset_id: 'v1' } },
    });
    expect(canUpscale(image)).toBe(true);
    expect(canUpscale({ ...image, type: 'audio' })).toBe(false);
  });

  it('is done when metadata.replaced_by_enhancement is true', () => {
    expect(isUpscaleReplaced({ metadata: { replaced_by_enhancement: true } })).toBe(true);
    expect(isUpscaleReplaced({ metadata: { replaced_by_enhancement: 'true' } })).toBe(false);
    expect(isUpscaleReplaced({ metadata: {} })).toBe(false);
    expect(isUpscaleReplaced(null)).toBe(false);
  });

  it('is done once the asset was replaced, else ends with the time-out message', () => {
    const timedOut = { kind: 'failed', message: 'Enhancement timed out - webhook not received after 30 minutes.' };
    expect(upscaleOutcome({ metadata: {} })).toEqual(timedOut);
    expect(upscaleOutcome(null)).toEqual(timedOut);
    expect(upscaleOutcome({ metadata: { replaced_by_enhancement: true } })).toEqual({ kind: 'done' });
  });

  it('shows the API error or "upscaling failed"', () => {
    expect(upscaleErrorMessage('Insufficient credits')).toBe('Insufficient credits');
    expect(upscaleErrorMessage('  ')).toBe('upscaling failed');
    expect(upscaleErrorMessage(undefined)).toBe('upscaling failed');
  });
});
