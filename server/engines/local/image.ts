import type { Sharp } from 'sharp';
import { badRequest } from '../../platform/errors.ts';
import type {
  ComposeImageRequest,
  EditImageRequest,
  EngineCallOptions,
  EngineMetadata,
  ImageEngine,
  ImageResult,
  InpaintRequest,
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

import { drawPanel, ITERATIVE_PASSES, preserveSubject, subjectOf, weightedAverage } from './compose-blend.ts';
import { loadMask, maskBlend, surroundingsFill, withChannels } from './mask-fill.ts';

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
