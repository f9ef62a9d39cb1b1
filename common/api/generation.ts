import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import {
  AUDIO_DURATIONS,
  AUDIO_MODEL,
  IMAGE_DEFAULTS,
  MAX_IMAGES_PER_REQUEST,
  VIDEO_DEFAULTS,
} from './generation.constants.ts';
import { TASK_STATUSES } from './tasks.constants.ts';

/**
 * A media input: one of the user's own media URLs (`/api/images/…`, `/api/videos/…`, also absolute on
 * this host), a `data:` URI, or a public http(s) URL (fetched server-side; private addresses refused).
 */
const mediaRef = z.string().trim().min(1).max(15_000_000);
const prompt = z
  .string()
  .trim()
  .min(1, 'Prompt is required')
  .max(4000, MESSAGES.generic.textTooLong('The prompt', 4000));

/** POST /api/ai/generate/image (spec 3, Generation parameters: image; canvas seedream/nanobana fields). */
export const generateImageBody = z.object({
  prompt,
  model: z.string().max(100).default(IMAGE_DEFAULTS.model),
  service: z.string().max(50).optional(),
  size: z
    .string()
    .regex(/^\d{2,5}x\d{2,5}$/, 'Size must look like 1024x1024')
    .default(IMAGE_DEFAULTS.size),
  style: z.string().max(100).optional(),
  variations: z.coerce.number().int().min(1).max(MAX_IMAGES_PER_REQUEST).optional(),
  numberOfImages: z.coerce.number().int().min(1).max(MAX_IMAGES_PER_REQUEST).optional(),
  autoUpscale: z.boolean().optional(),
  aspectRatio: z.string().max(10).optional(),
  sampleImageSize: z.string().max(10).optional(),
  personGeneration: z.string().max(40).optional(),
  negativePrompt: z.string().max(2000).optional(),
  referenceImages: z.array(mediaRef).max(20).optional(),
  characterImages: z.array(mediaRef).max(20).optional(),
  quality: z.string().max(20).optional(),
  watermark: z.boolean().optional(),
  seed: z.number().int().optional(),
  persona_id: z.string().uuid().optional(),
});
export type GenerateImageBody = z.input<typeof generateImageBody>;

/** POST /api/ai/generate/video (spec 3 video parameters + spec 7 extras + canvas fields). */
export const generateVideoBody = z.object({
  prompt,
  model: z.string().max(100).default(VIDEO_DEFAULTS.model),
  service: z.string().max(50).optional(),
  duration: z.coerce.number().int().min(1).max(60).default(VIDEO_DEFAULTS.duration),
  quality: z.string().max(20).optional(),
  style: z.string().max(100).optional(),
  creativity: z.number().min(0).max(1).default(VIDEO_DEFAULTS.creativity),
  characterImages: z.array(mediaRef).max(20).optional(),
  referenceImages: z.array(mediaRef).max(20).optional(),
  aspectRatio: z.string().max(10).default(VIDEO_DEFAULTS.aspectRatio),
  negativePrompt: z.string().max(2000).optional(),
  personGeneration: z.string().max(40).default(VIDEO_DEFAULTS.personGeneration),
  generateAudio: z.boolean().optional(),
  /** MagicModify / ActStudio driving video. */
  videoUri: mediaRef.optional(),
  /** First frame (image-to-video; FilmmakerPro first frame). */
  inputImage: mediaRef.optional(),
  /** FilmmakerPro last frame. */
  lastFrameImage: mediaRef.optional(),
  resolution: z.string().max(10).optional(),
  /** Up to 120 (the Film Production Studio's top rate); engines render at most their own top rate. */
  fps: z.coerce.number().int().min(8).max(120).optional(),
  enhancePrompt: z.boolean().optional(),
  original_prompt: z.string().max(4000).optional(),
  scene_spec: z.unknown().optional(),
  creative_brief: z.unknown().optional(),
  styleStrength: z.number().min(0).max(1).optional(),
  frameConsistency: z.number().min(0).max(1).optional(),
  motionIntensity: z.number().min(0).max(1).optional(),
  compressionQuality: z.string().max(20).optional(),
  character_images: z.array(mediaRef).max(20).optional(),
  product_images: z.array(mediaRef).max(20).optional(),
  include_audio: z.boolean().optional(),
  audio_description: z.string().max(1000).optional(),
  itemId: z.string().max(100).optional(),
  persona_id: z.string().uuid().optional(),
});
export type GenerateVideoBody = z.input<typeof generateVideoBody>;

/** POST /api/ai/generate/audio (model fixed as suno-v3.5). */
export const generateAudioBody = z.object({
  prompt,
  type: z.enum(['music', 'voice']).default('music'),
  duration: z.coerce
    .number()
    .int()
    .refine((d) => (AUDIO_DURATIONS as readonly number[]).includes(d), 'Duration must be 15, 30, 60 or 120 seconds')
    .default(30),
  genre: z.string().max(40).optional(),
  mood: z.string().max(40).optional(),
  instruments: z.union([z.array(z.string().max(40)).max(10), z.string().max(400)]).optional(),
  voice: z.string().max(40).optional(),
  model: z.literal(AUDIO_MODEL).default(AUDIO_MODEL),
});
export type GenerateAudioBody = z.input<typeof generateAudioBody>;

/** A finished piece of media, saved as an asset in the user's library. */
export const generatedMedia = z.object({
  id: z.string(),
  url: z.string(),
  thumbnail_url: z.string().nullable(),
  type: z.enum(['image', 'video', 'audio']),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  duration: z.number().nullable(),
  metadata: z.record(z.string(), z.unknown()),
});
export type GeneratedMedia = z.infer<typeof generatedMedia>;

/** Work still running: poll one of the status calls with this task id. */
const taskAccepted = z.object({
  taskId: z.string(),
  id: z.string(),
  status: z.literal('processing'),
  progress: z.number(),
  estimatedSecondsLeft: z.number().nullable(),
  creditsReserved: z.number().int(),
  statusUrl: z.string(),
  /** The engine that will make it ('local' for the local previews, else the vendor), named from the first reply. */
  engine: z.string(),
});
export type TaskAccepted = z.infer<typeof taskAccepted>;

/** Image reply: the finished images (canvas reads `data` as an array of items with url), or a task. */
export const generateImageReply = z.object({
  success: z.literal(true),
  data: z.union([z.array(generatedMedia), taskAccepted]),
  creditsUsed: z.number().int(),
});
export const generateVideoReply = z.object({ success: z.literal(true), data: taskAccepted });
export const generateAudioReply = z.object({
  success: z.literal(true),
  data: z.union([generatedMedia, taskAccepted]),
  creditsUsed: z.number().int(),
});

/** Body of every POST status call. */
export const taskIdBody = z.object({ taskId: z.string().min(1).max(64) });

/** processing | completed | failed, as the studio's clients read it. */
const generationStatus = z.object({
  taskId: z.string(),
  status: z.enum(['processing', 'completed', 'failed']),
  /** 0–100, reported by the worker. */
  progress: z.number(),
  estimatedSecondsLeft: z.number().nullable(),
  url: z.string().nullable(),
  thumbnail_url: z.string().nullable(),
  assetId: z.string().nullable(),
  /** Which engine made the output (its metadata.engine): 'local' for the local previews, else the vendor. */
  engine: z.string().nullable(),
  error: z.string().nullable(),
  errorCode: z.string().nullable(),
  /** The raw task state, for tools. */
  taskStatus: z.enum(TASK_STATUSES),
});
export type GenerationStatus = z.infer<typeof generationStatus>;
export const generationStatusReply = z.object({ success: z.literal(true), data: generationStatus });
/** POST /api/ai/status also answers with top-level `status`, `url`, `videoUrl`, `error` (canvas reads those). */
export const aiStatusReply = generationStatusReply.extend({
  status: generationStatus.shape.status,
  url: z.string().nullable(),
  videoUrl: z.string().nullable(),
  error: z.string().nullable(),
});

/** GET /api/proxy/runway/tasks/{taskId}: Runway's vocabulary. */
export const runwayTaskReply = z.object({
  id: z.string(),
  status: z.enum(['PENDING', 'IN_PROGRESS', 'SUCCEEDED', 'FAILED']),
  progress: z.number(),
  output: z.array(z.string()),
  failure: z.string().nullable(),
  failureCode: z.string().nullable(),
  createdAt: z.string(),
});

/** POST /api/ai/image-agent (a text agent: TEXT_AGENTS limits and price). */
export const imageAgentBody = z.object({
  prompt,
  style: z.string().max(100, MESSAGES.generic.textTooLong('The style', 100)).optional(),
  context: z.string().max(2000, MESSAGES.generic.textTooLong('The context', 2000)).optional(),
});
export const imageAgentReply = z.object({
  success: z.literal(true),
  enhancedPrompt: z.string(),
  analysis: z.object({
    subject: z.string(),
    style: z.string().nullable(),
    mood: z.string().nullable(),
    wordCount: z.number().int(),
    additions: z.array(z.string()),
    engine: z.string(),
  }),
});
