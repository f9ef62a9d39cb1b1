// Veo 3 through the Gemini API's long-running operation with @google/genai: generateVideos
// (predictLongRunning) → getVideosOperation (operations/{name}, every 10 s, as Google's own samples do)
// → download the video URI with the API key, then read what came back with ffprobe. A finished
// operation without samples is a safety block, not a success.
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type {
  Image as GenaiImage,
  GenerateVideosConfig,
  GenerateVideosOperation,
  VideoGenerationReferenceType,
} from '@google/genai';
import type { Config } from '../../config.ts';
import { probeMedia } from '../../platform/media/probe.ts';
import { makeWorkDir } from '../../platform/media/work-dir.ts';
import type {
  CharacterPerformanceRequest,
  EngineCallOptions,
  ImageToVideoRequest,
  MediaBuffer,
  TextToVideoRequest,
  VideoEngine,
  VideoResult,
  VideoToVideoRequest,
} from '../types.ts';
import { downloadOutput, pollUntil, unreportedProgress, VendorError, vendorContentFiltered } from '../vendor/http.ts';
import { authHeaders, classifyVendorFailure, type GeminiSettings, geminiCall, geminiClient, VENDOR } from './api.ts';

/** The Veo model id each spec name is sent to. */
export const VEO_MODEL_IDS: Record<string, string> = {
  'veo-3.0-generate-001': 'veo-3.0-generate-001',
  'veo-3.0-generate-preview': 'veo-3.0-generate-preview',
  'veo-3.0-fast-generate-preview': 'veo-3.0-fast-generate-preview',
  'veo-3.1-generate-preview': 'veo-3.1-generate-preview',
  'veo-3': 'veo-3.0-generate-001',
};

/** Clip lengths Veo 3 renders; a request is sent as the shortest one that covers it. */
const VEO_DURATIONS = [4, 6, 8];
/** Typical render time, the first estimate shown (Google quotes 11 s to 6 min). */
const EXPECTED_SECONDS = 75;
const MAX_REFERENCE_IMAGES = 3;
/** The reference type as the Gemini API's Veo documentation writes it (the SDK's enum says ASSET). */
const VEO_ASSET = 'asset' as VideoGenerationReferenceType;

type Operation = GenerateVideosOperation;

/**
 * Veo's `personGeneration` for a request (Gemini API, Veo 3 / 3.1): text-to-video takes `allow_all`
 * only; image-to-video, first+last frame (interpolation) and reference images take `allow_adult` only.
 */
function personGenerationFor(inputs: { image: boolean; lastFrame: boolean; references: boolean }) {
  return inputs.image || inputs.lastFrame || inputs.references ? 'allow_adult' : 'allow_all';
}

export interface VeoOptions {
  /** Wait between operation polls (Google polls every 10 s). */
  pollIntervalMs: number;
  /** Give up after this long. */
  timeoutMs: number;
}

function veoImage(media: MediaBuffer): GenaiImage {
  return { imageBytes: media.data.toString('base64'), mimeType: media.mimeType };
}

const SAFETY_WORDS = /safety|usage guidelines|responsible ai|\brai\b|filtered|prohibited|sensitive/i;
const RETRYABLE_GRPC = new Set(['RESOURCE_EXHAUSTED', 'UNAVAILABLE', 'INTERNAL', 'DEADLINE_EXCEEDED', 'ABORTED']);

/** An operation that finished with `error`, as the product's error kinds. */
function operationFailure(raw: NonNullable<Operation['error']>): unknown {
  const error = raw as { code?: number; message?: string; status?: string };
  const message = error.message ?? error.status ?? `code ${error.code}`;
  if (SAFETY_WORDS.test(message)) return vendorContentFiltered(VENDOR, message);
  const code = error.code ?? 0;
  const retryable = RETRYABLE_GRPC.has(error.status ?? '') || code === 429 || code === 8 || code >= 500;
  const status = code === 8 || error.status === 'RESOURCE_EXHAUSTED' ? 429 : code >= 100 ? code : undefined;
  return classifyVendorFailure(new VendorError(VENDOR, message, retryable, status));
}

export class VeoVideoEngine implements VideoEngine {
  readonly name = 'gemini';

  constructor(
    private readonly settings: GeminiSettings,
    private readonly tools: Pick<Config, 'FFMPEG_PATH' | 'FFPROBE_PATH'>,
    private readonly veo: VeoOptions,
  ) {}

  textToVideo(request: TextToVideoRequest, options: EngineCallOptions = {}): Promise<VideoResult> {
    const { firstFrame, ...rest } = request;
    return this.render(rest, firstFrame, options);
  }

  imageToVideo(request: ImageToVideoRequest, options: EngineCallOptions = {}): Promise<VideoResult> {
    const { image, ...rest } = request;
    return this.render(rest, image, options);
  }

  async videoToVideo(request: VideoToVideoRequest): Promise<VideoResult> {
    throw new VendorError(VENDOR, `${request.model} does not take a video input`, false);
  }

  async characterPerformance(request: CharacterPerformanceRequest): Promise<VideoResult> {
    throw new VendorError(VENDOR, `${request.model} does not do character performance`, false);
  }

  private async render(
    request: Omit<TextToVideoRequest, 'firstFrame'>,
    firstFrame: MediaBuffer | undefined,
    options: EngineCallOptions,
  ): Promise<VideoResult> {
    const modelId = VEO_MODEL_IDS[request.model] ?? request.model;
    const dualFrame = modelId.startsWith('veo-3.1');
    const aspectRatio = request.height > request.width ? '9:16' : '16:9';
    // 1080p is offered for 16:9 only on Veo 3.0.
    const resolution =
      Math.min(request.width, request.height) >= 1080 && (dualFrame || aspectRatio === '16:9') ? '1080p' : '720p';
    const lastFrame = dualFrame && request.lastFrame ? request.lastFrame : undefined;
    const references = dualFrame ? (request.referenceImages ?? []).slice(0, MAX_REFERENCE_IMAGES) : [];
    // Veo renders 1080p and reference-image clips at 8 s only; otherwise the shortest length covering the request.
    const durationSeconds =
      resolution === '1080p' || references.length > 0
        ? 8
        : (VEO_DURATIONS.find((d) => d >= request.durationSeconds) ?? VEO_DURATIONS.at(-1)!);
    const personGeneration = personGenerationFor({
      image: Boolean(firstFrame),
      lastFrame: Boolean(lastFrame),
      references: references.length > 0,
    });
    const config: GenerateVideosConfig = {
      aspectRatio,
      resolution,
      durationSeconds,
      personGeneration,
      ...(request.negativePrompt ? { negativePrompt: request.negativePrompt } : {}),
      ...(lastFrame ? { lastFrame: veoImage(lastFrame) } : {}),
      ...(references.length > 0
        ? { referenceImages: references.map((r) => ({ image: veoImage(r), referenceType: VEO_ASSET })) }
        : {}),
      abortSignal: options.signal,
    };
    const client = geminiClient(this.settings);

    options.onProgress?.(0.02, EXPECTED_SECONDS);
    const started = await geminiCall(
      () =>
        client.models.generateVideos({
          model: modelId,
          prompt: request.style ? `${request.prompt}\nStyle: ${request.style}.` : request.prompt,
          ...(firstFrame ? { image: veoImage(firstFrame) } : {}),
          config,
        }),
      options.signal,
    );
    if (!started?.name) throw new VendorError(VENDOR, 'the video request returned no operation', true);

    let current: Operation = started;
    const finished = await pollUntil<Operation>(
      VENDOR,
      async () => {
        if (!current.done) {
          const previous = current;
          current = await geminiCall(
            () =>
              client.operations.getVideosOperation({ operation: previous, config: { abortSignal: options.signal } }),
            options.signal,
          );
        }
        return current.done ? current : undefined;
      },
      {
        intervalMs: this.veo.pollIntervalMs,
        timeoutMs: this.veo.timeoutMs,
        signal: options.signal,
        // Veo operations report no progress.
        onTick: (elapsedMs) => {
          const { fraction, secondsLeft } = unreportedProgress(elapsedMs);
          options.onProgress?.(fraction, secondsLeft);
        },
      },
    );
    if (finished.error) throw operationFailure(finished.error);
    const reply = finished.response;
    const reasons = reply?.raiMediaFilteredReasons ?? [];
    const sample = reply?.generatedVideos?.find((s) => s.video?.uri || s.video?.videoBytes);
    if (!sample?.video) {
      throw vendorContentFiltered(
        VENDOR,
        reasons.length > 0
          ? reasons.join('; ')
          : `the video was withheld (${reply?.raiMediaFilteredCount ?? 0} filtered)`,
      );
    }
    options.onProgress?.(0.88, 5);

    const inline = sample.video.videoBytes;
    const media: MediaBuffer = inline
      ? { data: Buffer.from(inline, 'base64'), mimeType: sample.video.mimeType ?? 'video/mp4' }
      : await downloadOutput(VENDOR, sample.video.uri!, {
          headers: authHeaders(this.settings),
          signal: options.signal,
        });
    if (!media.mimeType.startsWith('video/')) media.mimeType = 'video/mp4';
    options.onProgress?.(0.96, 1);

    const probe = await this.probe(media, options.signal);
    options.onProgress?.(1, 0);
    return {
      ...media,
      width: probe.video?.width ?? request.width,
      height: probe.video?.height ?? request.height,
      durationSeconds: probe.durationMs ? probe.durationMs / 1000 : durationSeconds,
      fps: probe.video?.fps ?? 24,
      hasAudio: probe.audio !== null,
      metadata: {
        engine: 'gemini',
        model: request.model,
        vendorModel: modelId,
        operation: finished.name,
        personGeneration,
        aspectRatio,
        resolution,
        requestedDurationSeconds: request.durationSeconds,
        vendorDurationSeconds: durationSeconds,
        inputs: [firstFrame ? 'image' : 'text', ...(lastFrame ? ['last-frame'] : [])],
        referenceCount: references.length,
        ...(reasons.length > 0 ? { raiMediaFilteredReasons: reasons } : {}),
      },
    };
  }

  /** Size, length and streams of the downloaded clip; a clip ffprobe cannot read is a vendor failure. */
  private async probe(media: MediaBuffer, signal?: AbortSignal) {
    const dir = await makeWorkDir('veo');
    try {
      const file = path.join(dir, 'output.mp4');
      await writeFile(file, media.data);
      const probe = await probeMedia(this.tools, file, signal).catch(() => null);
      if (!probe?.video) throw new VendorError(VENDOR, 'the returned video does not decode', true);
      return probe;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
