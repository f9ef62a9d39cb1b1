import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { FILM_AGE_GROUPS, FILM_DEFAULTS, FILM_MESSAGES, FILM_ROLES } from '../rules/film.ts';

/** A text of at most `max` characters, named `what` in the message when it is longer. */
const capped = (what: string, max: number) => z.string().max(max, MESSAGES.generic.textTooLong(what, max));
const conceptText = (what: string, max: number) =>
  z
    .string({ error: FILM_MESSAGES.conceptRequired })
    .trim()
    .min(1, FILM_MESSAGES.conceptRequired)
    .max(max, MESSAGES.generic.textTooLong(what, max));

const filmConcept = z.object(
  {
    title: conceptText('The film title', 200),
    description: conceptText('The film description', 5000),
    genre: z.string().trim().max(50, MESSAGES.generic.textTooLong('The genre', 50)).default(FILM_DEFAULTS.genre),
    tone: z.string().trim().max(50, MESSAGES.generic.textTooLong('The tone', 50)).default(FILM_DEFAULTS.tone),
    targetDuration: z
      .number({ error: FILM_MESSAGES.targetDurationRange })
      .min(FILM_DEFAULTS.minTargetDuration, FILM_MESSAGES.targetDurationRange)
      .max(FILM_DEFAULTS.maxTargetDuration, FILM_MESSAGES.targetDurationRange)
      .default(FILM_DEFAULTS.targetDuration),
    theme: capped('The theme', 500).optional(),
    logline: capped('The logline', 1000).optional(),
    setting: z
      .object({
        timeperiod: capped('The time period', 200).optional(),
        location: capped('The location', 200).optional(),
        world: capped('The world', 1000).optional(),
      })
      .optional(),
  },
  { error: FILM_MESSAGES.conceptRequired },
);

const filmCharacter = z.object({
  id: capped('A character id', 100).optional(),
  name: z
    .string()
    .trim()
    .min(1, 'Character name is required')
    .max(100, MESSAGES.generic.textTooLong('A character name', 100)),
  role: z.enum(FILM_ROLES).default(FILM_DEFAULTS.role),
  ageGroup: z.enum(FILM_AGE_GROUPS).optional(),
  demographics: z
    .object({
      age: z.union([capped('An age', 50), z.number()]).optional(),
      gender: capped('A gender', 50).optional(),
      ethnicity: capped('An ethnicity', 100).optional(),
      occupation: capped('An occupation', 100).optional(),
    })
    .optional(),
  description: capped('A character description', 2000).optional(),
  personality: capped('A personality', 2000).optional(),
  motivation: capped('A motivation', 2000).optional(),
  goal: capped('A goal', 2000).optional(),
  conflict: capped('A conflict', 2000).optional(),
  arc: capped('An arc', 2000).optional(),
  relationships: z
    .array(z.object({ characterId: capped('A character id', 100), relationship: capped('A relationship', 200) }))
    .max(50, MESSAGES.generic.tooManyItems('relationships per character', 50))
    .default([]),
  voiceStyle: capped('A voice style', 200).optional(),
  backstory: capped('A backstory', 5000).optional(),
});

/** POST /api/ai/film-agent: session required; 1 credit with a vendor LLM (TEXT_AGENTS). */
export const filmAgentBody = z.object({
  concept: filmConcept,
  characters: z
    .array(filmCharacter, { error: FILM_MESSAGES.charactersRequired })
    .min(1, FILM_MESSAGES.charactersRequired)
    .max(30, MESSAGES.generic.tooManyItems('characters', 30)),
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
