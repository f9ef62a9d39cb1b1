// A script written as prose (no slug lines) read into scenes by its own cues: each sentence is read for a
// place ('through Tokyo', 'on a bridge') and a time of day ('at noon', 'in the evening'); a sentence that
// names another time, another named place, or another spot when the scene already has one, starts a new
// scene. Paragraph breaks always do. Every sentence stays in some scene, word for word.

export interface ProseScene {
  /** The place as written: a named place keeps its capitals ('Tokyo'), a common one is lower case ('bridge'). */
  place: string;
  /** The time word as written ('noon', 'dusk'), or null. */
  time: string | null;
  sentences: string[];
}

const TIME_WORDS =
  /\b(midnight|night|moonlit|moonlight|dawn|sunrise|daybreak|dusk|sunset|twilight|morning|evening|noon|midday|afternoon|daylight)\b/i;
const PLACE_PREPOSITIONS =
  'in|through|across|at|to|into|onto|on|over|from|near|outside|inside|around|along|under|beside';
/** Common nouns that name where something happens. */
const PLACE_NOUNS =
  'bridge|street|road|crossing|intersection|park|beach|kitchen|office|station|rooftop|roof|market|cafe|café|bar|apartment|flat|room|house|hospital|school|forest|woods|river|riverbank|harbour|harbor|pier|alley|subway|platform|train|desert|mountain|hill|city|village|square|garden|church|shop|store|studio|stage|warehouse|field|lake|shore|airport|hotel|lobby|corridor|hallway|bedroom|bathroom|classroom|library|restaurant|gym|track|stadium|highway|tunnel|bay|cliff|island|ship|deck|cabin|lab|laboratory|factory|farm|farmhouse|barn|temple|palace|castle|museum|gallery';
const NAMED_PLACE = new RegExp(
  `\\b(?:${PLACE_PREPOSITIONS})\\s+(?:the\\s+)?((?:[A-Z][\\p{L}'’-]+)(?:\\s+[A-Z][\\p{L}'’-]+){0,3})`,
  'u',
);
const COMMON_PLACE = new RegExp(
  `\\b(?:${PLACE_PREPOSITIONS})\\s+(?:a|an|the|her|his|their|its|our|my)\\s+(?:[\\p{L}-]+\\s+)?(${PLACE_NOUNS})\\b`,
  'iu',
);
/** Capitalised words that are never places. */
const NOT_PLACES = new Set(['I', 'She', 'He', 'They', 'We', 'It', 'Monday', 'Sunday', 'Christmas']);

/** The sentences of a text; a sentence ends at . ! ? or an ellipsis followed by a space. */
export function sentencesOf(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?…])\s+(?=["'“(]?[\p{Lu}\d])/u)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The first time of day a text names, as written (lower case), by position. */
function timeIn(text: string): string | null {
  return TIME_WORDS.exec(text)?.[1]?.toLowerCase() ?? null;
}

interface PlaceCue {
  place: string;
  named: boolean;
}

/** The place a sentence names: a capitalised place after a preposition first, else a common place noun. */
function placeIn(sentence: string): PlaceCue | null {
  const named = NAMED_PLACE.exec(sentence)?.[1];
  if (named && !NOT_PLACES.has(named.split(' ')[0] ?? '') && !TIME_WORDS.test(named))
    return { place: named, named: true };
  const common = COMMON_PLACE.exec(sentence)?.[1];
  return common ? { place: common.toLowerCase(), named: false } : null;
}

/** The time words that look alike on camera count as the same time (evening and dusk are not a cut). */
function sameTime(a: string, b: string): boolean {
  const group = (t: string) =>
    /noon|midday|afternoon|daylight/.test(t)
      ? 'day'
      : /night|moon/.test(t)
        ? 'night'
        : /dawn|sunrise|daybreak/.test(t)
          ? 'dawn'
          : t;
  return group(a) === group(b);
}

export function proseScenes(script: string): ProseScene[] {
  const scenes: ProseScene[] = [];
  for (const paragraph of script.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    let current: (ProseScene & { spot: string | null; named: boolean }) | null = null;
    for (const sentence of sentencesOf(paragraph)) {
      const time = timeIn(sentence);
      const cue = placeIn(sentence);
      const cut =
        current !== null &&
        ((time !== null && current.time !== null && !sameTime(time, current.time)) ||
          (cue?.named && current.named && cue.place !== current.place) ||
          (cue && !cue.named && current.spot !== null && cue.place !== current.spot));
      if (current === null || cut) {
        current = { place: cue?.place ?? '', time, sentences: [], spot: null, named: Boolean(cue?.named) };
        if (cue && !cue.named) current.spot = cue.place;
        scenes.push(current);
      } else {
        current.time ??= time;
        if (cue && !current.place) {
          current.place = cue.place;
          current.named = cue.named;
        }
        if (cue && !cue.named) current.spot ??= cue.place;
      }
      current.sentences.push(sentence);
    }
  }
  return scenes.map(({ place, time, sentences }) => ({ place, time, sentences }));
}
