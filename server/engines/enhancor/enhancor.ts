// Enhancor image enhancement behind the upscale interface. Enhancor publishes no API reference we
// could check (see ../shared/providers.md §5), so the base URL is configurable and the adapter is
// tolerant: POST {base}/api/{service}/v1/queue {img_url, mode?, enhancementLevel?} → {requestId};
// POST {base}/api/{service}/v1/status {request_id} → {status PENDING|IN_QUEUE|IN_PROGRESS|COMPLETED|
// FAILED, result (URL)}; the result is downloaded at once and brought to the requested box.
import type { Config } from '../../config.ts';
import { LocalUpscaleEngine } from '../local/upscale.ts';
import type { EngineOverrides } from '../registry.ts';
import { fitUpscaled } from '../replicate/replicate.ts';
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

const VENDOR = 'Enhancor';
const DEFAULT_BASE = 'https://api.enhancor.ai';

/** The spec's image enhance services Enhancor serves, and the API path segment of each. */
const SERVICE_PATHS = {
  'realistic-skin': 'realistic-skin',
  'portrait-upscaler': 'upscaler',
  detailed: 'detailed',
} as const;

interface QueueReply {
  success?: boolean;
  requestId?: string;
  request_id?: string;
  id?: string;
}

interface StatusReply {
  status?: string;
  result?: string | { url?: string } | null;
  output?: string | null;
  error?: string | null;
  message?: string | null;
}

interface EnhancorOptions {
  apiKey: string;
  baseUrl?: string;
  /** Serves video() (Enhancor enhances images): the local upscaler, which says so in its metadata. */
  video: Pick<UpscaleEngine, 'video'>;
  pollIntervalMs?: number;
  timeoutMs?: number;
}

const SAFETY = /nsfw|safety|moderation|inappropriate|prohibited|content policy/i;
const BALANCE = /insufficient|not enough credits|out of credits|balance|payment/i;

function resultUrl(reply: StatusReply): string | undefined {
  if (typeof reply.result === 'string') return reply.result;
  if (reply.result && typeof reply.result.url === 'string') return reply.result.url;
  return reply.output ?? undefined;
}

export class EnhancorUpscaleEngine implements UpscaleEngine {
  readonly name = 'enhancor';
  private readonly base: string;
  private readonly headers: Record<string, string>;

  constructor(private readonly options: EnhancorOptions) {
    this.base = (options.baseUrl ?? DEFAULT_BASE).replace(/\/$/, '');
    this.headers = { 'x-api-key': options.apiKey };
  }

  video(request: UpscaleVideoRequest, options?: EngineCallOptions): Promise<VideoResult> {
    return this.options.video.video(request, options);
  }

  async image(request: UpscaleImageRequest, options: EngineCallOptions = {}): Promise<ImageResult> {
    const { signal, onProgress } = options;
    const path = SERVICE_PATHS[request.model as keyof typeof SERVICE_PATHS];
    if (!path) throw new VendorError(VENDOR, `no Enhancor service for ${request.model}`, false);
    const endpoint = `${this.base}/api/${path}/v1`;
    const queued = await vendorJson<QueueReply>(VENDOR, `${endpoint}/queue`, {
      method: 'POST',
      headers: this.headers,
      json: {
        img_url: `data:${request.image.mimeType};base64,${request.image.data.toString('base64')}`,
        ...(request.mode !== undefined ? { mode: request.mode } : {}),
        ...(request.enhancementLevel !== undefined ? { enhancementLevel: request.enhancementLevel } : {}),
      },
      signal,
    });
    const requestId = queued.data.requestId ?? queued.data.request_id ?? queued.data.id;
    if (!requestId) throw new VendorError(VENDOR, 'no requestId in the queue reply', true);
    onProgress?.(0.1);
    const started = Date.now();
    const url = await pollUntil(
      VENDOR,
      async () => {
        const { data } = await vendorJson<StatusReply>(VENDOR, `${endpoint}/status`, {
          method: 'POST',
          headers: this.headers,
          json: { request_id: requestId },
          signal,
        });
        const status = (data.status ?? '').toUpperCase();
        if (status === 'COMPLETED' || status === 'SUCCEEDED' || status === 'SUCCESS') {
          const found = resultUrl(data);
          if (!found) throw new VendorError(VENDOR, 'completed without a result', true);
          return found;
        }
        if (status === 'FAILED' || status === 'ERROR' || status === 'CANCELED' || status === 'CANCELLED') {
          const reason = data.error ?? data.message ?? 'the enhancement failed';
          if (SAFETY.test(reason)) throw vendorContentFiltered(VENDOR, reason);
          if (BALANCE.test(reason)) throw new VendorBalanceError(VENDOR, reason);
          throw new VendorError(VENDOR, reason, false);
        }
        // No progress figure is reported: creep towards 85 % over about a minute.
        onProgress?.(0.1 + 0.75 * Math.min(1, (Date.now() - started) / 60_000));
        return undefined;
      },
      { intervalMs: this.options.pollIntervalMs ?? 3_000, timeoutMs: this.options.timeoutMs ?? 540_000, signal },
    );
    const output = await downloadOutput(VENDOR, url, { signal });
    onProgress?.(0.9);
    return fitUpscaled(output.data, request, { engine: 'enhancor', model: request.model, requestId });
  }
}

/** ENHANCOR_API_KEY set ⇒ Enhancor serves realistic-skin, portrait-upscaler and detailed. */
export function enhancorVendor(config: Config): EngineOverrides {
  if (!config.ENHANCOR_API_KEY) return {};
  const engine = new EnhancorUpscaleEngine({
    apiKey: config.ENHANCOR_API_KEY,
    baseUrl: config.ENHANCOR_BASE_URL,
    video: new LocalUpscaleEngine(config),
  });
  return { upscale: Object.fromEntries(Object.keys(SERVICE_PATHS).map((n) => [n, engine])) };
}
