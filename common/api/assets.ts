import { z } from 'zod';
import { ASSETS_PAGE_SIZE } from './generation.constants.ts';

export const ASSET_TYPES = ['image', 'video', 'audio', 'persona', 'enhancement', 'video_enhancement'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

/** Orders of the library list: newest first (the spec's), oldest first, or by prompt A to Z. */
export const ASSET_SORTS = ['newest', 'oldest', 'prompt'] as const;
export type AssetSort = (typeof ASSET_SORTS)[number];
const ASSETS_SEARCH_MAX = 200;

/** The spec's Asset entity. */
const assetSchema = z.object({
  id: z.string(),
  type: z.enum(ASSET_TYPES),
  url: z.string(),
  prompt: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  status: z.enum(['processing', 'completed', 'failed']),
  service: z.string().nullable(),
  model: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  thumbnail_url: z.string().nullable(),
  credits_used: z.number().int(),
  persona_id: z.string().nullable(),
});
export type Asset = z.infer<typeof assetSchema>;

/** GET /api/ai/assets */
export const listAssetsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(ASSETS_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).default(0),
  type: z
    .string()
    .max(200)
    .optional()
    .describe('one type or a comma- or pipe-separated list, e.g. enhancement|video|video_enhancement'),
  persona_id: z.string().uuid().optional(),
  q: z
    .string()
    .trim()
    .max(ASSETS_SEARCH_MAX, `Search at most ${ASSETS_SEARCH_MAX} characters`)
    .optional()
    .describe('words the prompt contains (each of them, any case)'),
  sort: z.enum(ASSET_SORTS).default('newest').describe('newest or oldest first, or by prompt A to Z'),
});
const pagination = z.object({
  offset: z.number().int(),
  limit: z.number().int(),
  hasMore: z.boolean(),
  total: z.number().int(),
});
export const listAssetsReply = z.object({
  success: z.literal(true),
  /** The spec's canvas reads `data` or `assets`; `data` alone keeps the page half the size. */
  data: z.array(assetSchema),
  pagination,
});
export type ListAssetsReply = z.infer<typeof listAssetsReply>;

export const assetIdParams = z.object({ id: z.string().uuid() });
export const assetReply = z.object({ success: z.literal(true), data: assetSchema });

/** POST /api/ai/assets: registers media already in the user's storage as an asset. */
export const createAssetBody = z.object({
  id: z.string().uuid().optional(),
  type: z.enum(ASSET_TYPES),
  url: z.string().min(1).max(2000),
  prompt: z.string().max(4000).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  status: z.enum(['processing', 'completed']).optional(),
  credits_used: z.number().int().min(0).optional(),
  service: z.string().max(100).optional(),
  model: z.string().max(100).optional(),
  persona_id: z.string().uuid().optional(),
});
export type CreateAssetBody = z.input<typeof createAssetBody>;
