import { PAINTING_WORDS } from './edit-ops.ts';
import { COLOUR_WORDS, type Rgb } from './prompt-words.ts';

// Reads a prompt into the image operations the local preview can honestly do (time of day, weather,
// season, light, colour, mood, style, crop/zoom, blur/sharpen, removing a marked region) and lists what
// it cannot (new objects, people, text…), so the result can say what the preview did with the prompt.
// Pure: no pixels here; prompt-effects-apply.ts does the pixel work for each effect id.

/** Effects with their trigger words (English, then Arabic). Earlier entries win a shared word. */
const EFFECT_WORDS = {
  snow: ['snowy', 'snow', 'snowfall', 'snowing', 'blizzard', 'ثلج', 'ثلوج', 'ثلجي', 'ثلجية'],
  winter: ['winter', 'wintry', 'wintery', 'frosty', 'frost', 'شتاء', 'شتوي', 'شتوية'],
  rain: ['rain', 'rainy', 'raining', 'storm', 'stormy', 'downpour', 'مطر', 'ممطر', 'أمطار', 'عاصفة'],
  fog: ['fog', 'foggy', 'mist', 'misty', 'ضباب', 'ضبابي'],
  sunset: ['sunset', 'golden hour', 'غروب'],
  evening: ['evening', 'dusk', 'twilight', 'مساء', 'مسائي', 'غسق'],
  night: ['night', 'nighttime', 'midnight', 'ليل', 'ليلي', 'ليلة'],
  morning: ['morning', 'dawn', 'sunrise', 'صباح', 'فجر', 'شروق'],
  noon: ['noon', 'midday', 'daytime', 'daylight', 'ظهر', 'ظهيرة', 'نهار'],
  hot: ['hot', 'desert', 'summer', 'heat', 'scorching', 'arid', 'tropical', 'حار', 'صحراء', 'صحراوي', 'صيف'],
  autumn: ['autumn', 'autumnal', 'fall', 'خريف'],
  spring: ['spring', 'springtime', 'blossom', 'ربيع'],
  happy: ['happy', 'cheerful', 'joyful', 'uplifting', 'playful', 'سعيد', 'مبهج'],
  gloomy: ['sad', 'gloomy', 'melancholy', 'melancholic', 'bleak', 'somber', 'sombre', 'حزين', 'كئيب'],
  calm: ['calm', 'serene', 'peaceful', 'tranquil', 'هادئ', 'هادئة'],
  eerie: ['eerie', 'spooky', 'horror', 'creepy', 'haunted', 'مخيف'],
  romantic: ['romantic', 'رومانسي'],
  zoomIn: [
    'zoom in',
    'zoomed in',
    'crop',
    'cropped',
    'close-up',
    'close up',
    'closeup',
    'closer',
    'tighter',
    'تكبير',
    'قص',
  ],
  zoomOut: ['zoom out', 'zoomed out', 'wider', 'wide shot', 'تصغير'],
  vignette: ['vignette'],
  blackAndWhite: [
    'black-and-white',
    'black and white',
    'b&w',
    'monochrome',
    'grayscale',
    'greyscale',
    'noir',
    'أبيض وأسود',
  ],
  vintage: ['vintage', 'sepia', 'retro', 'old photo', 'nostalgic', 'film look', 'analog', 'قديم', 'كلاسيكي'],
  warm: ['warm', 'warmer', 'golden', 'sunny', 'cozy', 'cosy', 'دافئ', 'مشمس'],
  cool: ['cool', 'cooler', 'cold', 'icy', 'blue tone', 'moonlit', 'بارد'],
  vibrant: ['vibrant', 'saturate', 'saturated', 'vivid', 'colorful', 'colourful', 'punchy', 'زاهي', 'ملون'],
  muted: ['muted', 'desaturate', 'desaturated', 'pastel', 'washed out', 'subdued', 'باهت'],
  brighten: ['brighten', 'brighter', 'lighter', 'lighten', 'bright', 'exposure up', 'overexposed', 'ساطع', 'أفتح'],
  darken: ['darken', 'darker', 'dim', 'dimmer', 'moody', 'underexposed', 'dark', 'مظلم', 'أغمق'],
  contrast: ['contrast', 'high contrast', 'dramatic', 'bold', 'تباين'],
  relight: ['relight', 'lighting', 'spotlight', 'light from', 'rim light', 'sunlight', 'glow', 'studio light', 'إضاءة'],
  blur: ['blur', 'blurry', 'blurred', 'soft focus', 'dreamy', 'bokeh', 'defocus', 'haze', 'hazy', 'ضبابية', 'طمس'],
  sharpen: ['sharpen', 'sharper', 'crisp', 'sharp', 'detailed', 'details', 'clarity', 'enhance', 'حدة', 'أوضح'],
  cartoon: ['cartoon', 'comic', 'pop art', 'anime', 'cel shaded', 'posterize', 'poster', 'كرتون', 'أنمي'],
  painting: [...PAINTING_WORDS, 'لوحة', 'زيتية'],
  sketch: ['sketch', 'pencil', 'drawing', 'line art', 'charcoal', 'رسم', 'رصاص'],
  pixelate: ['pixel', 'pixelate', 'pixelated', '8-bit', '8bit', 'retro game'],
  emboss: ['emboss', 'embossed', 'relief', 'metallic'],
  invert: ['invert', 'inverted', 'negative'],
  neon: ['neon', 'cyberpunk', 'synthwave', 'vaporwave', 'نيون'],
} as const satisfies Record<string, readonly string[]>;

export type EffectId = keyof typeof EFFECT_WORDS | 'tint' | 'removeRegion' | 'denoise';

/** What a negative prompt names that the preview counters, and the effect that counters it. */
const NEGATIVE_WORDS: ReadonlyArray<{ effect: EffectId; words: readonly string[] }> = [
  { effect: 'sharpen', words: ['blurry', 'blur', 'blurred', 'out of focus', 'soft', 'smudged', 'ضبابي', 'مشوش'] },
  { effect: 'denoise', words: ['noisy', 'noise', 'grainy', 'grain', 'artifacts', 'artefacts', 'ضوضاء'] },
  { effect: 'brighten', words: ['dark', 'too dark', 'underexposed', 'gloomy', 'مظلم'] },
  { effect: 'darken', words: ['overexposed', 'too bright', 'blown out', 'washed out'] },
  { effect: 'muted', words: ['oversaturated', 'garish', 'saturated'] },
  { effect: 'contrast', words: ['flat', 'dull', 'low contrast', 'lifeless', 'باهت'] },
];

const REMOVE_WORDS = [
  'remove',
  'erase',
  'delete',
  'get rid of',
  'take out',
  'without',
  'أزل',
  'ازل',
  'احذف',
  'امسح',
  'إزالة',
  'بدون',
];

const STOP_WORDS = new Set(
  `a an the it its it's this that these those make makes made making turn into to in on at of for from by as is be
  look looking like feel feeling more less very really bit little slightly slight please give set change style styled
  version image photo photograph picture pic scene shot mood tone atmosphere vibe effect filter time day add adding
  some much so too up can could would you me my our your bring apply using use also just then now all over look
  اجعل اجعلها الصورة صورة في على من إلى الى مع أكثر اكثر جدا قليلا هذه هذا لها أضف اضف وقت جو`
    .split(/\s+/)
    .filter(Boolean),
);

export interface PlannedEffect {
  id: EffectId;
  /** The prompt words that asked for it. */
  words: string[];
  /** For tint: the colour. */
  colour?: Rgb;
}

export interface PromptPlan {
  effects: PlannedEffect[];
  /** The words the preview acts on, in prompt order. */
  applied: string[];
  /** The parts of the prompt the preview cannot do (new objects, people, removals without a region…). */
  notApplied: string[];
  /** notApplied parts that asked to remove something (need a marked region or an AI engine). */
  removals: string[];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A phrase as whole words; Arabic words may carry the article or a one-letter prefix (ال، و، ب، ل). */
function phrasePattern(phrase: string): RegExp {
  const arabic = /[\u0600-\u06ff]/.test(phrase);
  const prefix = arabic ? '(?:وال|بال|لل|ال|و|ب|ل)?' : '';
  const suffix = arabic ? '(?:ة|ي|ية|ات)?' : '';
  return new RegExp(`(?<![\\p{L}\\p{N}&])${prefix}${escapeRegExp(phrase)}${suffix}(?![\\p{L}\\p{N}&])`, 'iu');
}

const ALL_PHRASES: ReadonlyArray<{ id: EffectId; phrase: string }> = Object.entries(EFFECT_WORDS)
  .flatMap(([id, words]) => words.map((phrase) => ({ id: id as EffectId, phrase })))
  .sort((a, b) => b.phrase.length - a.phrase.length);

/** Splits a prompt into its clauses (commas, full stops, 'and', 'with', 'but'…). */
function clausesOf(prompt: string): string[] {
  return prompt
    .replace(/black and white/gi, 'black-and-white')
    .split(/[,.;:!?\n،؛]|\s(?:and|with|but|plus|then|also|ثم|مع|لكن)\s/i)
    .map((c) => c.trim())
    .filter(Boolean);
}

/** Takes every match of the phrase out of the text (so no other effect reads it again). */
function consume(text: string, phrase: string): { found: string | null; rest: string } {
  const pattern = phrasePattern(phrase);
  const match = pattern.exec(text);
  if (!match) return { found: null, rest: text };
  return { found: match[0].toLowerCase(), rest: text.replace(new RegExp(pattern.source, 'giu'), ' ') };
}

function leftoverWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}'-]+/u)
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w) && !/^\d+$/.test(w));
}

function colourIn(text: string): { word: string; rgb: Rgb } | null {
  for (const [word, rgb] of Object.entries(COLOUR_WORDS)) {
    if (word === 'golden' || word === 'neon') continue;
    if (phrasePattern(word).test(text)) return { word, rgb };
  }
  return null;
}

/**
 * Reads the prompt clause by clause: words that name an image operation become effects (each once,
 * in a fixed order), colour words a tint; a removal clause is done only when the user marked a region
 * (`hasRegion`), and its words never tint or add; any clause with words left over is not applied.
 */
export function readPromptEffects(prompt: string, options: { hasRegion?: boolean } = {}): PromptPlan {
  const found = new Map<EffectId, PlannedEffect>();
  const applied: string[] = [];
  const notApplied: string[] = [];
  const removals: string[] = [];
  const add = (id: EffectId, word: string, colour?: Rgb) => {
    const effect = found.get(id) ?? { id, words: [], colour };
    if (!effect.words.includes(word)) effect.words.push(word);
    found.set(id, effect);
    if (!applied.includes(word)) applied.push(word);
  };
  for (const clause of clausesOf(prompt)) {
    if (REMOVE_WORDS.some((w) => phrasePattern(w).test(clause))) {
      if (options.hasRegion) add('removeRegion', 'remove (marked region)');
      else {
        notApplied.push(clause);
        removals.push(clause);
      }
      continue;
    }
    let rest = clause;
    let matched = 0;
    for (const { id, phrase } of ALL_PHRASES) {
      const taken = consume(rest, phrase);
      if (!taken.found) continue;
      rest = taken.rest;
      add(id, taken.found);
      matched++;
    }
    const colour = colourIn(rest);
    if (colour && !found.has('blackAndWhite') && !found.has('tint')) {
      rest = consume(rest, colour.word).rest;
      add('tint', colour.word, colour.rgb);
      matched++;
    }
    const left = leftoverWords(rest);
    if (left.length > 0) notApplied.push(matched === 0 ? clause : left.join(' '));
  }
  const order = [...Object.keys(EFFECT_WORDS), 'tint', 'removeRegion'] as EffectId[];
  const effects = [...found.values()].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
  const lower = prompt.toLowerCase();
  applied.sort((a, b) => lower.indexOf(a) - lower.indexOf(b));
  return { effects, applied, notApplied, removals };
}

/**
 * Reads a negative prompt: each defect it names that the preview can counter (blurry → sharpen, noisy →
 * denoise, dark → brighten…) becomes an effect; colour words are left to the colour suppression; other
 * words (people, text, watermark…) are not applied. `effectIds` of the positive prompt that the negative
 * names are dropped by the caller.
 */
export function readNegativeEffects(negative: string | undefined): PromptPlan {
  const effects: PlannedEffect[] = [];
  const applied: string[] = [];
  const notApplied: string[] = [];
  for (const clause of clausesOf(negative ?? '')) {
    let rest = clause.replace(/\b(?:no|not|avoid|without|don't|dont|never)\b/gi, ' ');
    for (const { effect, words } of NEGATIVE_WORDS) {
      for (const word of [...words].sort((a, b) => b.length - a.length)) {
        const taken = consume(rest, word);
        if (!taken.found) continue;
        rest = taken.rest;
        if (!effects.some((e) => e.id === effect)) effects.push({ id: effect, words: [taken.found] });
        applied.push(`not ${taken.found}`);
      }
    }
    for (const word of Object.keys(COLOUR_WORDS)) {
      const taken = consume(rest, word);
      if (taken.found) {
        rest = taken.rest;
        applied.push(`not ${taken.found}`);
      }
    }
    const left = leftoverWords(rest);
    if (left.length > 0) notApplied.push(left.join(' '));
  }
  return { effects, applied, notApplied, removals: [] };
}

/** What the preview did with the prompt, as the API's `metadata.preview` carries it. */
export interface PreviewSummary {
  engine: 'local';
  applied: string[];
  notApplied: string[];
  note: string;
}

/** 'Local preview applied: winter, evening. Not applied: "add a dog" — needs an AI engine.' */
export function previewSummary(
  applied: string[],
  notApplied: string[],
  removals: string[] = [],
  fallback?: string,
): PreviewSummary {
  const parts = [
    applied.length > 0
      ? `Local preview applied: ${applied.join(', ')}.`
      : `Local preview applied nothing from the prompt${fallback ? ` (${fallback} only)` : ''}.`,
  ];
  const others = notApplied.filter((p) => !removals.includes(p));
  if (others.length > 0) parts.push(`Not applied: ${others.map((p) => `"${p}"`).join(', ')} — needs an AI engine.`);
  if (removals.length > 0)
    parts.push(
      `Not applied: ${removals.map((p) => `"${p}"`).join(', ')} — mark the region with the Magic Selector, or use an AI engine.`,
    );
  return { engine: 'local', applied, notApplied, note: parts.join(' ') };
}
