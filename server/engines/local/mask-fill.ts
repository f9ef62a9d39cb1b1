// Masks of the local image engine: loading a mask, blending through it, and filling its hole from the surroundings.
import sharp from 'sharp';
import type { MediaBuffer } from '../types.ts';
import { clamp } from './colour.ts';
import type { RawImage } from './raw.ts';

/** Pixel-wise: out = a + (b - a) * mask/255, where mask 0 keeps a's bytes exactly. */
export function maskBlend(a: RawImage, b: RawImage, mask: Buffer): RawImage {
  const out = Buffer.from(a.data);
  const c = a.channels;
  const colourChannels = 3;
  for (let p = 0; p < mask.length; p++) {
    const m = mask[p];
    if (m === 0) continue;
    const t = m / 255;
    const o = p * c;
    for (let k = 0; k < colourChannels; k++)
      out[o + k] = Math.round(a.data[o + k] + (b.data[o + k] - a.data[o + k]) * t);
  }
  return { ...a, data: out };
}

/** Matches channel count (3/4) so two raw images can be blended; alpha comes from `like`. */
export function withChannels(image: RawImage, like: RawImage): RawImage {
  if (image.channels === like.channels) return image;
  const n = image.width * image.height;
  const out = Buffer.alloc(n * like.channels);
  for (let p = 0; p < n; p++) {
    for (let k = 0; k < 3; k++) out[p * like.channels + k] = image.data[p * image.channels + k];
    if (like.channels === 4) out[p * 4 + 3] = like.data[p * 4 + 3];
  }
  return { ...image, data: out, channels: like.channels };
}

/** The white area of the mask as one byte per pixel at the image size; values under 3 count as black. */
export async function loadMask(
  mask: MediaBuffer,
  width: number,
  height: number,
): Promise<{ mask: Buffer; box: Box | null }> {
  const { data } = await sharp(mask.data)
    .rotate()
    .flatten({ background: '#000000' })
    .greyscale()
    .resize(width, height, { fit: 'fill', kernel: 'nearest' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let p = 0; p < data.length; p++) {
    if (data[p] < 3) {
      data[p] = 0;
      continue;
    }
    const x = p % width;
    const y = (p - x) / width;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return { mask: data, box: x1 < 0 ? null : { left: x0, top: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 } };
}

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** One level of the push-pull pyramid: premultiplied-free colours (3 per cell) and a 0–1 weight per cell. */
interface FillLevel {
  width: number;
  height: number;
  colour: Float32Array;
  weight: Float32Array;
}

/** Push: each coarser cell is the weight-averaged colour of its (up to) 2×2 children, weight min(1, Σw). */
function pushLevel(fine: FillLevel): FillLevel {
  const width = Math.ceil(fine.width / 2);
  const height = Math.ceil(fine.height / 2);
  const colour = new Float32Array(width * height * 3);
  const weight = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sw = 0;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let dy = 0; dy < 2; dy++) {
        const fy = 2 * y + dy;
        if (fy >= fine.height) break;
        for (let dx = 0; dx < 2; dx++) {
          const fx = 2 * x + dx;
          if (fx >= fine.width) break;
          const q = fy * fine.width + fx;
          const w = fine.weight[q];
          if (w === 0) continue;
          sw += w;
          r += w * fine.colour[q * 3];
          g += w * fine.colour[q * 3 + 1];
          b += w * fine.colour[q * 3 + 2];
        }
      }
      const p = y * width + x;
      if (sw > 0) {
        colour[p * 3] = r / sw;
        colour[p * 3 + 1] = g / sw;
        colour[p * 3 + 2] = b / sw;
        weight[p] = Math.min(1, sw);
      }
    }
  }
  return { width, height, colour, weight };
}

/** The colour of a (fully filled) coarse level under a fine cell, bilinear between coarse cell centres. */
function sampleUp(coarse: FillLevel, fx: number, fy: number, out: Float32Array): void {
  const cx = Math.min(coarse.width - 1, Math.max(0, (fx + 0.5) / 2 - 0.5));
  const cy = Math.min(coarse.height - 1, Math.max(0, (fy + 0.5) / 2 - 0.5));
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const x1 = Math.min(coarse.width - 1, x0 + 1);
  const y1 = Math.min(coarse.height - 1, y0 + 1);
  const tx = cx - x0;
  const ty = cy - y0;
  const a = (y0 * coarse.width + x0) * 3;
  const b = (y0 * coarse.width + x1) * 3;
  const c = (y1 * coarse.width + x0) * 3;
  const d = (y1 * coarse.width + x1) * 3;
  for (let k = 0; k < 3; k++) {
    const top = coarse.colour[a + k] + (coarse.colour[b + k] - coarse.colour[a + k]) * tx;
    const bottom = coarse.colour[c + k] + (coarse.colour[d + k] - coarse.colour[c + k]) * tx;
    out[k] = top + (bottom - top) * ty;
  }
}

/** Pull: every cell becomes w·own + (1−w)·coarser, so unknown cells take the coarser level's fill. */
function pullLevel(fine: FillLevel, coarse: FillLevel): void {
  const up = new Float32Array(3);
  for (let y = 0; y < fine.height; y++) {
    for (let x = 0; x < fine.width; x++) {
      const p = y * fine.width + x;
      const w = fine.weight[p];
      if (w >= 1) continue;
      sampleUp(coarse, x, y, up);
      for (let k = 0; k < 3; k++) fine.colour[p * 3 + k] = w * fine.colour[p * 3 + k] + (1 - w) * up[k];
      fine.weight[p] = 1;
    }
  }
}

/**
 * Fills the masked area from its surroundings at any hole size: a push-pull pyramid on float buffers.
 * Known pixels (weight 1 − mask/255) are averaged down level by level until one cell covers the area,
 * then each level is filled from the coarser one on the way back up (bilinear), so the middle of a large
 * hole takes the surroundings' colours instead of fading to black. Pixels outside the mask keep their
 * bytes; the work is limited to the mask's box widened by its own size on each side.
 */
export function surroundingsFill(image: RawImage, mask: Buffer, box: Box): RawImage {
  const { width, height, channels } = image;
  const margin = Math.max(box.width, box.height);
  const left = Math.max(0, box.left - margin);
  const top = Math.max(0, box.top - margin);
  const right = Math.min(width, box.left + box.width + margin);
  const bottom = Math.min(height, box.top + box.height + margin);
  const base: FillLevel = {
    width: right - left,
    height: bottom - top,
    colour: new Float32Array((right - left) * (bottom - top) * 3),
    weight: new Float32Array((right - left) * (bottom - top)),
  };
  let known = 0;
  for (let y = 0; y < base.height; y++) {
    for (let x = 0; x < base.width; x++) {
      const q = y * base.width + x;
      const p = (top + y) * width + left + x;
      const w = (255 - mask[p]) / 255;
      base.weight[q] = w;
      known += w;
      for (let k = 0; k < 3; k++) base.colour[q * 3 + k] = image.data[p * channels + k];
    }
  }
  // Nothing around the hole is known (the mask covers everything): the picture's own mean colour.
  if (known === 0) base.weight.fill(1 / 255);
  const levels = [base];
  let level = base;
  while (level.width > 1 || level.height > 1) {
    level = pushLevel(level);
    levels.push(level);
  }
  for (let i = levels.length - 2; i >= 0; i--) pullLevel(levels[i] as FillLevel, levels[i + 1] as FillLevel);
  const out = Buffer.from(image.data);
  for (let y = 0; y < base.height; y++) {
    for (let x = 0; x < base.width; x++) {
      const p = (top + y) * width + left + x;
      if (mask[p] === 0) continue;
      const q = y * base.width + x;
      for (let k = 0; k < 3; k++) out[p * channels + k] = clamp(Math.round(base.colour[q * 3 + k]));
    }
  }
  return { ...image, data: out };
}
