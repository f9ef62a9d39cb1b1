// Uploads and upscale (issue 3): remote uploads, video and image enhancement. Named by the spec; server and web import them.
import type { EnhancorKind } from './generation.constants.ts';

/**
 * What the JSON upload calls (POST /api/upload/base64-to-url, POST /api/temp-upload) accept,
 * checked on the sniffed bytes (canvas spec 5: jpeg, png, webp, gif; mp4, webm, quicktime; mpeg,
 * wav, ogg, m4a).
 */
export const REMOTE_UPLOAD_MIME_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'video/mp4',
  'video/webm',
  'video/quicktime',
  'audio/mpeg',
  'audio/wav',
  'audio/ogg',
  'audio/mp4',
] as const;

/** The video enhance dialog (canvas spec 9). */
export const VIDEO_ENHANCE = {
  scales: [2, 3, 4],
  fps: [24, 30, 60, 120],
  qualities: ['low', 'medium', 'high'],
  defaultQuality: 'high',
  categories: ['upscaling', 'interpolation', 'enhancement'],
  /** The upscale service every video enhancement is served by (Topaz when TOPAZ_API_KEY is set, else local). */
  service: 'topaz',
  defaultModel: 'proteus',
  defaultOption: 'prob-4',
  /** The asset card's one-click model: upscale towards 4K (UPSCALE_TARGET), at most 4x. */
  fourKModel: 'upscale_4k',
  /** Quality → denoise/sharpen/enhance (0–1): high 0.8/0.7/0.9, otherwise 0.5/0.4/0.6. */
  presets: {
    high: { denoise: 0.8, sharpen: 0.7, enhance: 0.9 },
    other: { denoise: 0.5, sharpen: 0.4, enhance: 0.6 },
  },
  estimatedSeconds: 180,
} as const;

export type VideoEnhanceQuality = (typeof VIDEO_ENHANCE.qualities)[number];

export type VideoEnhanceCategory = (typeof VIDEO_ENHANCE.categories)[number];

/** Per-service defaults of the image enhance dialog (canvas spec 9). */
export const IMAGE_ENHANCE_DEFAULTS: Readonly<Record<EnhancorKind, { mode?: string; enhancementLevel?: number }>> = {
  'realistic-skin': {},
  'portrait-upscaler': { mode: 'fast' },
  'image-upscaler': {},
  detailed: { enhancementLevel: 0.8 },
};
