import {
  VIDEO_ENHANCE,
  type VideoEnhanceCategory,
  type VideoEnhanceQuality,
} from '../../../common/api/uploads.constants.ts';
import type { TopazEnhanceBody, VideoModel } from '../../../common/api/upscale.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { videoEnhanceSettings } from '../../engines/catalog.ts';
import { badRequest } from '../../platform/errors.ts';

/**
 * How one option of a catalogue model drives the video upscaler. The quality preset gives the base
 * denoise/sharpen/enhance (high 0.8/0.7/0.9, else 0.5/0.4/0.6); the option scales each (capped at
 * 1). The local engine turns them into real ffmpeg filters: Lanczos `scale`, `hqdn3d` (denoise),
 * edge-only `smartblur` sharpening (sharpen), `eq` contrast/saturation (enhance), and `framerate` (blend) or
 * `minterpolate` (motion) when the frame rate rises; each model adds its own filters
 * (server/engines/local/video-enhance.ts).
 */
interface OptionTuning {
  id: string;
  name: string;
  description: string;
  denoise: number;
  sharpen: number;
  enhance: number;
}

interface CatalogueModel {
  id: string;
  name: string;
  description: string;
  category: VideoEnhanceCategory;
  recommended: boolean;
  /** Interpolation models change the frame rate: 60 fps unless one is chosen. */
  defaultFps?: number;
  /** How new frames are made when the frame rate rises: blended neighbours (fast) or motion-compensated. */
  interpolation: 'blend' | 'motion';
  options: OptionTuning[];
}

const CATALOGUE: readonly CatalogueModel[] = [
  {
    id: 'proteus',
    name: 'Proteus',
    description:
      'General-purpose upscaler for most footage: Lanczos resampling with balanced noise reduction and sharpening.',
    category: 'upscaling',
    recommended: true,
    interpolation: 'blend',
    options: [
      {
        id: 'prob-4',
        name: 'Proteus v4',
        description: 'Balanced detail recovery; applies the quality preset as chosen.',
        denoise: 1,
        sharpen: 1,
        enhance: 1,
      },
      {
        id: 'prob-3',
        name: 'Proteus v3 (gentle)',
        description: 'Lighter sharpening and detail for sources that are already sharp.',
        denoise: 1,
        sharpen: 0.6,
        enhance: 0.8,
      },
    ],
  },
  {
    id: 'artemis',
    name: 'Artemis',
    description: 'Upscaler for noisy or heavily compressed footage: stronger noise reduction, softer sharpening.',
    category: 'upscaling',
    recommended: false,
    interpolation: 'blend',
    options: [
      {
        id: 'ahq-12',
        name: 'High-quality source',
        description: 'Light clean-up for good sources with some compression.',
        denoise: 0.9,
        sharpen: 0.9,
        enhance: 1,
      },
      {
        id: 'amq-13',
        name: 'Medium-quality source',
        description: 'Removes visible noise and blocking.',
        denoise: 1.2,
        sharpen: 0.8,
        enhance: 1,
      },
      {
        id: 'alq-13',
        name: 'Low-quality source',
        description: 'Strongest noise reduction for low-bitrate or old footage.',
        denoise: 1.5,
        sharpen: 0.6,
        enhance: 0.9,
      },
    ],
  },
  {
    id: 'gaia',
    name: 'Gaia',
    description: 'Upscaler for clean, high-quality sources and CG or animation: crisp edges, little noise reduction.',
    category: 'upscaling',
    recommended: false,
    interpolation: 'blend',
    options: [
      {
        id: 'ghq-5',
        name: 'High-quality live action',
        description: 'Crisp detail for clean camera footage.',
        denoise: 0.3,
        sharpen: 1.2,
        enhance: 1,
      },
      {
        id: 'gcg-5',
        name: 'CG and animation',
        description: 'Clean lines and flat colour areas; almost no noise reduction.',
        denoise: 0.2,
        sharpen: 1.3,
        enhance: 0.8,
      },
    ],
  },
  {
    id: 'apollo',
    name: 'Apollo',
    description:
      'Frame interpolation: motion-compensated in-between frames (ffmpeg minterpolate) up to the chosen frame rate, for smoother motion. Slow: best on short clips.',
    category: 'interpolation',
    recommended: false,
    defaultFps: 60,
    interpolation: 'motion',
    options: [
      {
        id: 'apo-8',
        name: 'Apollo v8',
        description: 'Motion-compensated interpolation with a light clean-up of the new frames.',
        denoise: 0.5,
        sharpen: 0.5,
        enhance: 0.5,
      },
    ],
  },
  {
    id: 'chronos',
    name: 'Chronos',
    description:
      'Fast frame-rate conversion: new frames blended from their neighbours (ffmpeg framerate), for a higher or standard rate.',
    category: 'interpolation',
    recommended: false,
    defaultFps: 60,
    interpolation: 'blend',
    options: [
      {
        id: 'chr-2',
        name: 'Chronos v2',
        description: 'Blended in-between frames; quick, with a light clean-up.',
        denoise: 0.5,
        sharpen: 0.5,
        enhance: 0.5,
      },
    ],
  },
  {
    id: 'nyx',
    name: 'Nyx',
    description: 'Enhancement for grainy and low-light footage: strong temporal noise reduction, gentle sharpening.',
    category: 'enhancement',
    recommended: false,
    interpolation: 'blend',
    options: [
      {
        id: 'nyx-3',
        name: 'Nyx v3',
        description: 'Removes grain and sensor noise while keeping texture.',
        denoise: 1.25,
        sharpen: 0.5,
        enhance: 0.8,
      },
    ],
  },
  {
    id: 'iris',
    name: 'Iris',
    description: 'Enhancement for soft, low-detail footage: stronger sharpening, contrast and colour.',
    category: 'enhancement',
    recommended: false,
    interpolation: 'blend',
    options: [
      {
        id: 'iri-2',
        name: 'Iris v2',
        description: 'Recovers edges and faces in soft footage.',
        denoise: 0.8,
        sharpen: 1.3,
        enhance: 1.2,
      },
    ],
  },
];

/** GET /api/topaz/models: the catalogue as the video enhance dialog reads it. */
export function videoModelCatalogue(): VideoModel[] {
  return CATALOGUE.map((model) => ({
    id: model.id,
    name: model.name,
    description: model.description,
    category: model.category,
    options: model.options.map(({ id, name, description }) => ({ id, name, description })),
    recommended: model.recommended,
  }));
}

/** What a video enhancement will do, resolved from the request before any credit is reserved. */
export interface VideoEnhancePlan {
  model: string;
  option: string;
  category: VideoEnhanceCategory;
  quality: VideoEnhanceQuality;
  /** 2, 3 or 4; null means "towards 4K" (upscale_4k), decided from the source size. */
  scale: number | null;
  /** Output frame rate, or null to keep the source's. */
  fps: number | null;
  interpolation: 'blend' | 'motion';
  denoise: number;
  sharpen: number;
  enhance: number;
}

const clamp01 = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 100) / 100;

/**
 * Resolves model + option + settings. 'upscale_4k' is the asset card's one click: Proteus v4 at
 * high quality towards 3840x2160. An unknown model, an option of another model or a category that
 * does not match answers 400 'Please select a model and option'.
 */
export function planVideoEnhancement(body: Pick<TopazEnhanceBody, 'model' | 'options'>): VideoEnhancePlan {
  const options = body.options ?? {};
  const fourK = (body.model ?? VIDEO_ENHANCE.fourKModel) === VIDEO_ENHANCE.fourKModel;
  const modelId = fourK ? VIDEO_ENHANCE.defaultModel : body.model;
  const model = CATALOGUE.find((m) => m.id === modelId);
  if (!model) throw badRequest(MESSAGES.assets.selectModelAndOption);
  const optionId = fourK ? VIDEO_ENHANCE.defaultOption : (options.option ?? model.options[0].id);
  const option = model.options.find((o) => o.id === optionId);
  if (!option) throw badRequest(MESSAGES.assets.selectModelAndOption);
  if (!fourK && options.category !== undefined && options.category !== model.category) {
    throw badRequest(MESSAGES.assets.selectModelAndOption);
  }
  const quality = options.quality ?? VIDEO_ENHANCE.defaultQuality;
  const base = videoEnhanceSettings(quality);
  return {
    model: model.id,
    option: option.id,
    category: model.category,
    quality,
    scale: options.scale ?? (fourK ? null : 2),
    fps: options.fps ?? model.defaultFps ?? null,
    interpolation: model.interpolation,
    denoise: clamp01(base.denoise * option.denoise),
    sharpen: clamp01(base.sharpen * option.sharpen),
    enhance: clamp01(base.enhance * option.enhance),
  };
}
