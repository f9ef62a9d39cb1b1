// Reads a prompt the way the local engines need it: colours, mood, scene, time of day, style and
// lighting words. Shared by the image, video, audio and text engines so they agree on what a prompt says.

export type Rgb = readonly [number, number, number];

export const COLOUR_WORDS: Record<string, Rgb> = {
  red: [214, 40, 40],
  crimson: [170, 20, 50],
  scarlet: [230, 40, 30],
  orange: [245, 130, 30],
  amber: [255, 176, 40],
  gold: [230, 180, 60],
  golden: [235, 185, 70],
  yellow: [250, 220, 60],
  lime: [170, 230, 60],
  green: [50, 160, 80],
  emerald: [20, 150, 100],
  olive: [120, 130, 50],
  teal: [20, 140, 140],
  turquoise: [60, 210, 200],
  cyan: [40, 200, 230],
  aqua: [90, 220, 220],
  blue: [40, 90, 200],
  azure: [60, 140, 230],
  navy: [20, 30, 90],
  indigo: [70, 40, 150],
  violet: [140, 80, 210],
  purple: [120, 50, 160],
  magenta: [210, 40, 160],
  pink: [240, 130, 180],
  rose: [230, 100, 130],
  brown: [120, 80, 50],
  tan: [200, 170, 120],
  beige: [225, 205, 170],
  white: [245, 245, 240],
  silver: [190, 195, 205],
  grey: [128, 128, 130],
  gray: [128, 128, 130],
  black: [18, 18, 22],
  pastel: [230, 200, 220],
};

/** Scenes the painter knows how to lay out, with the words that select them. */
const SCENE_WORDS = {
  sea: ['sea', 'ocean', 'beach', 'coast', 'waves', 'wave', 'lake', 'shore', 'harbor', 'harbour', 'island', 'surf'],
  city: [
    'city',
    'skyline',
    'street',
    'urban',
    'downtown',
    'skyscraper',
    'skyscrapers',
    'building',
    'buildings',
    'town',
    'metropolis',
    'cyberpunk',
  ],
  forest: ['forest', 'woods', 'jungle', 'tree', 'trees', 'pine', 'garden', 'park', 'rainforest'],
  mountain: ['mountain', 'mountains', 'peak', 'peaks', 'alps', 'valley', 'cliff', 'canyon', 'hill', 'hills'],
  desert: ['desert', 'dune', 'dunes', 'sand', 'sahara', 'savanna', 'savannah'],
  space: ['space', 'galaxy', 'nebula', 'planet', 'planets', 'stars', 'cosmos', 'universe', 'astronaut', 'orbit'],
  portrait: [
    'portrait',
    'person',
    'woman',
    'man',
    'girl',
    'boy',
    'face',
    'character',
    'model',
    'influencer',
    'selfie',
    'headshot',
  ],
  product: [
    'product',
    'bottle',
    'perfume',
    'sneaker',
    'shoe',
    'watch',
    'phone',
    'packshot',
    'cosmetics',
    'logo',
    'mockup',
  ],
  abstract: ['abstract', 'pattern', 'geometric', 'shapes', 'fractal', 'minimal', 'minimalist', 'texture', 'background'],
} as const;
type Scene = keyof typeof SCENE_WORDS | 'landscape';

const TIME_WORDS = {
  dawn: ['dawn', 'sunrise', 'morning', 'daybreak'],
  day: ['day', 'noon', 'midday', 'sunny', 'daylight', 'afternoon'],
  sunset: ['sunset', 'dusk', 'evening', 'twilight', 'golden hour'],
  night: ['night', 'midnight', 'moon', 'moonlight', 'moonlit', 'starry', 'dark sky'],
} as const;
type TimeOfDay = keyof typeof TIME_WORDS;

const MOOD_WORDS = {
  calm: ['calm', 'peaceful', 'serene', 'tranquil', 'quiet', 'relaxing', 'soft', 'gentle', 'chill', 'dreamy'],
  upbeat: [
    'upbeat',
    'happy',
    'cheerful',
    'joyful',
    'playful',
    'fun',
    'bright',
    'energetic',
    'vibrant',
    'colorful',
    'colourful',
  ],
  epic: ['epic', 'dramatic', 'heroic', 'majestic', 'powerful', 'cinematic', 'grand', 'intense', 'stormy'],
  dark: ['dark', 'moody', 'gloomy', 'mysterious', 'noir', 'eerie', 'haunting', 'melancholic', 'sad', 'horror'],
} as const;
type Mood = keyof typeof MOOD_WORDS;

const STYLE_WORDS = {
  watercolor: ['watercolor', 'watercolour', 'painterly', 'painting', 'oil painting', 'impressionist'],
  neon: ['neon', 'cyberpunk', 'synthwave', 'vaporwave', 'futuristic', 'sci-fi', 'scifi'],
  vintage: ['vintage', 'retro', 'film', 'analog', 'sepia', 'old', 'nostalgic', '1970s', '80s'],
  minimal: ['minimal', 'minimalist', 'flat', 'clean', 'simple'],
  photo: ['photo', 'photograph', 'photorealistic', 'realistic', 'dslr', 'hyperrealistic', 'portrait'],
  comic: ['comic', 'cartoon', 'anime', 'manga', 'illustration', 'pop art'],
} as const;
type Style = keyof typeof STYLE_WORDS;

export interface PromptReading {
  /** Lower-case words of the prompt. */
  words: string[];
  /** Colours named in the prompt, in order. */
  colours: Array<{ word: string; rgb: Rgb }>;
  scene: Scene;
  time: TimeOfDay;
  mood: Mood;
  styles: Style[];
  /** Every vocabulary word that steered the reading. */
  keywords: string[];
}

/** True when the prompt holds the phrase as whole words (case-insensitive). */
export function hasPhrase(prompt: string, phrase: string): boolean {
  const escaped = phrase.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^a-z0-9])${escaped}([^a-z0-9]|$)`).test(prompt.toLowerCase());
}

/** The group whose words appear most (first listed wins ties); undefined when none appear. */
function bestGroup<K extends string>(
  prompt: string,
  groups: Record<K, readonly string[]>,
  keywords: string[],
): K | undefined {
  let best: K | undefined;
  let bestCount = 0;
  for (const key of Object.keys(groups) as K[]) {
    const hits = groups[key].filter((w) => hasPhrase(prompt, w));
    if (hits.length > bestCount) {
      best = key;
      bestCount = hits.length;
    }
    keywords.push(...hits);
  }
  return best;
}

export function readPrompt(prompt: string): PromptReading {
  const words = prompt
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const keywords: string[] = [];
  const colours: PromptReading['colours'] = [];
  for (const w of words) {
    const rgb = COLOUR_WORDS[w];
    if (rgb && !colours.some((c) => c.word === w)) colours.push({ word: w, rgb });
  }
  keywords.push(...colours.map((c) => c.word));
  const scene = bestGroup(prompt, SCENE_WORDS, keywords) ?? 'landscape';
  const time = bestGroup(prompt, TIME_WORDS, keywords) ?? (scene === 'space' ? 'night' : 'day');
  const mood = bestGroup(prompt, MOOD_WORDS, keywords) ?? 'calm';
  const styles = (Object.keys(STYLE_WORDS) as Style[]).filter((s) => STYLE_WORDS[s].some((w) => hasPhrase(prompt, w)));
  return { words, colours, scene, time, mood, styles, keywords: [...new Set(keywords)] };
}

/** What a reading found, as the engines report it in their metadata. */
export function readingSummary(reading: PromptReading) {
  return {
    scene: reading.scene,
    timeOfDay: reading.time,
    mood: reading.mood,
    styles: reading.styles,
    colours: reading.colours.map((c) => c.word),
    keywords: reading.keywords,
  };
}
