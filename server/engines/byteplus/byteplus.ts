// BytePlus ModelArk (…/api/v3, Bearer key): Seedream 4.0 images (synchronous POST /images/generations,
// up to 10 reference images) and Seedance video tasks (POST /contents/generations/tasks, polled at
// GET …/tasks/{id}). Ark errors are {"error":{"code","message"}}: *SensitiveContentDetected → content
// filtered, AccountOverdueError → balance. Outputs are downloaded at once (their URLs expire).
import sharp from 'sharp';
import type { Config } from '../../config.ts';
import type { EngineOverrides } from '../registry.ts';
import { imageDataUri, nearestRatio, type ToolConfig, videoFacts } from '../runway/media.ts';
import type {
  CharacterPerformanceRequest,
  ComposeImageRequest,
  EditImageRequest,
  EngineCallOptions,
  ImageEngine,
  ImageOutputFormat,
  ImageResult,
  ImageToVideoRequest,
  InpaintRequest,
  MediaBuffer,
  TextToImageRequest,
  TextToVideoRequest,
  VideoEngine,
  VideoResult,
  VideoToVideoRequest,
} from '../types.ts';
import {
  downloadOutput,
  pollUntil,
  type RetryPolicy,
  unreportedProgress,
  VendorBalanceError,
  VendorError,
  vendorContentFiltered,
  vendorJson,
} from '../vendor/http.ts';

const VENDOR = 'BytePlus';
/** Ark takes image URLs or data URIs up to 10 MB each. */
const MAX_IMAGE_URI = 10 * 1024 * 1024;
const SEEDREAM_MAX_REFERENCES = 10;
// Seedream 4.0 sizes: between 1280x720 and 4096x4096 pixels in area.
const MIN_PIXELS = 1280 * 720;
const MAX_PIXELS = 4096 * 4096;
const SEEDANCE_RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9'] as const;

export interface ArkOptions {
  apiKey: string;
  /** https://ark.ap-southeast.bytepluses.com/api/v3 unless faked. */
  baseUrl: string;
  tools: ToolConfig;
  seedreamModel: string;
  seedanceModel: string;
  pollIntervalMs?: number;
  /** How long a Seedance task may take (default 15 minutes). */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
}

export interface SeedanceTask {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'expired';
  content?: { video_url?: string; last_frame_url?: string };
  error?: { code?: string; message?: string } | null;
}

interface ArkImageReply {
  data?: Array<{ url?: string; b64_json?: string; size?: string; error?: { code?: string; message?: string } }>;
  error?: { code?: string; message?: string };
}

const SAFETY = /SensitiveContent|ContentSecurity|RiskDetect/i;
const BALANCE = /AccountOverdue|insufficient|balance|quota/i;

/** `code: message`, so the mapping below can read Ark's error code. */
function describe(body: unknown): string | undefined {
  if (typeof body === 'string') return body.slice(0, 300) || undefined;
  const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
  if (error) return [error.code, error.message].filter(Boolean).join(': ') || undefined;
  return undefined;
}

function arkError(code: string | undefined, message: string | undefined, retryable: boolean): Error {
  const text = [code, message].filter(Boolean).join(': ') || 'the request failed';
  if (SAFETY.test(code ?? '')) return vendorContentFiltered(VENDOR, text);
  if (BALANCE.test(code ?? '')) return new VendorBalanceError(VENDOR, text);
  return new VendorError(VENDOR, text, retryable);
}

class ArkClient {
  private readonly base: string;
  constructor(readonly options: ArkOptions) {
    this.base = options.baseUrl.replace(/\/$/, '');
  }

  async call<T>(path: string, init: { method?: 'GET' | 'POST' | 'DELETE'; json?: unknown; signal?: AbortSignal }) {
    try {
      const { data } = await vendorJson<T>(
        VENDOR,
        `${this.base}${path}`,
        { ...init, headers: { authorization: `Bearer ${this.options.apiKey}` }, retry: this.options.retry },
        describe,
      );
      return data;
    } catch (error) {
      // Ark's balance (403 AccountOverdueError) and safety refusals arrive as plain 4xx errors.
      if (error instanceof VendorError && !error.retryable) {
        const text = error.message.replace(`${VENDOR}: `, '');
        if (SAFETY.test(text)) throw vendorContentFiltered(VENDOR, text);
        if (/AccountOverdue/i.test(text)) throw new VendorBalanceError(VENDOR, text);
      }
      throw error;
    }
  }
}

/** A WxH Seedream accepts (area within its bounds, 8-px multiples) with the requested shape. */
function seedreamSize(width: number, height: number): string {
  const area = width * height;
  const scale = area < MIN_PIXELS ? Math.sqrt(MIN_PIXELS / area) : area > MAX_PIXELS ? Math.sqrt(MAX_PIXELS / area) : 1;
  const round = (v: number, up: boolean) => (up ? Math.ceil(v / 8) : Math.floor(v / 8)) * 8;
  return `${round(width * scale, scale >= 1)}x${round(height * scale, scale >= 1)}`;
}

async function encode(image: ReturnType<typeof sharp>, format: ImageOutputFormat | undefined): Promise<MediaBuffer> {
  if (format === 'jpeg') return { data: await image.jpeg({ quality: 92 }).toBuffer(), mimeType: 'image/jpeg' };
  if (format === 'webp') return { data: await image.webp({ quality: 92 }).toBuffer(), mimeType: 'image/webp' };
  return { data: await image.png().toBuffer(), mimeType: 'image/png' };
}

export class SeedreamImageEngine implements ImageEngine {
  readonly name = 'byteplus';
  constructor(private readonly ark: ArkClient) {}

  textToImage(request: TextToImageRequest, options?: EngineCallOptions): Promise<ImageResult> {
    const prompt = request.negativePrompt ? `${request.prompt}\nAvoid: ${request.negativePrompt}` : request.prompt;
    return this.generate(
      {
        model: request.model,
        prompt: request.style ? `${prompt}\nStyle: ${request.style}` : prompt,
        images: request.referenceImages ?? [],
        width: request.width,
        height: request.height,
        seed: request.seed,
        format: request.outputFormat,
      },
      options,
    );
  }

  async edit(request: EditImageRequest, options?: EngineCallOptions): Promise<ImageResult> {
    const meta = await sharp(request.image.data).metadata();
    return this.generate(
      {
        model: request.model,
        prompt: request.reference
          ? `${request.prompt}\nEdit image 1; take colours and style from image 2.`
          : request.prompt,
        images: request.reference ? [request.image, request.reference] : [request.image],
        width: request.width ?? meta.width ?? 1024,
        height: request.height ?? meta.height ?? 1024,
        seed: request.seed,
        format: request.outputFormat,
      },
      options,
    );
  }

  compose(request: ComposeImageRequest, options?: EngineCallOptions): Promise<ImageResult> {
    const images = [...request.images].sort((a, b) => b.weight - a.weight).slice(0, SEEDREAM_MAX_REFERENCES);
    const guide = images
      .map(
        (i, n) =>
          `image ${n + 1}${i.role ? ` (${i.role})` : ''}: weight ${Math.round(Math.min(1, Math.max(0, i.weight)) * 100)}%`,
      )
      .join('; ');
    return this.generate(
      {
        model: request.model,
        prompt: `${request.prompt}\nCombine the reference images, following each one as strongly as its weight: ${guide}.`,
        images: images.map((i) => i.image),
        width: request.width,
        height: request.height,
        seed: request.seed,
        format: request.outputFormat,
      },
      options,
    );
  }

  /**
   * Seedream has no mask input: it edits the whole picture, then the mask (white = change) blends the
   * edit into the original here, so unmasked pixels stay byte-identical (PNG output).
   */
  async inpaint(request: InpaintRequest, options?: EngineCallOptions): Promise<ImageResult> {
    const original = sharp(request.image.data).ensureAlpha();
    const { data: base, info } = await original.raw().toBuffer({ resolveWithObject: true });
    const edited = await this.generate(
      {
        model: request.model,
        prompt: `${request.prompt}${request.mode && request.mode !== 'inpaint' ? ` (${request.mode})` : ''}`,
        images: request.reference ? [request.image, request.reference] : [request.image],
        width: info.width,
        height: info.height,
        seed: request.seed,
        format: 'png',
      },
      options,
    );
    const editedRaw = await sharp(edited.data).ensureAlpha().raw().toBuffer();
    const mask = await sharp(request.mask.data)
      .resize(info.width, info.height, { fit: 'fill', kernel: 'nearest' })
      .greyscale()
      .raw()
      .toBuffer();
    const out = Buffer.from(base);
    for (let p = 0; p < info.width * info.height; p++) {
      const m = mask[p] < 3 ? 0 : mask[p] / 255;
      if (m === 0) continue;
      for (let c = 0; c < 3; c++) out[p * 4 + c] = Math.round(base[p * 4 + c] * (1 - m) + editedRaw[p * 4 + c] * m);
    }
    const encoded = await encode(
      sharp(out, { raw: { width: info.width, height: info.height, channels: 4 } }),
      request.outputFormat,
    );
    return { ...edited, ...encoded, metadata: { ...edited.metadata, mode: request.mode, maskedLocally: true } };
  }

  private async generate(
    job: {
      model: string;
      prompt: string;
      images: MediaBuffer[];
      width: number;
      height: number;
      seed?: number;
      format?: ImageOutputFormat;
    },
    options: EngineCallOptions = {},
  ): Promise<ImageResult> {
    const { signal, onProgress } = options;
    signal?.throwIfAborted();
    onProgress?.(0.05);
    const images: string[] = [];
    for (const image of job.images.slice(0, SEEDREAM_MAX_REFERENCES))
      images.push(await imageDataUri(VENDOR, image, MAX_IMAGE_URI));
    const size = seedreamSize(job.width, job.height);
    const reply = await this.ark.call<ArkImageReply>('/images/generations', {
      method: 'POST',
      signal,
      json: {
        model: this.ark.options.seedreamModel,
        prompt: job.prompt,
        ...(images.length === 1 ? { image: images[0] } : images.length > 1 ? { image: images } : {}),
        response_format: 'url',
        size,
        ...(job.seed !== undefined ? { seed: job.seed % 2_147_483_648 } : {}),
        sequential_image_generation: 'disabled',
        watermark: false,
      },
    });
    if (reply?.error) throw arkError(reply.error.code, reply.error.message, false);
    const item = reply?.data?.[0];
    if (!item) throw new VendorError(VENDOR, 'no image in the reply', true);
    if (item.error) throw arkError(item.error.code, item.error.message, false);
    onProgress?.(0.7);
    let bytes: Buffer;
    if (item.b64_json) bytes = Buffer.from(item.b64_json, 'base64');
    else if (item.url) bytes = (await downloadOutput(VENDOR, item.url, { signal })).data;
    else throw new VendorError(VENDOR, 'the image has neither a URL nor data', true);
    const meta = await sharp(bytes)
      .metadata()
      .catch(() => undefined);
    if (!meta?.width || !meta.height) throw new VendorError(VENDOR, 'the output is not a decodable image', true);
    // Seedream answers its own nearest size; the studio promises the size asked for.
    const sized =
      meta.width === job.width && meta.height === job.height
        ? sharp(bytes)
        : sharp(bytes).resize(job.width, job.height, { fit: 'cover', kernel: 'lanczos3' });
    const encoded = await encode(sized, job.format);
    onProgress?.(1);
    return {
      ...encoded,
      width: job.width,
      height: job.height,
      seed: job.seed,
      metadata: {
        engine: 'byteplus',
        model: job.model,
        vendorModel: this.ark.options.seedreamModel,
        vendorSize: size,
        referenceCount: images.length,
      },
    };
  }
}

export class SeedanceVideoEngine implements VideoEngine {
  readonly name = 'byteplus';
  constructor(private readonly ark: ArkClient) {}

  textToVideo(request: TextToVideoRequest, options?: EngineCallOptions): Promise<VideoResult> {
    return this.run(request, request.firstFrame, request.lastFrame, options);
  }

  imageToVideo(request: ImageToVideoRequest, options?: EngineCallOptions): Promise<VideoResult> {
    return this.run(request, request.image, request.lastFrame, options);
  }

  async videoToVideo(_request: VideoToVideoRequest): Promise<VideoResult> {
    throw new VendorError(VENDOR, 'Seedance does not take a source video', false);
  }

  async characterPerformance(_request: CharacterPerformanceRequest): Promise<VideoResult> {
    throw new VendorError(VENDOR, 'Seedance does not do character performance', false);
  }

  private async run(
    request: TextToVideoRequest,
    first: MediaBuffer | undefined,
    last: MediaBuffer | undefined,
    options: EngineCallOptions = {},
  ): Promise<VideoResult> {
    const { signal, onProgress } = options;
    signal?.throwIfAborted();
    const short = Math.min(request.width, request.height);
    const resolution = short >= 1000 ? '1080p' : short >= 700 ? '720p' : '480p';
    const ratio = first
      ? 'adaptive'
      : nearestRatio(
          request.width,
          request.height,
          SEEDANCE_RATIOS,
          (r) => r.split(':').map(Number) as [number, number],
        );
    const duration = Math.min(12, Math.max(3, Math.round(request.durationSeconds)));
    const flags = [
      `--ratio ${ratio}`,
      `--resolution ${resolution}`,
      `--duration ${duration}`,
      '--camerafixed false',
      '--watermark false',
      ...(request.seed !== undefined ? [`--seed ${request.seed % 4_294_967_296}`] : []),
    ];
    const content: unknown[] = [{ type: 'text', text: `${request.prompt.trim()} ${flags.join(' ')}` }];
    if (first)
      content.push({
        type: 'image_url',
        image_url: { url: await imageDataUri(VENDOR, first, MAX_IMAGE_URI) },
        role: 'first_frame',
      });
    if (first && last)
      content.push({
        type: 'image_url',
        image_url: { url: await imageDataUri(VENDOR, last, MAX_IMAGE_URI) },
        role: 'last_frame',
      });
    const created = await this.ark.call<{ id?: string }>('/contents/generations/tasks', {
      method: 'POST',
      signal,
      json: { model: this.ark.options.seedanceModel, content },
    });
    if (!created?.id) throw new VendorError(VENDOR, 'the task was not created (no id in the reply)', true);
    const id = created.id;
    const path = `/contents/generations/tasks/${encodeURIComponent(id)}`;
    onProgress?.(0);
    // Ark reports no progress.
    let task: SeedanceTask;
    try {
      task = await pollUntil(
        VENDOR,
        async () => {
          const t = await this.ark.call<SeedanceTask>(path, { signal });
          return ['succeeded', 'failed', 'cancelled', 'expired'].includes(t.status) ? t : undefined;
        },
        {
          intervalMs: this.ark.options.pollIntervalMs ?? 3_000,
          timeoutMs: this.ark.options.timeoutMs ?? 15 * 60_000,
          signal,
          onTick: (elapsed) => {
            const { fraction, secondsLeft } = unreportedProgress(elapsed);
            onProgress?.(fraction, secondsLeft);
          },
        },
      );
    } catch (error) {
      // Given up on: cancel it (Ark cancels queued tasks; best effort).
      if (signal?.aborted || (error instanceof VendorError && error.message.includes('timed out')))
        await this.ark.call(path, { method: 'DELETE', signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
      throw error;
    }
    if (task.status === 'failed') throw arkError(task.error?.code, task.error?.message, !task.error?.code);
    if (task.status !== 'succeeded')
      throw new VendorError(VENDOR, `the task ended ${task.status}`, task.status === 'expired');
    const url = task.content?.video_url;
    if (!url) throw new VendorError(VENDOR, 'the task succeeded without a video', true);
    const output = await downloadOutput(VENDOR, url, { signal });
    const facts = await videoFacts(VENDOR, this.ark.options.tools, output.data, signal);
    onProgress?.(1);
    return {
      data: output.data,
      mimeType: output.mimeType.startsWith('video/') ? output.mimeType : 'video/mp4',
      ...facts,
      metadata: {
        engine: 'byteplus',
        model: request.model,
        vendorModel: this.ark.options.seedanceModel,
        vendorTaskId: id,
        ratio,
        resolution,
      },
    };
  }
}

export function createArkEngines(options: ArkOptions): { image: SeedreamImageEngine; video: SeedanceVideoEngine } {
  const ark = new ArkClient(options);
  return { image: new SeedreamImageEngine(ark), video: new SeedanceVideoEngine(ark) };
}

/** The spec names BytePlus ModelArk serves once BYTEPLUS_API_KEY is set. */
export function byteplusVendor(config: Config): EngineOverrides {
  if (!config.BYTEPLUS_API_KEY) return {};
  const { image, video } = createArkEngines({
    apiKey: config.BYTEPLUS_API_KEY,
    baseUrl: config.BYTEPLUS_API_BASE,
    tools: config,
    seedreamModel: config.BYTEPLUS_SEEDREAM_MODEL,
    seedanceModel: config.BYTEPLUS_SEEDANCE_MODEL,
  });
  return {
    image: { seedream4: image, seedream: image, seedreamai: image },
    video: { seedance: video, 'seedance-1-0-pro-250528': video },
  };
}
