import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import {
  DEFAULT_LANGUAGE,
  DEFAULT_LICENSE_TYPE,
  DEFAULT_PERSONALITY,
  LANGUAGES,
  LICENSE_TYPES,
  MAX_LICENSE_PRICE_EUROS,
  NATIONALITIES,
  PERSONA_IMAGE_STATES,
  PERSONA_IMAGE_TYPES,
  PERSONA_LIMITS,
  PERSONA_STATUSES,
  PERSONA_VIDEO,
  PERSONALITY_OPTIONS,
} from '../rules/personas.ts';
import { generatedMedia } from './generation.ts';
import { euroAmount } from './money.ts';

// AI personas (accounts spec 3 Persona, 7 Personas and workspace, 9). Field names are the spec's;
// where the spec's clients spell a field two ways (target_audience / targetAudience, custom_images /
// characterImages) both are accepted and both are answered.

const M = MESSAGES.personas;

/** One of the user's own stored media URLs (`/api/images/…`, `/api/personas/image/…`, absolute on this host). */
const storedMediaUrl = z.string().trim().min(1).max(2000);
/** A media input for generation: own media URL, `data:` URI or public http(s) URL (as the generation routes). */
const mediaRef = z.string().trim().min(1).max(15_000_000);

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

const requiredText = (max: number) => z.string({ error: M.requiredFields }).trim().min(1, M.requiredFields).max(max);

const personaImageType = z.enum(PERSONA_IMAGE_TYPES, { error: M.imageTypeUnknown });

const characterImages = z
  .array(storedMediaUrl)
  .max(PERSONA_LIMITS.maxCharacterImages, M.tooManyCharacterImages(PERSONA_LIMITS.maxCharacterImages));

/**
 * POST /api/personas. `name` and `description` are required ('Please fill in the required fields:
 * Name and Description'). Character images (`custom_images` or `characterImages`, merged, at most 4)
 * must be images the user uploaded here. Tags are trimmed and de-duplicated case-insensitively.
 * `isPublic: true` is refused (403) unless the user is the designated admin account.
 */
export const createPersonaBody = z.object({
  name: requiredText(PERSONA_LIMITS.nameMax),
  description: requiredText(PERSONA_LIMITS.descriptionMax),
  personality: z.enum(PERSONALITY_OPTIONS, { error: M.personalityUnknown }).default(DEFAULT_PERSONALITY),
  target_audience: optionalText(PERSONA_LIMITS.targetAudienceMax),
  targetAudience: optionalText(PERSONA_LIMITS.targetAudienceMax),
  nationality: z
    .enum(NATIONALITIES, { error: M.nationalityUnknown })
    .nullish()
    .transform((v) => v ?? null),
  language: z.enum(LANGUAGES, { error: M.languageUnknown }).default(DEFAULT_LANGUAGE),
  custom_images: characterImages.optional(),
  characterImages: characterImages.optional(),
  based_on: optionalText(PERSONA_LIMITS.basedOnMax),
  avatar_url: storedMediaUrl.nullish(),
  tags: z
    .array(z.string().max(PERSONA_LIMITS.tagMax, M.tagTooLong(PERSONA_LIMITS.tagMax)))
    .max(PERSONA_LIMITS.maxTags * 2, M.tooManyTags(PERSONA_LIMITS.maxTags))
    .default([]),
  isPublic: z.boolean().default(false),
  license_type: z.enum(LICENSE_TYPES, { error: M.licenseTypeUnknown }).default(DEFAULT_LICENSE_TYPE),
  /** Euros, at most 2 decimals; a free license is stored with price 0. */
  license_price: euroAmount(
    {
      invalid: M.licensePriceInvalid,
      min: M.licensePriceInvalid,
      max: M.licensePriceInvalid,
      decimals: M.licensePriceInvalid,
    },
    { minCents: 0, maxCents: MAX_LICENSE_PRICE_EUROS * 100 },
    { coerce: true },
  ).default(0),
});
export type CreatePersonaBody = z.input<typeof createPersonaBody>;

/** GET /api/personas: own personas and public ones; `search` matches name, description and tags. */
export const listPersonasQuery = z.object({
  search: z.string().trim().max(200).optional(),
  /** Only personas in this state (the directory asks for ready ones). */
  status: z.enum(PERSONA_STATUSES).optional(),
});

export const personaIdParams = z.object({ id: z.string().trim().min(1).max(64) });

/** One of the five images. `status: placeholder` is the explicit marker of an image that failed (no file). */
const personaImage = z.object({
  type: personaImageType,
  status: z.enum(PERSONA_IMAGE_STATES),
  url: z.string().nullable(),
  thumbnail_url: z.string().nullable(),
  asset_id: z.string().nullable(),
  error: z.string().nullable(),
});
export type PersonaImage = z.infer<typeof personaImage>;

/** Spec 3: ai_generated_images, keys portrait, full_body, face_only, action_shot, environment; null = placeholder or pending. */
const aiGeneratedImages = z.object({
  portrait: z.string().nullable(),
  full_body: z.string().nullable(),
  face_only: z.string().nullable(),
  action_shot: z.string().nullable(),
  environment: z.string().nullable(),
});
export type AiGeneratedImages = z.infer<typeof aiGeneratedImages>;

/** Spec 3: the Persona entity. */
const persona = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  personality: z.string(),
  target_audience: z.string().nullable(),
  targetAudience: z.string().nullable(),
  nationality: z.string().nullable(),
  language: z.string(),
  characterImages: z.array(z.string()),
  custom_images: z.array(z.string()),
  based_on: z.string().nullable(),
  avatar_url: z.string().nullable(),
  /** avatar_url, else the face_only image, else the portrait; null while none exists. */
  avatar: z.string().nullable(),
  tags: z.array(z.string()),
  isPublic: z.boolean(),
  /** Whether the signed-in user owns it (public personas of others can be used, not changed). */
  isOwner: z.boolean(),
  ai_generated_images: aiGeneratedImages,
  /** The five images in generation order, each with its state. */
  images: z.array(personaImage),
  license_type: z.enum(LICENSE_TYPES),
  /** Euros. */
  license_price: z.number(),
  /** Campaigns used: how many campaign workspace entries hold this persona. */
  usage_count: z.number().int(),
  /**
   * Views of the published posts carrying media made with the persona, as their networks report them; null
   * while no such post reports views.
   */
  totalReach: z.number().int().nullable(),
  /** Likes, comments and shares of those posts; null while none reports any. */
  total_engagement: z.number().int().nullable(),
  status: z.enum(PERSONA_STATUSES),
  /** 0–100: 20 per image of the five. */
  generation_progress: z.number().int(),
  /** The creation or regeneration task (poll GET /api/tasks/{id}); null when none ran. */
  generation_task_id: z.string().nullable(),
  /** Why image generation stopped ('Failed to generate base face_only image.', …); null otherwise. */
  generation_error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Persona = z.infer<typeof persona>;

export const personaReply = z.object({ success: z.literal(true), data: persona });
export const personaListReply = z.object({
  success: z.literal(true),
  data: z.array(persona),
  /** Whether this user is the designated account that may create public personas. */
  permissions: z.object({ canCreatePublic: z.boolean() }),
});

/**
 * POST /api/personas and POST /api/personas/{id}/regenerate: the persona (status generating) and the
 * image task that is making its images. Poll GET /api/personas/{id} (or `statusUrl`) until status is
 * ready or failed.
 */
export const personaTaskReply = z.object({
  success: z.literal(true),
  data: persona,
  taskId: z.string(),
  statusUrl: z.string(),
  creditsReserved: z.number().int(),
});
export type PersonaTaskReply = z.infer<typeof personaTaskReply>;

/** POST /api/personas/{id}/update-images: each value one of the user's own stored images. */
export const updatePersonaImagesBody = z.object({
  ai_generated_images: z
    .object({
      portrait: storedMediaUrl.optional(),
      full_body: storedMediaUrl.optional(),
      face_only: storedMediaUrl.optional(),
      action_shot: storedMediaUrl.optional(),
      environment: storedMediaUrl.optional(),
    })
    .strict(),
});

/** POST /api/personas/{id}/regenerate: one image type, or all five when omitted. */
export const regeneratePersonaBody = z
  .object({ imageType: personaImageType.optional() })
  .optional()
  .transform((v) => v ?? {});

const productImages = z
  .array(mediaRef)
  .max(PERSONA_LIMITS.maxProductImages, M.tooManyProductImages(PERSONA_LIMITS.maxProductImages));

const videoDuration = z.coerce
  .number({ error: M.durationInvalid })
  .refine((d) => (PERSONA_VIDEO.durations as readonly number[]).includes(d), M.durationInvalid);
const videoAspectRatio = z.enum(PERSONA_VIDEO.aspectRatios, { error: M.aspectRatioInvalid });
const productPrompt = z
  .string()
  .trim()
  .max(PERSONA_LIMITS.productPromptMax, M.productPromptTooLong(PERSONA_LIMITS.productPromptMax));

/**
 * POST /api/personas/{id}/video (spec 5, 9): prompt (required, ≤ 500), imageType (which persona image
 * starts the video), duration 5 | 8 (default 8), aspectRatio 16:9 | 9:16 (default 16:9), up to 2
 * product images with a product prompt (≤ 300; `productPrompt` or `product_prompt`). Model
 * veo-3.0-generate-001, 1080p, creativity 0.6, style strength 0.85, motion 0.5, audio on, 21 credits.
 */
export const personaVideoBody = z.object({
  prompt: z
    .string({ error: M.videoPromptRequired })
    .trim()
    .min(1, M.videoPromptRequired)
    .max(PERSONA_LIMITS.videoPromptMax, M.videoPromptTooLong(PERSONA_LIMITS.videoPromptMax)),
  imageType: personaImageType.nullish().refine((v) => v != null, M.imageTypeRequired),
  duration: videoDuration.default(PERSONA_VIDEO.defaultDuration),
  aspectRatio: videoAspectRatio.default(PERSONA_VIDEO.defaultAspectRatio),
  product_images: productImages.optional(),
  productImages: productImages.optional(),
  productPrompt: productPrompt.optional(),
  product_prompt: productPrompt.optional(),
});
export type PersonaVideoBody = z.input<typeof personaVideoBody>;

/** A started persona video: poll `statusUrl` (POST { taskId }) or GET /api/tasks/{taskId}. */
const personaVideoStarted = z.object({
  taskId: z.string(),
  id: z.string(),
  status: z.literal('processing'),
  progress: z.number(),
  estimatedSecondsLeft: z.number().nullable(),
  creditsReserved: z.number().int(),
  statusUrl: z.string(),
  personaId: z.string(),
  imageType: personaImageType,
  model: z.string(),
  duration: z.number().int(),
  aspectRatio: z.string(),
  resolution: z.string(),
});
export type PersonaVideoStarted = z.infer<typeof personaVideoStarted>;
export const personaVideoReply = z.object({
  success: z.literal(true),
  data: personaVideoStarted,
  creditsUsed: z.number().int(),
});

/**
 * POST /api/personas/{id}/image: a new image of the persona from a prompt, conditioned on its
 * face_only image (and up to 2 product images). Empty prompt: 'Please select a persona and enter an
 * image prompt'.
 */
export const personaImageBody = z.object({
  prompt: z
    .string({ error: M.selectPersonaImage })
    .trim()
    .min(1, M.selectPersonaImage)
    .max(PERSONA_LIMITS.imagePromptMax),
  productImages: productImages.optional(),
  product_images: productImages.optional(),
  aspectRatio: z.enum(['1:1', '16:9', '9:16', '4:3', '3:4']).optional(),
});
export type PersonaImageBody = z.input<typeof personaImageBody>;

/** The image (usually finished within the wait) or the task to poll. */
export const personaImageReply = z.object({
  success: z.literal(true),
  data: z.object({
    status: z.enum(['completed', 'processing']),
    taskId: z.string(),
    statusUrl: z.string(),
    media: z.array(generatedMedia),
    url: z.string().nullable(),
  }),
  creditsUsed: z.number().int(),
});
export type PersonaImageReply = z.infer<typeof personaImageReply>;

/**
 * POST /api/personas/{id}/ugc-video: the persona presents a product. `script` is the spoken line (audio
 * on), 1–2 product images, vertical (9:16) by default. Same pipeline and price as the persona video.
 */
export const personaUgcVideoBody = z.object({
  script: z
    .string({ error: M.ugcScriptRequired })
    .trim()
    .min(1, M.ugcScriptRequired)
    .max(PERSONA_LIMITS.ugcScriptMax, M.ugcScriptTooLong(PERSONA_LIMITS.ugcScriptMax)),
  product_images: z
    .array(mediaRef, { error: M.productImageRequired })
    .min(1, M.productImageRequired)
    .max(PERSONA_LIMITS.maxProductImages, M.tooManyProductImages(PERSONA_LIMITS.maxProductImages)),
  /** Optional scene direction (what the persona does while speaking). */
  prompt: productPrompt.optional(),
  imageType: personaImageType.default('portrait'),
  aspectRatio: videoAspectRatio.default(PERSONA_VIDEO.ugcAspectRatio),
  duration: videoDuration.default(PERSONA_VIDEO.defaultDuration),
});
export type PersonaUgcVideoBody = z.input<typeof personaUgcVideoBody>;
