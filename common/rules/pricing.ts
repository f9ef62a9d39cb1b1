import {
  IMAGE_DEFAULTS,
  LOCAL_PREVIEW_PRICES,
  MAX_IMAGES_PER_REQUEST,
  PRICES,
  type PriceItem,
  type PriceTable,
} from '../api/generation.constants.ts';

// What a generation costs, in credits. Pure, so the web shows the exact figure the server will
// reserve before the user spends anything. Every figure comes from the price list of the engine that
// serves the model (issue 19): PRICES when a vendor serves it, the local preview list (LOCAL_PREVIEW_PRICES,
// overridable by the operator) when a local engine does. The helpers below take that list as `prices`.

/** Which kind of engine serves a model: a vendor's API, or the embedded local preview engines. */
export type EngineKind = 'local' | 'vendor';

/** The price list for an engine kind: PRICES for a vendor, `localPrices` (default LOCAL_PREVIEW_PRICES) for local. */
export function priceTableFor(engineKind: EngineKind, localPrices: PriceTable = LOCAL_PREVIEW_PRICES): PriceTable {
  return engineKind === 'local' ? localPrices : PRICES;
}

/** What one item costs on the given engine kind — the one place prices are looked up. */
export function priceFor(
  item: PriceItem,
  engineKind: EngineKind,
  localPrices: PriceTable = LOCAL_PREVIEW_PRICES,
): number {
  return priceTableFor(engineKind, localPrices)[item];
}

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

/**
 * The spec's image request (POST /api/ai/generate/image): `variations` defaults to 2. Applied to that call only, when
 * it names neither count; the studio's own callers (canvas, personas, characters) ask for their count themselves,
 * so imageCount's own fallback stays one image.
 */
export function withSpecImageCount<T extends Pick<ImagePriceParams, 'variations' | 'numberOfImages'>>(body: T): T {
  if (body.variations !== undefined || body.numberOfImages !== undefined) return body;
  return { ...body, variations: IMAGE_DEFAULTS.variations };
}

/** How many images a request makes: the larger of `variations` and `numberOfImages` (default 1, at most 4). */
export function imageCount(params: Pick<ImagePriceParams, 'variations' | 'numberOfImages'>): number {
  const asked = Math.max(params.variations ?? 0, params.numberOfImages ?? 0) || IMAGE_DEFAULTS.numberOfImages;
  return Math.min(MAX_IMAGES_PER_REQUEST, Math.max(1, Math.floor(asked)));
}

/** Per image: `image`, or `image4k` when the long side is over 2048 px; plus the 4K upscale when asked. */
export function imageUnitPrice(
  params: Omit<ImagePriceParams, 'variations' | 'numberOfImages'>,
  prices: PriceTable,
): number {
  const { width, height } = imageDimensions(params);
  const generation = Math.max(width, height) > IMAGE_4K_THRESHOLD ? prices.image4k : prices.image;
  return generation + (params.autoUpscale ? prices.imageUpscale : 0);
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

/** Vendor list: Veo with audio 101 (pro), Veo without audio 81, Seedance/Seedream 41 (dream), Runway 61. */
function videoPrice(params: VideoPriceParams, prices: PriceTable): number {
  switch (videoFamily(params.model)) {
    case 'veo':
      return videoWantsAudio(params) ? prices.videoPro : prices.videoStandard;
    case 'dream':
      return prices.videoDream;
    case 'runway':
      return prices.videoRunway;
    default:
      return prices.videoStandard;
  }
}

interface AudioPriceParams {
  type?: 'music' | 'voice';
}

function audioPrice(params: AudioPriceParams, prices: PriceTable): number {
  return params.type === 'voice' ? prices.voice : prices.music;
}

export type PricedKind = 'image' | 'video' | 'audio';
interface PriceParams {
  image: ImagePriceParams;
  video: VideoPriceParams;
  audio: AudioPriceParams;
}

/** Credits a generation request reserves, from the price list of the engine serving its model. */
export function priceOf<K extends PricedKind>(kind: K, params: PriceParams[K], prices: PriceTable): number {
  if (kind === 'image') {
    const p = params as ImagePriceParams;
    return imageUnitPrice(p, prices) * imageCount(p);
  }
  if (kind === 'video') return videoPrice(params as VideoPriceParams, prices);
  return audioPrice(params as AudioPriceParams, prices);
}

export type CanvasImageOperation = 'edit' | 'compose' | 'multi-composition';

/**
 * Credits a canvas image call reserves: a quick edit `imageEdit`, a composition of several
 * images `composition`, a multi-composition `compositionStep` per region step.
 */
export function canvasImagePrice(operation: CanvasImageOperation, prices: PriceTable, steps = 1): number {
  if (operation === 'edit') return prices.imageEdit;
  if (operation === 'compose') return prices.composition;
  return prices.compositionStep * Math.max(1, Math.floor(steps));
}
