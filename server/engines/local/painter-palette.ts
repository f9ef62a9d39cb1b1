// The painter's plan of a picture: the palette read from the prompt (time of day, season, colours, references), horizon and light.
import { adjust, mix } from './colour.ts';
import { hasPhrase, type PromptReading, type Rgb, readPrompt } from './prompt-words.ts';
import type { Rng } from './random.ts';
import { rngFor } from './random.ts';

export interface Palette {
  skyTop: Rgb;
  skyMid: Rgb;
  skyHorizon: Rgb;
  light: Rgb;
  far: Rgb;
  mid: Rgb;
  near: Rgb;
  ground: Rgb;
  accent: Rgb;
  accent2: Rgb;
}

export interface PaintPlan {
  reading: PromptReading;
  palette: Palette;
  /** Horizon height as a fraction of the image height from the top. */
  horizon: number;
  light: { x: number; y: number; radius: number };
  grain: number;
  /** Filled in while painting: the subject silhouettes and weather drawn. */
  subjects: string[];
  weather: string[];
}

export interface PaintInput {
  prompt: string;
  negativePrompt?: string;
  width: number;
  height: number;
  seed: number;
  style?: string;
  /** Mean colours of reference images, mixed into the palette as guidance. */
  referenceColours?: Rgb[];
}

const SKY_BY_TIME: Record<PromptReading['time'], [Rgb, Rgb, Rgb, Rgb]> = {
  dawn: [
    [70, 80, 150],
    [230, 150, 160],
    [255, 210, 160],
    [255, 230, 190],
  ],
  day: [
    [40, 100, 200],
    [100, 160, 230],
    [190, 220, 245],
    [255, 250, 225],
  ],
  sunset: [
    [50, 30, 90],
    [200, 80, 90],
    [255, 160, 70],
    [255, 220, 140],
  ],
  night: [
    [5, 8, 25],
    [20, 25, 70],
    [45, 50, 110],
    [230, 230, 255],
  ],
};

const SEASONS: Array<{ words: readonly string[]; land: Rgb; amount: number }> = [
  { words: ['autumn', 'fall', 'autumnal', 'harvest'], land: [205, 105, 35], amount: 0.6 },
  { words: ['winter', 'snow', 'snowy', 'frozen', 'icy'], land: [225, 232, 240], amount: 0.65 },
  { words: ['spring', 'blossom', 'blooming'], land: [120, 190, 90], amount: 0.45 },
  { words: ['summer', 'lush', 'tropical'], land: [40, 170, 60], amount: 0.4 },
];

function buildPalette(input: PaintInput, reading: PromptReading, rng: Rng, negative: string): Palette {
  const neon = reading.styles.includes('neon');
  const [top, midSky, horizon, light] = neon
    ? ([
        [20, 5, 45],
        [80, 15, 100],
        [255, 70, 160],
        [255, 140, 220],
      ] as [Rgb, Rgb, Rgb, Rgb])
    : SKY_BY_TIME[reading.time];
  const colours = reading.colours.filter((c) => !hasPhrase(negative, c.word)).map((c) => c.rgb);
  const guidance = [...colours, ...(input.referenceColours ?? [])];
  const c1 = guidance[0];
  const c2 = guidance[1] ?? guidance[0];
  const c3 = guidance[2] ?? guidance[1] ?? guidance[0];
  const hueShift = rng.range(-18, 18);
  const moodSat = { calm: 0.8, upbeat: 1.3, epic: 1.1, dark: 0.6 }[reading.mood];
  const moodLight = { calm: 1.05, upbeat: 1.1, epic: 0.95, dark: 0.6 }[reading.mood];
  const tone = (c: Rgb) => adjust(c, hueShift, moodSat, moodLight);
  const landBase: Rgb = {
    sea: [30, 80, 120] as Rgb,
    city: [40, 45, 60] as Rgb,
    forest: [30, 90, 50] as Rgb,
    mountain: [70, 80, 100] as Rgb,
    desert: [210, 160, 100] as Rgb,
    space: [30, 20, 60] as Rgb,
    portrait: [60, 50, 70] as Rgb,
    product: [200, 200, 205] as Rgb,
    abstract: [120, 90, 160] as Rgb,
    landscape: [70, 120, 70] as Rgb,
  }[reading.scene];
  const season = SEASONS.find((x) => x.words.some((w) => hasPhrase(input.prompt, w)));
  const seasonal = season ? mix(landBase, season.land, season.amount) : landBase;
  const land = c2 ? mix(seasonal, c2, 0.55) : seasonal;
  const night = reading.time === 'night';
  if (reading.scene === 'abstract' && c1) {
    // Abstract art is the named colours themselves, dark to light.
    return {
      skyTop: tone(adjust(c1, 0, 1, 0.55)),
      skyMid: tone(mix(c1, c2, 0.5)),
      skyHorizon: tone(adjust(c2, 0, 1, 1.15)),
      light: tone(adjust(c3, 0, 0.6, 1.4)),
      far: tone(c2),
      mid: tone(c1),
      near: tone(adjust(c1, 0, 1, 0.7)),
      ground: tone(adjust(c2, 0, 1, 0.6)),
      accent: tone(c1),
      accent2: tone(c2),
    };
  }
  const skyTop = tone(c1 ? mix(top, c1, 0.45) : top);
  const skyMid = tone(c1 ? mix(midSky, c1, 0.35) : midSky);
  const skyHorizon = tone(c3 ? mix(horizon, c3, 0.3) : horizon);
  const far = tone(mix(land, skyHorizon, 0.55));
  const mid = tone(mix(land, skyMid, 0.25));
  const near = tone(adjust(land, 0, 1, night || neon ? 0.45 : 0.75));
  const accentBase: Rgb = neon ? [255, 60, 200] : [255, 200, 90];
  return {
    skyTop,
    skyMid,
    skyHorizon,
    light: tone(c3 ? mix(light, c3, 0.2) : light),
    far,
    mid: neon ? tone(mix(mid, [40, 20, 70], 0.6)) : mid,
    near: neon ? tone(mix(near, [15, 10, 35], 0.7)) : near,
    ground: tone(adjust(land, 0, 0.9, night || neon ? 0.3 : 0.55)),
    accent: tone(c1 ? mix(accentBase, c1, 0.6) : accentBase),
    accent2: tone(c2 ? mix([60, 220, 255], c2, 0.6) : [60, 220, 255]),
  };
}

export function planPainting(input: PaintInput): PaintPlan {
  const reading = readPrompt(`${input.prompt} ${input.style ?? ''}`);
  const rng = rngFor(input.prompt, input.seed, 'palette');
  const palette = buildPalette(input, reading, rng, input.negativePrompt ?? '');
  const horizonByScene: Record<PromptReading['scene'], [number, number]> = {
    sea: [0.5, 0.62],
    city: [0.62, 0.75],
    forest: [0.55, 0.7],
    mountain: [0.55, 0.7],
    desert: [0.55, 0.68],
    space: [0.9, 0.95],
    portrait: [0.7, 0.8],
    product: [0.7, 0.72],
    abstract: [0.5, 0.6],
    landscape: [0.52, 0.68],
  };
  const [hMin, hMax] = horizonByScene[reading.scene];
  const horizon = rng.range(hMin, hMax);
  const lowSun = reading.time === 'sunset' || reading.time === 'dawn';
  const light = {
    x: rng.range(0.2, 0.8),
    y: lowSun ? horizon - rng.range(0.04, 0.12) : rng.range(0.12, Math.max(0.15, horizon - 0.25)),
    radius: rng.range(0.03, 0.06),
  };
  const grain = reading.styles.includes('minimal') ? 0 : reading.styles.includes('vintage') ? 22 : 10;
  return { reading, palette, horizon, light, grain, subjects: [], weather: [] };
}
