import sharp, { type Sharp } from 'sharp';
import { badRequest } from '../../platform/errors.ts';
import type {
  ComposeImageRequest,
  EditImageRequest,
  EngineCallOptions,
  EngineMetadata,
  ImageEngine,
  ImageResult,
  InpaintRequest,
  MediaBuffer,
  TextToImageRequest,
} from '../types.ts';
import { clamp } from './colour.ts';
import { colourTransfer, EDIT_RULES, posterize } from './edit-ops.ts';
import { canPaintObject, paintObject, previewNote, readObjectPrompt, textureFill } from './inpaint-fill.ts';
import { paint } from './painter.ts';
import { previewSummary, readNegativeEffects, readPromptEffects } from './prompt-effects.ts';
import { applyEffects } from './prompt-effects-apply.ts';
import { hasPhrase, readingSummary } from './prompt-words.ts';
import { resolveSeed, rngFor } from './random.ts';
import { decode, encode, formatOf, fromRaw, meanColour, type RawImage, resizeRaw, step } from './raw.ts';
import { applyReferenceRoles } from './reference-roles.ts';
import {
  addDetail,
  featherInward,
  matchSurroundings,
  referenceDetail,
  restoreSpread,
  smooth,
  structureWithColour,
  suppressColours,
  weightedSpread,
} from './refine.ts';

/** Largest side the local image engine renders (8K). */
const LOCAL_IMAGE_MAX_SIDE = 8192;

function checkSize(width: number, height: number): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 8 || height < 8) {
    throw badRequest(`Invalid image size: ${width}x${height}`);
  }
  if (width > LOCAL_IMAGE_MAX_SIDE || height > LOCAL_IMAGE_MAX_SIDE) {
    throw badRequest(`Image size ${width}x${height} exceeds ${LOCAL_IMAGE_MAX_SIDE} px`);
  }
}

function throwIfAborted(options?: EngineCallOptions): void {
  options?.signal?.throwIfAborted();
}

/** Encodes the finished picture in the requested format and reports the call complete. */
async function finishImage(
  picture: Sharp,
  outputFormat: string | undefined,
  options: EngineCallOptions | undefined,
  seed: number | undefined,
  metadata: EngineMetadata,
): Promise<ImageResult> {
  const out = await encode(picture, formatOf(outputFormat));
  options?.onProgress?.(1, 0);
  return { ...out, seed, metadata };
}

function ruleById(id: string) {
  const rule = EDIT_RULES.find((r) => r.id === id);
  if (!rule) throw new Error(`unknown edit rule ${id}`);
  return rule;
}

/** Pixel-wise: out = a + (b - a) * mask/255, where mask 0 keeps a's bytes exactly. */
function maskBlend(a: RawImage, b: RawImage, mask: Buffer): RawImage {
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
function withChannels(image: RawImage, like: RawImage): RawImage {
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
async function loadMask(mask: MediaBuffer, width: number, height: number): Promise<{ mask: Buffer; box: Box | null }> {
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
function surroundingsFill(image: RawImage, mask: Buffer, box: Box): RawImage {
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

/** How many passes compositionMode iterative-refinement runs. */
const ITERATIVE_PASSES = 3;

/** The subject reference: role subject/character/product, else the heaviest. */
function subjectOf(layers: Array<{ role?: string }>, weights: number[]): number {
  const byRole = layers.findIndex((l) => /subject|character|product|person|main/i.test(l.role ?? ''));
  if (byRole >= 0) return byRole;
  return weights.indexOf(Math.max(...weights));
}

/** Per-pixel weighted average of same-size RGB images (weights renormalised). */
function weightedAverage(images: RawImage[], weights: number[]): RawImage {
  const total = weights.reduce((s, x) => s + x, 0) || 1;
  const first = images[0];
  const acc = new Float32Array(first.width * first.height * 3);
  images.forEach((image, i) => {
    const wt = (weights[i] ?? 0) / total;
    for (let p = 0; p < acc.length; p++) acc[p] += image.data[p] * wt;
  });
  const data = Buffer.alloc(acc.length);
  for (let p = 0; p < acc.length; p++) data[p] = Math.round(acc[p]);
  return { data, width: first.width, height: first.height, channels: 3 };
}

/** high-fidelity-preservation: the frame leans halfway to the subject, a centre panel (80 %) shows it at 92 %. */
function preserveSubject(blend: RawImage, subject: RawImage): RawImage {
  const { width: w, height: h } = blend;
  const out = Buffer.alloc(blend.data.length);
  const x0 = w * 0.1;
  const y0 = h * 0.1;
  const feather = Math.max(2, Math.min(w, h) * 0.04);
  for (let y = 0; y < h; y++) {
    const fy = clamp(Math.min(y - y0, h - y0 - y) / feather, 0, 1);
    for (let x = 0; x < w; x++) {
      const f = fy * clamp(Math.min(x - x0, w - x0 - x) / feather, 0, 1);
      const t = 0.5 + (0.92 - 0.5) * f;
      const p = (y * w + x) * 3;
      for (let c = 0; c < 3; c++)
        out[p + c] = Math.round(blend.data[p + c] + (subject.data[p + c] - blend.data[p + c]) * t);
    }
  }
  return { ...blend, data: out };
}

/**
 * Draws `src` (same size, RGB) over `data` as a feathered panel `scale` of the frame, centred and
 * moved by `offset` (fractions of the frame), at opacity `alpha`.
 */
function drawPanel(
  data: Buffer,
  w: number,
  h: number,
  src: Buffer,
  alpha: number,
  scale: number,
  offset: { x: number; y: number },
): void {
  const pw = w * scale;
  const ph = h * scale;
  const x0 = (w - pw) / 2 + offset.x * w;
  const y0 = (h - ph) / 2 + offset.y * h;
  const feather = Math.min(pw, ph) * 0.2;
  for (let y = Math.max(0, Math.floor(y0)); y < Math.min(h, Math.ceil(y0 + ph)); y++) {
    const fy = clamp(Math.min(y - y0, y0 + ph - y) / feather, 0, 1);
    for (let x = Math.max(0, Math.floor(x0)); x < Math.min(w, Math.ceil(x0 + pw)); x++) {
      const f = fy * clamp(Math.min(x - x0, x0 + pw - x) / feather, 0, 1) * alpha;
      if (f <= 0) continue;
      const p = (y * w + x) * 3;
      for (let c = 0; c < 3; c++) data[p + c] = Math.round(data[p + c] + (src[p + c] - data[p + c]) * f);
    }
  }
}

/** The local image engine: procedural painting, prompt-driven edits, weighted composition, masked fills. */
export class LocalImageEngine implements ImageEngine {
  readonly name = 'local';

  async textToImage(request: TextToImageRequest, options?: EngineCallOptions): Promise<ImageResult> {
    checkSize(request.width, request.height);
    throwIfAborted(options);
    const seed = resolveSeed(request.prompt, request.seed);
    const referenceColours = await Promise.all((request.referenceImages ?? []).slice(0, 10).map((r) => meanColour(r)));
    const painting = await paint({
      prompt: request.prompt,
      negativePrompt: request.negativePrompt,
      width: request.width,
      height: request.height,
      seed,
      style: request.style,
      referenceColours,
    });
    throwIfAborted(options);
    const { reading, palette, horizon } = painting.plan;
    return finishImage(painting.image, request.outputFormat, options, seed, {
      engine: 'local',
      model: request.model,
      operation: 'text-to-image',
      seed,
      ...readingSummary(reading),
      horizon: Math.round(horizon * 1000) / 1000,
      subjects: painting.plan.subjects,
      weather: painting.plan.weather,
      palette: Object.fromEntries(Object.entries(palette).map(([k, v]) => [k, v.map(Math.round)])),
      referenceGuidance: referenceColours.length,
      renderSize: `${painting.renderWidth}x${painting.renderHeight}`,
    });
  }

  async edit(request: EditImageRequest, options?: EngineCallOptions): Promise<ImageResult> {
    let image = await decode(request.image, true);
    if (request.width && request.height) {
      checkSize(request.width, request.height);
      image = await resizeRaw(image, request.width, request.height, 'cover');
    }
    const reference = request.reference ? await decode(request.reference) : undefined;
    throwIfAborted(options);
    const seed = resolveSeed(request.prompt, request.seed);
    const plan = readPromptEffects(request.prompt);
    const operations: string[] = [];
    let current = image;
    if (reference) {
      current = colourTransfer(current, reference, 0.85);
      operations.push('colour-transfer');
    }
    const rng = rngFor(request.prompt, seed, 'edit');
    const effects = await applyEffects(current, plan.effects, { prompt: request.prompt, rng });
    current = effects.image;
    operations.push(...effects.operations);
    let fallback: string | undefined;
    if (operations.length === 0) {
      // Nothing in the prompt is an image operation: an automatic enhance, and the result says so.
      current = await step(current, (s) => s.normalise({ lower: 1, upper: 99 }).sharpen({ sigma: 1 }));
      operations.push('auto-enhance');
      fallback = 'automatic enhance';
    }
    return finishImage(fromRaw(current), request.outputFormat, options, seed, {
      engine: 'local',
      model: request.model,
      operation: 'edit',
      operations,
      reference: Boolean(reference),
      preview: previewSummary(plan.applied, plan.notApplied, plan.removals, fallback),
    });
  }

  async compose(request: ComposeImageRequest, options?: EngineCallOptions): Promise<ImageResult> {
    checkSize(request.width, request.height);
    if (request.images.length === 0) throw badRequest('At least one image is required');
    const { width: w, height: h } = request;
    const seed = resolveSeed(request.prompt, request.seed);
    const rng = rngFor(request.prompt, seed, 'compose');
    const layers = await Promise.all(
      request.images.map(async (item) => ({
        image: await resizeRaw(await decode(item.image), w, h, 'cover'),
        weight: clamp(Number.isFinite(item.weight) ? item.weight : 0.5, 0, 1),
        role: item.role,
      })),
    );
    throwIfAborted(options);
    const total = layers.reduce((s, l) => s + l.weight, 0);
    const weights = layers.map((l) => (total > 0 ? l.weight / total : 1 / layers.length));
    const mode = (request.blendMode ?? 'weighted').toLowerCase();
    const n = w * h;
    let data: Buffer;
    const layout: string[] = [];
    if (mode === 'sequential') {
      // Vertical bands, each as wide as its weight, feathered into the next.
      data = Buffer.alloc(n * 3);
      const edges: number[] = [];
      let acc = 0;
      for (const wt of weights) {
        acc += wt;
        edges.push(acc * w);
      }
      const feather = Math.max(2, w * 0.03);
      for (let x = 0; x < w; x++) {
        const contrib = weights.map((_, i) => {
          const start = i === 0 ? -Infinity : edges[i - 1];
          const end = i === weights.length - 1 ? Infinity : edges[i];
          return clamp((x - start + feather / 2) / feather, 0, 1) * clamp((end - x + feather / 2) / feather, 0, 1);
        });
        const sum = contrib.reduce((s, v) => s + v, 0) || 1;
        for (let y = 0; y < h; y++) {
          const p = (y * w + x) * 3;
          for (let c = 0; c < 3; c++) {
            let v = 0;
            for (let i = 0; i < layers.length; i++) if (contrib[i] > 0) v += layers[i].image.data[p + c] * contrib[i];
            data[p + c] = Math.round(v / sum);
          }
        }
      }
      layout.push('bands');
    } else if (mode === 'random') {
      // A seeded mosaic: each cell shows one image, chosen with probability equal to its weight.
      data = Buffer.alloc(n * 3);
      const cols = 8;
      const rows = Math.max(1, Math.round((8 * h) / w));
      const pick: number[] = [];
      for (let i = 0; i < cols * rows; i++) {
        let r = rng.next();
        let chosen = weights.length - 1;
        for (let k = 0; k < weights.length; k++) {
          if (r < weights[k]) {
            chosen = k;
            break;
          }
          r -= weights[k];
        }
        pick.push(chosen);
      }
      for (let y = 0; y < h; y++) {
        const row = Math.min(rows - 1, Math.floor((y / h) * rows));
        for (let x = 0; x < w; x++) {
          const col = Math.min(cols - 1, Math.floor((x / w) * cols));
          const src = layers[pick[row * cols + col]].image.data;
          const p = (y * w + x) * 3;
          data[p] = src[p];
          data[p + 1] = src[p + 1];
          data[p + 2] = src[p + 2];
        }
      }
      layout.push(`mosaic ${cols}x${rows}`);
    } else if (mode === 'layered' && layers.length > 1) {
      // Layers stacked in list order: the first fills the frame, each next one is a feathered centre
      // panel a little smaller than the one below, its opacity its weight relative to the heaviest.
      data = Buffer.from(layers[0].image.data);
      const heaviest = Math.max(...weights) || 1;
      for (let i = 1; i < layers.length; i++) {
        const scale = 0.9 - (0.4 * (i - 1)) / Math.max(1, layers.length - 2);
        drawPanel(data, w, h, layers[i].image.data, weights[i] / heaviest, scale, { x: 0, y: 0 });
      }
      layout.push(`layers:${layers.length}`);
    } else {
      // weighted (and the refinement modes): a per-pixel weighted average of every reference…
      const acc = new Float32Array(n * 3);
      for (let i = 0; i < layers.length; i++) {
        const src = layers[i].image.data;
        const wt = weights[i];
        if (wt === 0) continue;
        for (let p = 0; p < n * 3; p++) acc[p] += src[p] * wt;
      }
      data = Buffer.alloc(n * 3);
      for (let p = 0; p < n * 3; p++) data[p] = Math.round(acc[p]);
      layout.push('weighted-blend');
      // …then the subject (role subject/character/product, else the heaviest) laid out as a feathered
      // panel whose opacity is its weight × (0.4 + 0.6 · strength), so heavier references dominate
      // visibly; the seed places it (up to 12 % off centre), so each variation differs.
      const subjectIndex = subjectOf(layers, weights);
      if (layers.length > 1 && (mode === 'weighted' || mode === 'advanced-composition')) {
        const alpha = weights[subjectIndex] * (0.4 + 0.6 * clamp(request.strength ?? 0.75, 0, 1));
        const offset = { x: rng.range(-0.12, 0.12), y: rng.range(-0.12, 0.12) };
        drawPanel(data, w, h, layers[subjectIndex].image.data, alpha, 0.5 + 0.3 * weights[subjectIndex], offset);
        layout.push(`subject-panel:${subjectIndex}`);
      }
    }
    let result: RawImage = { data, width: w, height: h, channels: 3 };
    const images = layers.map((l) => l.image);
    const composition = (request.compositionMode ?? 'multi-image-composition').toLowerCase();
    const operations: string[] = [];
    const subjectIndex = subjectOf(layers, weights);
    if (composition === 'high-fidelity-preservation') {
      // The subject reference is kept nearly as it is: a large, barely feathered panel at 92 %
      // opacity, and the rest of the frame leans halfway to it.
      result = preserveSubject(result, images[subjectIndex]);
      operations.push(`preserve-subject:${subjectIndex}`);
    } else if (composition === 'advanced-composition' && layers.length > 1) {
      // Structure from the composition reference (role composition, else the subject), colour from
      // the weighted blend of the others.
      const byRole = layers.findIndex((l) => /composition|layout|structure/i.test(l.role ?? ''));
      const structureIndex = byRole >= 0 ? byRole : subjectIndex;
      const others = weightedAverage(
        images.filter((_, i) => i !== structureIndex),
        weights.filter((_, i) => i !== structureIndex),
      );
      result = structureWithColour(images[structureIndex], others);
      operations.push(`structure-from:${structureIndex}`);
    }
    const strength = clamp(request.strength ?? 0.75, 0, 1);
    const roles = applyReferenceRoles(result, layers, strength);
    result = roles.image;
    operations.push(...roles.operations);
    const plan = readPromptEffects(request.prompt);
    const negativePlan = readNegativeEffects(request.negativePrompt);
    // An effect the negative prompt names ("blur" in the negative prompt) is not applied.
    const effects = plan.effects.filter((e) => !e.words.some((word) => hasPhrase(request.negativePrompt ?? '', word)));
    const passes = composition === 'iterative-refinement' ? ITERATIVE_PASSES : 1;
    const spread = weightedSpread(images, weights);
    for (let pass = 0; pass < passes; pass++) {
      if (effects.length > 0 && strength > 0) {
        const edited = await applyEffects(result, effects, {
          prompt: request.prompt,
          rng: rngFor(request.prompt, seed, `pass-${pass}`),
        });
        if (pass === 0) operations.push(...edited.operations);
        const mixed = Buffer.alloc(result.data.length);
        for (let p = 0; p < mixed.length; p++)
          mixed[p] = Math.round(result.data[p] * (1 - strength) + edited.image.data[p] * strength);
        result = { ...result, data: mixed };
      }
      if (passes > 1) {
        // Each refinement pass gives back half the contrast the averaging took and crisps the edges.
        result = await step(restoreSpread(result, spread, 0.5), (s) => s.sharpen({ sigma: 0.8 }));
        operations.push(`refinement-pass-${pass + 1}`);
      }
    }
    if (mode === 'iterative-refinement' || mode === 'advanced-composition') {
      result = await step(result, (s) => s.sharpen({ sigma: 1 }).modulate({ saturation: 1.05 }));
      operations.push('refine');
    }
    const preserveDetails = request.preserveDetails ?? true;
    if (preserveDetails) {
      // The references' fine detail, which the blend and the edits soften, re-added on top.
      const lost = 1 - weights.reduce((s, x) => s + x * x, 0);
      result = addDetail(result, await referenceDetail(images, weights), 0.35 + lost);
      operations.push('detail-layer');
    } else {
      result = await smooth(result, 1.2);
      operations.push('smooth');
    }
    const negative = suppressColours(result, request.negativePrompt);
    result = negative.image;
    if (negative.removed.length > 0) operations.push(`remove-colours:${negative.removed.join(',')}`);
    if (negativePlan.effects.length > 0) {
      // Defects the negative prompt names, countered: blurry → sharpen, noisy → denoise, dark → brighten…
      const countered = await applyEffects(result, negativePlan.effects, { prompt: request.prompt, rng });
      result = countered.image;
      operations.push(...countered.operations.map((op) => `negative:${op}`));
    }
    const applied = [
      ...plan.applied.filter((word) => effects.some((e) => e.words.includes(word))),
      ...negativePlan.applied,
    ];
    return finishImage(fromRaw(result), request.outputFormat, options, seed, {
      engine: 'local',
      model: request.model,
      operation: 'compose',
      blendMode: mode,
      compositionMode: composition,
      preserveDetails,
      weights: weights.map((x) => Math.round(x * 1000) / 1000),
      layout,
      operations,
      preview: previewSummary(applied, [...plan.notApplied, ...negativePlan.notApplied], plan.removals),
    });
  }

  async inpaint(request: InpaintRequest, options?: EngineCallOptions): Promise<ImageResult> {
    const image = await decode(request.image, true);
    const { width, height } = image;
    const { mask, box } = await loadMask(request.mask, width, height);
    const mode = (request.mode || 'inpaint').toLowerCase();
    const seed = resolveSeed(request.prompt, request.seed);
    const strength = clamp(request.styleStrength ?? 0.75, 0, 1);
    const operations: string[] = [];
    let replacement: RawImage = image;
    let preview = previewNote([`${mode} inside the marked area`], []);
    if (box) {
      throwIfAborted(options);
      if (mode === 'replace') {
        if (!request.reference) throw badRequest('Please upload a reference image for replacement');
        // The reference, fitted to the mask's bounding box, placed where the mask is.
        const ref = await resizeRaw(await decode(request.reference), box.width, box.height, 'cover');
        const canvas = Buffer.from(image.data);
        for (let y = 0; y < box.height; y++) {
          for (let x = 0; x < box.width; x++) {
            const dst = ((box.top + y) * width + box.left + x) * image.channels;
            const src = (y * box.width + x) * 3;
            canvas[dst] = ref.data[src];
            canvas[dst + 1] = ref.data[src + 1];
            canvas[dst + 2] = ref.data[src + 2];
          }
        }
        replacement = { ...image, data: canvas };
        operations.push('replace-with-reference');
      } else if (mode === 'style-transfer') {
        if (!request.reference) throw badRequest('Please upload a reference image for style transfer');
        const ref = await decode(request.reference);
        const styled = await ruleById('painting').apply(colourTransfer(image, ref, 1), { prompt: request.prompt });
        replacement = withChannels(styled, image);
        // styleStrength scales the change inside the mask
        for (let p = 0; p < mask.length; p++) mask[p] = Math.round(mask[p] * strength);
        operations.push('style-transfer');
      } else if (
        mode === 'add-remove' &&
        /\b(remove|erase|delete|get rid of|without|clean up)\b/i.test(request.prompt)
      ) {
        replacement = textureFill(image, surroundingsFill(image, mask, box), mask, box, rngFor(request.prompt, seed));
        operations.push('remove-fill-from-surroundings', 'texture-from-surroundings');
        preview = previewNote(['remove: the marked area filled with colour and texture from its surroundings'], []);
      } else if ((mode === 'add-remove' || mode === 'inpaint') && canPaintObject(request.prompt)) {
        const painted = await paintObject(image, mask, box, request.prompt, rngFor(request.prompt, seed));
        replacement = painted.image;
        preview = painted.preview;
        operations.push('paint-in-mask-shape');
      } else if (mode === 'photorealistic') {
        replacement = withChannels(
          await step(image, (s) =>
            s.removeAlpha().sharpen({ sigma: 1.2 }).linear(1.12, -12).modulate({ saturation: 1.08 }),
          ),
          image,
        );
        operations.push('photorealistic-detail');
      } else if (mode === 'stylized' || mode === 'comic-panel') {
        const base = await step(image, (s) => s.removeAlpha());
        const styled =
          mode === 'comic-panel'
            ? posterize(await ruleById('cartoon').apply(base, { prompt: request.prompt }), 4)
            : await ruleById('painting').apply(base, { prompt: request.prompt });
        replacement = withChannels(styled, image);
        operations.push(mode);
      } else {
        // inpaint / add: a texture painted from the prompt, matched to the surrounding colours.
        const draft = request.quality === 'draft';
        const pw = Math.max(16, Math.round(box.width / (draft ? 2 : 1)));
        const ph = Math.max(16, Math.round(box.height / (draft ? 2 : 1)));
        const painting = await paint({ prompt: request.prompt, width: pw, height: ph, seed });
        const painted = await resizeRaw(
          await step({ data: await painting.image.raw().toBuffer(), width: pw, height: ph, channels: 3 }, (s) => s),
          box.width,
          box.height,
          'fill',
        );
        const surroundings = surroundingsFill(image, mask, box);
        const canvas = Buffer.from(surroundings.data);
        for (let y = 0; y < box.height; y++) {
          for (let x = 0; x < box.width; x++) {
            const dst = ((box.top + y) * width + box.left + x) * image.channels;
            const src = (y * box.width + x) * 3;
            // 80 % painted texture, 20 % the surroundings, so the fill sits in the picture
            for (let c = 0; c < 3; c++)
              canvas[dst + c] = Math.round(painted.data[src + c] * 0.8 + canvas[dst + c] * 0.2);
          }
        }
        replacement = { ...image, data: canvas };
        operations.push('generated-texture', hasPhrase(request.prompt, 'add') ? 'add' : 'fill');
        const { rest } = readObjectPrompt(request.prompt);
        preview = previewNote(['a texture painted from the prompt inside the marked area'], rest);
      }
    }
    let finalMask = mask;
    if (box && request.quality === 'premium') {
      // Premium: the fill takes the tone and grain of the picture around the mask, and the mask's
      // edge is feathered inwards so the change fades in (pixels outside the mask stay untouched).
      const radius = Math.max(3, Math.round(Math.min(box.width, box.height) * 0.12));
      replacement = await matchSurroundings(image, replacement, mask, radius * 2);
      // A removal keeps a narrow feather: a wide one would let the removed object's edge show through.
      const removing = operations.includes('texture-from-surroundings');
      finalMask = await featherInward(mask, width, height, removing ? 2 : radius);
      operations.push('match-surroundings', 'feathered-edge');
    }
    const result = box ? maskBlend(image, replacement, finalMask) : image;
    const changed = mask.reduce((s, v) => s + (v > 0 ? 1 : 0), 0);
    return finishImage(fromRaw(result), request.outputFormat, options, seed, {
      engine: 'local',
      model: request.model,
      operation: 'inpaint',
      mode,
      operations,
      quality: request.quality ?? 'standard',
      maskedPixels: changed,
      maskBox: box,
      preview: box ? preview : previewNote([], ['an empty mask: nothing was marked']),
    });
  }
}
