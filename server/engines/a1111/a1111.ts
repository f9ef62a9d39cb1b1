// AUTOMATIC1111 (stable-diffusion-webui started with --api) as an ImageEngine: POST /sdapi/v1/txt2img
// and /sdapi/v1/img2img with base64 images; the answer carries the images as base64 PNG.
import type { Config } from '../../config.ts';
import { heaviestImage, imageResult, seedOf } from '../comfyui/output.ts';
import type { EngineOverrides } from '../registry.ts';
import type {
  ComposeImageRequest,
  EditImageRequest,
  EngineCallOptions,
  ImageEngine,
  ImageOutputFormat,
  ImageResult,
  InpaintRequest,
  MediaBuffer,
  TextToImageRequest,
} from '../types.ts';
import { VendorError, vendorJson } from '../vendor/http.ts';

const VENDOR = 'AUTOMATIC1111';

interface SdReply {
  images?: string[];
  info?: string;
}

function describe(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const b = body as { error?: string; detail?: unknown; errors?: string };
    const detail = typeof b.detail === 'string' ? b.detail : b.detail ? JSON.stringify(b.detail) : undefined;
    return [b.error, b.errors, detail].filter(Boolean).join(': ') || undefined;
  }
  return typeof body === 'string' && body ? body.slice(0, 300) : undefined;
}

const b64 = (image: MediaBuffer) => `data:${image.mimeType};base64,${image.data.toString('base64')}`;

export class A1111ImageEngine implements ImageEngine {
  readonly name = 'a1111';
  private readonly base: string;

  constructor(baseUrl: string) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  private async call(
    endpoint: 'txt2img' | 'img2img',
    payload: Record<string, unknown>,
    model: string,
    format: ImageOutputFormat | undefined,
    options: EngineCallOptions,
  ): Promise<ImageResult> {
    options.onProgress?.(0.05);
    const { data } = await vendorJson<SdReply>(
      VENDOR,
      `${this.base}/sdapi/v1/${endpoint}`,
      { json: { steps: 25, cfg_scale: 7, sampler_name: 'Euler a', ...payload }, signal: options.signal },
      describe,
    );
    const first = data?.images?.[0];
    if (!first) throw new VendorError(VENDOR, 'the reply had no image', true);
    let seed = typeof payload.seed === 'number' ? payload.seed : undefined;
    try {
      const info = JSON.parse(data.info ?? '{}') as { seed?: unknown };
      if (typeof info.seed === 'number') seed = info.seed;
    } catch {
      // info is optional
    }
    options.onProgress?.(1, 0);
    const bytes = Buffer.from(first.replace(/^data:[^,]*,/, ''), 'base64');
    return imageResult(VENDOR, bytes, format, { engine: 'a1111', model, endpoint }, seed);
  }

  async textToImage(request: TextToImageRequest, options: EngineCallOptions = {}): Promise<ImageResult> {
    return this.call(
      'txt2img',
      {
        prompt: request.style ? `${request.prompt}, ${request.style} style` : request.prompt,
        negative_prompt: request.negativePrompt ?? '',
        seed: seedOf(request.seed),
        width: request.width,
        height: request.height,
      },
      request.model,
      request.outputFormat,
      options,
    );
  }

  async edit(request: EditImageRequest, options: EngineCallOptions = {}): Promise<ImageResult> {
    return this.call(
      'img2img',
      {
        prompt: request.prompt,
        init_images: [b64(request.image)],
        denoising_strength: 0.6,
        seed: seedOf(request.seed),
        ...(request.width && request.height ? { width: request.width, height: request.height } : {}),
      },
      request.model,
      request.outputFormat,
      options,
    );
  }

  async compose(request: ComposeImageRequest, options: EngineCallOptions = {}): Promise<ImageResult> {
    return this.call(
      'img2img',
      {
        prompt: request.prompt,
        init_images: [b64(heaviestImage(request))],
        negative_prompt: request.negativePrompt ?? '',
        denoising_strength: request.strength ?? 0.75,
        seed: seedOf(request.seed),
        width: request.width,
        height: request.height,
      },
      request.model,
      request.outputFormat,
      options,
    );
  }

  async inpaint(request: InpaintRequest, options: EngineCallOptions = {}): Promise<ImageResult> {
    return this.call(
      'img2img',
      {
        prompt: request.prompt,
        init_images: [b64(request.image)],
        mask: b64(request.mask),
        inpainting_fill: 1,
        inpaint_full_res: false,
        denoising_strength: 0.75,
        seed: seedOf(request.seed),
      },
      request.model,
      request.outputFormat,
      options,
    );
  }
}

/** Serves each name in A1111_MODELS (default `stability`) when A1111_URL is set. */
export function a1111Overrides(config: Config): EngineOverrides {
  if (!config.A1111_URL) return {};
  const engine = new A1111ImageEngine(config.A1111_URL);
  return { image: Object.fromEntries(config.A1111_MODELS.map((name) => [name, engine])) };
}
