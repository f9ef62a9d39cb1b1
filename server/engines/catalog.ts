import { VIDEO_ENHANCE } from '../../common/api/uploads.constants.ts';
import { modelImageLimit } from '../../common/rules/generation.ts';
import type { ImageModelCapabilities, VideoModelCapabilities } from './types.ts';

// Every model and service name the spec uses, with what each one can do. The registry serves these
// names; a configured vendor adapter may take over any of them (see registry.ts).

export const IMAGE_MODEL_NAMES = [
  'seedream4',
  'seedream',
  'seedreamai',
  'nanobana',
  'nanobana-gemini-2.5-flash-image-preview',
  'gemini-2.5-flash-image',
  'gemini-2.5-flash-image-preview',
  'stability',
  'runway',
] as const;

export const VIDEO_MODEL_NAMES = [
  'veo-3.0-generate-001',
  'veo-3.0-generate-preview',
  'veo-3.0-fast-generate-preview',
  'veo-3.1-generate-preview',
  'veo-3',
  'seedance',
  'seedance-1-0-pro-250528',
  'runway-gen4_turbo',
  'runway-gen4_aleph',
  'runway-act_two',
] as const;

export const AUDIO_MODEL_NAMES = ['suno-v3.5', 'voice'] as const;

export const UPSCALE_SERVICE_NAMES = [
  'proteus',
  'prob-4',
  'realistic-skin',
  'portrait-upscaler',
  'image-upscaler',
  'detailed',
  'upscale_4k',
  'topaz',
] as const;

export const TEXT_MODEL_NAMES = ['local'] as const;
export const DEFAULT_TEXT_MODEL = 'local';

const WIDE_ASPECTS = ['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3', '21:9'];

export function imageCapabilities(model: string): ImageModelCapabilities {
  const m = model.toLowerCase();
  const big = m.startsWith('seedream');
  return {
    maxReferenceImages: modelImageLimit(model).limit,
    aspectRatios: WIDE_ASPECTS,
    // Seedream renders 4K (spec: 16:9 at 3840x2160); the others top out at 2K (NanoBana 2048x2048).
    maxWidth: big ? 4096 : 2048,
    maxHeight: big ? 4096 : 2048,
  };
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

export function videoCapabilities(model: string): VideoModelCapabilities {
  const m = model.toLowerCase();
  const maxReferenceImages = modelImageLimit(model).limit;
  if (m.startsWith('veo')) {
    // 1–8 s clips (film sequence items), persona 5/8 s, the studio default of 10 s.
    const inputs: VideoModelCapabilities['inputs'] = m.startsWith('veo-3.1')
      ? ['text', 'image', 'first-last-frame']
      : ['text', 'image'];
    const aspectRatios = m === 'veo-3' ? ['16:9', '9:16', '21:9', '4:3', '1.85:1', '2.39:1'] : ['16:9', '9:16'];
    return { maxReferenceImages, durations: [...range(1, 8), 10], aspectRatios, supportsAudio: true, inputs };
  }
  if (m.startsWith('seedance')) {
    return {
      maxReferenceImages,
      durations: [5, 10, 12],
      aspectRatios: ['16:9', '9:16', '1:1', '4:3', '3:4', '21:9'],
      supportsAudio: false,
      inputs: ['text', 'image'],
    };
  }
  if (m === 'runway-gen4_aleph') {
    return {
      maxReferenceImages,
      durations: [5, 10],
      aspectRatios: ['16:9', '9:16', '1:1', '4:3', '3:4', '21:9'],
      supportsAudio: false,
      inputs: ['video'],
    };
  }
  if (m === 'runway-act_two') {
    // The output follows the driving performance, 3–30 s.
    return {
      maxReferenceImages,
      durations: range(3, 30),
      aspectRatios: ['16:9', '9:16', '1:1', '4:3', '3:4'],
      supportsAudio: false,
      inputs: ['character-performance'],
    };
  }
  return {
    maxReferenceImages,
    durations: [5, 10],
    aspectRatios: ['16:9', '9:16', '1:1', '4:3', '3:4', '21:9'],
    supportsAudio: false,
    inputs: ['text', 'image'],
  };
}

/** Video enhance quality → filter strengths (canvas spec 9): high 0.8/0.7/0.9, otherwise 0.5/0.4/0.6. */
export function videoEnhanceSettings(quality: string | undefined): {
  denoise: number;
  sharpen: number;
  enhance: number;
} {
  return (quality ?? VIDEO_ENHANCE.defaultQuality) === 'high'
    ? VIDEO_ENHANCE.presets.high
    : VIDEO_ENHANCE.presets.other;
}
