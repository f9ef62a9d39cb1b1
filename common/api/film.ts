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

// ---- the screenplay a writer answers (vendor LLM or the local writer) ----

/** A slug line's place: INT., EXT. or INT./EXT. (I/E.) and the location, e.g. 'INT. HARBOUR KITCHEN'. */
const HEADING_LOCATION = /^(INT\.\/EXT\.|I\/E\.|INT\.|EXT\.)\s+\S/;
const ELEMENT_TYPES = ['action', 'dialogue', 'parenthetical', 'transition'] as const;
export type FilmElementType = (typeof ELEMENT_TYPES)[number];

const draftText = (what: string, max: number) =>
  z
    .string({ error: `${what} must be a text` })
    .trim()
    .min(1, `${what} is empty`)
    .max(max, `${what} is longer than ${max} characters`);

const sceneHeading = z.object({
  location: draftText('heading.location', 200).regex(
    HEADING_LOCATION,
    'heading.location must start with INT., EXT. or INT./EXT. and name the place',
  ),
  timeOfDay: draftText('heading.timeOfDay', 40),
  description: draftText('heading.description', 1000),
});
export type FilmSceneHeading = z.infer<typeof sceneHeading>;

const draftElement = z
  .object({
    type: z.enum(ELEMENT_TYPES),
    content: draftText('element.content', 2000),
    /** The speaker of a dialogue or parenthetical element ('' for action and transitions). */
    character: z.string().trim().max(100).default(''),
  })
  .refine((e) => e.type !== 'dialogue' || e.character.length > 0, 'a dialogue element needs its character');

const draftShot = z.object({
  type: draftText('shot.type', 60),
  description: draftText('shot.description', 1000),
  /** The video prompt of the shot. */
  prompt: draftText('shot.prompt', 4000),
  /** Seconds. */
  duration: z.number().min(1).max(60),
  cameraMovement: draftText('shot.cameraMovement', 60),
  /** Names of the characters in frame. */
  characters: z.array(z.string().trim().max(100)).max(30),
});

const draftScene = z.object({
  heading: sceneHeading,
  /** What happens, in a sentence or two. */
  description: draftText('scene.description', 2000),
  mood: draftText('scene.mood', 100),
  purpose: draftText('scene.purpose', 500),
  elements: z
    .array(draftElement)
    .min(1, 'a scene needs elements')
    .max(200)
    .refine((els) => els.some((e) => e.type === 'action'), 'a scene needs an action element'),
  shots: z.array(draftShot).min(1, 'a scene needs at least one shot').max(30),
});

const draftAct = z.object({
  title: draftText('act.title', 200),
  description: draftText('act.description', 2000),
  plotPoints: z.array(draftText('a plot point', 500)).min(1, 'an act needs plot points').max(20),
  scenes: z.array(draftScene).min(1, 'an act needs at least one scene').max(60),
});

/**
 * What the film agent asks its writer for (sent as the JSON schema of the text engine call) and checks the
 * answer against: exactly three acts of scenes with slug-line headings, elements (action, dialogue with its
 * speaker, parentheticals, transitions) and shots. Ids, numbers, pages, durations and formatting are the
 * service's, not the writer's.
 */
export const filmScreenplayDraft = z.object({
  logline: draftText('logline', 1000),
  themes: z.array(draftText('a theme', 200)).min(1, 'themes are empty').max(10),
  acts: z.array(draftAct).length(3, 'the screenplay must have exactly three acts'),
});
export type FilmScreenplayDraft = z.infer<typeof filmScreenplayDraft>;

// ---- the reply ----

/** How an element is laid out on the page (standard screenplay margins, in inches from the page's left edge). */
const elementFormatting = z.object({
  alignment: z.enum(['left', 'center', 'right']),
  indentInches: z.number(),
  widthInches: z.number(),
  uppercase: z.boolean(),
});
export type FilmElementFormatting = z.infer<typeof elementFormatting>;

const element = z.object({
  id: z.string(),
  type: z.enum(ELEMENT_TYPES),
  content: z.string(),
  /** The same as `content` (read by the studio's screenplay view). */
  text: z.string(),
  character: z.string().optional(),
  formatting: elementFormatting,
});

const shot = z.object({
  id: z.string(),
  index: z.number().int(),
  type: z.string(),
  /** The same as `type` (read by the studio's sequences). */
  shotType: z.string(),
  cameraMovement: z.string(),
  description: z.string(),
  prompt: z.string(),
  /** Seconds. */
  duration: z.number(),
  /** Ids of the characters in frame. */
  characters: z.array(z.string()),
});

const scene = z.object({
  id: z.string(),
  sceneNumber: z.number().int(),
  /** The same as `sceneNumber`. */
  number: z.number().int(),
  heading: sceneHeading,
  description: z.string(),
  elements: z.array(element),
  shots: z.array(shot),
  mood: z.string(),
  purpose: z.string(),
  /** Minutes (one page per minute). */
  estimatedDuration: z.number(),
});
export type FilmScene = z.infer<typeof scene>;

const act = z.object({
  id: z.string(),
  actNumber: z.number().int(),
  /** The same as `actNumber`. */
  number: z.number().int(),
  title: z.string(),
  description: z.string(),
  pageCount: z.number().int(),
  /** The same as `pageCount`. */
  pages: z.number().int(),
  plotPoints: z.array(z.string()),
  scenes: z.array(scene),
});

const filmScreenplay = z.object({
  title: z.string(),
  logline: z.string(),
  acts: z.array(act),
  totalPageCount: z.number().int(),
  /** Minutes. */
  estimatedRuntime: z.number(),
  /** The same as `estimatedRuntime`. */
  runtimeMinutes: z.number(),
  characters: z.array(z.object({ id: z.string(), name: z.string(), role: z.string() })),
  themes: z.array(z.string()),
  writtenBy: z.string(),
  version: z.string(),
  dateCreated: z.string(),
});

/** Where a slug line places a scene: interior, exterior or both. */
export type SceneSide = 'interior' | 'exterior' | 'interior/exterior';

export interface SluglineParts {
  side: SceneSide;
  /** The place without INT./EXT., as written: 'HARBOUR KITCHEN'. */
  place: string;
  /** Upper-case time of day ('NIGHT'), '' when the slug line names none. */
  timeOfDay: string;
}

const SIDES: Array<[RegExp, SceneSide]> = [
  [/^(?:INT\.?\s*\/\s*EXT\.?|EXT\.?\s*\/\s*INT\.?|I\/E\.?)\s*/i, 'interior/exterior'],
  [/^INT(?:ERIOR)?\.?\s+/i, 'interior'],
  [/^EXT(?:ERIOR)?\.?\s+/i, 'exterior'],
];

/** A slug line ('INT. HARBOUR KITCHEN - NIGHT') in parts, or null when the line is not one. */
export function parseSlugline(line: string): SluglineParts | null {
  const text = line.trim();
  const side = SIDES.find(([re]) => re.test(text));
  if (!side) return null;
  const rest = text.replace(side[0], '').trim();
  const parts = rest.split(/\s+[-–—]\s+/);
  const last = parts.length > 1 ? (parts.at(-1) ?? '') : '';
  const isTime = /^[A-Z\s']+$/i.test(last) && last.split(/\s+/).length <= 3;
  return {
    side: side[1],
    place: (isTime ? parts.slice(0, -1) : parts).join(' - ').trim(),
    timeOfDay: isTime ? last.toUpperCase() : '',
  };
}

/**
 * How a time of day looks on camera (screenplay time words). CONTINUOUS, LATER and the like have none:
 * the scene keeps the light of the one before.
 */
export function lightOfTime(timeOfDay: string): { word: string; light: string } | null {
  const t = timeOfDay.toUpperCase();
  if (/DAWN|SUNRISE|FIRST LIGHT/.test(t)) return { word: 'dawn', light: 'pale first light of dawn' };
  if (/MORNING/.test(t)) return { word: 'morning', light: 'low, fresh morning sun' };
  if (/DUSK|SUNSET|TWILIGHT|MAGIC HOUR|GOLDEN HOUR/.test(t))
    return { word: 'dusk', light: 'fading dusk light, warm horizon turning blue' };
  if (/EVENING/.test(t)) return { word: 'evening', light: 'soft evening light and the first lamps' };
  if (/NIGHT|MIDNIGHT/.test(t))
    return { word: 'night', light: 'night darkness, low-key practical lamps and moonlight' };
  if (/DAY|NOON|AFTERNOON/.test(t)) return { word: 'day', light: 'natural daylight' };
  return null;
}

/** A heading as one slug line: 'INT. HARBOUR KITCHEN - NIGHT'. */
export function headingLine(heading: Pick<FilmSceneHeading, 'location' | 'timeOfDay'>): string {
  return heading.timeOfDay ? `${heading.location} - ${heading.timeOfDay}` : heading.location;
}

/** A slug line read back into a heading (the last ' - ' part is the time of day). */
export function headingOfLine(line: string, description = ''): FilmSceneHeading {
  const cut = line.lastIndexOf(' - ');
  return cut > 0
    ? { location: line.slice(0, cut).trim(), timeOfDay: line.slice(cut + 3).trim(), description }
    : { location: line.trim(), timeOfDay: '', description };
}

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
