import { z } from 'zod';
import { FILM_AGE_GROUPS, FILM_DEFAULTS, FILM_MESSAGES, FILM_ROLES } from '../rules/film.ts';

const conceptText = (max: number) =>
  z.string({ error: FILM_MESSAGES.conceptRequired }).trim().min(1, FILM_MESSAGES.conceptRequired).max(max);

const filmConcept = z.object(
  {
    title: conceptText(200),
    description: conceptText(5000),
    genre: z.string().trim().max(50).default(FILM_DEFAULTS.genre),
    tone: z.string().trim().max(50).default(FILM_DEFAULTS.tone),
    targetDuration: z
      .number({ error: FILM_MESSAGES.targetDurationRange })
      .min(FILM_DEFAULTS.minTargetDuration, FILM_MESSAGES.targetDurationRange)
      .max(FILM_DEFAULTS.maxTargetDuration, FILM_MESSAGES.targetDurationRange)
      .default(FILM_DEFAULTS.targetDuration),
    theme: z.string().max(500).optional(),
    logline: z.string().max(1000).optional(),
    setting: z
      .object({
        timeperiod: z.string().max(200).optional(),
        location: z.string().max(200).optional(),
        world: z.string().max(1000).optional(),
      })
      .optional(),
  },
  { error: FILM_MESSAGES.conceptRequired },
);

const filmCharacter = z.object({
  id: z.string().max(100).optional(),
  name: z.string().trim().min(1, 'Character name is required').max(100),
  role: z.enum(FILM_ROLES).default(FILM_DEFAULTS.role),
  ageGroup: z.enum(FILM_AGE_GROUPS).optional(),
  demographics: z
    .object({
      age: z.union([z.string().max(50), z.number()]).optional(),
      gender: z.string().max(50).optional(),
      ethnicity: z.string().max(100).optional(),
      occupation: z.string().max(100).optional(),
    })
    .optional(),
  description: z.string().max(2000).optional(),
  personality: z.string().max(2000).optional(),
  motivation: z.string().max(2000).optional(),
  goal: z.string().max(2000).optional(),
  conflict: z.string().max(2000).optional(),
  arc: z.string().max(2000).optional(),
  relationships: z
    .array(z.object({ characterId: z.string().max(100), relationship: z.string().max(200) }))
    .max(50)
    .default([]),
  voiceStyle: z.string().max(200).optional(),
  backstory: z.string().max(5000).optional(),
});

/** POST /api/ai/film-agent: free of charge, session required. */
export const filmAgentBody = z.object({
  concept: filmConcept,
  characters: z
    .array(filmCharacter, { error: FILM_MESSAGES.charactersRequired })
    .min(1, FILM_MESSAGES.charactersRequired)
    .max(30),
  generationType: z.literal('screenplay', { error: FILM_MESSAGES.generationTypeUnsupported }).default('screenplay'),
});
export type FilmAgentInput = z.output<typeof filmAgentBody>;

const element = z.object({
  type: z.enum(['action', 'dialogue', 'parenthetical', 'transition']),
  text: z.string(),
  character: z.string().optional(),
});

const shot = z.object({
  id: z.string(),
  index: z.number().int(),
  shotType: z.string(),
  cameraMovement: z.string(),
  description: z.string(),
  prompt: z.string(),
  /** Seconds. */
  duration: z.number(),
});

const scene = z.object({
  id: z.string(),
  number: z.number().int(),
  heading: z.string(),
  description: z.string(),
  elements: z.array(element),
  shots: z.array(shot),
});
export type FilmScene = z.infer<typeof scene>;

const filmScreenplay = z.object({
  title: z.string(),
  logline: z.string(),
  acts: z.array(
    z.object({ number: z.number().int(), title: z.string(), pages: z.number().int(), scenes: z.array(scene) }),
  ),
  runtimeMinutes: z.number(),
});

export const filmAgentReply = z.object({
  success: z.literal(true),
  data: z.object({
    screenplay: filmScreenplay,
    metadata: z.object({
      generator: z.string(),
      engine: z.string(),
      genre: z.string(),
      tone: z.string(),
      sceneCount: z.number().int(),
      shotCount: z.number().int(),
      createdAt: z.string(),
    }),
  }),
});
export type FilmAgentReply = z.infer<typeof filmAgentReply>;
