import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { CANVAS_IMAGES } from './canvas-images.constants.ts';
import { generatedMedia } from './generation.ts';

// The canvas image calls (canvas spec 7; accounts spec 7): NanoBana edit, compositions, text to
// image, and the region-masked multi-composition. Images arrive as bare base64 (with a claimed MIME
// type, never trusted: the bytes are sniffed), a data URI, one of the user's media URLs or a public URL.

/** Longest accepted image string: the base64 of CANVAS_IMAGES.inputMaxMb plus a data URI header. */
export const CANVAS_IMAGE_MAX_CHARS = Math.ceil((CANVAS_IMAGES.inputMaxMb * 1024 * 1024 * 4) / 3) + 1024;

const prompt = z.string().trim().min(1, 'Prompt is required').max(4000);
const imageData = z
  .string()
  .trim()
  .min(1, MESSAGES.canvasImages.imageRequired)
  .max(CANVAS_IMAGE_MAX_CHARS, MESSAGES.upload.tooLarge(CANVAS_IMAGES.inputMaxMb));
const imageMimeType = z
  .string()
  .trim()
  .regex(/^image\/[a-z0-9.+-]+$/i, MESSAGES.canvasImages.notAnImage);
const fileNamePrefix = z.string().trim().max(100).optional();
const quality = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['1k', '2k', '4k'], { error: MESSAGES.canvasImages.quality }))
  .default(CANVAS_IMAGES.quality);
const aspectRatio = z
  .string()
  .trim()
  .max(10, 'Aspect ratio must look like 16:9')
  .regex(/^\d+(\.\d+)?:\d+(\.\d+)?$/, 'Aspect ratio must look like 16:9');
const personaId = z.uuid().optional();
const imageList = z
  .array(imageData)
  .min(1, MESSAGES.canvasImages.imagesRequired)
  .max(CANVAS_IMAGES.maxComposeImages, MESSAGES.canvasImages.tooManyImages(CANVAS_IMAGES.maxComposeImages));

/** POST /api/nanobana/edit-image */
export const editImageBody = z.object({
  prompt,
  imageBuffer: imageData,
  imageMimeType: imageMimeType.optional(),
  fileNamePrefix,
  quality,
  personaId,
});

/** POST /api/nanobana/multi-image-composition */
export const multiImageCompositionBody = z.object({
  prompt,
  imageBuffers: imageList,
  imageMimeType: imageMimeType.optional(),
  fileNamePrefix,
  aspectRatio: aspectRatio.optional(),
  personaId,
});

/** POST /api/nanobana/advanced-composition */
export const advancedCompositionBody = z.object({
  prompt,
  imageBuffers: imageList,
  mimeTypes: z.array(imageMimeType).max(CANVAS_IMAGES.maxComposeImages).optional(),
  fileNamePrefix,
  aspectRatio: aspectRatio.default(CANVAS_IMAGES.aspectRatio),
  personaId,
});

/** POST /api/nanobana/generate-text-to-image */
export const textToImageBody = z.object({
  prompt,
  fileNamePrefix,
  quality,
  aspectRatio: aspectRatio.default(CANVAS_IMAGES.aspectRatio),
  personaId,
});

/** The image a NanoBana call made (url null while a slow task is still running: poll taskId). */
const nanobanaImage = z.object({
  status: z.enum(['completed', 'processing']),
  taskId: z.string(),
  url: z.string().nullable(),
  id: z.string().nullable(),
  thumbnail_url: z.string().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  fileName: z.string().nullable(),
  mimeType: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
});

export const nanobanaReply = z.object({
  success: z.literal(true),
  data: nanobanaImage,
  creditsUsed: z.number(),
});

export const textToImageReply = z.object({
  success: z.literal(true),
  data: nanobanaImage.extend({ base64: z.string().nullable() }),
  creditsUsed: z.number(),
});

const regionMask = z.object({
  x: z.number().min(0),
  y: z.number().min(0),
  width: z.number().positive(),
  height: z.number().positive(),
});

const compositionStep = z.object({
  id: z.string().trim().min(1).max(100),
  prompt,
  regionMask,
  referenceImage: imageData.nullish(),
  referenceImageName: z.string().max(255).nullish(),
});

/** POST /api/ai/generate/multi-composition */
export const multiCompositionBody = z
  .object({
    baseImage: imageData,
    compositionSteps: z
      .array(compositionStep)
      .min(1, MESSAGES.canvasImages.stepsRequired)
      .max(CANVAS_IMAGES.maxSteps, MESSAGES.canvasImages.tooManySteps(CANVAS_IMAGES.maxSteps)),
    mode: z.literal('reference-chain').default('reference-chain'),
    maxSteps: z.number().int().min(1).max(CANVAS_IMAGES.maxSteps).default(CANVAS_IMAGES.maxSteps),
    consistencyStrength: z.number().min(0).max(1).default(CANVAS_IMAGES.consistencyStrength),
    preserveOriginal: z.boolean().default(true),
    personaId,
  })
  .superRefine((body, issue) => {
    if (body.compositionSteps.length > body.maxSteps) {
      issue.addIssue({
        code: 'custom',
        path: ['compositionSteps'],
        message: MESSAGES.canvasImages.tooManySteps(body.maxSteps),
      });
    }
    const seen = new Set<string>();
    body.compositionSteps.forEach((step, index) => {
      if (seen.has(step.id)) {
        issue.addIssue({
          code: 'custom',
          path: ['compositionSteps', index, 'id'],
          message: MESSAGES.canvasImages.duplicateStep(step.id),
        });
      }
      seen.add(step.id);
    });
  });

export const multiCompositionReply = z.object({
  success: z.literal(true),
  data: z.object({
    id: z.string(),
    status: z.enum(['completed', 'processing']),
    steps: z.array(
      z.object({
        id: z.string(),
        outputImage: z.string(),
        assetId: z.string(),
        thumbnail_url: z.string().nullable(),
      }),
    ),
    finalImage: z.string().nullable(),
    assets: z.array(generatedMedia),
    metadata: z.record(z.string(), z.unknown()),
  }),
  creditsUsed: z.number(),
});
