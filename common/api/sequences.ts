import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { SEQUENCE_LIMITS, SEQUENCE_MESSAGES, SEQUENCE_VIDEO_MODES } from '../rules/sequences.ts';
import { TEXT_AGENTS } from './generation.constants.ts';

// Cinema sequences (canvas spec 7): one video per sequence item, the movie agent, the master video.

const mediaRef = z.string().trim().min(1).max(15_000_000);
const itemId = z.string().trim().min(1).max(100, MESSAGES.generic.textTooLong('An item id', 100));

/** POST /api/ai/generate-video-sequence: pro (veo-3.0-generate-001, with audio) or dream (seedance, 12 s). */
export const generateVideoSequenceBody = z.object({
  prompt: z.string().trim().min(1, 'Prompt is required').max(SEQUENCE_LIMITS.videoPromptMaxChars),
  imageUrl: mediaRef,
  itemId: itemId.optional(),
  model: z
    .enum([SEQUENCE_VIDEO_MODES.pro.model, SEQUENCE_VIDEO_MODES.dream.model], {
      error: `Model must be ${SEQUENCE_VIDEO_MODES.pro.model} or ${SEQUENCE_VIDEO_MODES.dream.model}`,
    })
    .default(SEQUENCE_VIDEO_MODES.pro.model),
  aspectRatio: z.string().trim().max(10).default('16:9'),
});
export type GenerateVideoSequenceBody = z.input<typeof generateVideoSequenceBody>;

export const generateVideoSequenceReply = z.object({
  success: z.literal(true),
  /** Set when the video is already finished; otherwise poll `data.taskId` with POST /api/ai/status. */
  videoUrl: z.string().nullable(),
  data: z.object({
    taskId: z.string(),
    id: z.string(),
    status: z.enum(['processing', 'completed']),
    progress: z.number(),
    estimatedSecondsLeft: z.number().nullable(),
    creditsReserved: z.number().int(),
    statusUrl: z.string(),
    itemId: z.string().nullable(),
    mode: z.enum(['pro', 'dream']),
    model: z.string(),
    durationSeconds: z.number().int(),
  }),
});
export type GenerateVideoSequenceReply = z.infer<typeof generateVideoSequenceReply>;

const A = TEXT_AGENTS;

/** POST /api/ai/movie-agent (a text agent: TEXT_AGENTS limits and price). */
export const movieAgentBody = z.object({
  movieScript: z
    .string({ error: SEQUENCE_MESSAGES.movieScriptRequired })
    .trim()
    .min(1, SEQUENCE_MESSAGES.movieScriptRequired)
    .max(A.movieScriptMaxChars, MESSAGES.generic.textTooLong('The movie script', A.movieScriptMaxChars)),
  images: z
    .array(
      z.object({
        id: itemId,
        imageUrl: z
          .string()
          .trim()
          .min(1)
          .max(A.imageUrlMaxChars, MESSAGES.generic.textTooLong('An image URL', A.imageUrlMaxChars))
          .optional(),
        prompt: z.string().max(4000, MESSAGES.generic.textTooLong('An image prompt', 4000)).optional(),
      }),
    )
    .max(A.movieAgentMaxImages, MESSAGES.generic.tooManyItems('images', A.movieAgentMaxImages))
    .default([]),
  projectId: z.string().max(100, MESSAGES.generic.textTooLong('The project id', 100)).optional(),
});
export type MovieAgentBody = z.input<typeof movieAgentBody>;

const videoPrompt = z.object({
  id: z.string(),
  prompt: z.string().max(SEQUENCE_LIMITS.videoPromptMaxChars),
  duration: z.number(),
  shotType: z.string(),
  cameraMovement: z.string(),
});
export type VideoPrompt = z.infer<typeof videoPrompt>;

export const movieAgentReply = z.object({
  success: z.literal(true),
  contentType: z.string(),
  sequenceCount: z.number().int(),
  analysis: z.object({
    summary: z.string(),
    style: z.string(),
    sceneCount: z.number().int(),
    totalDurationSeconds: z.number(),
    scenes: z.array(z.object({ sceneNumber: z.number().int(), heading: z.string(), summary: z.string() })),
    engine: z.string(),
  }),
  videoPrompts: z.array(videoPrompt),
});
export type MovieAgentReply = z.infer<typeof movieAgentReply>;

/** POST /api/ai/compile-master-video: the items in timeline order. */
export const compileMasterBody = z.object({
  sequenceItems: z
    .array(
      z.object({
        id: itemId,
        prompt: z.string().max(4000).default(''),
        videoUrl: z.string().trim().max(2000).nullish(),
        startTime: z.number().min(0).max(600).default(SEQUENCE_LIMITS.defaultStartTime),
        duration: z.number().positive().max(60).default(SEQUENCE_LIMITS.defaultDuration),
      }),
    )
    .max(100),
  movieScript: z.string().max(50_000).optional(),
});
export type CompileMasterBody = z.input<typeof compileMasterBody>;

export const compileMasterReply = z.object({
  success: z.literal(true),
  /** 'completed' with the master's URL, or 'processing' when it took longer than the route waits. */
  status: z.enum(['completed', 'processing']),
  taskId: z.string(),
  statusUrl: z.string(),
  masterVideoUrl: z.string().nullable(),
  duration: z.number().nullable(),
  videoCount: z.number().int(),
  assetId: z.string().nullable(),
  /** Whether the clips were joined without re-encoding. */
  streamCopy: z.boolean().nullable(),
});
export type CompileMasterReply = z.infer<typeof compileMasterReply>;
