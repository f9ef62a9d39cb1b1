import sharp from 'sharp';
import { clamp } from './colour.ts';
import { COLOUR_WORDS, hasPhrase, type Rgb } from './prompt-words.ts';
import type { Rng } from './random.ts';
import type { RawImage } from './raw.ts';

// Magic Selector's local fills. Remove: the hole takes the surroundings' smooth colours (push-pull, in
// image.ts) plus their texture, copied block by block from unmasked patches near the hole, so the fill
// has the grain of the picture instead of a smear. Add: what the prompt names that pixels can honestly
// show (a colour, a material, a round shading) is drawn inside the mask's own shape; the object itself
// (a dog, a lamp) needs an AI engine, and the preview note says so.

export interface MaskBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** What a local preview did with the prompt: shown in the result panel and kept in the asset metadata. */
export interface PreviewNote {
  applied: string[];
  notApplied: string[];
  note: string;
}

export function previewNote(applied: string[], notApplied: string[]): PreviewNote {
  const quoted = notApplied.map((w) => `"${w}"`).join(', ');
  const note =
    `Local preview applied: ${applied.join(', ') || 'nothing'}.` +
    (notApplied.length > 0 ? ` Not applied: ${quoted} — needs an AI engine.` : '');
  return { applied, notApplied, note };
}

/** Separable box blur of one float band (radius r, edges clamped, running sums), run twice ≈ a Gaussian. */
function lowPass(src: Float32Array, width: number, height: number, r: number): Float32Array {
  const span = 2 * r + 1;
  let cur = src;
  for (let pass = 0; pass < 2; pass++) {
    const tmp = new Float32Array(cur.length);
    for (let y = 0; y < height; y++) {
      const row = y * width;
      let sum = 0;
      for (let d = -r; d <= r; d++) sum += cur[row + Math.min(width - 1, Math.max(0, d))];
      for (let x = 0; x < width; x++) {
        tmp[row + x] = sum / span;
        sum += cur[row + Math.min(width - 1, x + r + 1)] - cur[row + Math.max(0, x - r)];
      }
    }
    const out = new Float32Array(cur.length);
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let d = -r; d <= r; d++) sum += tmp[Math.min(height - 1, Math.max(0, d)) * width + x];
      for (let y = 0; y < height; y++) {
        out[y * width + x] = sum / span;
        sum += tmp[Math.min(height - 1, y + r + 1) * width + x] - tmp[Math.max(0, y - r) * width + x];
      }
    }
    cur = out;
  }
  return cur;
}

/** The region worked on: the mask box widened by `margin`, clipped to the image. */
function region(box: MaskBox, margin: number, width: number, height: number) {
  const left = Math.max(0, box.left - margin);
  const top = Math.max(0, box.top - margin);
  const right = Math.min(width, box.left + box.width + margin);
  const bottom = Math.min(height, box.top + box.height + margin);
  return { left, top, width: right - left, height: bottom - top };
}

/** A source block (top-left) of size b×b whose pixels are all outside the mask, near the hole; null if none. */
function pickSource(mask: Buffer, width: number, area: ReturnType<typeof region>, b: number, rng: Rng) {
  for (let attempt = 0; attempt < 40; attempt++) {
    const sx = area.left + rng.int(0, Math.max(0, area.width - b));
    const sy = area.top + rng.int(0, Math.max(0, area.height - b));
    let clear = true;
    for (let y = 0; y < b && clear; y += 2) {
      for (let x = 0; x < b; x += 2) {
        if (mask[(sy + y) * width + sx + x] !== 0) {
          clear = false;
          break;
        }
      }
    }
    if (clear) return { sx, sy };
  }
  return null;
}

/**
 * Remove: `smoothFill` (the push-pull fill) keeps the surroundings' colours and gradients; on top, the
 * high-frequency part of the picture (image − low-pass) is copied into the hole block by block from
 * randomly chosen unmasked blocks near it. Where no clean block exists, Gaussian noise with the ring's
 * standard deviation stands in. Pixels outside the mask keep their bytes.
 */
export function textureFill(image: RawImage, smoothFill: RawImage, mask: Buffer, box: MaskBox, rng: Rng): RawImage {
  const { width, height, channels } = image;
  const block = clamp(Math.round(Math.min(box.width, box.height) / 3), 6, 24);
  const area = region(box, Math.max(block * 3, Math.round(Math.max(box.width, box.height) / 2)), width, height);
  const n = area.width * area.height;
  const radius = Math.max(2, Math.round(block / 2));
  const low: Float32Array[] = [];
  const band = new Float32Array(n);
  for (let k = 0; k < 3; k++) {
    for (let y = 0; y < area.height; y++) {
      for (let x = 0; x < area.width; x++) {
        const p = (area.top + y) * width + area.left + x;
        band[y * area.width + x] = smoothFill.data[p * channels + k];
      }
    }
    low.push(lowPass(band, area.width, area.height, radius));
  }
  const ringStd = ringDeviation(image, mask, area, low);
  const out = Buffer.from(image.data);
  for (let by = box.top; by < box.top + box.height; by += block) {
    for (let bx = box.left; bx < box.left + box.width; bx += block) {
      const source = pickSource(mask, width, area, block, rng);
      for (let y = by; y < Math.min(by + block, box.top + box.height); y++) {
        for (let x = bx; x < Math.min(bx + block, box.left + box.width); x++) {
          const p = y * width + x;
          if (mask[p] === 0) continue;
          const q = (y - area.top) * area.width + (x - area.left);
          for (let k = 0; k < 3; k++) {
            let detail: number;
            if (source) {
              const sx = source.sx + (x - bx);
              const sy = source.sy + (y - by);
              const sq = (sy - area.top) * area.width + (sx - area.left);
              detail = image.data[(sy * width + sx) * channels + k] - low[k][sq];
            } else {
              detail = rng.gauss() * 1.7 * ringStd[k];
            }
            out[p * channels + k] = clamp(Math.round(low[k][q] + detail));
          }
        }
      }
    }
  }
  return { ...image, data: out };
}

/** Standard deviation of the fine detail (image − low-pass) in the unmasked part of the area, per channel. */
function ringDeviation(image: RawImage, mask: Buffer, area: ReturnType<typeof region>, low: Float32Array[]): Rgb {
  const sum = [0, 0, 0];
  const sq = [0, 0, 0];
  let count = 0;
  for (let y = 0; y < area.height; y++) {
    for (let x = 0; x < area.width; x++) {
      const p = (area.top + y) * image.width + area.left + x;
      if (mask[p] !== 0) continue;
      for (let k = 0; k < 3; k++) {
        const d = image.data[p * image.channels + k] - low[k][y * area.width + x];
        sum[k] += d;
        sq[k] += d * d;
      }
      count++;
    }
  }
  const sd = (k: number) => (count > 0 ? Math.sqrt(Math.max(0, sq[k] / count - (sum[k] / count) ** 2)) : 8);
  return [sd(0), sd(1), sd(2)];
}

interface Material {
  words: readonly string[];
  colour: Rgb;
  /** Grain amplitude (grey levels) and kind. */
  grain: number;
  pattern: 'speckle' | 'stripes' | 'bricks' | 'fibres' | 'ripples';
  shiny: boolean;
}

const MATERIALS: Record<string, Material> = {
  wood: {
    words: ['wood', 'wooden', 'timber', 'oak'],
    colour: [140, 95, 55],
    grain: 22,
    pattern: 'stripes',
    shiny: false,
  },
  metal: {
    words: ['metal', 'metallic', 'steel', 'chrome', 'iron', 'aluminium', 'aluminum'],
    colour: [170, 175, 185],
    grain: 6,
    pattern: 'stripes',
    shiny: true,
  },
  stone: {
    words: ['stone', 'rock', 'concrete', 'marble', 'granite', 'pebble', 'boulder'],
    colour: [135, 130, 125],
    grain: 26,
    pattern: 'speckle',
    shiny: false,
  },
  brick: {
    words: ['brick', 'bricks', 'brick wall'],
    colour: [165, 70, 50],
    grain: 14,
    pattern: 'bricks',
    shiny: false,
  },
  glass: { words: ['glass', 'crystal', 'ice'], colour: [190, 220, 235], grain: 4, pattern: 'speckle', shiny: true },
  water: {
    words: ['water', 'pond', 'puddle', 'pool'],
    colour: [50, 110, 170],
    grain: 12,
    pattern: 'ripples',
    shiny: true,
  },
  grass: {
    words: ['grass', 'lawn', 'moss', 'foliage', 'leaves'],
    colour: [70, 140, 60],
    grain: 28,
    pattern: 'fibres',
    shiny: false,
  },
  fur: { words: ['fur', 'furry', 'wool', 'hair'], colour: [150, 115, 80], grain: 24, pattern: 'fibres', shiny: false },
  fabric: {
    words: ['fabric', 'cloth', 'cotton', 'linen', 'silk', 'velvet'],
    colour: [120, 90, 140],
    grain: 10,
    pattern: 'speckle',
    shiny: false,
  },
  sand: { words: ['sand', 'sandy'], colour: [215, 190, 140], grain: 18, pattern: 'speckle', shiny: false },
  snow: { words: ['snow', 'snowy'], colour: [240, 244, 250], grain: 8, pattern: 'speckle', shiny: false },
  plastic: {
    words: ['plastic', 'rubber', 'glossy', 'shiny'],
    colour: [200, 200, 200],
    grain: 3,
    pattern: 'speckle',
    shiny: true,
  },
  fire: {
    words: ['fire', 'flame', 'flames', 'lava'],
    colour: [245, 120, 30],
    grain: 30,
    pattern: 'fibres',
    shiny: false,
  },
};

/** Objects the preview can honestly suggest by shading: round ones get a sphere's light. */
const ROUND_WORDS = ['ball', 'sphere', 'orb', 'balloon', 'moon', 'planet', 'bubble', 'apple', 'orange', 'globe', 'sun'];

const FILLER = new Set(
  'a an the add put place insert draw paint make some please with of in on at to into onto and or my this that here there it its small big large little tiny huge new'.split(
    ' ',
  ),
);

export interface PromptObject {
  colour?: { word: string; rgb: Rgb };
  material?: { word: string; material: Material };
  round?: string;
  /** Words the preview cannot draw (the object nouns). */
  rest: string[];
}

/** The colour, material and round-shape words of an add prompt, and the words left over. */
export function readObjectPrompt(prompt: string): PromptObject {
  const result: PromptObject = { rest: [] };
  const used = new Set<string>();
  for (const [word, rgb] of Object.entries(COLOUR_WORDS)) {
    if (hasPhrase(prompt, word)) {
      result.colour = { word, rgb };
      used.add(word);
      break;
    }
  }
  for (const material of Object.values(MATERIALS)) {
    const word = material.words.find((w) => hasPhrase(prompt, w));
    if (word) {
      result.material = { word, material };
      for (const part of word.split(' ')) used.add(part);
      break;
    }
  }
  result.round = ROUND_WORDS.find((w) => hasPhrase(prompt, w) || hasPhrase(prompt, `${w}s`));
  if (result.round) used.add(result.round);
  const words = prompt.toLowerCase().match(/[a-z][a-z'-]*/g) ?? [];
  result.rest = words.filter((w) => !FILLER.has(w) && !used.has(w) && !used.has(w.replace(/s$/, '')));
  return result;
}

/** Does the prompt name anything paintObject can draw? */
export function canPaintObject(prompt: string): boolean {
  const read = readObjectPrompt(prompt);
  return Boolean(read.colour || read.material || read.round);
}

/** Pattern value (−1…1) of a material at a pixel. */
function patternAt(material: Material | undefined, x: number, y: number, rng: Rng): number {
  const noise = rng.gauss() / 1.2;
  if (!material) return noise * 0.5;
  switch (material.pattern) {
    case 'stripes':
      return 0.6 * Math.sin(y * 0.55 + Math.sin(x * 0.05) * 3) + 0.4 * noise;
    case 'bricks': {
      const row = Math.floor(y / 8);
      const mortar = y % 8 === 0 || (x + (row % 2) * 8) % 16 === 0;
      return mortar ? 1.2 : 0.5 * noise;
    }
    case 'fibres':
      return 0.5 * Math.sin(x * 1.3 + y * 0.2) + 0.6 * noise;
    case 'ripples':
      return 0.7 * Math.sin((x + y * 0.3) * 0.35) + 0.3 * noise;
    default:
      return noise;
  }
}

/**
 * Add: draws inside the mask (its own shape, not its box) with the named colour and/or material, lit
 * from the top left using the mask as a height field (blurred mask → surface normal), so a round mask
 * reads as a ball. Returns the replacement picture (only mask pixels differ) and what it did.
 */
export async function paintObject(
  image: RawImage,
  mask: Buffer,
  box: MaskBox,
  prompt: string,
  rng: Rng,
): Promise<{ image: RawImage; preview: PreviewNote }> {
  const { width, height, channels } = image;
  const read = readObjectPrompt(prompt);
  const material = read.material?.material;
  const base: Rgb = read.colour?.rgb ?? material?.colour ?? [128, 128, 128];
  const sigma = Math.max(1, Math.min(box.width, box.height) / (read.round ? 3 : 8));
  const heightField = await sharp(mask, { raw: { width, height, channels: 1 } })
    .blur(sigma)
    .extractChannel(0)
    .raw()
    .toBuffer();
  const light = [-0.5, -0.6, 0.62];
  const grain = material?.grain ?? 10;
  const out = Buffer.from(image.data);
  for (let y = box.top; y < box.top + box.height; y++) {
    for (let x = box.left; x < box.left + box.width; x++) {
      const p = y * width + x;
      if (mask[p] === 0) continue;
      const h = (xx: number, yy: number) =>
        heightField[Math.min(height - 1, Math.max(0, yy)) * width + Math.min(width - 1, Math.max(0, xx))] / 255;
      const scale = sigma * 1.5;
      const nx = -(h(x + 1, y) - h(x - 1, y)) * scale;
      const ny = -(h(x, y + 1) - h(x, y - 1)) * scale;
      const len = Math.hypot(nx, ny, 1);
      const lambert = Math.max(0, (nx * light[0] + ny * light[1] + light[2]) / len);
      let shade = 0.55 + 0.6 * lambert;
      if (material?.shiny || read.round) shade += 0.5 * Math.max(0, lambert - 0.85) * 6;
      const texture = patternAt(material, x, y, rng) * grain;
      for (let k = 0; k < 3; k++) out[p * channels + k] = clamp(Math.round(base[k] * shade + texture));
    }
  }
  const applied = ['shape of the marked area'];
  if (read.colour) applied.push(`colour: ${read.colour.word}`);
  if (read.material) applied.push(`material: ${read.material.word}`);
  if (read.round) applied.push(`round shading: ${read.round}`);
  else applied.push('shading');
  return { image: { ...image, data: out }, preview: previewNote(applied, read.rest) };
}
