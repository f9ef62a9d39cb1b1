// Replicate Real-ESRGAN (nightmareai/real-esrgan) for image upscaling through Replicate's official SDK
// (`replicate`): POST /v1/predictions with the model version, poll GET /v1/predictions/{id} until
// succeeded/failed/canceled, download the output at once (Replicate deletes outputs after an hour) and
// bring it to the requested target box.
import Replicate from 'replicate';
import sharp, { type ResizeOptions } from 'sharp';
import type { Config } from '../../config.ts';
import { LocalUpscaleEngine } from '../local/upscale.ts';
import type { EngineOverrides } from '../registry.ts';
import type {
  EngineCallOptions,
  EngineMetadata,
  ImageResult,
  UpscaleEngine,
  UpscaleImageRequest,
  UpscaleVideoRequest,
  VideoResult,
} from '../types.ts';
import {
  downloadOutput,
  pollUntil,
  type SdkHttpFailure,
  VendorError,
  vendorContentFiltered,
  vendorSdkCall,
} from '../vendor/http.ts';

const VENDOR = 'Replicate';
const DEFAULT_BASE = 'https://api.replicate.com/v1';
/** nightmareai/real-esrgan (the version id Replicate lists for the model; REPLICATE_ESRGAN_VERSION overrides it). */
const DEFAULT_VERSION = 'f121d640bd286e1fdc67f9799164c1d5be36ff74576ee11c803ae5b665dd46aa';
/** Replicate accepts data URIs for small files; larger ones go through the files API first. */
const DATA_URI_LIMIT = 256 * 1024;
/** Real-ESRGAN's scale input runs 0–10. */
const MAX_SCALE = 10;

/** The spec's service names Replicate serves (image upscaling). */
const REPLICATE_UPSCALE_NAMES = ['image-upscaler', 'upscale_4k'] as const;

type PredictionStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';

interface Prediction {
  id: string;
  status: PredictionStatus;
  output?: string | string[] | null;
  error?: string | null;
  logs?: string | null;
  urls?: { get?: string; cancel?: string };
}

interface ReplicateOptions {
  apiToken: string;
  baseUrl?: string;
  version?: string;
  pollIntervalMs?: number;
  timeoutMs?: number;
  /** Serves video() (Real-ESRGAN is image-only): the local upscaler, which says so in its metadata. */
  video: Pick<UpscaleEngine, 'video'>;
}

const SAFETY = /nsfw|safety|sensitive content|content policy|flagged/i;

function describe(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (typeof b.detail === 'string') return b.detail;
    if (typeof b.title === 'string') return b.title;
    if (typeof b.error === 'string') return b.error;
  }
  return typeof body === 'string' && body ? body.slice(0, 300) : undefined;
}

/**
 * The SDK's ApiError: the response (its body already read into the message, "…: <body>.") and status.
 * The SDK retries 429s (and 5xx on GET) itself first; what is left goes through the shared policy.
 */
function replicateFailure(error: unknown): SdkHttpFailure | undefined {
  const response = (error as { name?: string; response?: unknown } | null)?.response;
  if ((error as Error | null)?.name !== 'ApiError' || !(response instanceof Response)) return undefined;
  const text = /failed with status \d+[^:]*: ([\s\S]*)\.$/.exec((error as Error).message)?.[1] ?? '';
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body, retryAfter: response.headers.get('retry-after') };
}

/** The percentage Real-ESRGAN last printed in its logs ("… 45%|…"), if any. */
function logProgress(logs: string | null | undefined): number | undefined {
  const matches = logs?.match(/(\d{1,3})%/g);
  const last = matches?.at(-1);
  return last ? Math.min(100, Number.parseInt(last, 10)) / 100 : undefined;
}

export class ReplicateUpscaleEngine implements UpscaleEngine {
  readonly name = 'replicate';
  private readonly version: string;
  private readonly client: Replicate;

  constructor(private readonly options: ReplicateOptions) {
    this.version = options.version ?? DEFAULT_VERSION;
    this.client = new Replicate({
      auth: options.apiToken,
      baseUrl: (options.baseUrl ?? DEFAULT_BASE).replace(/\/$/, ''),
      useFileOutput: false,
    });
  }

  private call<T>(request: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return vendorSdkCall(VENDOR, request, { failureOf: replicateFailure, signal, describe });
  }

  async image(request: UpscaleImageRequest, options: EngineCallOptions = {}): Promise<ImageResult> {
    const { signal, onProgress } = options;
    const meta = await sharp(request.image.data).metadata();
    const width = meta.autoOrient?.width ?? meta.width;
    const height = meta.autoOrient?.height ?? meta.height;
    if (!width || !height) throw new VendorError(VENDOR, 'the image could not be read', false);
    const scale = Math.min(
      MAX_SCALE,
      Math.max(1, Math.ceil(Math.max(request.targetWidth, request.targetHeight) / Math.max(width, height) - 1e-9)),
    );
    onProgress?.(0.02);
    const image = await this.imageInput(request.image.data, request.image.mimeType, signal);
    const created = (await this.call(
      () =>
        this.client.predictions.create({ version: this.version, input: { image, scale, face_enhance: false }, signal }),
      signal,
    )) as Prediction;
    const prediction = await this.waitFor(created, options);
    const url = Array.isArray(prediction.output) ? prediction.output[0] : prediction.output;
    if (!url) throw new VendorError(VENDOR, 'the prediction succeeded without an output', false);
    const output = await downloadOutput(VENDOR, url, { signal });
    onProgress?.(0.9);
    return fitUpscaled(output.data, request, {
      engine: 'replicate',
      model: request.model,
      vendorModel: 'nightmareai/real-esrgan',
      version: this.version,
      predictionId: prediction.id,
      scale,
    });
  }

  video(request: UpscaleVideoRequest, options?: EngineCallOptions): Promise<VideoResult> {
    return this.options.video.video(request, options);
  }

  /** A data URI when small, else a file uploaded to Replicate's files API (its `urls.get`). */
  private async imageInput(data: Buffer, mimeType: string, signal?: AbortSignal): Promise<string> {
    if (data.byteLength <= DATA_URI_LIMIT) return `data:${mimeType};base64,${data.toString('base64')}`;
    const ext = mimeType.split('/')[1] ?? 'png';
    const file = new File([new Uint8Array(data)], `source.${ext}`, { type: mimeType });
    const uploaded = (await this.call(() => this.client.files.create(file, {}, { signal }), signal)) as {
      urls?: { get?: string };
    };
    const url = uploaded.urls?.get;
    if (!url) throw new VendorError(VENDOR, 'the file upload returned no URL', true);
    return url;
  }

  private async waitFor(first: Prediction, { signal, onProgress }: EngineCallOptions): Promise<Prediction> {
    const cancel = () => {
      // Best effort, once: the caller has already given up.
      void this.client.predictions.cancel(first.id).catch(() => undefined);
    };
    signal?.addEventListener('abort', cancel, { once: true });
    // Progress never goes back (log percentages restart per tile).
    let reported = 0;
    const report = (fraction: number) => {
      reported = Math.max(reported, fraction);
      onProgress?.(reported);
    };
    try {
      let current = first;
      // A prediction created with "Prefer: wait" may already be final; otherwise poll from the start.
      let fresh = isFinal(first.status);
      return await pollUntil(
        VENDOR,
        async () => {
          if (!fresh)
            current = (await this.call(() => this.client.predictions.get(first.id, { signal }), signal)) as Prediction;
          fresh = false;
          switch (current.status) {
            case 'succeeded':
              return current;
            case 'failed': {
              const reason = current.error ?? 'the prediction failed';
              if (SAFETY.test(reason)) throw vendorContentFiltered(VENDOR, reason);
              throw new VendorError(VENDOR, reason, false);
            }
            case 'canceled':
              throw new VendorError(VENDOR, 'the prediction was canceled', false);
            case 'processing':
              report(0.1 + 0.75 * (logProgress(current.logs) ?? 0));
              return undefined;
            default:
              report(0.05);
              return undefined;
          }
        },
        { intervalMs: this.options.pollIntervalMs ?? 1_000, timeoutMs: this.options.timeoutMs ?? 540_000, signal },
      );
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }
}

/**
 * Vendors upscale by their own factors; the result is brought to the requested box like the local
 * upscaler: "inside" (default) keeps the image's shape and brings its long side to the target's long
 * side (9:16 → 2160x3840, 1:1 → 3840x3840); the other fits use the box as given. JPEG/WebP inputs stay
 * in their format unless one is asked for, others become PNG.
 */
export async function fitUpscaled(
  data: Buffer,
  request: UpscaleImageRequest,
  metadata: EngineMetadata,
): Promise<ImageResult> {
  const meta = await sharp(data).metadata();
  const width = meta.autoOrient?.width ?? meta.width ?? 1;
  const height = meta.autoOrient?.height ?? meta.height ?? 1;
  const long = Math.max(request.targetWidth, request.targetHeight);
  const fit = request.fit ?? 'inside';
  const input = request.image.mimeType;
  const format = request.outputFormat ?? (input === 'image/jpeg' ? 'jpeg' : input === 'image/webp' ? 'webp' : 'png');
  const resize: ResizeOptions =
    fit === 'inside'
      ? width >= height
        ? { width: long }
        : { height: long }
      : { width: request.targetWidth, height: request.targetHeight, fit, background: { r: 0, g: 0, b: 0, alpha: 1 } };
  const { data: out, info } = await sharp(data)
    .rotate()
    .resize({ ...resize, kernel: 'lanczos3' })
    .toFormat(format)
    .toBuffer({ resolveWithObject: true });
  return { data: out, mimeType: `image/${format}`, width: info.width, height: info.height, metadata };
}

function isFinal(status: PredictionStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'canceled';
}

/** REPLICATE_API_TOKEN set ⇒ Real-ESRGAN serves the image upscaler names. */
export function replicateVendor(config: Config): EngineOverrides {
  if (!config.REPLICATE_API_TOKEN) return {};
  const engine = new ReplicateUpscaleEngine({
    apiToken: config.REPLICATE_API_TOKEN,
    baseUrl: config.REPLICATE_API_BASE,
    version: config.REPLICATE_ESRGAN_VERSION,
    video: new LocalUpscaleEngine(config),
  });
  return { upscale: Object.fromEntries(REPLICATE_UPSCALE_NAMES.map((n) => [n, engine])) };
}
