import { PAINTING_WORDS } from './edit-ops.ts';
import { COLOUR_WORDS, hasPhrase, readPrompt } from './prompt-words.ts';

// ffmpeg 4.1 filter chains the local video engine builds from prompts: the video grade (the same words
// as the image edit rules) and the ambient audio bed.

interface GradeRule {
  id: string;
  words: readonly string[];
  filters: readonly string[];
}

const GRADE_RULES: readonly GradeRule[] = [
  {
    id: 'black-and-white',
    words: ['black and white', 'b&w', 'monochrome', 'grayscale', 'greyscale', 'noir', 'desaturated'],
    filters: ['hue=s=0', 'eq=contrast=1.25'],
  },
  {
    id: 'vintage',
    words: ['vintage', 'sepia', 'retro', 'old film', 'old photo', 'nostalgic', 'film look', 'analog'],
    filters: [
      'colorchannelmixer=.393:.769:.189:0:.349:.686:.168:0:.272:.534:.131',
      'eq=contrast=0.9:brightness=0.03',
      'vignette=PI/5',
      'noise=alls=10:allf=t',
    ],
  },
  {
    id: 'warm',
    words: ['warm', 'warmer', 'golden', 'sunny', 'cozy', 'cosy'],
    filters: ['colorbalance=rs=0.08:gs=0.02:bs=-0.08:rm=0.06:bm=-0.06'],
  },
  {
    id: 'cool',
    words: ['cool', 'cooler', 'cold', 'icy', 'wintry', 'blue tone', 'moonlit'],
    filters: ['colorbalance=rs=-0.08:bs=0.1:rm=-0.05:bm=0.08'],
  },
  {
    id: 'vibrant',
    words: ['vibrant', 'saturate', 'saturated', 'vivid', 'colorful', 'colourful', 'punchy'],
    filters: ['eq=saturation=1.45'],
  },
  { id: 'muted', words: ['muted', 'desaturate', 'pastel', 'washed out', 'subdued'], filters: ['eq=saturation=0.6'] },
  { id: 'brighten', words: ['brighten', 'brighter', 'lighter', 'lighten', 'bright'], filters: ['eq=brightness=0.08'] },
  { id: 'darken', words: ['darken', 'darker', 'dim', 'moody', 'night'], filters: ['eq=brightness=-0.08:gamma=0.9'] },
  { id: 'contrast', words: ['contrast', 'high contrast', 'dramatic', 'bold'], filters: ['eq=contrast=1.3'] },
  {
    id: 'relight',
    words: ['relight', 'lighting', 'spotlight', 'rim light', 'golden hour', 'glow'],
    filters: ['vignette=PI/4', 'eq=brightness=0.04:contrast=1.1'],
  },
  { id: 'blur', words: ['blur', 'blurry', 'soft focus', 'dreamy', 'haze', 'hazy'], filters: ['gblur=sigma=3'] },
  {
    id: 'sharpen',
    words: ['sharpen', 'sharper', 'crisp', 'detailed', 'clarity', 'enhance'],
    filters: ['unsharp=5:5:1.2:5:5:0.0'],
  },
  {
    id: 'cartoon',
    words: ['cartoon', 'comic', 'pop art', 'anime', 'cel shaded', 'posterize'],
    filters: ["lutrgb=r='floor(val/51)*51':g='floor(val/51)*51':b='floor(val/51)*51'", 'eq=saturation=1.3'],
  },
  {
    id: 'painting',
    words: PAINTING_WORDS,
    filters: ['boxblur=2:1', 'eq=saturation=1.2', 'unsharp=7:7:0.8'],
  },
  {
    id: 'sketch',
    words: ['sketch', 'pencil', 'drawing', 'line art', 'charcoal'],
    filters: ['edgedetect=low=0.1:high=0.3', 'negate', 'hue=s=0'],
  },
  {
    id: 'pixelate',
    words: ['pixel', 'pixelate', 'pixelated', '8-bit', '8bit', 'retro game'],
    filters: ['scale=iw/12:ih/12:flags=neighbor', 'scale=iw*12:ih*12:flags=neighbor'],
  },
  {
    id: 'emboss',
    words: ['emboss', 'embossed', 'relief', 'metallic'],
    filters: ["convolution='-2 -1 0 -1 1 1 0 1 2:-2 -1 0 -1 1 1 0 1 2:-2 -1 0 -1 1 1 0 1 2:-2 -1 0 -1 1 1 0 1 2'"],
  },
  { id: 'invert', words: ['invert', 'inverted', 'negative'], filters: ['negate'] },
  {
    id: 'neon',
    words: ['neon', 'cyberpunk', 'synthwave', 'vaporwave'],
    filters: ['hue=h=25:s=1.7', 'eq=contrast=1.2'],
  },
];

/** The ffmpeg filters a prompt's grading words ask for; none matched → a gentle auto grade. */
export function gradeFilters(prompt: string): { filters: string[]; operations: string[] } {
  const filters: string[] = [];
  const operations: string[] = [];
  for (const rule of GRADE_RULES) {
    if (rule.words.some((w) => hasPhrase(prompt, w))) {
      filters.push(...rule.filters);
      operations.push(rule.id);
    }
  }
  const grey = operations.includes('black-and-white');
  const cleaned = prompt.toLowerCase().replace(/golden hour|black and white/g, ' ');
  const tint = grey
    ? undefined
    : Object.entries(COLOUR_WORDS).find(([word]) => word !== 'golden' && word !== 'neon' && hasPhrase(cleaned, word));
  if (tint) {
    const [r, g, b] = tint[1];
    const t = 0.2;
    filters.push(
      `lutrgb=r='val*${1 - t}+${(r * t).toFixed(1)}':g='val*${1 - t}+${(g * t).toFixed(1)}':b='val*${1 - t}+${(b * t).toFixed(1)}'`,
    );
    operations.push(`tint:${tint[0]}`);
  }
  if (operations.length === 0) {
    filters.push('eq=contrast=1.08:saturation=1.15', 'unsharp=5:5:0.6');
    operations.push('auto-grade');
  }
  return { filters, operations };
}

export interface AmbientAudio {
  /** ffmpeg input arguments for the lavfi sources. */
  inputs: string[];
  /** The filter graph that mixes them into [a]. */
  graph: string;
  description: string;
}

const CHORDS: Record<string, number[]> = {
  calm: [110, 164.81, 277.18],
  upbeat: [130.81, 164.81, 196],
  epic: [73.42, 110, 146.83, 174.61],
  dark: [55, 82.41, 130.81],
};

/**
 * (The slow swell uses `volume` with a per-frame expression: ffmpeg 4.1's `tremolo` corrupts its heap
 * at sub-hertz rates when a video graph runs beside it.)
 *
 * An ambient bed of the given length: filtered pink/brown noise (wind, sea or city hum by scene) under
 * a slow tremolo chord chosen by mood. `firstInput` is the index the lavfi inputs will get.
 */
export function ambientAudioGraph(
  prompt: string,
  durationSeconds: number,
  firstInput: number,
  seed: number,
): AmbientAudio {
  const reading = readPrompt(prompt);
  const d = durationSeconds.toFixed(3);
  const chord = CHORDS[reading.mood] ?? CHORDS.calm;
  const noise = reading.scene === 'city' ? 'brown' : 'pink';
  const inputs = ['-f', 'lavfi', '-i', `anoisesrc=color=${noise}:amplitude=0.5:r=44100:d=${d}`];
  for (const f of chord) inputs.push('-f', 'lavfi', '-i', `sine=frequency=${f}:sample_rate=44100:duration=${d}`);
  const cutoff = reading.scene === 'sea' ? 600 : reading.scene === 'city' ? 300 : 1200;
  const waveRate = (0.1 + (seed % 7) / 40).toFixed(3);
  const parts = [`[${firstInput}:a]lowpass=f=${cutoff},volume='1.2*(0.65+0.35*sin(2*PI*${waveRate}*t))':eval=frame[n]`];
  const labels = ['[n]'];
  chord.forEach((_, i) => {
    parts.push(
      `[${firstInput + 1 + i}:a]volume='0.5*(0.7+0.3*sin(2*PI*${(0.11 + i * 0.07).toFixed(2)}*t+${i}))':eval=frame[s${i}]`,
    );
    labels.push(`[s${i}]`);
  });
  const fade = Math.min(1, durationSeconds / 4).toFixed(3);
  parts.push(
    `${labels.join('')}amix=inputs=${labels.length}:duration=first,afade=t=in:d=${fade},afade=t=out:st=${(durationSeconds - Number(fade)).toFixed(3)}:d=${fade},aformat=sample_rates=44100:channel_layouts=stereo[a]`,
  );
  return {
    inputs,
    graph: parts.join(';'),
    description: `ambient ${noise} noise (lowpass ${cutoff} Hz) with a ${reading.mood} chord ${chord.map((f) => Math.round(f)).join('/')} Hz`,
  };
}
