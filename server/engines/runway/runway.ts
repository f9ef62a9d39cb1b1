// Runway (api.dev.runwayml.com, API version 2024-11-06) through its official SDK (@runwayml/sdk):
// gen4_turbo image → video, aleph2 video → video (MagicModify; the spec's runway-gen4_aleph — Runway
// replaced gen4_aleph with aleph2), act_two character performance (ActStudio). Every call creates a task
// that is polled at GET /v1/tasks/{id} (no faster than every 5 s, as Runway asks) and cancelled with
// DELETE when the caller aborts. Inputs go as data URIs; outputs are downloaded at once (their URLs expire).
import RunwayML from '@runwayml/sdk';
import type { Config } from '../../config.ts';
import type { EngineOverrides } from '../registry.ts';
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
import {
  downloadOutput,
  pollUntil,
  type RetryPolicy,
  stainlessFailure,
  VendorBalanceError,
  VendorError,
  vendorContentFiltered,
  vendorSdkCall,
} from '../vendor/http.ts';
import { dataUri, imageDataUri, nearestRatio, type ToolConfig, videoFacts } from './media.ts';

const VENDOR = 'Runway';
const RUNWAY_VERSION = '2024-11-06';
/** The API model behind the spec's runway-gen4_aleph: Runway retired gen4_aleph for aleph2. */
const ALEPH_MODEL = 'aleph2';
/** Runway asks clients not to poll a task more often than this. */
const MIN_POLL_MS = 5_000;
// Runway's data URI limits (base64 text): 5 MB for images, 16 MB for videos.
const MAX_IMAGE_URI = 5 * 1024 * 1024;
const MAX_VIDEO_URI = 16 * 1024 * 1024;

const GEN4_RATIOS = ['1280:720', '720:1280', '1104:832', '832:1104', '960:960', '1584:672'] as const;

export interface RunwayTask {
  id: string;
  status: 'PENDING' | 'THROTTLED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
  progress?: number | null;
  output?: string[] | null;
  failure?: string | null;
  failureCode?: string | null;
}

export interface RunwayOptions {
  apiKey: string;
  /** https://api.dev.runwayml.com unless self-hosted or faked. */
  baseUrl: string;
  tools: ToolConfig;
  /** Between task polls; never below 5 s except in tests (`allowFastPolling`). */
  pollIntervalMs?: number;
  allowFastPolling?: boolean;
  /** How long a task may take before we give up on it (default 20 minutes). */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
}

const ratio = (r: string): [number, number] => r.split(':').map(Number) as [number, number];

/** Runway answers 400 "You do not have enough credits…" when the organisation's balance is spent. */
const RUNWAY_BALANCE = /enough credits|insufficient credits|credit balance|INSUFFICIENT/i;

/** Runway's error body `{error, issues?}`; validation issues are appended as `path: message`. */
function describe(body: unknown): string | undefined {
  if (typeof body === 'string') return body.slice(0, 300) || undefined;
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const text = typeof b.error === 'string' ? b.error : typeof b.message === 'string' ? b.message : undefined;
    const issues = Array.isArray(b.issues)
      ? (b.issues as Array<{ path?: unknown[]; message?: string }>)
          .map((i) => `${(i.path ?? []).join('.')}: ${i.message ?? ''}`)
          .join('; ')
      : '';
    return text && issues ? `${text} (${issues})` : text;
  }
  return undefined;
}

export class RunwayVideoEngine implements VideoEngine {
  readonly name = 'runway';
  private readonly client: RunwayML;
  private readonly pollMs: number;

  constructor(private readonly options: RunwayOptions) {
    // The SDK's own retries are off: vendorSdkCall retries with the policy every adapter shares.
    this.client = new RunwayML({
      apiKey: options.apiKey,
      baseURL: options.baseUrl.replace(/\/$/, ''),
      runwayVersion: RUNWAY_VERSION,
      maxRetries: 0,
      timeout: 5 * 60_000,
    });
    const asked = options.pollIntervalMs ?? MIN_POLL_MS;
    this.pollMs = options.allowFastPolling ? asked : Math.max(MIN_POLL_MS, asked);
  }

  async textToVideo(request: TextToVideoRequest, options?: EngineCallOptions): Promise<VideoResult> {
    // gen4_turbo always starts from an image: a first frame makes this an image-to-video call.
    if (!request.firstFrame)
      throw new VendorError(VENDOR, 'gen4_turbo needs a starting image: add a first frame or an input image', false);
    return this.imageToVideo({ ...request, image: request.firstFrame }, options);
  }

  async imageToVideo(request: ImageToVideoRequest, options?: EngineCallOptions): Promise<VideoResult> {
    // gen4_turbo takes a first frame only (promptImage position 'first'); Runway refuses 'last'.
    if (request.lastFrame)
      throw new VendorError(
        VENDOR,
        'gen4_turbo takes a first frame only, not a last frame: use veo-3.1-generate-preview for first and last frames',
        false,
      );
    const body: RunwayML.ImageToVideoCreateParams.Gen4Turbo = {
      model: 'gen4_turbo',
      promptImage: await imageDataUri(VENDOR, request.image, MAX_IMAGE_URI),
      ratio: nearestRatio(request.width, request.height, GEN4_RATIOS, ratio),
      ...(request.prompt.trim() ? { promptText: request.prompt.trim().slice(0, 1000) } : {}),
      duration: request.durationSeconds > 7.5 ? 10 : 5,
      ...(request.seed !== undefined ? { seed: request.seed >>> 0 } : {}),
    };
    return this.run((o) => this.client.imageToVideo.create(body, o), body, request.model, 'gen4_turbo', options);
  }

  async videoToVideo(request: VideoToVideoRequest, options?: EngineCallOptions): Promise<VideoResult> {
    // aleph2 keeps the input video's frame (its `ratio` is deprecated); an image reference goes as a
    // guidance keyframe from the start of the video (aleph2 has no `references`).
    const body: RunwayML.VideoToVideoCreateParams.Variant0 = {
      model: ALEPH_MODEL,
      videoUri: this.videoUri(request.video),
      ...(request.prompt.trim() ? { promptText: request.prompt.trim().slice(0, 1000) } : {}),
      ...(request.reference
        ? { keyframes: [{ at: 0, uri: await imageDataUri(VENDOR, request.reference, MAX_IMAGE_URI) }] }
        : {}),
      ...(request.seed !== undefined ? { seed: request.seed >>> 0 } : {}),
    };
    return this.run((o) => this.client.videoToVideo.create(body, o), body, request.model, ALEPH_MODEL, options);
  }

  async characterPerformance(request: CharacterPerformanceRequest, options?: EngineCallOptions): Promise<VideoResult> {
    const character: RunwayML.CharacterPerformanceCreateParams['character'] = request.character.mimeType.startsWith(
      'video/',
    )
      ? { type: 'video', uri: this.videoUri(request.character) }
      : { type: 'image', uri: await imageDataUri(VENDOR, request.character, MAX_IMAGE_URI) };
    const body: RunwayML.CharacterPerformanceCreateParams = {
      model: 'act_two',
      character,
      reference: { type: 'video', uri: this.videoUri(request.reference) },
      ratio: nearestRatio(request.width ?? 1280, request.height ?? 720, GEN4_RATIOS, ratio),
      bodyControl: true,
      ...(request.expressionIntensity !== undefined
        ? { expressionIntensity: Math.min(5, Math.max(1, Math.round(request.expressionIntensity))) }
        : {}),
    };
    return this.run((o) => this.client.characterPerformance.create(body, o), body, request.model, 'act_two', options);
  }

  private videoUri(video: MediaBuffer): string {
    const uri = dataUri(video);
    if (uri.length > MAX_VIDEO_URI)
      throw new VendorError(VENDOR, 'the input video is too large to send (at most about 12 MB)', false);
    return uri;
  }

  /** One SDK call under the shared retry policy; Runway's "not enough credits" 400 is a balance error. */
  private async call<T>(request: (o: { signal?: AbortSignal }) => PromiseLike<T>, signal?: AbortSignal): Promise<T> {
    try {
      return await vendorSdkCall(VENDOR, () => request({ signal }), {
        failureOf: stainlessFailure,
        signal,
        retry: this.options.retry,
        describe,
      });
    } catch (error) {
      if (error instanceof VendorError && !error.retryable && RUNWAY_BALANCE.test(error.message))
        throw new VendorBalanceError(VENDOR, error.message);
      throw error;
    }
  }

  private async run(
    create: (o: { signal?: AbortSignal }) => PromiseLike<{ id?: string }>,
    body: { ratio?: string },
    model: string,
    vendorModel: string,
    options: EngineCallOptions = {},
  ): Promise<VideoResult> {
    const { signal, onProgress } = options;
    signal?.throwIfAborted();
    const created = await this.call(create, signal);
    if (!created?.id) throw new VendorError(VENDOR, 'the task was not created (no id in the reply)', true);
    const id = created.id;
    onProgress?.(0);
    let task: RunwayTask;
    try {
      task = await pollUntil(
        VENDOR,
        async () => {
          const t = (await this.call((o) => this.client.tasks.retrieve(id, o), signal)) as RunwayTask;
          if (t.status === 'SUCCEEDED' || t.status === 'FAILED' || t.status === 'CANCELLED') return t;
          if (t.status === 'RUNNING' && typeof t.progress === 'number')
            onProgress?.(Math.min(0.99, Math.max(0, t.progress)));
          return undefined;
        },
        { intervalMs: this.pollMs, timeoutMs: this.options.timeoutMs ?? 20 * 60_000, signal },
      );
    } catch (error) {
      // Aborted or given up on: cancel the task so Runway stops spending credits on it.
      if (signal?.aborted || (error instanceof VendorError && error.message.includes('timed out')))
        await this.cancel(id);
      throw error;
    }
    if (task.status === 'FAILED') throw failureError(task);
    if (task.status === 'CANCELLED') throw new VendorError(VENDOR, 'the task was cancelled', false);
    const url = task.output?.[0];
    if (!url) throw new VendorError(VENDOR, 'the task succeeded without an output', true);
    const output = await downloadOutput(VENDOR, url, { signal });
    const facts = await videoFacts(VENDOR, this.options.tools, output.data, signal);
    onProgress?.(1);
    return {
      data: output.data,
      mimeType: output.mimeType.startsWith('video/') ? output.mimeType : 'video/mp4',
      ...facts,
      metadata: {
        engine: 'runway',
        model,
        vendorModel,
        vendorTaskId: id,
        ...(body.ratio ? { ratio: body.ratio } : {}),
      },
    };
  }

  /** Best effort: the caller has already given up, so a failed cancel is not an error of its own. */
  private async cancel(id: string): Promise<void> {
    await this.call((o) => this.client.tasks.delete(id, o), AbortSignal.timeout(10_000)).catch(() => undefined);
  }
}

/** A FAILED task as the product's error: SAFETY.* → content filtered, credits → balance, INTERNAL.* → retryable. */
function failureError(task: RunwayTask): Error {
  const code = task.failureCode ?? '';
  const reason = task.failure || code || 'the task failed';
  if (code.startsWith('SAFETY')) return vendorContentFiltered(VENDOR, code ? `${reason} (${code})` : reason);
  if (RUNWAY_BALANCE.test(code) || RUNWAY_BALANCE.test(reason)) return new VendorBalanceError(VENDOR, reason);
  return new VendorError(VENDOR, code ? `${reason} (${code})` : reason, code.startsWith('INTERNAL') || code === '');
}

/** The spec names Runway serves once RUNWAY_API_KEY is set. */
export function runwayVendor(config: Config): EngineOverrides {
  if (!config.RUNWAY_API_KEY) return {};
  const engine = new RunwayVideoEngine({
    apiKey: config.RUNWAY_API_KEY,
    baseUrl: config.RUNWAY_API_BASE,
    tools: config,
  });
  return { video: { 'runway-gen4_turbo': engine, 'runway-gen4_aleph': engine, 'runway-act_two': engine } };
}
