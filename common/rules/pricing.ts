import { IMAGE_DEFAULTS, MAX_IMAGES_PER_REQUEST, PRICES } from '../constants.ts';

// What a generation costs, in credits, from the one price list (PRICES). Pure, so the web shows the
// exact figure the server will reserve before the user spends anything.

/** Long side above this many pixels is priced as 4K. */
const IMAGE_4K_THRESHOLD = 2048;
/** Smallest and largest side the image form may ask for. */
export const IMAGE_SIDE_LIMITS = { min: 64, max: 4096 } as const;

/** Long side in pixels for the `sampleImageSize` values the clients send ('1K', '2K', '4K'). */
const SAMPLE_IMAGE_LONG_SIDE: Record<string, number> = { '1K': 1024, '2K': 2048, '4K': 3840 };

export interface ImageSizeParams {
  size?: string;
  aspectRatio?: string;
  sampleImageSize?: string;
}

function parseSize(size: string | undefined): { width: number; height: number } {
  const match = /^(\d{2,5})x(\d{2,5})$/.exec(size ?? IMAGE_DEFAULTS.size);
  if (!match) return parseSize(IMAGE_DEFAULTS.size);
  return { width: Number(match[1]), height: Number(match[2]) };
}

/** '16:9' → 16/9; null for anything that is not two positive numbers. */
export function parseAspectRatio(aspectRatio: string | undefined): number | null {
  const match = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(aspectRatio?.trim() ?? '');
  if (!match) return null;
  const w = Number(match[1]);
  const h = Number(match[2]);
  return w > 0 && h > 0 ? w / h : null;
}

const roundTo8 = (n: number) => Math.max(8, Math.round(n / 8) * 8);

/**
 * The pixel size an image request produces. `size` (default 1024x1024) is used as written unless
 * the request also names an aspect ratio or a sample size: then the long side comes from
 * `sampleImageSize` (1K 1024, 2K 2048, 4K 3840; else the long side of `size`) and the shape from
 * `aspectRatio` (else the shape of `size`). Seedream 16:9 at 4K is 3840x2160; 1:1 at 2K is 2048x2048.
 */
export function imageDimensions(params: ImageSizeParams): { width: number; height: number } {
  const base = parseSize(params.size);
  const ratio = parseAspectRatio(params.aspectRatio);
  const sample = params.sampleImageSize ? SAMPLE_IMAGE_LONG_SIDE[params.sampleImageSize.toUpperCase()] : undefined;
  if (ratio === null && sample === undefined) return base;
  const longSide = sample ?? Math.max(base.width, base.height);
  const shape = ratio ?? base.width / base.height;
  if (shape >= 1) return { width: longSide, height: roundTo8(longSide / shape) };
  return { width: roundTo8(longSide * shape), height: longSide };
}

export interface ImagePriceParams extends ImageSizeParams {
  variations?: number;
  numberOfImages?: number;
  /** Each image is also upscaled to 4K (PRICES.imageUpscale each). */
  autoUpscale?: boolean;
}

/** How many images a request makes: the larger of `variations` and `numberOfImages` (default 1, at most 4). */
export function imageCount(params: Pick<ImagePriceParams, 'variations' | 'numberOfImages'>): number {
  const asked = Math.max(params.variations ?? 0, params.numberOfImages ?? 0) || IMAGE_DEFAULTS.numberOfImages;
  return Math.min(MAX_IMAGES_PER_REQUEST, Math.max(1, Math.floor(asked)));
}

/** Per image: PRICES.image, or PRICES.image4k when the long side is over 2048 px; plus the 4K upscale when asked. */
export function imageUnitPrice(params: Omit<ImagePriceParams, 'variations' | 'numberOfImages'>): number {
  const { width, height } = imageDimensions(params);
  const generation = Math.max(width, height) > IMAGE_4K_THRESHOLD ? PRICES.image4k : PRICES.image;
  return generation + (params.autoUpscale ? PRICES.imageUpscale : 0);
}

export type VideoFamily = 'veo' | 'dream' | 'runway' | 'other';

/** veo-… → veo; seedance / seedream… → dream; runway-… → runway. */
export function videoFamily(model: string): VideoFamily {
  const m = model.trim().toLowerCase();
  if (m.startsWith('veo')) return 'veo';
  if (m.startsWith('seedance') || m.startsWith('seedream')) return 'dream';
  if (m.startsWith('runway')) return 'runway';
  return 'other';
}

export interface VideoPriceParams {
  model: string;
  generateAudio?: boolean;
  include_audio?: boolean;
}

/** Whether a video request asks for a soundtrack: `generateAudio`, else `include_audio`, else on for Veo. */
export function videoWantsAudio(params: VideoPriceParams): boolean {
  return params.generateAudio ?? params.include_audio ?? videoFamily(params.model) === 'veo';
}

/** Veo with audio 101 (pro), Veo without audio 81, Seedance/Seedream 41 (dream), Runway 61. */
function videoPrice(params: VideoPriceParams): number {
  switch (videoFamily(params.model)) {
    case 'veo':
      return videoWantsAudio(params) ? PRICES.videoPro : PRICES.videoStandard;
    case 'dream':
      return PRICES.videoDream;
    case 'runway':
      return PRICES.videoRunway;
    default:
      return PRICES.videoStandard;
  }
}

interface AudioPriceParams {
  type?: 'music' | 'voice';
}

function audioPrice(params: AudioPriceParams): number {
  return params.type === 'voice' ? PRICES.voice : PRICES.music;
}

export type PricedKind = 'image' | 'video' | 'audio';
interface PriceParams {
  image: ImagePriceParams;
  video: VideoPriceParams;
  audio: AudioPriceParams;
}

/** Credits a generation request reserves. */
export function priceOf<K extends PricedKind>(kind: K, params: PriceParams[K]): number {
  if (kind === 'image') {
    const p = params as ImagePriceParams;
    return imageUnitPrice(p) * imageCount(p);
  }
  if (kind === 'video') return videoPrice(params as VideoPriceParams);
  return audioPrice(params as AudioPriceParams);
}

export type CanvasImageOperation = 'edit' | 'compose' | 'multi-composition';

/**
 * Credits a canvas image call reserves: a quick edit PRICES.imageEdit, a composition of several
 * images PRICES.composition, a multi-composition PRICES.compositionStep per region step.
 */
export function canvasImagePrice(operation: CanvasImageOperation, steps = 1): number {
  if (operation === 'edit') return PRICES.imageEdit;
  if (operation === 'compose') return PRICES.composition;
  return PRICES.compositionStep * Math.max(1, Math.floor(steps));
}
