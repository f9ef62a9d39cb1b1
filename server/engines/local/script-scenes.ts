import { lightOfTime, parseSlugline, type SceneSide } from '../../../common/api/film.ts';
import { readPrompt } from './prompt-words.ts';
import { proseScenes } from './prose-scenes.ts';

// A movie script read into scenes: the slug lines (INT./EXT. LOCATION - TIME) start scenes, the text
// under each is its action. A script without slug lines is read by its own cues (prose-scenes.ts:
// sentences, places, times of day, paragraphs). Used by the
// local movie-agent writer and by the movie agent itself (which maps images to these scenes).

export interface ScriptScene {
  /** 1-based, in script order. */
  sceneNumber: number;
  /** The slug line as written, or 'SCENE N' for a paragraph. */
  heading: string;
  /** From the slug line; null for a paragraph. */
  side: SceneSide | null;
  /** The place: a slug line's in lower case ('harbour kitchen'), prose's as written ('Tokyo'); '' when none. */
  place: string;
  /** The time of day's word: the slug line's plain word (night, dawn, dusk, day, morning, evening), or prose's as written (noon). */
  timeWord: string | null;
  /** How that time looks on camera ('night darkness, low-key practical lamps and moonlight'). */
  light: string | null;
  /** The scene's mood read from its words: calm, upbeat, epic or dark. */
  mood: string;
  /** The action text under the heading. */
  text: string;
}

/** A scene's time word from its text when the slug line names none (only words that say it outright). */
function timeFromText(text: string): string | null {
  const lower = text.toLowerCase();
  const found = [
    ['night', /\b(night|midnight|moonlit|moonlight)\b/],
    ['dawn', /\b(dawn|sunrise|daybreak)\b/],
    ['dusk', /\b(dusk|sunset|twilight)\b/],
    ['morning', /\bmorning\b/],
    ['evening', /\bevening\b/],
    ['day', /\b(noon|midday|daylight|afternoon)\b/],
  ] as const;
  return found.find(([, re]) => re.test(lower))?.[0] ?? null;
}

const MAX_SCENES = 100;

export function scriptScenes(script: string): ScriptScene[] {
  const lines = script.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Array<{ heading: string | null; text: string[] }> = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (parseSlugline(line)) {
      blocks.push({ heading: line, text: [] });
      continue;
    }
    if (blocks.length === 0) blocks.push({ heading: null, text: [] });
    blocks.at(-1)?.text.push(raw);
  }
  const hasHeadings = blocks.some((b) => b.heading);
  if (!hasHeadings) return proseToScenes(script);
  const pieces = blocks.filter((b) => b.heading || b.text.join('').trim());
  let previousTime: string | null = null;
  return pieces.slice(0, MAX_SCENES).map((piece, i) => {
    const text = piece.text.join('\n').replace(/\s+/g, ' ').trim();
    const slug = piece.heading ? parseSlugline(piece.heading) : null;
    // CONTINUOUS, LATER and the like keep the time of the scene before.
    const timeWord =
      (slug?.timeOfDay ? (lightOfTime(slug.timeOfDay)?.word ?? previousTime) : null) ?? timeFromText(text);
    previousTime = timeWord ?? previousTime;
    return {
      sceneNumber: i + 1,
      heading: piece.heading ?? `SCENE ${i + 1}`,
      side: slug?.side ?? null,
      place: (slug?.place ?? '').toLowerCase(),
      timeWord,
      light: timeWord ? (lightOfTime(timeWord)?.light ?? null) : null,
      mood: readPrompt(`${text} ${piece.heading ?? ''}`).mood,
      text,
    };
  });
}

function proseToScenes(script: string): ScriptScene[] {
  return proseScenes(script)
    .slice(0, MAX_SCENES)
    .map((scene, i) => {
      const text = scene.sentences.join(' ');
      return {
        sceneNumber: i + 1,
        heading: `SCENE ${i + 1}`,
        side: null,
        place: scene.place,
        timeWord: scene.time,
        light: scene.time ? (lightOfTime(scene.time)?.light ?? null) : null,
        mood: readPrompt(text).mood,
        text,
      };
    });
}

/**
 * The scene (0-based) that covers the place of image `index` of `count` in a script of `scenes` scenes:
 * the images spread evenly over the script in order, so with at least as many images as scenes every
 * scene gets one, and with fewer each image takes the scene at its share of the script.
 */
export function sceneIndexForImage(index: number, count: number, scenes: number): number {
  if (scenes <= 0 || count <= 0) return 0;
  return Math.min(scenes - 1, Math.floor(((index + 0.5) * scenes) / count));
}

/** 'at night', 'by day', 'in the morning'. */
function timePhrase(timeWord: string): string {
  if (timeWord === 'day' || timeWord === 'daylight') return `by ${timeWord}`;
  if (timeWord === 'morning' || timeWord === 'evening' || timeWord === 'afternoon') return `in the ${timeWord}`;
  return `at ${timeWord}`;
}

/** Where and when a scene happens: 'interior farmhouse kitchen at night' ('' when the script says neither). */
export function settingOf(scene: Pick<ScriptScene, 'side' | 'place' | 'timeWord'>): string {
  return [scene.side ?? '', scene.place, scene.timeWord ? timePhrase(scene.timeWord) : ''].filter(Boolean).join(' ');
}

/** Words that say a time of day, by the time they say. */
const TIME_SAYS: Record<string, RegExp> = {
  day: /\b(daylight|sunlit|sunny|midday|noon|bright sun\w*|blue sky)\b/i,
  night: /\b(night|moonlight|moonlit|midnight|starry)\b/i,
  dawn: /\b(dawn|sunrise|daybreak)\b/i,
  dusk: /\b(dusk|sunset|twilight|golden[- ]hour)\b/i,
};
const COMPATIBLE: Record<string, string[]> = {
  day: ['day'],
  morning: ['day', 'dawn'],
  afternoon: ['day'],
  evening: ['dusk', 'night'],
  dusk: ['dusk'],
  dawn: ['dawn'],
  night: ['night'],
};

/**
 * A prompt without the comma-separated phrases that name another time of day than the scene's
 * ('bright natural daylight' in a NIGHT scene). A phrase whose words stand in `script` is the script's
 * own ('races through Tokyo at noon') and stays.
 */
export function withoutOtherTimes(prompt: string, timeWord: string | null, script = ''): string {
  if (!timeWord) return prompt;
  const plain = lightOfTime(timeWord)?.word ?? timeWord;
  const allowed = COMPATIBLE[plain] ?? [plain];
  const own = script.toLowerCase();
  const isOwn = (part: string) =>
    own !== '' &&
    own.includes(
      part
        .replace(/[.!?]+$/, '')
        .trim()
        .toLowerCase(),
    );
  return prompt
    .split(/,\s*/)
    .filter(
      (part) =>
        isOwn(part) || !Object.entries(TIME_SAYS).some(([time, re]) => !allowed.includes(time) && re.test(part)),
    )
    .join(', ');
}
