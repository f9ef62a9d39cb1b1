import sharp from 'sharp';
import { listJoin } from '../../engines/local/english.ts';

// What an image holds, measured from its pixels with sharp: size and orientation, brightness and
// contrast, the dominant colours by name, warm or cool, and where the eye goes (the part of a 3×3 grid
// that stands out most from the rest). The movie agent puts these facts into each image's video prompt.

export interface ImageFacts {
  width: number;
  height: number;
  orientation: 'landscape' | 'portrait' | 'square';
  /** Mean luminance, 0 (black) – 1 (white). */
  brightness: number;
  brightnessWord: 'very dark' | 'dark' | 'dim' | 'balanced' | 'bright' | 'very bright';
  /** Standard deviation of luminance, 0 – 0.5. */
  contrast: number;
  contrastWord: 'low' | 'medium' | 'high';
  /** Dominant colours, largest share first ('dark blue', 'white'), each at least 8 % of the frame. */
  colours: Array<{ name: string; share: number }>;
  warmth: 'warm' | 'cool' | 'neutral';
  /** Where the eye goes: 'focal point in the upper left', 'evenly spread, no single focal point'. */
  composition: string;
  /** All of the above as one phrase for a prompt. */
  description: string;
}

const SAMPLE = 48;

interface Px {
  r: number;
  g: number;
  b: number;
}

const luma = ({ r, g, b }: Px) => (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;

/** Hue 0–360, saturation and lightness 0–1. */
function hsl({ r, g, b }: Px): { h: number; s: number; l: number } {
  const [rn, gn, bn] = [r / 255, g / 255, b / 255];
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return { h: 0, s: 0, l };
  const s = d / (1 - Math.abs(2 * l - 1));
  let h: number;
  if (max === rn) h = ((gn - bn) / d) % 6;
  else if (max === gn) h = (bn - rn) / d + 2;
  else h = (rn - gn) / d + 4;
  return { h: (h * 60 + 360) % 360, s, l };
}

/** The colour family of a pixel. */
function family(px: Px): string {
  const { h, s, l } = hsl(px);
  if (l < 0.1) return 'black';
  if (l > 0.92) return 'white';
  if (s < 0.15) return 'grey';
  if ((h < 40 || h >= 345) && l < 0.35 && h >= 10) return 'brown';
  if (h < 15 || h >= 345) return 'red';
  if (h < 40) return 'orange';
  if (h < 65) return 'yellow';
  if (h < 165) return 'green';
  if (h < 195) return 'teal';
  if (h < 255) return 'blue';
  if (h < 290) return 'purple';
  return 'pink';
}

const WARM = new Set(['red', 'orange', 'yellow', 'brown', 'pink']);
const COOL = new Set(['blue', 'teal', 'green', 'purple']);

function brightnessWord(v: number): ImageFacts['brightnessWord'] {
  if (v < 0.15) return 'very dark';
  if (v < 0.3) return 'dark';
  if (v < 0.42) return 'dim';
  if (v < 0.62) return 'balanced';
  if (v < 0.8) return 'bright';
  return 'very bright';
}

const COLS = ['left', 'centre', 'right'];
const ROWS = ['upper', 'middle', 'lower'];

/**
 * Where the eye goes: the grid cell that differs most in light and colour from the other cells of its
 * row (so a sky above a field is a band, not a focal point), and light bands from top to bottom.
 */
function compositionOf(pixels: Px[]): string {
  const cells = Array.from({ length: 9 }, () => ({ lum: 0, r: 0, g: 0, b: 0, n: 0 }));
  pixels.forEach((p, i) => {
    const x = i % SAMPLE;
    const y = Math.floor(i / SAMPLE);
    const cell = cells[Math.min(2, Math.floor((y * 3) / SAMPLE)) * 3 + Math.min(2, Math.floor((x * 3) / SAMPLE))];
    if (!cell) return;
    cell.lum += luma(p);
    cell.r += p.r;
    cell.g += p.g;
    cell.b += p.b;
    cell.n++;
  });
  const mean = cells.map((c) => ({ lum: c.lum / c.n, r: c.r / c.n, g: c.g / c.n, b: c.b / c.n }));
  const scores = mean.map((c, i) => {
    const mates = [0, 1, 2].map((k) => Math.floor(i / 3) * 3 + k).filter((k) => k !== i);
    const others = mates.map((k) => mean[k] ?? c);
    const avg = (f: (m: typeof c) => number) => others.reduce((n, o) => n + f(o), 0) / others.length;
    const colour = Math.hypot(c.r - avg((o) => o.r), c.g - avg((o) => o.g), c.b - avg((o) => o.b)) / 441;
    return { lum: c.lum, above: c.lum > avg((o) => o.lum), score: Math.abs(c.lum - avg((o) => o.lum)) + colour };
  });
  const best = scores.reduce((m, s, i) => (s.score > (scores[m]?.score ?? 0) ? i : m), 0);
  const top = scores[best];
  const parts: string[] = [];
  if (!top || top.score < 0.12) parts.push('evenly spread, no single focal point');
  else {
    const where = best === 4 ? 'centre' : `${ROWS[Math.floor(best / 3)]} ${COLS[best % 3]}`;
    parts.push(`${top.above ? 'bright' : 'dark'} focal point in the ${where.replace('middle ', '')}`);
  }
  const rows = [0, 1, 2].map((r) => scores.slice(r * 3, r * 3 + 3).reduce((n, s) => n + s.lum, 0) / 3);
  const [upper = 0, , lower = 0] = rows;
  if (upper - lower > 0.15) parts.push('lighter upper third like open sky');
  else if (lower - upper > 0.15) parts.push('lighter lower third');
  return parts.join(', ');
}

/** Measures an image's pixels (any format sharp reads; EXIF orientation applied). */
export async function measureImage(data: Buffer): Promise<ImageFacts> {
  const image = sharp(data, { failOn: 'none' }).rotate();
  const meta = await image.metadata();
  const swap = (meta.orientation ?? 1) >= 5;
  const width = (swap ? meta.height : meta.width) ?? 0;
  const height = (swap ? meta.width : meta.height) ?? 0;
  const raw = await image.resize(SAMPLE, SAMPLE, { fit: 'fill' }).removeAlpha().toColourspace('srgb').raw().toBuffer();
  const pixels: Px[] = [];
  for (let i = 0; i + 2 < raw.length; i += 3) pixels.push({ r: raw[i] ?? 0, g: raw[i + 1] ?? 0, b: raw[i + 2] ?? 0 });
  const lums = pixels.map(luma);
  const brightness = lums.reduce((n, v) => n + v, 0) / lums.length;
  const contrast = Math.sqrt(lums.reduce((n, v) => n + (v - brightness) ** 2, 0) / lums.length);
  const groups = new Map<string, { n: number; l: number }>();
  for (const p of pixels) {
    const name = family(p);
    const g = groups.get(name) ?? { n: 0, l: 0 };
    g.n++;
    g.l += hsl(p).l;
    groups.set(name, g);
  }
  const colours = [...groups.entries()]
    .map(([name, g]) => {
      const l = g.l / g.n;
      const shade = ['black', 'white', 'brown'].includes(name) ? '' : l < 0.3 ? 'dark ' : l > 0.72 ? 'light ' : '';
      return { name: `${shade}${name}`, family: name, share: g.n / pixels.length };
    })
    .filter((c) => c.share >= 0.08)
    .sort((a, b) => b.share - a.share)
    .slice(0, 3);
  const warmShare = colours.filter((c) => WARM.has(c.family)).reduce((n, c) => n + c.share, 0);
  const coolShare = colours.filter((c) => COOL.has(c.family)).reduce((n, c) => n + c.share, 0);
  const warmth = warmShare > coolShare + 0.1 ? 'warm' : coolShare > warmShare + 0.1 ? 'cool' : 'neutral';
  const orientation = width > height * 1.05 ? 'landscape' : height > width * 1.05 ? 'portrait' : 'square';
  const contrastWord = contrast < 0.08 ? 'low' : contrast < 0.2 ? 'medium' : 'high';
  const composition = compositionOf(pixels);
  const bWord = brightnessWord(brightness);
  const description = [
    `${width}×${height} ${orientation} frame`,
    `${bWord} (${Math.round(brightness * 100)}% brightness)`,
    `${contrastWord} contrast`,
    colours.length > 0 ? `dominant ${listJoin(colours.map((c) => c.name))}` : '',
    warmth === 'neutral' ? '' : `${warmth} palette`,
    composition,
  ]
    .filter(Boolean)
    .join(', ');
  return {
    width,
    height,
    orientation,
    brightness: Math.round(brightness * 1000) / 1000,
    brightnessWord: bWord,
    contrast: Math.round(contrast * 1000) / 1000,
    contrastWord,
    colours: colours.map(({ name, share }) => ({ name, share: Math.round(share * 100) / 100 })),
    warmth,
    composition,
    description,
  };
}
