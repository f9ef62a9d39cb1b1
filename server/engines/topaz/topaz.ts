// Topaz Labs video enhancement: POST /video/ (source facts, output settings, filters) → requestId;
// PATCH /video/{id}/accept → presigned part URLs; PUT the bytes part by part (keeping each ETag);
// PATCH /video/{id}/complete-upload/; poll GET /video/{id}/status until complete; download the
// output at once (its URL expires). Images are not Topaz's job here: image() goes to the engine given.
import { join } from 'node:path';
import type { Config } from '../../config.ts';
import { type ToolConfig, withTempDir, writeInputVideo } from '../local/ffmpeg.ts';
import { LocalUpscaleEngine } from '../local/upscale.ts';
import type { EngineOverrides } from '../registry.ts';
import type {
  EngineCallOptions,
  ImageResult,
  UpscaleEngine,
  UpscaleImageRequest,
  UpscaleVideoRequest,
  VideoResult,
} from '../types.ts';
import {
  downloadOutput,
  pollUntil,
  VendorBalanceError,
  VendorError,
  vendorContentFiltered,
  vendorJson,
} from '../vendor/http.ts';

const VENDOR = 'Topaz';
const DEFAULT_BASE = 'https://api.topazlabs.com';
/** The largest output the studio asks for (4K UHD, either orientation), as the local upscaler. */
const MAX_LONG = 3840;
const MAX_SHORT = 2160;

/** The spec's names Topaz serves: the video enhance dialog's service and its default model/option. */
const TOPAZ_UPSCALE_NAMES = ['topaz', 'proteus', 'prob-4'] as const;

/** The enhance dialog's catalogue models → the Topaz filter model of their default option. */
const FILTER_OF_MODEL: Record<string, string> = {
  proteus: 'prob-4',
  artemis: 'ahq-12',
  gaia: 'ghq-5',
  apollo: 'apo-8',
  chronos: 'chr-2',
  nyx: 'nyx-3',
  iris: 'iri-2',
  upscale_4k: 'prob-4',
  topaz: 'prob-4',
};
/** Frame-interpolation filters (Apollo, Chronos) as opposed to enhancement filters. */
const INTERPOLATION = /^(apo|apf|chr|chf)-/;

type TopazStatus =
  | 'requested'
  | 'accepted'
  | 'initializing'
  | 'preprocessing'
  | 'processing'
  | 'postprocessing'
  | 'complete'
  | 'canceling'
  | 'canceled'
  | 'failed';

interface StatusReply {
  status: TopazStatus;
  progress?: number;
  errorCode?: string | number;
  message?: string;
  estimates?: { time?: number | number[] };
  download?: { url?: string; expiresAt?: string | number };
}

interface TopazOptions {
  apiKey: string;
  baseUrl?: string;
  tools: ToolConfig;
  /** Serves image() (Topaz here enhances video): the local upscaler, which says so in its metadata. */
  image: Pick<UpscaleEngine, 'image'>;
  pollIntervalMs?: number;
  timeoutMs?: number;
  /** Upload segment size; Topaz's 500 MB unless a test's fake uses smaller segments. */
  segmentBytes?: number;
}

const SAFETY = /content[ _-]?(policy|moderation|filter)|prohibited content|nsfw|safety/i;
const BALANCE = /insufficient[ _-]?(credits?|balance|funds)|not enough credits|out of credits|payment/i;

function describe(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (typeof b.message === 'string' && Array.isArray(b.errors) && b.errors.length > 0)
      return `${b.message} (${(b.errors as Array<{ path?: string; message?: string }>).map((e) => `${e.path}: ${e.message}`).join('; ')})`;
    for (const key of ['message', 'error', 'detail', 'errorCode']) {
      const value = b[key];
      if (typeof value === 'string') return value;
      if (value && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string')
        return (value as { message: string }).message;
    }
  }
  return typeof body === 'string' && body ? body.slice(0, 300) : undefined;
}

/** Topaz's upload segment: 500 MB (decimal, as its reference's worked example counts bytes). */
export const TOPAZ_SEGMENT_BYTES = 500_000_000;

/**
 * The byte ranges to PUT to the URLs `accept` returned, per Topaz's reference: one URL ⇒ the whole
 * file; otherwise segments of max(500 MB, ceil(size / urls)) in order, one per URL (a plain 500 MB
 * division up to the 150-URL cap, larger segments beyond it). URLs past the end of the file get no part.
 */
export function planTopazUpload(
  size: number,
  urlCount: number,
  segmentBytes: number = TOPAZ_SEGMENT_BYTES,
): Array<{ partNum: number; start: number; end: number }> {
  if (urlCount < 1) throw new VendorError(VENDOR, 'no upload URLs in the accept reply', true);
  if (urlCount === 1) return [{ partNum: 1, start: 0, end: size }];
  const segment = Math.max(segmentBytes, Math.ceil(size / urlCount));
  const parts: Array<{ partNum: number; start: number; end: number }> = [];
  for (let index = 0; index < urlCount && index * segment < size; index++)
    parts.push({ partNum: index + 1, start: index * segment, end: Math.min(size, (index + 1) * segment) });
  return parts;
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** source × scale, reduced so it fits 3840x2160 (or 2160x3840); even sides. */
function outputSize(width: number, height: number, scale: number): { width: number; height: number } {
  const landscape = width >= height;
  const fit = Math.min(scale, (landscape ? MAX_LONG : MAX_SHORT) / width, (landscape ? MAX_SHORT : MAX_LONG) / height);
  const factor = Math.max(1, fit);
  return { width: even(width * factor), height: even(height * factor) };
}

export class TopazVideoEngine implements UpscaleEngine {
  readonly name = 'topaz';
  private readonly base: string;
  private readonly headers: Record<string, string>;

  constructor(private readonly options: TopazOptions) {
    this.base = (options.baseUrl ?? DEFAULT_BASE).replace(/\/$/, '');
    this.headers = { 'x-api-key': options.apiKey };
  }

  image(request: UpscaleImageRequest, options?: EngineCallOptions): Promise<ImageResult> {
    return this.options.image.image(request, options);
  }

  async video(request: UpscaleVideoRequest, options: EngineCallOptions = {}): Promise<VideoResult> {
    const { signal, onProgress } = options;
    const source = await withTempDir((dir) =>
      writeInputVideo(this.options.tools, join(dir, 'source'), request.video.data, signal),
    );
    const sourceFps = source.video.fps ?? 30;
    const duration = (source.durationMs ?? 0) / 1000;
    const size = outputSize(source.video.width, source.video.height, request.scale);
    const frameRate = request.fps ?? sourceFps;
    const filters = this.filtersFor(request, frameRate > sourceFps + 0.01);
    const container = request.video.mimeType === 'video/quicktime' ? 'mov' : 'mp4';

    const created = await vendorJson<{ requestId: string; estimates?: { cost?: unknown; time?: unknown } }>(
      VENDOR,
      `${this.base}/video/`,
      {
        method: 'POST',
        headers: this.headers,
        json: {
          source: {
            container,
            size: request.video.data.byteLength,
            duration,
            frameRate: sourceFps,
            frameCount: Math.round(duration * sourceFps),
            resolution: { width: source.video.width, height: source.video.height },
          },
          output: {
            resolution: size,
            frameRate,
            container: 'mp4',
            videoEncoder: 'H264',
            audioCodec: 'AAC',
            audioTransfer: source.audio ? 'Copy' : 'None',
          },
          filters,
        },
        signal,
      },
      describe,
    );
    const id = created.data.requestId;
    if (!id) throw new VendorError(VENDOR, 'no requestId in the reply', true);
    const cancel = () => {
      // Best effort, once: the caller has already given up.
      void vendorJson(VENDOR, `${this.base}/video/${encodeURIComponent(id)}`, {
        method: 'DELETE',
        headers: this.headers,
        retry: { attempts: 1 },
      }).catch(() => undefined);
    };
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      onProgress?.(0.03);
      await this.upload(id, request.video.data, signal);
      onProgress?.(0.1);
      const url = await this.waitForOutput(id, options);
      const output = await downloadOutput(VENDOR, url, { signal });
      onProgress?.(0.97);
      const probe = await withTempDir((dir) =>
        writeInputVideo(this.options.tools, join(dir, 'output'), output.data, signal, 'Topaz returned no video'),
      );
      return {
        data: output.data,
        mimeType: output.mimeType.startsWith('video/') ? output.mimeType : 'video/mp4',
        width: probe.video.width,
        height: probe.video.height,
        durationSeconds: (probe.durationMs ?? 0) / 1000,
        fps: probe.video.fps ?? frameRate,
        hasAudio: probe.audio !== null,
        metadata: {
          engine: 'topaz',
          model: request.model,
          requestId: id,
          filters: filters.map((f) => f.model),
          ...(created.data.estimates ? { estimates: created.data.estimates } : {}),
        },
      };
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }

  /** The enhancement filter for the model asked for, plus frame interpolation when the rate rises. */
  private filtersFor(request: UpscaleVideoRequest, raisesFps: boolean): Array<{ model: string }> {
    const asked = request.model.toLowerCase();
    const model = FILTER_OF_MODEL[asked] ?? (/^[a-z]{3}-\d+$/.test(asked) ? asked : 'prob-4');
    const filters = [{ model }];
    if (raisesFps && !INTERPOLATION.test(model))
      filters.push({ model: request.interpolation === 'motion' ? 'apo-8' : 'chr-2' });
    return filters;
  }

  /** accept → PUT each part to its presigned URL (ETags kept) → complete-upload. */
  private async upload(id: string, data: Buffer, signal?: AbortSignal): Promise<void> {
    const accepted = await vendorJson<{ uploadId?: string; urls?: string[] }>(
      VENDOR,
      `${this.base}/video/${encodeURIComponent(id)}/accept`,
      { method: 'PATCH', headers: this.headers, signal },
      describe,
    );
    const urls = accepted.data.urls ?? [];
    const uploadResults: Array<{ partNum: number; eTag: string }> = [];
    for (const part of planTopazUpload(data.byteLength, urls.length, this.options.segmentBytes)) {
      const url = urls[part.partNum - 1];
      const body = new Uint8Array(data.subarray(part.start, part.end));
      const put = await vendorJson<unknown>(VENDOR, url, { method: 'PUT', body, signal });
      const eTag = put.headers.get('etag');
      if (!eTag) throw new VendorError(VENDOR, `no ETag for upload part ${part.partNum}`, true);
      uploadResults.push({ partNum: part.partNum, eTag });
    }
    await vendorJson<unknown>(
      VENDOR,
      `${this.base}/video/${encodeURIComponent(id)}/complete-upload/`,
      { method: 'PATCH', headers: this.headers, json: { uploadResults }, signal },
      describe,
    );
  }

  private waitForOutput(id: string, { signal, onProgress }: EngineCallOptions): Promise<string> {
    return pollUntil(
      VENDOR,
      async () => {
        const { data } = await vendorJson<StatusReply>(
          VENDOR,
          `${this.base}/video/${encodeURIComponent(id)}/status`,
          { headers: this.headers, signal },
          describe,
        );
        switch (data.status) {
          case 'complete':
            if (!data.download?.url) throw new VendorError(VENDOR, 'complete without a download URL', true);
            return data.download.url;
          case 'failed': {
            const reason = [data.errorCode, data.message].filter((v) => v !== undefined && v !== '').join(': ');
            if (SAFETY.test(reason)) throw vendorContentFiltered(VENDOR, reason);
            if (BALANCE.test(reason)) throw new VendorBalanceError(VENDOR, reason);
            throw new VendorError(VENDOR, reason || 'the enhancement failed', false);
          }
          case 'canceling':
          case 'canceled':
            throw new VendorError(VENDOR, 'the enhancement was canceled', false);
          default: {
            const fraction = Math.min(1, Math.max(0, (data.progress ?? 0) / 100));
            const left = Array.isArray(data.estimates?.time) ? data.estimates.time[1] : data.estimates?.time;
            onProgress?.(0.1 + 0.8 * fraction, typeof left === 'number' ? left : undefined);
            return undefined;
          }
        }
      },
      { intervalMs: this.options.pollIntervalMs ?? 5_000, timeoutMs: this.options.timeoutMs ?? 1_680_000, signal },
    );
  }
}

/** TOPAZ_API_KEY set ⇒ Topaz serves the video enhancement names. */
export function topazVendor(config: Config): EngineOverrides {
  if (!config.TOPAZ_API_KEY) return {};
  const engine = new TopazVideoEngine({
    apiKey: config.TOPAZ_API_KEY,
    baseUrl: config.TOPAZ_API_BASE,
    tools: config,
    image: new LocalUpscaleEngine(config),
  });
  return { upscale: Object.fromEntries(TOPAZ_UPSCALE_NAMES.map((n) => [n, engine])) };
}
