// Pure rules of the per-asset upscale (spec 4 "Upscale per asset", 7 "Upscale", 8 and 9).
// No Node and no DOM imports: shared by web and tests.
import { MESSAGES } from '../../common/messages.ts';

export type UpscaleState = 'idle' | 'loading' | 'success' | 'error';

interface UpscalableAsset {
  id: string;
  type: string;
  url: string;
  metadata?: Record<string, unknown> | null;
}

export type UpscaleStart =
  | { path: '/api/proxy/enhancor/image-upscaler/queue'; body: { img_url: string; original_asset_id: string } }
  | {
      path: '/api/topaz/enhance';
      body: { videoUrl: string; model: 'upscale_4k'; options: { original_asset_id: string } };
    };

function isVideoAsset(asset: UpscalableAsset): boolean {
  return asset.type === 'video' || asset.type === 'video_enhancement';
}

/** Whether the card offers Upscale: images and videos (audio cannot be upscaled). */
export function canUpscale(asset: UpscalableAsset): boolean {
  return asset.type !== 'audio';
}

/** Images go to the image upscaler queue, videos to the 4K video enhancer; both name the original asset. */
export function upscaleStartRequest(asset: UpscalableAsset): UpscaleStart {
  if (isVideoAsset(asset)) {
    return {
      path: '/api/topaz/enhance',
      body: { videoUrl: asset.url, model: 'upscale_4k', options: { original_asset_id: asset.id } },
    };
  }
  return {
    path: '/api/proxy/enhancor/image-upscaler/queue',
    body: { img_url: asset.url, original_asset_id: asset.id },
  };
}

/** Success is seen on the asset itself: metadata.replaced_by_enhancement becomes true. */
export function isUpscaleReplaced(asset: Pick<UpscalableAsset, 'metadata'> | null | undefined): boolean {
  return asset?.metadata?.replaced_by_enhancement === true;
}

export type UpscaleOutcome = { kind: 'done' } | { kind: 'failed'; message: string };

/**
 * How an upscale ended, seen on the asset once its task finished (or UPSCALE_TIMEOUT_MS passed, or the task could
 * not be followed): replaced → done; otherwise the webhook never came, the spec's time-out message.
 */
export function upscaleOutcome(asset: Pick<UpscalableAsset, 'metadata'> | null): UpscaleOutcome {
  return isUpscaleReplaced(asset) ? { kind: 'done' } : { kind: 'failed', message: MESSAGES.assets.upscaleTimedOut };
}

/** The card's error text: the API's error when it gave one, else 'upscaling failed'. */
export function upscaleErrorMessage(apiError: string | null | undefined): string {
  const text = apiError?.trim();
  return text ? text : MESSAGES.assets.upscaleFailed;
}
