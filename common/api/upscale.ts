import { z } from 'zod';
import { VIDEO_ENHANCE } from './uploads.constants.ts';

const videoModelOption = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
});

/** One entry of the video model catalogue (canvas spec 3: name, description, category, options, recommended). */
const videoModel = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.enum(VIDEO_ENHANCE.categories),
  options: z.array(videoModelOption),
  recommended: z.boolean(),
});
export type VideoModel = z.infer<typeof videoModel>;

/** GET /api/topaz/models */
export const topazModelsReply = z.object({ success: z.literal(true), models: z.array(videoModel) });
export type TopazModelsReply = z.infer<typeof topazModelsReply>;

const scale = z.union([z.literal(2), z.literal(3), z.literal(4)]);
const fps = z.union([z.literal(24), z.literal(30), z.literal(60), z.literal(120)]);

/**
 * POST /api/topaz/enhance. `model` is 'upscale_4k' (the asset card: towards 3840x2160, at most 4x)
 * or a catalogue id with `options.option` one of its options (default proteus / prob-4). With
 * `original_asset_id` the finished video replaces that asset's file; `videoUrl` may then be left
 * out (the asset's own file is used).
 */
export const topazEnhanceBody = z
  .object({
    /** A media URL of the studio, a public http(s) URL or a data: URI (bounded by the route's body limit). */
    videoUrl: z.string().min(1).optional(),
    model: z.string().min(1).max(64).default(VIDEO_ENHANCE.fourKModel),
    options: z
      .object({
        original_asset_id: z.uuid().optional(),
        scale: scale.optional(),
        fps: fps.optional(),
        quality: z.enum(VIDEO_ENHANCE.qualities).optional(),
        category: z.enum(VIDEO_ENHANCE.categories).optional(),
        option: z.string().min(1).max(64).optional(),
      })
      .default({}),
  })
  .refine((body) => body.videoUrl !== undefined || body.options.original_asset_id !== undefined, {
    message: 'videoUrl or options.original_asset_id is required',
    path: ['videoUrl'],
  });
export type TopazEnhanceBody = z.input<typeof topazEnhanceBody>;

/** POST /api/proxy/enhancor/{kind}/queue, kind one of ENHANCOR_KINDS (another kind answers 404). */
export const enhancorParams = z.object({ kind: z.string().max(64) });
export const enhancorQueueBody = z.object({
  /** A media URL of the studio (persona paths too), a public http(s) URL or a data: URI. */
  img_url: z.string().min(1),
  original_asset_id: z.uuid().optional(),
  /** portrait-upscaler: 'fast' by default. */
  mode: z.string().min(1).max(32).optional(),
  /** detailed: 0.8 by default. 0–1. */
  enhancementLevel: z.number().min(0).max(1).optional(),
});
export type EnhancorQueueBody = z.input<typeof enhancorQueueBody>;

/**
 * Both enhance calls: `requestId` is the task id (GET /api/tasks/{requestId}). With an original
 * asset, poll GET /api/ai/assets/{id} until `metadata.replaced_by_enhancement` is true.
 */
export const enhanceQueuedReply = z.object({
  success: z.literal(true),
  requestId: z.string(),
  status: z.literal('queued'),
  credits_reserved: z.number().int(),
  estimated_seconds: z.number().int(),
});
export type EnhanceQueuedReply = z.infer<typeof enhanceQueuedReply>;
