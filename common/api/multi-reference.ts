import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { generatedMedia } from './generation.ts';
import { MULTI_REFERENCE } from './multi-reference.constants.ts';

// POST /api/ai/generate/multi-reference (canvas spec 7): a weighted blend of up to 8 reference
// images guided by a prompt. The panel calls it once per variation; weights and strength are 0–1.
// With `type: 'video-to-video'` the references may be videos (mp4, mov, webm, avi) and images up to
// 100 MB; the first video is restyled by the image references and the result is a video.

/** Longest accepted reference string: the base64 of an image of MULTI_REFERENCE.imageMaxMb plus a header. */
export const MULTI_REFERENCE_MAX_CHARS = Math.ceil((MULTI_REFERENCE.imageMaxMb * 1024 * 1024 * 4) / 3) + 1024;

const M = MESSAGES.multiReference;

const referenceImage = z.object({
  // No tighter cap here: the route's body limit bounds the request, and the service answers a
  // too-large reference with the spec's size message (413: images 10 MB, 100 MB in video-to-video).
  url: z
    .string()
    .trim()
    .min(1, M.promptAndReference)
    .max(MULTI_REFERENCE.maxFiles * MULTI_REFERENCE_MAX_CHARS),
  /** image (default) or video; videos only in video-to-video mode. */
  mediaType: z.enum(['image', 'video']).optional(),
  weight: z
    .number({ error: M.weightRange })
    .min(MULTI_REFERENCE.weight.min / 100, M.weightRange)
    .max(MULTI_REFERENCE.weight.max / 100, M.weightRange)
    .default(MULTI_REFERENCE.weight.default / 100),
  type: z.enum(MULTI_REFERENCE.referenceTypes).default('style'),
  description: z.string().trim().max(1000).optional(),
});

export const multiReferenceBody = z.object({
  service: z.string().trim().max(50).optional(),
  /** 'video-to-video' switches to the video mode; anything else (e.g. image-to-image) is the image mode. */
  type: z.string().trim().max(50).optional(),
  prompt: z.string().trim().min(1, M.promptAndReference).max(4000),
  negativePrompt: z.string().trim().max(2000).optional(),
  referenceImages: z
    .array(referenceImage)
    .min(1, M.promptAndReference)
    .max(MULTI_REFERENCE.maxFiles, M.tooManyFiles(MULTI_REFERENCE.maxFiles)),
  blendMode: z.enum(MULTI_REFERENCE.blendModes).default(MULTI_REFERENCE.defaults.blendMode),
  strength: z
    .number({ error: M.strengthRange })
    .min(MULTI_REFERENCE.strength.min / 100, M.strengthRange)
    .max(MULTI_REFERENCE.strength.max / 100, M.strengthRange)
    .default(MULTI_REFERENCE.strength.default / 100),
  numImages: z.number().int().min(MULTI_REFERENCE.variations.min).max(MULTI_REFERENCE.variations.max).default(1),
  aspectRatio: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?:\d+(\.\d+)?$/, 'Aspect ratio must look like 16:9')
    .default(MULTI_REFERENCE.defaults.aspectRatio),
  quality: z.enum(MULTI_REFERENCE.qualities).default(MULTI_REFERENCE.defaults.quality),
  compositionMode: z.enum(MULTI_REFERENCE.compositionModes).default(MULTI_REFERENCE.defaults.compositionMode),
  preserveDetails: z.boolean().default(MULTI_REFERENCE.defaults.preserveDetails),
  multiReference: z.boolean().optional(),
  seed: z.number().int().min(0).max(2_147_483_647).optional(),
  personaId: z.uuid().optional(),
});
export type MultiReferenceBody = z.input<typeof multiReferenceBody>;

export const multiReferenceReply = z.object({
  success: z.literal(true),
  data: z.object({
    status: z.enum(['completed', 'processing']),
    taskId: z.string(),
    url: z.string().nullable(),
    id: z.string().nullable(),
    thumbnail_url: z.string().nullable(),
    width: z.number().nullable(),
    height: z.number().nullable(),
    images: z.array(generatedMedia),
    metadata: z.record(z.string(), z.unknown()),
  }),
  creditsUsed: z.number(),
});
export type MultiReferenceReply = z.infer<typeof multiReferenceReply>;
