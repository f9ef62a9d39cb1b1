import sharp, { type Sharp } from 'sharp';
import { hex, mix } from './colour.ts';
import { hasPhrase } from './prompt-words.ts';
import { rngFor } from './random.ts';

// The procedural painter behind local text-to-image: it turns a prompt and seed into an SVG scene
// (gradient sky, light source, clouds or stars, layered ridges / skyline / trees / dunes / sea, a
// subject for portraits and products, light and vignette), rasterises it with sharp (librsvg) at up to
// RENDER_MAX_SIDE on the long side, resamples to the requested size with Lanczos and adds seeded grain.

/** Longest side the SVG is rasterised at; larger outputs are Lanczos-resampled from it. */
const RENDER_MAX_SIDE = 2048;
const GRAIN_TILE = 256;

import { type PaintInput, type PaintPlan, planPainting } from './painter-palette.ts';
import {
  abstractShapes,
  clouds,
  drawSubject,
  dunes,
  gradientDefs,
  mountainRange,
  nebula,
  portrait,
  product,
  ridgePath,
  sea,
  skyline,
  stars,
  subjectsIn,
  synthGrid,
  trees,
  weather,
} from './painter-scenes.ts';

/** The scene as an SVG document of the given size. */
function paintSvg(input: PaintInput, plan: PaintPlan, w: number, h: number): string {
  const rng = rngFor(input.prompt, input.seed, 'shapes');
  const { palette: p, reading } = plan;
  const negative = input.negativePrompt ?? '';
  const no = (word: string) => hasPhrase(negative, word);
  const night = reading.time === 'night';
  const horizonY = plan.horizon * h;
  const parts: string[] = [gradientDefs(p, plan, w, h)];
  parts.push(`<rect width="${w}" height="${h}" fill="url(#sky)"/>`);
  if ((night || reading.scene === 'space') && !no('stars'))
    parts.push(stars(rng, w, h, plan.horizon, night ? 260 : 160));
  if (reading.scene === 'space') parts.push(nebula(rng, p, w, h));
  parts.push(`<rect width="${w}" height="${h}" fill="url(#glow)"/>`);
  const lightR = plan.light.radius * Math.max(w, h);
  const overcast = ['storm', 'stormy', 'rain', 'rainy', 'overcast', 'cloudy'].some((word) =>
    hasPhrase(input.prompt, word),
  );
  if (!no('sun') && !no('moon') && !overcast && reading.scene !== 'product' && reading.scene !== 'abstract') {
    parts.push(
      `<circle cx="${(plan.light.x * w).toFixed(1)}" cy="${(plan.light.y * h).toFixed(1)}" r="${lightR.toFixed(1)}" fill="url(#disc)"/>`,
    );
  }
  if (!night && !no('clouds') && !no('cloud') && reading.scene !== 'space' && reading.scene !== 'product') {
    parts.push(clouds(rng, p, w, h, plan, reading.mood === 'epic' ? 9 : 5));
  }
  switch (reading.scene) {
    case 'sea':
      parts.push(
        `<path d="${ridgePath(rng, w, h, horizonY - h * 0.02, h * 0.04, true)}" fill="${hex(p.far)}" opacity="0.8"/>`,
      );
      parts.push(sea(rng, p, w, h, plan));
      break;
    case 'city':
      parts.push(
        `<path d="${ridgePath(rng, w, h, horizonY - h * 0.2, h * 0.05, true)}" fill="${hex(p.far)}" opacity="0.6"/>`,
      );
      parts.push(skyline(rng, p, w, h, horizonY - h * 0.05, mix(p.far, p.mid, 0.5), false, 1.2));
      parts.push(skyline(rng, p, w, h, horizonY, p.near, night || reading.styles.includes('neon'), 1));
      parts.push(
        `<rect x="0" y="${horizonY.toFixed(1)}" width="${w}" height="${(h - horizonY).toFixed(1)}" fill="url(#ground)"/>`,
      );
      break;
    case 'forest':
      parts.push(`<path d="${ridgePath(rng, w, h, horizonY - h * 0.15, h * 0.08, true)}" fill="${hex(p.far)}"/>`);
      parts.push(trees(rng, w, h, horizonY - h * 0.04, mix(p.far, p.mid, 0.6), 40, 0.16));
      parts.push(
        `<rect x="0" y="${(horizonY - h * 0.04).toFixed(1)}" width="${w}" height="${(h - horizonY + h * 0.04).toFixed(1)}" fill="url(#ground)"/>`,
      );
      parts.push(trees(rng, w, h, h * 1.02, p.near, 16, 0.5));
      break;
    case 'mountain': {
      const snowy = ['snow', 'snowy', 'winter', 'alps', 'ice', 'icy', 'glacier'].some((word) =>
        hasPhrase(input.prompt, word),
      );
      parts.push(mountainRange(rng, w, h, horizonY, h * 0.38, rng.int(2, 4), hex(p.far), snowy));
      parts.push(
        mountainRange(rng, w, h, horizonY + h * 0.06, h * 0.22, rng.int(3, 5), hex(p.mid), snowy && rng.chance(0.5)),
      );
      parts.push(`<path d="${ridgePath(rng, w, h, horizonY + h * 0.12, h * 0.04, true)}" fill="url(#ground)"/>`);
      break;
    }
    case 'desert':
      parts.push(`<path d="${ridgePath(rng, w, h, horizonY - h * 0.03, h * 0.03, true)}" fill="${hex(p.far)}"/>`);
      parts.push(dunes(rng, w, h, horizonY, p.mid, 4));
      break;
    case 'space':
      break;
    case 'portrait':
      parts.push(portrait(rng, p, w, h));
      break;
    case 'product':
      parts.push(product(rng, p, w, h));
      break;
    case 'abstract':
      parts.push(abstractShapes(rng, p, w, h, 34));
      break;
    default:
      parts.push(`<path d="${ridgePath(rng, w, h, horizonY - h * 0.12, h * 0.1, true)}" fill="${hex(p.far)}"/>`);
      parts.push(`<path d="${ridgePath(rng, w, h, horizonY - h * 0.03, h * 0.07, true)}" fill="${hex(p.mid)}"/>`);
      parts.push(`<path d="${ridgePath(rng, w, h, horizonY + h * 0.1, h * 0.06, true)}" fill="url(#ground)"/>`);
      if (rng.chance(0.6)) parts.push(trees(rng, w, h, horizonY + h * 0.12, p.near, 8, 0.12));
  }
  const drawn: string[] = [];
  if (!['portrait', 'product', 'space', 'abstract'].includes(reading.scene)) {
    for (const kind of subjectsIn(input.prompt)) {
      if (no(kind)) continue;
      parts.push(drawSubject(kind, rng, p, w, h, horizonY, reading.scene === 'sea'));
      drawn.push(kind);
    }
  }
  const sky = weather(input.prompt, rng, w, h);
  parts.push(sky.svg);
  plan.subjects = drawn;
  plan.weather = sky.kinds;
  if (reading.styles.includes('neon') && reading.scene !== 'portrait' && reading.scene !== 'product') {
    parts.push(synthGrid(p, w, h, horizonY));
  }
  if (reading.scene !== 'abstract' && reading.mood === 'upbeat') parts.push(abstractShapes(rng, p, w, h, 8, 0.3));
  parts.push(`<rect width="${w}" height="${h}" fill="url(#glow)" opacity="0.5"/>`);
  if (!reading.styles.includes('minimal')) parts.push(`<rect width="${w}" height="${h}" fill="url(#vignette)"/>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${parts.join('')}</svg>`;
}

/** A tileable seeded grey grain tile (RGB, mean 128), composited with the overlay blend. */
function grainTile(seed: number, amplitude: number, size: number): Buffer {
  const rng = rngFor('grain', seed);
  const buf = Buffer.alloc(size * size * 3);
  for (let i = 0; i < size * size; i++) {
    const v = Math.max(0, Math.min(255, Math.round(128 + rng.gauss() * amplitude)));
    buf[i * 3] = v;
    buf[i * 3 + 1] = v;
    buf[i * 3 + 2] = v;
  }
  return buf;
}

function dropAlpha(data: Buffer, pixels: number, channels: number): Buffer {
  const out = Buffer.alloc(pixels * 3);
  for (let p = 0; p < pixels; p++) {
    out[p * 3] = data[p * channels];
    out[p * 3 + 1] = data[p * channels + 1];
    out[p * 3 + 2] = data[p * channels + 2];
  }
  return out;
}

export interface Painting {
  /** The painted pixels, RGB, at the requested size (a sharp pipeline ready to encode). */
  image: Sharp;
  plan: PaintPlan;
  renderWidth: number;
  renderHeight: number;
}

/** Paints the prompt at width x height. Deterministic for the same input. */
export async function paint(input: PaintInput): Promise<Painting> {
  const plan = planPainting(input);
  const scale = Math.min(1, RENDER_MAX_SIDE / Math.max(input.width, input.height));
  const rw = Math.max(8, Math.round(input.width * scale));
  const rh = Math.max(8, Math.round(input.height * scale));
  const svg = paintSvg(input, plan, rw, rh);
  let pipeline = sharp(Buffer.from(svg), { density: 72 }).removeAlpha();
  if (rw !== input.width || rh !== input.height) {
    // Rasterise once, then Lanczos-resample: librsvg time grows with the pixel count.
    const raw = await pipeline.raw().toBuffer({ resolveWithObject: true });
    pipeline = sharp(raw.data, { raw: { width: raw.info.width, height: raw.info.height, channels: 3 } }).resize(
      input.width,
      input.height,
      { kernel: 'lanczos3', fit: 'fill' },
    );
  }
  const styles = plan.reading.styles;
  if (styles.includes('watercolor')) pipeline = pipeline.blur(Math.max(0.8, Math.min(input.width, input.height) / 600));
  const noGrain = hasPhrase(input.negativePrompt ?? '', 'grain') || hasPhrase(input.negativePrompt ?? '', 'noise');
  if (plan.grain > 0 && !noGrain) {
    const flat = await pipeline.raw().toBuffer({ resolveWithObject: true });
    const tile = Math.min(GRAIN_TILE, flat.info.width, flat.info.height);
    pipeline = sharp(flat.data, { raw: { width: flat.info.width, height: flat.info.height, channels: 3 } }).composite([
      {
        input: grainTile(input.seed, plan.grain, tile),
        raw: { width: tile, height: tile, channels: 3 },
        tile: true,
        blend: 'soft-light',
      },
    ]);
  }
  if (styles.includes('vintage'))
    pipeline = pipeline
      .recomb([
        [0.393, 0.769, 0.189],
        [0.349, 0.686, 0.168],
        [0.272, 0.534, 0.131],
      ])
      .modulate({ saturation: 0.85 });
  if (styles.includes('comic')) pipeline = pipeline.median(3).linear(1.15, -18);
  // Composite leaves an alpha band behind; the painting is opaque RGB.
  const { data, info } = await pipeline.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const rgb = info.channels === 3 ? data : dropAlpha(data, info.width * info.height, info.channels);
  const image = sharp(rgb, { raw: { width: info.width, height: info.height, channels: 3 } });
  return { image, plan, renderWidth: rw, renderHeight: rh };
}
