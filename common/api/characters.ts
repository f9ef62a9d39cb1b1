import { z } from 'zod';
import { generatedMedia } from './generation.ts';

// Characters (canvas spec 2, 3, 5, 7): reusable people kept per user on the server, and
// POST /api/ai/generate, which generates an image or a video with their pictures as references.

export const CHARACTER_MESSAGES = {
  nameRequired: 'Character name is required',
  imageRequired: 'Add at least one image of the character',
  tooManyImages: (max: number) => `A character can have at most ${max} images`,
  imageNotOwn: 'Character images must be images you uploaded',
  requiredFields: 'Please fill in all required fields',
  promptAndCharacter: 'Please enter a prompt and select at least one character',
  generationFailed: 'Character content generation failed',
  notFound: 'Character not found',
} as const;

export const CHARACTER_LIMITS = { maxImages: 8, maxPerGeneration: 4 } as const;
export const CHARACTER_STYLES = ['consistent', 'unique', 'blend'] as const;
export type CharacterStyle = (typeof CHARACTER_STYLES)[number];
export const CHARACTER_ASPECT_RATIOS = ['1:1', '16:9', '4:3', '9:16'] as const;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

/** POST /api/characters and PUT /api/characters/:id. `imageUrl` (the spec client's field) is taken as the first image. */
export const characterBody = z.object({
  name: z.string({ error: CHARACTER_MESSAGES.nameRequired }).trim().min(1, CHARACTER_MESSAGES.nameRequired).max(100),
  description: optionalText(2000),
  style: optionalText(200),
  personality: optionalText(2000),
  backstory: optionalText(4000),
  images: z
    .array(z.string().trim().min(1).max(2000))
    .max(CHARACTER_LIMITS.maxImages, CHARACTER_MESSAGES.tooManyImages(CHARACTER_LIMITS.maxImages))
    .optional(),
  imageUrl: z.string().trim().max(2000).optional(),
});
export type CharacterBody = z.input<typeof characterBody>;

const character = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  style: z.string().nullable(),
  personality: z.string().nullable(),
  backstory: z.string().nullable(),
  images: z.array(z.string()),
  /** The first image (the spec's Character.imageUrl). */
  imageUrl: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Character = z.infer<typeof character>;

export const characterReply = z.object({ success: z.literal(true), data: character });
export const characterListReply = z.object({ success: z.literal(true), data: z.array(character) });
export const characterIdParams = z.object({ id: z.string().trim().min(1).max(64) });

const mediaRef = z.string().trim().min(1).max(15_000_000);

/**
 * POST /api/ai/generate (spec 7): service 'stability', type text-to-image | text-to-video, prompt,
 * characterImages (and/or characterIds of saved characters), aspectRatio, style, numImages; scenario is
 * added to the prompt.
 */
export const characterGenerateBody = z.object({
  service: z.string().trim().max(50).default('stability'),
  type: z
    .enum(['text-to-image', 'text-to-video'], { error: 'Type must be text-to-image or text-to-video' })
    .default('text-to-image'),
  prompt: z.string().trim().max(4000).default(''),
  scenario: z.string().trim().max(4000).optional(),
  characterImages: z.array(mediaRef).max(20).default([]),
  characterIds: z.array(z.string().trim().min(1).max(64)).max(CHARACTER_LIMITS.maxPerGeneration).default([]),
  aspectRatio: z.enum(CHARACTER_ASPECT_RATIOS, { error: 'Aspect ratio must be 1:1, 16:9, 4:3 or 9:16' }).default('1:1'),
  style: z.string().trim().max(40).default('consistent'),
  numImages: z.coerce.number().int().min(1).max(4).default(1),
});
export type CharacterGenerateBody = z.input<typeof characterGenerateBody>;

/**
 * `data.url` is set when the result is finished (images usually are). Otherwise — always for videos —
 * poll `data.statusUrl` (POST with `{ taskId }`) until it reports completed with a url.
 */
export const characterGenerateReply = z.object({
  success: z.literal(true),
  data: z.object({
    url: z.string().nullable(),
    type: z.enum(['image', 'video']),
    status: z.enum(['completed', 'processing']),
    taskId: z.string(),
    statusUrl: z.string(),
    media: z.array(generatedMedia),
  }),
  creditsUsed: z.number().int(),
});
export type CharacterGenerateReply = z.infer<typeof characterGenerateReply>;
