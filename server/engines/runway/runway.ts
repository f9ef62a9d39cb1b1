// Runway (api.dev.runwayml.com, API version 2024-11-06): gen4_turbo image → video, gen4_aleph video →
// video (MagicModify), act_two character performance (ActStudio). Every call creates a task that is
// polled at GET /v1/tasks/{id} (no faster than every 5 s, as Runway asks) and cancelled with DELETE
// when the caller aborts. Inputs go as data URIs; outputs are downloaded at once (their URLs expire).
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
  VendorBalanceError,
  VendorError,
  vendorContentFiltered,
  vendorJson,
} from '../vendor/http.ts';
import { dataUri, imageDataUri, nearestRatio, type ToolConfig, videoFacts } from './media.ts';

const VENDOR = 'Runway';
const RUNWAY_VERSION = '2024-11-06';
/** Runway asks clients not to poll a task more often than this. */
const MIN_POLL_MS = 5_000;
// Runway's data URI limits (base64 text): 5 MB for images, 16 MB for videos.
const MAX_IMAGE_URI = 5 * 1024 * 1024;
const MAX_VIDEO_URI = 16 * 1024 * 1024;

const GEN4_RATIOS = ['1280:720', '720:1280', '1104:832', '832:1104', '960:960', '1584:672'] as const;
const ALEPH_RATIOS = [...GEN4_RATIOS, '848:480', '640:480'] as const;

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

function describe(body: unknown): string | undefined {
  if (typeof body === 'string') return body.slice(0, 300) || undefined;
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (typeof b.error === 'string') return b.error;
    if (typeof b.message === 'string') return b.message;
  }
  return undefined;
}

export class RunwayVideoEngine implements VideoEngine {
  readonly name = 'runway';
  private readonly base: string;
  private readonly pollMs: number;

  constructor(private readonly options: RunwayOptions) {
    this.base = options.baseUrl.replace(/\/$/, '');
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
    const first = await imageDataUri(VENDOR, request.image, MAX_IMAGE_URI);
    const promptImage = request.lastFrame
      ? [
          { uri: first, position: 'first' },
          { uri: await imageDataUri(VENDOR, request.lastFrame, MAX_IMAGE_URI), position: 'last' },
        ]
      : first;
    const body = {
      model: 'gen4_turbo',
      promptImage,
      ratio: nearestRatio(request.width, request.height, GEN4_RATIOS, ratio),
      ...(request.prompt.trim() ? { promptText: request.prompt.trim().slice(0, 1000) } : {}),
      duration: request.durationSeconds > 7.5 ? 10 : 5,
      ...(request.seed !== undefined ? { seed: request.seed >>> 0 } : {}),
    };
    return this.run('/v1/image_to_video', body, request.model, 'gen4_turbo', options);
  }

  async videoToVideo(request: VideoToVideoRequest, options?: EngineCallOptions): Promise<VideoResult> {
    const body = {
      model: 'gen4_aleph',
      promptText: request.prompt.trim().slice(0, 1000),
      videoUri: this.videoUri(request.video),
      ratio: nearestRatio(request.width ?? 1280, request.height ?? 720, ALEPH_RATIOS, ratio),
      ...(request.reference
        ? { references: [{ type: 'image', uri: await imageDataUri(VENDOR, request.reference, MAX_IMAGE_URI) }] }
        : {}),
      ...(request.seed !== undefined ? { seed: request.seed >>> 0 } : {}),
    };
    return this.run('/v1/video_to_video', body, request.model, 'gen4_aleph', options);
  }

  async characterPerformance(request: CharacterPerformanceRequest, options?: EngineCallOptions): Promise<VideoResult> {
    const character = request.character.mimeType.startsWith('video/')
      ? { type: 'video', uri: this.videoUri(request.character) }
      : { type: 'image', uri: await imageDataUri(VENDOR, request.character, MAX_IMAGE_URI) };
    const body = {
      model: 'act_two',
      character,
      reference: { type: 'video', uri: this.videoUri(request.reference) },
      ratio: nearestRatio(request.width ?? 1280, request.height ?? 720, GEN4_RATIOS, ratio),
      bodyControl: true,
      ...(request.expressionIntensity !== undefined
        ? { expressionIntensity: Math.min(5, Math.max(1, Math.round(request.expressionIntensity))) }
        : {}),
    };
    return this.run('/v1/character_performance', body, request.model, 'act_two', options);
  }

  private videoUri(video: MediaBuffer): string {
    const uri = dataUri(video);
    if (uri.length > MAX_VIDEO_URI)
      throw new VendorError(VENDOR, 'the input video is too large to send (at most about 12 MB)', false);
    return uri;
  }

  private headers(): Record<string, string> {
    return { authorization: `Bearer ${this.options.apiKey}`, 'x-runway-version': RUNWAY_VERSION };
  }

  private async call<T>(
    path: string,
    init: { method?: 'GET' | 'POST' | 'DELETE'; json?: unknown; signal?: AbortSignal },
  ) {
    try {
      const { data } = await vendorJson<T>(
        VENDOR,
        `${this.base}${path}`,
        { ...init, headers: this.headers(), retry: this.options.retry },
        describe,
      );
      return data;
    } catch (error) {
      if (error instanceof VendorError && !error.retryable && RUNWAY_BALANCE.test(error.message))
        throw new VendorBalanceError(VENDOR, error.message);
      throw error;
    }
  }

  private async run(
    path: string,
    body: Record<string, unknown>,
    model: string,
    vendorModel: string,
    options: EngineCallOptions = {},
  ): Promise<VideoResult> {
    const { signal, onProgress } = options;
    signal?.throwIfAborted();
    const created = await this.call<{ id?: string }>(path, { method: 'POST', json: body, signal });
    if (!created?.id) throw new VendorError(VENDOR, 'the task was not created (no id in the reply)', true);
    const id = created.id;
    onProgress?.(0);
    let task: RunwayTask;
    try {
      task = await pollUntil(
        VENDOR,
        async () => {
          const t = await this.call<RunwayTask>(`/v1/tasks/${encodeURIComponent(id)}`, { signal });
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
      metadata: { engine: 'runway', model, vendorModel, vendorTaskId: id, ratio: body.ratio },
    };
  }

  /** Best effort: the caller has already given up, so a failed cancel is not an error of its own. */
  private async cancel(id: string): Promise<void> {
    await this.call(`/v1/tasks/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      signal: AbortSignal.timeout(10_000),
    }).catch(() => undefined);
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
