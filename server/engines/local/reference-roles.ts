import { clamp } from './colour.ts';
import { colourTransfer } from './edit-ops.ts';
import { channelStats, type RawImage } from './raw.ts';
import { structureWithColour } from './refine.ts';

// What a Multi-Reference reference's `type` does to the blend in the local preview, each by the
// reference's weight × strength: style takes its colour and contrast (Reinhard transfer), color its
// mean colour only, lighting its brightness and light contrast (luma only), composition its shapes
// (its luminance under the blend's colours); character is the subject panel (see image.ts compose).

const luma = (r: number, g: number, b: number) => 0.299 * r + 0.587 * g + 0.114 * b;

function mix(a: RawImage, b: RawImage, t: number): RawImage {
  const out = Buffer.from(a.data);
  for (let i = 0; i < out.length; i++) out[i] = Math.round(a.data[i] + (b.data[i] - a.data[i]) * t);
  return { ...a, data: out };
}

/** Shifts each channel's mean to the reference's, keeping the picture's own contrast. */
function meanShift(image: RawImage, reference: RawImage, amount: number): RawImage {
  const a = channelStats(image).mean;
  const b = channelStats(reference).mean;
  const out = Buffer.from(image.data);
  for (let i = 0; i < out.length; i += image.channels)
    for (let k = 0; k < 3; k++) out[i + k] = clamp(Math.round(image.data[i + k] + (b[k] - a[k]) * amount));
  return { ...image, data: out };
}

/** Moves the picture's brightness (mean and spread of luma) to the reference's, colours kept. */
function lightTransfer(image: RawImage, reference: RawImage, amount: number): RawImage {
  const stats = (img: RawImage) => {
    let sum = 0;
    let sq = 0;
    const n = img.width * img.height;
    for (let p = 0; p < n; p++) {
      const o = p * img.channels;
      const y = luma(img.data[o], img.data[o + 1], img.data[o + 2]);
      sum += y;
      sq += y * y;
    }
    const mean = sum / n;
    return { mean, std: Math.sqrt(Math.max(1, sq / n - mean * mean)) };
  };
  const a = stats(image);
  const b = stats(reference);
  const out = Buffer.from(image.data);
  for (let i = 0; i < out.length; i += image.channels) {
    const y = luma(image.data[i], image.data[i + 1], image.data[i + 2]);
    const target = (y - a.mean) * (b.std / a.std) + b.mean;
    const dy = (target - y) * amount;
    for (let k = 0; k < 3; k++) out[i + k] = clamp(Math.round(image.data[i + k] + dy));
  }
  return { ...image, data: out };
}

/** Applies every reference's type to the blend; returns the operations it did. */
export function applyReferenceRoles(
  blend: RawImage,
  references: ReadonlyArray<{ image: RawImage; weight: number; role?: string }>,
  strength: number,
): { image: RawImage; operations: string[] } {
  let current = blend;
  const operations: string[] = [];
  references.forEach((ref, i) => {
    const role = (ref.role ?? '').toLowerCase();
    const amount = clamp(ref.weight * strength, 0, 1);
    if (amount <= 0) return;
    if (role === 'style') current = colourTransfer(current, ref.image, amount);
    else if (role === 'color' || role === 'colour') current = meanShift(current, ref.image, amount);
    else if (role === 'lighting') current = lightTransfer(current, ref.image, amount);
    else if (role === 'composition') current = mix(current, structureWithColour(ref.image, current), amount);
    else return;
    operations.push(`${role}-from:${i}`);
  });
  return { image: current, operations };
}
