import { AppError } from '../platform/errors.ts';
import type { MediaProbe } from '../platform/media/probe.ts';

// What the studio needs from AI engines, independent of any vendor. The local engines (embedded
// default) and the vendor adapters (Gemini, Runway, BytePlus, …) implement these interfaces; the
// registry maps the spec's model and service names to whichever engine is configured.

/** Media handed to or returned by an engine: bytes in memory with their MIME type. */
export interface MediaBuffer {
  data: Buffer;
  mimeType: string;
}

/** @public */
export type ImageOutputFormat = 'png' | 'webp' | 'jpeg';

/** Reported by long engine work; `fraction` is 0–1. */
export type ProgressCallback = (fraction: number, estimatedSecondsLeft?: number) => void;

export interface EngineCallOptions {
  signal?: AbortSignal;
  onProgress?: ProgressCallback;
}

/** Every output carries what made it. Local engines say `engine: 'local'`; they never claim a model. */
export interface EngineMetadata {
  engine: string;
  model: string;
  [key: string]: unknown;
}

export interface ImageResult extends MediaBuffer {
  width: number;
  height: number;
  seed?: number;
  metadata: EngineMetadata;
}

export interface VideoResult extends MediaBuffer {
  width: number;
  height: number;
  durationSeconds: number;
  fps: number;
  hasAudio: boolean;
  metadata: EngineMetadata;
}

export interface AudioResult extends MediaBuffer {
  durationSeconds: number;
  metadata: EngineMetadata;
}

export interface TextResult {
  text: string;
  /** Parsed JSON when a schema was asked for. */
  json?: unknown;
  metadata: EngineMetadata;
}

// ---- requests ----

export interface TextToImageRequest {
  model: string;
  prompt: string;
  negativePrompt?: string;
  width: number;
  height: number;
  style?: string;
  quality?: string;
  seed?: number;
  /** Style/character references, used as guidance by engines that support them. */
  referenceImages?: MediaBuffer[];
  /** png (default), webp or jpeg. */
  outputFormat?: ImageOutputFormat;
}

export interface EditImageRequest {
  model: string;
  prompt: string;
  image: MediaBuffer;
  /** Optional colour/style reference. */
  reference?: MediaBuffer;
  width?: number;
  height?: number;
  seed?: number;
  outputFormat?: ImageOutputFormat;
}

export interface ComposeImageRequest {
  model: string;
  prompt: string;
  /** Weights are 0–1; the output follows them measurably. */
  images: Array<{ image: MediaBuffer; weight: number; role?: string }>;
  width: number;
  height: number;
  seed?: number;
  /** Spec blend modes: weighted (default), random, sequential, layered, advanced-composition, iterative-refinement. */
  blendMode?: string;
  /** 0–1: how strongly the prompt's edits are applied on top of the blend (default 0.75). */
  strength?: number;
  /** What to keep out: named colours and effects (vendors: their negative prompt or an "Avoid:" line). */
  negativePrompt?: string;
  /** Spec composition modes: multi-image-composition (default), iterative-refinement, advanced-composition, high-fidelity-preservation. */
  compositionMode?: string;
  /** Keep the references' fine detail (default true); false leaves the blend smooth. */
  preserveDetails?: boolean;
  outputFormat?: ImageOutputFormat;
}

export interface InpaintRequest {
  model: string;
  prompt: string;
  image: MediaBuffer;
  /** White = change, black = keep. Same size as the image or scaled to it. */
  mask: MediaBuffer;
  mode: string;
  reference?: MediaBuffer;
  /** 0–1 */
  styleStrength?: number;
  quality?: string;
  seed?: number;
  /** png by default; only png keeps the untouched pixels byte-identical. */
  outputFormat?: ImageOutputFormat;
}

export interface TextToVideoRequest {
  model: string;
  prompt: string;
  negativePrompt?: string;
  durationSeconds: number;
  width: number;
  height: number;
  fps: number;
  generateAudio: boolean;
  style?: string;
  seed?: number;
  /** Frames or looks to start from / end on (dual-frame models), and references. */
  firstFrame?: MediaBuffer;
  lastFrame?: MediaBuffer;
  referenceImages?: MediaBuffer[];
}

export interface ImageToVideoRequest extends Omit<TextToVideoRequest, 'firstFrame'> {
  image: MediaBuffer;
}

export interface VideoToVideoRequest {
  model: string;
  prompt: string;
  video: MediaBuffer;
  /** The style/colour reference (vendors take one: Runway `references[0]`). */
  reference?: MediaBuffer;
  /** Several weighted references (0–1): the local engine mixes their colours by weight. */
  references?: Array<{ image: MediaBuffer; weight: number }>;
  width?: number;
  height?: number;
  seed?: number;
}

export interface CharacterPerformanceRequest {
  model: string;
  character: MediaBuffer;
  /** A driving performance video, 3–30 s. */
  reference: MediaBuffer;
  width?: number;
  height?: number;
  expressionIntensity?: number;
}

export interface MusicRequest {
  model: string;
  prompt: string;
  durationSeconds: number;
  genre?: string;
  mood?: string;
  instruments?: string[];
  seed?: number;
}

export interface VoiceRequest {
  model: string;
  text: string;
  voice?: string;
  language?: string;
}

export interface UpscaleImageRequest {
  model: string;
  image: MediaBuffer;
  /** Long side in pixels of the target (4K: 3840). */
  targetWidth: number;
  targetHeight: number;
  /** 0–1, how much sharpening/detail enhancement. */
  enhancementLevel?: number;
  mode?: string;
  /** How the image meets the target box: inside (default: fit within, keep aspect), cover (fill and crop), contain (letterbox), fill (stretch). */
  fit?: 'inside' | 'cover' | 'contain' | 'fill';
  outputFormat?: ImageOutputFormat;
}

export interface UpscaleVideoRequest {
  model: string;
  video: MediaBuffer;
  scale: number;
  fps?: number;
  /** 0–1 each, from the quality preset. */
  denoise?: number;
  sharpen?: number;
  enhance?: number;
  /** How a raised frame rate is filled: blend (default, ffmpeg `framerate`, fast) or motion (`minterpolate`, very slow). */
  interpolation?: 'blend' | 'motion';
  /** What the caller already knows of `video` (its stored probe facts): the local engine does not probe it again. */
  sourceProbe?: MediaProbe;
}

export interface CompleteTextRequest {
  model?: string;
  system?: string;
  prompt: string;
  /** JSON schema for structured output; the result's `json` then holds the parsed value. */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
  /** Which writer the local engine uses: prompt enhancement, screenplay, campaign plan, … */
  purpose?: string;
  /** Images the model looks at with the prompt (vision). Vendor adapters send them; the local engine ignores them. */
  images?: MediaBuffer[];
  context?: Record<string, unknown>;
}

// ---- engines ----

export interface ImageModelCapabilities {
  /** Reference + character images the model accepts (spec: runway 3, seedream 10, seedreamai 6, others 3). */
  maxReferenceImages: number;
  aspectRatios: string[];
  maxWidth: number;
  maxHeight: number;
}

export interface VideoModelCapabilities {
  maxReferenceImages: number;
  durations: number[];
  aspectRatios: string[];
  supportsAudio: boolean;
  /** Which inputs the model takes: text, image (first frame), first+last frame, video, character performance. */
  inputs: Array<'text' | 'image' | 'first-last-frame' | 'video' | 'character-performance'>;
}

export interface ImageEngine {
  readonly name: string;
  textToImage(request: TextToImageRequest, options?: EngineCallOptions): Promise<ImageResult>;
  edit(request: EditImageRequest, options?: EngineCallOptions): Promise<ImageResult>;
  compose(request: ComposeImageRequest, options?: EngineCallOptions): Promise<ImageResult>;
  inpaint(request: InpaintRequest, options?: EngineCallOptions): Promise<ImageResult>;
}

export interface VideoEngine {
  readonly name: string;
  textToVideo(request: TextToVideoRequest, options?: EngineCallOptions): Promise<VideoResult>;
  imageToVideo(request: ImageToVideoRequest, options?: EngineCallOptions): Promise<VideoResult>;
  videoToVideo(request: VideoToVideoRequest, options?: EngineCallOptions): Promise<VideoResult>;
  characterPerformance(request: CharacterPerformanceRequest, options?: EngineCallOptions): Promise<VideoResult>;
}

export interface AudioEngine {
  readonly name: string;
  music(request: MusicRequest, options?: EngineCallOptions): Promise<AudioResult>;
  voice(request: VoiceRequest, options?: EngineCallOptions): Promise<AudioResult>;
}

export interface UpscaleEngine {
  readonly name: string;
  image(request: UpscaleImageRequest, options?: EngineCallOptions): Promise<ImageResult>;
  video(request: UpscaleVideoRequest, options?: EngineCallOptions): Promise<VideoResult>;
}

export interface TextEngine {
  readonly name: string;
  complete(request: CompleteTextRequest, options?: EngineCallOptions): Promise<TextResult>;
  stream(request: CompleteTextRequest, options?: EngineCallOptions): AsyncIterable<string>;
}

/**
 * Thrown when the prompt or an output breaks the content policy. An AppError (422
 * `content_filtered`), so routes answer it as such and tasks fail at once without retries.
 */
export class ContentFilteredError extends AppError {
  constructor(
    message: string,
    readonly reasons: string[] = [],
  ) {
    super(422, 'content_filtered', message, reasons.length > 0 ? { reasons } : undefined);
    this.name = 'ContentFilteredError';
  }
}
