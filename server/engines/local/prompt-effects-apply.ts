import { clamp } from './colour.ts';
import { EDIT_RULES } from './edit-ops.ts';
import type { EffectId, PlannedEffect } from './prompt-effects.ts';
import type { Rng } from './random.ts';
import { type RawImage, step } from './raw.ts';

// The pixel work for each effect readPromptEffects plans: sharp colour operations (modulate, linear,
// recomb, blur, sharpen, extract/resize) and seeded overlays (snow flakes, rain streaks).

interface ApplyContext {
  prompt: string;
  rng: Rng;
}

type Apply = (image: RawImage, ctx: ApplyContext) => Promise<RawImage>;

/** Mixes every pixel toward one colour: out = v·(1−t) + colour·t. */
function toward(image: RawImage, colour: readonly number[], t: number): RawImage {
  const out = Buffer.from(image.data);
  for (let i = 0; i < out.length; i += image.channels)
    for (let k = 0; k < 3; k++) out[i + k] = Math.round(image.data[i + k] * (1 - t) + (colour[k] ?? 0) * t);
  return { ...image, data: out };
}

/** Seeded snow: round white flakes of 1–3 px radius over ~0.6 % of the picture, brighter nearer the viewer. */
function snowFlakes(image: RawImage, rng: Rng): RawImage {
  const { width: w, height: h, channels: c } = image;
  const out = Buffer.from(image.data);
  const count = Math.round(w * h * 0.0015);
  const scale = Math.max(1, Math.min(w, h) / 512);
  for (let i = 0; i < count; i++) {
    const cx = rng.next() * w;
    const cy = rng.next() * h;
    const r = (1 + rng.next() * 2) * scale;
    const alpha = 0.6 + rng.next() * 0.4;
    for (let y = Math.max(0, Math.floor(cy - r)); y <= Math.min(h - 1, Math.ceil(cy + r)); y++) {
      for (let x = Math.max(0, Math.floor(cx - r)); x <= Math.min(w - 1, Math.ceil(cx + r)); x++) {
        const d = Math.hypot(x - cx, y - cy) / r;
        if (d > 1) continue;
        const a = alpha * (1 - d * d);
        const o = (y * w + x) * c;
        for (let k = 0; k < 3; k++) out[o + k] = Math.round(out[o + k] + (250 - out[o + k]) * a);
      }
    }
  }
  return { ...image, data: out };
}

/** Seeded rain: thin slanted light streaks. */
function rainStreaks(image: RawImage, rng: Rng): RawImage {
  const { width: w, height: h, channels: c } = image;
  const out = Buffer.from(image.data);
  const count = Math.round((w * h) / 900);
  const length = Math.max(6, Math.round(Math.min(w, h) / 25));
  for (let i = 0; i < count; i++) {
    const x0 = rng.next() * w;
    const y0 = rng.next() * h;
    for (let s = 0; s < length; s++) {
      const x = Math.round(x0 + s * 0.3);
      const y = Math.round(y0 + s);
      if (x >= w || y >= h) break;
      const o = (y * w + x) * c;
      for (let k = 0; k < 3; k++) out[o + k] = Math.round(out[o + k] + (215 - out[o + k]) * 0.45);
    }
  }
  return { ...image, data: out };
}

/** The centre 70 % of the picture enlarged back to its size. */
async function zoomIn(image: RawImage): Promise<RawImage> {
  const width = Math.max(8, Math.round(image.width * 0.7));
  const height = Math.max(8, Math.round(image.height * 0.7));
  return step(image, (s) =>
    s
      .extract({
        left: Math.floor((image.width - width) / 2),
        top: Math.floor((image.height - height) / 2),
        width,
        height,
      })
      .resize(image.width, image.height, { fit: 'fill', kernel: 'lanczos3' }),
  );
}

/** The picture at 75 % in the middle of a blurred, darkened copy of itself. */
async function zoomOut(image: RawImage): Promise<RawImage> {
  const width = Math.round(image.width * 0.75);
  const height = Math.round(image.height * 0.75);
  const small = await step(image, (s) => s.resize(width, height, { fit: 'fill' }));
  const back = await step(image, (s) => s.blur(Math.max(4, image.width / 40)).modulate({ brightness: 0.7 }));
  const out = Buffer.from(back.data);
  const left = Math.floor((image.width - width) / 2);
  const top = Math.floor((image.height - height) / 2);
  const c = image.channels;
  for (let y = 0; y < height; y++)
    small.data.copy(out, ((top + y) * image.width + left) * c, y * width * c, (y + 1) * width * c);
  return { ...image, data: out };
}

/** Darkens toward the corners (no darkening in the middle). */
function vignette(image: RawImage, amount: number): RawImage {
  const { width: w, height: h, channels: c } = image;
  const out = Buffer.from(image.data);
  const r = Math.hypot(w / 2, h / 2);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const d = Math.hypot(x - w / 2, y - h / 2) / r;
      const f = 1 - amount * clamp((d - 0.4) / 0.6, 0, 1) ** 2;
      const o = (y * w + x) * c;
      for (let k = 0; k < 3; k++) out[o + k] = Math.round(image.data[o + k] * f);
    }
  return { ...image, data: out };
}

const LEGACY: Partial<Record<EffectId, string>> = {
  blackAndWhite: 'black-and-white',
  vintage: 'vintage',
  warm: 'warm',
  cool: 'cool',
  vibrant: 'vibrant',
  muted: 'muted',
  brighten: 'brighten',
  darken: 'darken',
  contrast: 'contrast',
  relight: 'relight',
  blur: 'blur',
  sharpen: 'sharpen',
  cartoon: 'cartoon',
  painting: 'painting',
  sketch: 'sketch',
  pixelate: 'pixelate',
  emboss: 'emboss',
  invert: 'invert',
  neon: 'neon',
};

const APPLY: Partial<Record<EffectId, Apply>> = {
  snow: async (img, { rng }) =>
    snowFlakes(toward(await step(img, (s) => s.modulate({ saturation: 0.8 })), [235, 240, 250], 0.18), rng),
  winter: (img) => step(img, (s) => s.modulate({ saturation: 0.7 }).linear([0.88, 0.97, 1.1], [0, 6, 24])),
  rain: async (img, { rng }) =>
    rainStreaks(
      await step(img, (s) => s.modulate({ brightness: 0.78, saturation: 0.7 }).linear([0.94, 1, 1.06], [0, 2, 8])),
      rng,
    ),
  fog: async (img) => step(toward(img, [205, 208, 212], 0.45), (s) => s.blur(1.2)),
  sunset: (img) =>
    step(img, (s) => s.modulate({ brightness: 0.9, saturation: 1.15 }).linear([1.14, 0.94, 0.74], [20, 0, -12])),
  evening: (img) =>
    step(img, (s) => s.modulate({ brightness: 0.68, saturation: 0.85 }).linear([1.0, 0.9, 1.08], [4, 0, 14])),
  night: (img) =>
    step(img, (s) => s.modulate({ brightness: 0.45, saturation: 0.65 }).linear([0.8, 0.92, 1.18], [0, 2, 14])),
  morning: (img) =>
    step(img, (s) => s.modulate({ brightness: 1.06, saturation: 1.05 }).linear([1.04, 1.0, 0.97], [10, 6, 6])),
  noon: (img) => step(img, (s) => s.modulate({ brightness: 1.16 }).linear(1.08, -4)),
  hot: (img) => step(img, (s) => s.modulate({ saturation: 1.1 }).linear([1.12, 1.0, 0.76], [16, 6, -14])),
  autumn: (img) => step(img, (s) => s.modulate({ saturation: 1.15, hue: -18 }).linear([1.1, 0.96, 0.8], [10, 0, -8])),
  spring: (img) =>
    step(img, (s) => s.modulate({ brightness: 1.05, saturation: 1.18 }).linear([0.98, 1.08, 0.96], [6, 10, 4])),
  happy: (img) => step(img, (s) => s.modulate({ brightness: 1.1, saturation: 1.25 })),
  gloomy: (img) =>
    step(img, (s) => s.modulate({ brightness: 0.82, saturation: 0.55 }).linear([0.94, 0.98, 1.05], [0, 0, 6])),
  calm: (img) => step(img, (s) => s.modulate({ saturation: 0.85 }).linear(0.88, 18)),
  eerie: (img) =>
    step(img, (s) => s.modulate({ brightness: 0.75, saturation: 0.5 }).linear([0.85, 1.02, 0.95], [0, 6, 0])),
  romantic: (img) => step(img, (s) => s.linear([1.08, 0.96, 1.0], [14, 0, 8]).blur(0.5)),
  zoomIn,
  zoomOut,
  vignette: async (img) => vignette(img, 0.6),
  denoise: (img) => step(img, (s) => s.median(3)),
};

/** Applies the planned effects in order (tint with its colour); removeRegion is the caller's (it needs the mask). */
export async function applyEffects(
  image: RawImage,
  effects: readonly PlannedEffect[],
  ctx: ApplyContext,
): Promise<{ image: RawImage; operations: string[] }> {
  let current = image;
  const operations: string[] = [];
  for (const effect of effects) {
    const legacy = LEGACY[effect.id];
    const rule = legacy ? EDIT_RULES.find((r) => r.id === legacy) : undefined;
    const apply = APPLY[effect.id];
    if (rule) current = await rule.apply(current, { prompt: ctx.prompt });
    else if (apply) current = await apply(current, ctx);
    else if (effect.id === 'tint' && effect.colour) {
      const [r, g, b] = effect.colour;
      const t = 0.22;
      current = await step(current, (s) => s.linear([1 - t, 1 - t, 1 - t], [r * t, g * t, b * t]));
    } else continue;
    operations.push(legacy ?? effect.id);
  }
  return { image: current, operations };
}
