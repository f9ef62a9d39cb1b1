// Multi-Reference saved-session state (canvas spec 3: referenceImages, prompt), plus the blend settings,
// style modifier, negative prompt and the variation results. Pure.
import { MULTI_REFERENCE } from '../../../common/api/multi-reference.constants.ts';
import type { PreviewSummary } from '../../ui/PreviewNote.tsx';
import type { MultiReferenceMode } from './upload-rules.ts';

export type RefType = (typeof MULTI_REFERENCE.referenceTypes)[number];
export type BlendMode = (typeof MULTI_REFERENCE.blendModes)[number];
export type CompositionMode = (typeof MULTI_REFERENCE.compositionModes)[number];
export type Quality = (typeof MULTI_REFERENCE.qualities)[number];

/** A reference as the spec names it (Multi-reference item). */
interface SavedReference {
  id: string;
  url: string;
  filename: string;
  /** Percent, 10–100. */
  weight: number;
  type: RefType;
  description: string;
  mediaType: 'image' | 'video';
}

export interface BlendSettings {
  blendMode: BlendMode;
  /** Percent, 10–100. */
  strength: number;
  variations: number;
  aspectRatio: string;
  quality: Quality;
  compositionMode: CompositionMode;
  preserveDetails: boolean;
}

export interface MultiReferenceResult {
  url: string;
  id: string | null;
  variation: number;
  /** video in video-to-video mode. */
  mediaType: 'image' | 'video';
  /** The engine that made it (metadata.engine): 'local' or a vendor. */
  engine?: string | null;
  /** What the local preview did with the prompt (metadata.preview), when it says. */
  preview?: PreviewSummary | null;
}

export interface MultiReferenceSession {
  /** image (blend into an image) or video-to-video. */
  mode: MultiReferenceMode;
  referenceImages: SavedReference[];
  prompt: string;
  styleModifier: string;
  negativePrompt: string;
  blendSettings: BlendSettings;
  results: MultiReferenceResult[];
}

export const DEFAULT_BLEND: BlendSettings = {
  blendMode: MULTI_REFERENCE.defaults.blendMode,
  strength: MULTI_REFERENCE.strength.default,
  variations: MULTI_REFERENCE.variations.default,
  aspectRatio: MULTI_REFERENCE.defaults.aspectRatio,
  quality: MULTI_REFERENCE.defaults.quality,
  compositionMode: MULTI_REFERENCE.defaults.compositionMode,
  preserveDetails: MULTI_REFERENCE.defaults.preserveDetails,
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const oneOf = <T extends string>(value: unknown, options: readonly T[], fallback: T): T =>
  typeof value === 'string' && (options as readonly string[]).includes(value) ? (value as T) : fallback;
const within = (value: unknown, range: { min: number; max: number; default: number }) =>
  typeof value === 'number' && Number.isFinite(value)
    ? Math.round(Math.min(range.max, Math.max(range.min, value)))
    : range.default;

/** Reads saved data; throws (with the spec's messages) when it is not Multi-Reference state. */
export function parseMultiReferenceSession(data: unknown): MultiReferenceSession {
  if (!isRecord(data)) throw new Error('Session data must be an object');
  if (!Array.isArray(data.referenceImages)) throw new Error('referenceImages must be an array');
  if (typeof data.prompt !== 'string') throw new Error('prompt must be a string');
  const blend = isRecord(data.blendSettings) ? data.blendSettings : {};
  return {
    mode: data.mode === 'video-to-video' ? 'video-to-video' : 'image',
    referenceImages: data.referenceImages
      .filter((r): r is Record<string, unknown> => isRecord(r) && typeof r.url === 'string' && r.url !== '')
      .slice(0, MULTI_REFERENCE.maxFiles)
      .map((r, i) => ({
        id: str(r.id) || `ref-${i}`,
        url: r.url as string,
        filename: str(r.filename) || str(r.name) || `reference-${i + 1}`,
        weight: within(r.weight, MULTI_REFERENCE.weight),
        type: oneOf(r.type, MULTI_REFERENCE.referenceTypes, 'style'),
        description: str(r.description),
        mediaType: r.mediaType === 'video' ? 'video' : 'image',
      })),
    prompt: data.prompt,
    styleModifier: str(data.styleModifier),
    negativePrompt: str(data.negativePrompt),
    blendSettings: {
      blendMode: oneOf(blend.blendMode, MULTI_REFERENCE.blendModes, DEFAULT_BLEND.blendMode),
      strength: within(blend.strength, MULTI_REFERENCE.strength),
      variations: within(blend.variations, MULTI_REFERENCE.variations),
      aspectRatio: oneOf(blend.aspectRatio, MULTI_REFERENCE.aspectRatios, MULTI_REFERENCE.defaults.aspectRatio),
      quality: oneOf(blend.quality, MULTI_REFERENCE.qualities, DEFAULT_BLEND.quality),
      compositionMode: oneOf(blend.compositionMode, MULTI_REFERENCE.compositionModes, DEFAULT_BLEND.compositionMode),
      preserveDetails:
        typeof blend.preserveDetails === 'boolean' ? blend.preserveDetails : DEFAULT_BLEND.preserveDetails,
    },
    results: (Array.isArray(data.results) ? data.results : [])
      .filter((r): r is Record<string, unknown> => isRecord(r) && typeof r.url === 'string' && r.url !== '')
      .map((r, i) => ({
        url: r.url as string,
        id: typeof r.id === 'string' ? r.id : null,
        variation: typeof r.variation === 'number' ? r.variation : i + 1,
        mediaType: r.mediaType === 'video' ? ('video' as const) : ('image' as const),
      })),
  };
}

/** The state to save, or null while the tool is untouched. */
export function captureMultiReferenceSession(state: MultiReferenceSession): MultiReferenceSession | null {
  const touched =
    state.referenceImages.length > 0 ||
    state.prompt.trim() !== '' ||
    state.styleModifier.trim() !== '' ||
    state.negativePrompt.trim() !== '' ||
    state.results.length > 0;
  return touched ? state : null;
}
