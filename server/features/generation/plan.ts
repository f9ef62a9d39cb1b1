import { ACT_STUDIO_MODEL, DUAL_FRAME_MODEL, MAGIC_MODIFY_MODEL } from '../../../common/api/generation.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { parseAspectRatio } from '../../../common/rules/pricing.ts';
import { badRequest } from '../../platform/errors.ts';

// How a video request is carried out, decided from its model and inputs before anything is spent.

type VideoMode = 'magic-modify' | 'act-studio' | 'first-last-frame' | 'image-to-video' | 'text-to-video';

export interface VideoInputs {
  model: string;
  videoUri?: string;
  inputImage?: string;
  lastFrameImage?: string;
  referenceImages?: string[];
  characterImages?: string[];
  character_images?: string[];
  product_images?: string[];
}

export interface VideoPlan {
  mode: VideoMode;
  /** MagicModify: the video to modify; ActStudio: the driving performance. */
  video: string | null;
  /** ActStudio: the character who performs. */
  character: string | null;
  firstFrame: string | null;
  lastFrame: string | null;
  /** Other guidance images, de-duplicated, frames and character excluded. */
  references: string[];
  /** Images counted against the model's limit (spec 5). */
  limitCount: number;
}

const dedupe = (list: Array<string | null | undefined>): string[] => [
  ...new Set(list.filter((v): v is string => typeof v === 'string' && v.length > 0)),
];

/**
 * MagicModify (runway-gen4_aleph): `videoUri` required, video-to-video. ActStudio (runway-act_two): a
 * character image (`characterImages[0]`, else `inputImage`) performs the reference video `videoUri`.
 * FilmmakerPro (the dual-frame model): first frame from `inputImage`/`referenceImages`, last frame
 * from `lastFrameImage`/`characterImages`, the lists merged and de-duplicated. Otherwise
 * image-to-video when `inputImage` is given, else text-to-video.
 */
export function planVideo(input: VideoInputs): VideoPlan {
  const refs = input.referenceImages ?? [];
  const chars = [...(input.characterImages ?? []), ...(input.character_images ?? [])];
  const products = input.product_images ?? [];
  const plainCount = (input.referenceImages?.length ?? 0) + (input.characterImages?.length ?? 0);

  if (input.model === MAGIC_MODIFY_MODEL) {
    if (!input.videoUri) throw badRequest(MESSAGES.generation.videoInputRequired('MagicModify'));
    return {
      mode: 'magic-modify',
      video: input.videoUri,
      character: null,
      firstFrame: null,
      lastFrame: null,
      references: dedupe([input.inputImage, ...refs, ...chars, ...products]),
      limitCount: plainCount,
    };
  }
  if (input.model === ACT_STUDIO_MODEL) {
    if (!input.videoUri) throw badRequest(MESSAGES.generation.videoInputRequired('ActStudio'));
    const character = chars[0] ?? input.inputImage ?? null;
    if (!character) throw badRequest(MESSAGES.generation.characterImageRequired);
    return {
      mode: 'act-studio',
      video: input.videoUri,
      character,
      firstFrame: null,
      lastFrame: null,
      references: dedupe([...refs, ...chars, ...products]).filter((r) => r !== character),
      limitCount: plainCount,
    };
  }
  if (input.model === DUAL_FRAME_MODEL) {
    const firsts = dedupe([input.inputImage, ...refs]);
    const lasts = dedupe([input.lastFrameImage, ...chars]);
    const merged = dedupe([...firsts, ...lasts]);
    const firstFrame = firsts[0] ?? merged[0] ?? null;
    const lastFrame = lasts.find((u) => u !== firstFrame) ?? null;
    return {
      mode: firstFrame ? 'first-last-frame' : 'text-to-video',
      video: null,
      character: null,
      firstFrame,
      lastFrame,
      references: dedupe([...merged, ...products]).filter((u) => u !== firstFrame && u !== lastFrame),
      limitCount: dedupe([...refs, ...chars]).length,
    };
  }
  if (input.inputImage) {
    return {
      mode: 'image-to-video',
      video: null,
      character: null,
      firstFrame: input.inputImage,
      lastFrame: null,
      references: dedupe([...refs, ...chars, ...products]).filter((u) => u !== input.inputImage),
      limitCount: plainCount,
    };
  }
  return {
    mode: 'text-to-video',
    video: null,
    character: null,
    firstFrame: null,
    lastFrame: null,
    references: dedupe([...refs, ...chars, ...products]),
    limitCount: plainCount,
  };
}

const SHORT_SIDES: Record<string, number> = {
  '360p': 360,
  '480p': 480,
  '540p': 540,
  '720p': 720,
  '1080p': 1080,
  '1440p': 1440,
  '2160p': 2160,
  '4k': 2160,
  '4320p': 4320,
  '8k': 4320,
};
/**
 * Longest side any video engine here renders (the local engine's limit, and 4K UHD's width). Wider or
 * larger asks (8K, or 4K at 21:9 / 2.39:1 from the Film Production Studio) keep their shape and are
 * scaled down to fit; the asset records the size actually rendered next to the resolution asked for.
 */
const MAX_VIDEO_SIDE = 3840;
const DEFAULT_VIDEO_RESOLUTION = '720p';

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** Pixel size of a video from its aspect ratio (default 16:9) and resolution (short side; default 720p). */
export function videoDimensions(
  aspectRatio: string | undefined,
  resolution: string | undefined,
): { width: number; height: number } {
  const ratio = parseAspectRatio(aspectRatio) ?? 16 / 9;
  const short =
    SHORT_SIDES[(resolution ?? DEFAULT_VIDEO_RESOLUTION).toLowerCase()] ?? SHORT_SIDES[DEFAULT_VIDEO_RESOLUTION];
  const size = ratio >= 1 ? { width: short * ratio, height: short } : { width: short, height: short / ratio };
  const scale = Math.min(1, MAX_VIDEO_SIDE / Math.max(size.width, size.height));
  return { width: even(size.width * scale), height: even(size.height * scale) };
}

/** The service an asset records: the vendor part of the model name (veo, seedream, runway, nanobana, suno). */
export function serviceOf(model: string): string {
  return model.toLowerCase().split(/[-_.\d]/)[0] || model;
}
