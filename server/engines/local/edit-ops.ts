import { clamp } from './colour.ts';
import { hasPhrase, type Rgb } from './prompt-words.ts';
import { channelStats, type RawImage, step } from './raw.ts';

// Prompt-driven image operations: each rule lists the words that trigger it and the real pixel work it
// does. The image engine's edit() and the stylised inpaint modes use them; videoToVideo maps the same
// words to ffmpeg filters (see video-filters.ts).

export interface EditRule {
  id: string;
  words: readonly string[];
  apply: (image: RawImage, ctx: EditContext) => Promise<RawImage>;
}

interface EditContext {
  prompt: string;
}

const SEPIA: [[number, number, number], [number, number, number], [number, number, number]] = [
  [0.393, 0.769, 0.189],
  [0.349, 0.686, 0.168],
  [0.272, 0.534, 0.131],
];

/** Blend an image with a processed version of itself: out = a*(1-t) + b*t. */
function blend(a: RawImage, b: RawImage, t: number): RawImage {
  const out = Buffer.alloc(a.data.length);
  for (let i = 0; i < a.data.length; i++) out[i] = Math.round(a.data[i] * (1 - t) + b.data[i] * t);
  return { ...a, data: out };
}

/** Reduces each channel to `levels` steps. */
export function posterize(image: RawImage, levels: number): RawImage {
  const out = Buffer.from(image.data);
  const stepSize = 255 / (levels - 1);
  for (let i = 0; i < out.length; i++) {
    if (image.channels === 4 && i % 4 === 3) continue;
    out[i] = Math.round(Math.round(out[i] / stepSize) * stepSize);
  }
  return { ...image, data: out };
}

/** A soft light pool composited over the image (soft-light blend), plus optional edge darkening. */
async function relight(image: RawImage, x: number, y: number, colour: Rgb, strength: number): Promise<RawImage> {
  const { width: w, height: h } = image;
  const r = Math.max(w, h) * 0.7;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><radialGradient id="l" cx="${x * w}" cy="${y * h}" r="${r}" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="rgb(${colour.map(Math.round).join(',')})" stop-opacity="${strength}"/><stop offset="0.6" stop-color="rgb(128,128,128)" stop-opacity="${strength * 0.3}"/><stop offset="1" stop-color="#000" stop-opacity="${strength * 0.8}"/></radialGradient></defs><rect width="${w}" height="${h}" fill="url(#l)"/></svg>`;
  return step(image, (s) => s.composite([{ input: Buffer.from(svg), blend: 'soft-light' }]));
}

function lightPosition(prompt: string): { x: number; y: number } {
  const x = hasPhrase(prompt, 'left') ? 0.15 : hasPhrase(prompt, 'right') ? 0.85 : 0.5;
  const y = hasPhrase(prompt, 'bottom') || hasPhrase(prompt, 'below') ? 0.9 : hasPhrase(prompt, 'top') ? 0.05 : 0.3;
  return { x, y };
}

const GREY_WORDS = ['black and white', 'b&w', 'monochrome', 'grayscale', 'greyscale', 'noir', 'desaturated'];

/** Words asking for a painted look: image edits, video filters and prompt effects read the same ones. */
export const PAINTING_WORDS = [
  'painting',
  'oil painting',
  'painterly',
  'impressionist',
  'watercolor',
  'watercolour',
  'stylise',
  'stylize',
  'artistic',
];

export const EDIT_RULES: readonly EditRule[] = [
  {
    id: 'black-and-white',
    words: GREY_WORDS,
    apply: (img, ctx) =>
      step(img, (s) => {
        const g = s.greyscale().toColourspace('srgb');
        return hasPhrase(ctx.prompt, 'noir') ? g.linear(1.35, -40) : g.linear(1.1, -10);
      }),
  },
  {
    id: 'vintage',
    words: ['vintage', 'sepia', 'retro', 'old photo', 'nostalgic', 'film look', 'analog'],
    apply: async (img) => {
      const sepia = await step(img, (s) => s.recomb(SEPIA));
      const faded = await step(blend(img, sepia, 0.75), (s) => s.linear(0.85, 22));
      return relight(faded, 0.5, 0.45, [255, 220, 170], 0.35);
    },
  },
  {
    id: 'warm',
    words: ['warm', 'warmer', 'golden', 'sunny', 'cozy', 'cosy'],
    apply: (img) => step(img, (s) => s.linear([1.08, 1.02, 0.88], [12, 4, -8])),
  },
  {
    id: 'cool',
    words: ['cool', 'cooler', 'cold', 'icy', 'wintry', 'blue tone', 'moonlit'],
    apply: (img) => step(img, (s) => s.linear([0.9, 1.0, 1.1], [-8, 2, 14])),
  },
  {
    id: 'vibrant',
    words: ['vibrant', 'saturate', 'saturated', 'vivid', 'colorful', 'colourful', 'punchy'],
    apply: (img) => step(img, (s) => s.modulate({ saturation: 1.4 })),
  },
  {
    id: 'muted',
    words: ['muted', 'desaturate', 'pastel', 'washed out', 'subdued'],
    apply: (img) => step(img, (s) => s.modulate({ saturation: 0.6 })),
  },
  {
    id: 'brighten',
    words: ['brighten', 'brighter', 'lighter', 'lighten', 'bright', 'exposure up', 'overexposed'],
    apply: (img) => step(img, (s) => s.modulate({ brightness: 1.22 })),
  },
  {
    id: 'darken',
    words: ['darken', 'darker', 'dim', 'dimmer', 'moody', 'underexposed', 'night'],
    apply: (img) => step(img, (s) => s.modulate({ brightness: 0.75 })),
  },
  {
    id: 'contrast',
    words: ['contrast', 'high contrast', 'dramatic', 'bold'],
    apply: (img) => step(img, (s) => s.linear(1.3, -38)),
  },
  {
    id: 'relight',
    words: [
      'relight',
      'lighting',
      'spotlight',
      'light from',
      'rim light',
      'golden hour',
      'sunlight',
      'glow',
      'studio light',
    ],
    apply: (img, ctx) => {
      const { x, y } = lightPosition(ctx.prompt);
      const warm =
        hasPhrase(ctx.prompt, 'golden hour') || hasPhrase(ctx.prompt, 'sunlight') || hasPhrase(ctx.prompt, 'warm');
      return relight(img, x, y, warm ? [255, 200, 120] : [255, 255, 245], 0.75);
    },
  },
  {
    id: 'blur',
    words: ['blur', 'blurry', 'soft focus', 'dreamy', 'bokeh', 'defocus', 'haze', 'hazy'],
    apply: (img) => step(img, (s) => s.blur(Math.max(1.5, Math.min(img.width, img.height) / 250))),
  },
  {
    id: 'sharpen',
    words: ['sharpen', 'sharper', 'crisp', 'sharp', 'detailed', 'details', 'clarity', 'enhance'],
    apply: (img) => step(img, (s) => s.sharpen({ sigma: 1.4, m1: 1, m2: 3 })),
  },
  {
    id: 'cartoon',
    words: ['cartoon', 'comic', 'pop art', 'anime', 'cel shaded', 'posterize', 'poster'],
    apply: async (img) => posterize(await step(img, (s) => s.median(5).modulate({ saturation: 1.3 })), 5),
  },
  {
    id: 'painting',
    words: PAINTING_WORDS,
    apply: (img) => step(img, (s) => s.median(7).modulate({ saturation: 1.15 }).blur(0.6)),
  },
  {
    id: 'sketch',
    words: ['sketch', 'pencil', 'drawing', 'line art', 'charcoal'],
    apply: (img) =>
      step(img, (s) =>
        s
          .greyscale()
          .convolve({ width: 3, height: 3, kernel: [-1, -1, -1, -1, 8, -1, -1, -1, -1] })
          .negate({ alpha: false })
          .linear(1.4, -60)
          .toColourspace('srgb'),
      ),
  },
  {
    id: 'pixelate',
    words: ['pixel', 'pixelate', 'pixelated', '8-bit', '8bit', 'retro game'],
    apply: async (img) => {
      const small = await step(img, (s) =>
        s.resize(Math.max(8, Math.round(img.width / 12)), null, { kernel: 'nearest' }),
      );
      return step(small, (s) => s.resize(img.width, img.height, { kernel: 'nearest', fit: 'fill' }));
    },
  },
  {
    id: 'emboss',
    words: ['emboss', 'embossed', 'relief', 'metallic'],
    apply: (img) => step(img, (s) => s.convolve({ width: 3, height: 3, kernel: [-2, -1, 0, -1, 1, 1, 0, 1, 2] })),
  },
  {
    id: 'invert',
    words: ['invert', 'inverted', 'negative'],
    apply: (img) => step(img, (s) => s.negate({ alpha: false })),
  },
  {
    id: 'neon',
    words: ['neon', 'cyberpunk', 'synthwave', 'vaporwave'],
    apply: (img) => step(img, (s) => s.modulate({ saturation: 1.7, hue: 25 }).linear(1.2, -20)),
  },
];

/** Shifts the image's per-channel mean and spread onto the reference's (Reinhard-style, in RGB). */
export function colourTransfer(image: RawImage, reference: RawImage, amount = 1): RawImage {
  const a = channelStats(image);
  const b = channelStats(reference);
  const out = Buffer.from(image.data);
  const c = image.channels;
  const scale = [0, 1, 2].map((k) => b.std[k] / a.std[k]);
  for (let i = 0; i < out.length; i += c) {
    for (let k = 0; k < 3; k++) {
      const v = (image.data[i + k] - a.mean[k]) * scale[k] + b.mean[k];
      out[i + k] = Math.round(clamp(image.data[i + k] + (v - image.data[i + k]) * amount));
    }
  }
  return { ...image, data: out };
}
