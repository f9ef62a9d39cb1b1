// Pixel work of the local engine's compose: weighted averages, the subject reference and feathered panels.
import { clamp } from './colour.ts';
import type { RawImage } from './raw.ts';

/** How many passes compositionMode iterative-refinement runs. */
export const ITERATIVE_PASSES = 3;

/** The subject reference: role subject/character/product, else the heaviest. */
export function subjectOf(layers: Array<{ role?: string }>, weights: number[]): number {
  const byRole = layers.findIndex((l) => /subject|character|product|person|main/i.test(l.role ?? ''));
  if (byRole >= 0) return byRole;
  return weights.indexOf(Math.max(...weights));
}

/** Per-pixel weighted average of same-size RGB images (weights renormalised). */
export function weightedAverage(images: RawImage[], weights: number[]): RawImage {
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
export function preserveSubject(blend: RawImage, subject: RawImage): RawImage {
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
export function drawPanel(
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
