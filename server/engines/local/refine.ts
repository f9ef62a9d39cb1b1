import sharp from 'sharp';
import { clamp } from './colour.ts';
import { readPrompt } from './prompt-words.ts';
import { channelStats, type RawImage } from './raw.ts';

// Refinement passes shared by the local image engine's compose (composition modes, preserve details,
// negative prompt) and inpaint (Magic Selector premium). Each is real pixel work on raw RGB(A).

/** Gaussian blur of raw pixels (sharp), same size and channels. */
async function blurred(image: RawImage, sigma: number): Promise<Buffer> {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .blur(sigma)
    .raw()
    .toBuffer();
}

/**
 * The high-frequency detail of an image: image − blur(image, sigma), one signed value per colour
 * sample (3 per pixel).
 */
async function detailLayer(image: RawImage, sigma = 1.6): Promise<Float32Array> {
  const soft = await blurred(image, sigma);
  const n = image.width * image.height;
  const c = image.channels;
  const out = new Float32Array(n * 3);
  for (let p = 0; p < n; p++) for (let k = 0; k < 3; k++) out[p * 3 + k] = image.data[p * c + k] - soft[p * c + k];
  return out;
}

/** out = image + amount · detail (detail as from detailLayer, same size). */
export function addDetail(image: RawImage, detail: Float32Array, amount: number): RawImage {
  const out = Buffer.from(image.data);
  const n = image.width * image.height;
  const c = image.channels;
  for (let p = 0; p < n; p++)
    for (let k = 0; k < 3; k++) out[p * c + k] = clamp(Math.round(image.data[p * c + k] + amount * detail[p * 3 + k]));
  return { ...image, data: out };
}

/** The weighted sum of the references' detail layers (what a per-pixel average washes out). */
export async function referenceDetail(layers: RawImage[], weights: number[], sigma = 1.6): Promise<Float32Array> {
  const first = layers[0];
  const sum = new Float32Array(first.width * first.height * 3);
  for (let i = 0; i < layers.length; i++) {
    const wt = weights[i] ?? 0;
    if (wt <= 0) continue;
    const d = await detailLayer(layers[i], sigma);
    for (let p = 0; p < sum.length; p++) sum[p] += d[p] * wt;
  }
  return sum;
}

/** A plain Gaussian smoothing of the picture (preserveDetails off: the blend is left soft). */
export async function smooth(image: RawImage, sigma: number): Promise<RawImage> {
  return { ...image, data: await blurred(image, sigma) };
}

/**
 * Moves the image's per-channel spread (contrast) toward `target` by `amount` (0–1), keeping its
 * means: averaging references flattens contrast; each refinement pass gives some of it back.
 */
export function restoreSpread(image: RawImage, target: { std: number[] }, amount: number): RawImage {
  const a = channelStats(image);
  const out = Buffer.from(image.data);
  const c = image.channels;
  const gain = [0, 1, 2].map((k) => clamp(1 + (Math.max(1, target.std[k]) / a.std[k] - 1) * amount, 0.5, 3));
  for (let i = 0; i < out.length; i += c)
    for (let k = 0; k < 3; k++) out[i + k] = clamp(Math.round((image.data[i + k] - a.mean[k]) * gain[k] + a.mean[k]));
  return { ...image, data: out };
}

/** Weighted per-channel spread of the references. */
export function weightedSpread(layers: RawImage[], weights: number[]): { std: number[] } {
  const std = [0, 0, 0];
  layers.forEach((layer, i) => {
    const s = channelStats(layer).std;
    for (let k = 0; k < 3; k++) std[k] += s[k] * (weights[i] ?? 0);
  });
  return { std };
}

const luma = (r: number, g: number, b: number) => 0.299 * r + 0.587 * g + 0.114 * b;

/**
 * Structure from one image, colour from others: the `structure` image's luminance (its shapes and
 * edges) re-coloured with `colour`'s chroma. advanced-composition builds the picture this way.
 */
export function structureWithColour(structure: RawImage, colour: RawImage): RawImage {
  const n = structure.width * structure.height;
  const out = Buffer.alloc(n * 3);
  for (let p = 0; p < n; p++) {
    const s = structure.data.subarray(p * structure.channels, p * structure.channels + 3);
    const c = colour.data.subarray(p * colour.channels, p * colour.channels + 3);
    const ys = luma(s[0], s[1], s[2]);
    const yc = luma(c[0], c[1], c[2]);
    for (let k = 0; k < 3; k++) out[p * 3 + k] = clamp(Math.round(c[k] - yc + ys));
  }
  return { data: out, width: structure.width, height: structure.height, channels: 3 };
}

function hueOf(r: number, g: number, b: number): { hue: number; sat: number } {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  if (d === 0) return { hue: 0, sat: 0 };
  let h: number;
  if (max === r) h = ((g - b) / d + (g < b ? 6 : 0)) * 60;
  else if (max === g) h = ((b - r) / d + 2) * 60;
  else h = ((r - g) / d + 4) * 60;
  return { hue: h, sat: d / 255 };
}

/** The colour words a negative prompt names ("no red, avoid blue" → red, blue), read as the painter reads them. */
function negativeColours(negative: string | undefined): Array<{ word: string; rgb: readonly number[] }> {
  if (!negative?.trim()) return [];
  return readPrompt(negative).colours;
}

/**
 * Removes the colours a negative prompt names: pixels whose hue lies within 40° of a named chromatic
 * colour lose their chroma (to their own grey) in proportion to how close and how saturated they are;
 * named white / black are pulled to mid-grey by how close their brightness is.
 */
export function suppressColours(image: RawImage, negative: string | undefined): { image: RawImage; removed: string[] } {
  const named = negativeColours(negative);
  if (named.length === 0) return { image, removed: [] };
  const targets = named.map((c) => ({
    word: c.word,
    ...hueOf(c.rgb[0], c.rgb[1], c.rgb[2]),
    y: luma(c.rgb[0], c.rgb[1], c.rgb[2]),
  }));
  const out = Buffer.from(image.data);
  const c = image.channels;
  const n = image.width * image.height;
  for (let p = 0; p < n; p++) {
    const o = p * c;
    const r = image.data[o];
    const g = image.data[o + 1];
    const b = image.data[o + 2];
    const { hue, sat } = hueOf(r, g, b);
    const y = luma(r, g, b);
    let remove = 0;
    let toGrey = 0;
    for (const t of targets) {
      if (t.sat > 0.15) {
        const dh = Math.min(Math.abs(hue - t.hue), 360 - Math.abs(hue - t.hue));
        remove = Math.max(remove, clamp(1 - dh / 40, 0, 1) * clamp(sat * 2, 0, 1));
      } else if (sat < 0.2) {
        toGrey = Math.max(toGrey, clamp(1 - Math.abs(y - t.y) / 60, 0, 1));
      }
    }
    if (remove === 0 && toGrey === 0) continue;
    const target = y + (128 - y) * toGrey * 0.8;
    for (let k = 0; k < 3; k++) {
      const v = image.data[o + k];
      const chromaFree = v + (y - v) * remove;
      out[o + k] = clamp(Math.round(chromaFree + (target - y) * (toGrey > 0 ? 1 : 0)));
    }
  }
  return { image: { ...image, data: out }, removed: named.map((t) => t.word) };
}

/**
 * Magic Selector premium, step 1: the mask's edge feathered inwards. Pixels outside the mask stay 0
 * (untouched, byte-identical); inside, the change ramps up over `radius` pixels from the edge, so
 * the fill melts into the picture instead of ending at a hard line.
 */
export async function featherInward(mask: Buffer, width: number, height: number, radius: number): Promise<Buffer> {
  const soft = await sharp(mask, { raw: { width, height, channels: 1 } })
    .blur(Math.max(0.5, radius / 2))
    .extractChannel(0)
    .raw()
    .toBuffer();
  const out = Buffer.alloc(mask.length);
  for (let p = 0; p < mask.length; p++) {
    if (mask[p] === 0) continue;
    // blur(mask) is 255 deep inside and about half at the edge: stretch 128…255 to 0…255, then keep
    // the painted strength as the ceiling.
    const ramp = clamp(((soft[p] - 128) / 127) * 255, 0, 255);
    out[p] = Math.min(mask[p], Math.max(1, Math.round(ramp)));
  }
  return out;
}

/**
 * Magic Selector premium, step 2: detail matching. The replacement inside the mask takes the colour
 * statistics of the ring of picture around the mask (partly) and the fine grain of the picture, so a
 * fill neither glows in a different tone nor looks smoother than what surrounds it.
 */
export async function matchSurroundings(
  original: RawImage,
  replacement: RawImage,
  mask: Buffer,
  ring: number,
): Promise<RawImage> {
  const { width, height } = original;
  const grown = await sharp(mask, { raw: { width, height, channels: 1 } })
    .blur(Math.max(1, ring / 2))
    .extractChannel(0)
    .raw()
    .toBuffer();
  const c = original.channels;
  const sumO = [0, 0, 0];
  const sqO = [0, 0, 0];
  const sumR = [0, 0, 0];
  const sqR = [0, 0, 0];
  let nO = 0;
  let nR = 0;
  for (let p = 0; p < mask.length; p++) {
    if (mask[p] === 0 && grown[p] > 2) {
      for (let k = 0; k < 3; k++) {
        const v = original.data[p * c + k];
        sumO[k] += v;
        sqO[k] += v * v;
      }
      nO++;
    } else if (mask[p] > 0) {
      for (let k = 0; k < 3; k++) {
        const v = replacement.data[p * c + k];
        sumR[k] += v;
        sqR[k] += v * v;
      }
      nR++;
    }
  }
  if (nO === 0 || nR === 0) return replacement;
  const mO = sumO.map((s) => s / nO);
  const mR = sumR.map((s) => s / nR);
  const sO = sqO.map((s, k) => Math.sqrt(Math.max(1, s / nO - mO[k] * mO[k])));
  const sR = sqR.map((s, k) => Math.sqrt(Math.max(1, s / nR - mR[k] * mR[k])));
  const grain = await detailLayer(original, 1);
  const out = Buffer.from(replacement.data);
  const amount = 0.5;
  for (let p = 0; p < mask.length; p++) {
    if (mask[p] === 0) continue;
    for (let k = 0; k < 3; k++) {
      const v = replacement.data[p * c + k];
      const matched = (v - mR[k]) * clamp(sO[k] / sR[k], 0.5, 2) + mO[k];
      out[p * c + k] = clamp(Math.round(v + (matched - v) * amount + grain[p * 3 + k] * 0.5));
    }
  }
  return { ...replacement, data: out };
}
