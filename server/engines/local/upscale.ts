import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { badRequest } from '../../platform/errors.ts';
import { probeMedia } from '../../platform/media/probe.ts';
import type {
  EngineCallOptions,
  ImageResult,
  UpscaleEngine,
  UpscaleImageRequest,
  UpscaleVideoRequest,
  VideoResult,
} from '../types.ts';
import { clamp } from './colour.ts';
import { filteredVideoArgs, runFinalFfmpeg, type ToolConfig, withTempDir, writeInputVideo } from './ffmpeg.ts';
import { Rng } from './random.ts';
import { encode, formatOf, fromRaw, type RawImage } from './raw.ts';
import { videoCharacter } from './video-enhance.ts';

// Local upscaling: Lanczos (lanczos3) resampling to the target, and per service a distinct operation
// (docs/engines.md): realistic-skin edge-preserving smoothing, portrait-upscaler gentle denoise and
// centre-weighted sharpening, image-upscaler light denoise and moderate sharpening, detailed strong
// sharpening plus local contrast. Video through ffmpeg scale (lanczos), hqdn3d, unsharp and a
// frame-rate filter.

/** Default enhancement level per service (spec: detailed 0.8). */
const SERVICE_LEVEL: Record<string, number> = {
  detailed: 0.8,
  'realistic-skin': 0.4,
  'portrait-upscaler': 0.5,
  'image-upscaler': 0.6,
};

/** Longest output side of a video upscale (the 4K target); larger factors are reduced to fit. */
const VIDEO_UPSCALE_MAX = { long: 3840, short: 2160 } as const;

const even = (v: number) => Math.max(2, Math.round(v / 2) * 2);

/** out = in + amount·(in − blur(in)), with a wide blur: lifts mid-scale detail and texture. */
async function localContrast(image: RawImage, amount: number): Promise<RawImage> {
  const { width, height, channels } = image;
  const small = Math.max(8, Math.round(width / 8));
  const blurred = await fromRaw(image)
    .resize(small, Math.max(8, Math.round(height / 8)), { fit: 'fill' })
    .blur(2)
    .resize(width, height, { fit: 'fill', kernel: 'cubic' })
    .raw()
    .toBuffer();
  const out = Buffer.alloc(image.data.length);
  for (let i = 0; i < out.length; i++) {
    if (channels === 4 && i % 4 === 3) out[i] = image.data[i];
    else out[i] = clamp(Math.round(image.data[i] + amount * (image.data[i] - blurred[i])));
  }
  return { ...image, data: out };
}

async function rawOf(pipeline: Sharp): Promise<RawImage> {
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels === 4 ? 4 : 3 };
}

/** Box mean of a one-band float image with radius r (separable running sums, edges clamped). */
function boxMean(src: Float32Array, width: number, height: number, r: number): Float32Array {
  const tmp = new Float32Array(src.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let sum = 0;
    for (let x = -r; x <= r; x++) sum += src[row + Math.min(width - 1, Math.max(0, x))];
    for (let x = 0; x < width; x++) {
      tmp[row + x] = sum / (2 * r + 1);
      sum += src[row + Math.min(width - 1, x + r + 1)] - src[row + Math.max(0, x - r)];
    }
  }
  const out = new Float32Array(src.length);
  for (let x = 0; x < width; x++) {
    let sum = 0;
    for (let y = -r; y <= r; y++) sum += tmp[Math.min(height - 1, Math.max(0, y)) * width + x];
    for (let y = 0; y < height; y++) {
      out[y * width + x] = sum / (2 * r + 1);
      sum += tmp[Math.min(height - 1, y + r + 1) * width + x] - tmp[Math.max(0, y - r) * width + x];
    }
  }
  return out;
}

/**
 * Edge-preserving smoothing: a self-guided filter (He et al.) per colour channel with window radius
 * r and regularisation eps (in grey levels). Where the local variance is well below eps² (noise,
 * blotches, pores) the output is the local mean; where it is well above (edges, strong texture) the
 * pixel keeps its value. `amount` (0–1) mixes the result with the input.
 */
function edgePreservingSmooth(image: RawImage, r: number, eps: number, amount: number): RawImage {
  const { width, height, channels } = image;
  const n = width * height;
  const out = Buffer.from(image.data);
  const p = new Float32Array(n);
  const pp = new Float32Array(n);
  const e2 = eps * eps;
  for (let k = 0; k < 3; k++) {
    for (let i = 0; i < n; i++) {
      const v = image.data[i * channels + k];
      p[i] = v;
      pp[i] = v * v;
    }
    const mean = boxMean(p, width, height, r);
    const meanSq = boxMean(pp, width, height, r);
    // a and b per window, reusing the buffers
    for (let i = 0; i < n; i++) {
      const variance = Math.max(0, meanSq[i] - mean[i] * mean[i]);
      const a = variance / (variance + e2);
      meanSq[i] = a;
      mean[i] = (1 - a) * mean[i];
    }
    const meanA = boxMean(meanSq, width, height, r);
    const meanB = boxMean(mean, width, height, r);
    for (let i = 0; i < n; i++) {
      const v = image.data[i * channels + k];
      const filtered = meanA[i] * v + meanB[i];
      out[i * channels + k] = clamp(Math.round(v + (filtered - v) * amount));
    }
  }
  return { ...image, data: out };
}

/**
 * Mixes `sharpened` over `plain` with an elliptical weight (1 at the centre, `edge` at the corners),
 * and brightens by `fill` times the same weight: a soft fill light on the face.
 */
function centreWeighted(plain: RawImage, sharpened: RawImage, edge: number, fill: number): RawImage {
  const { width: w, height: h, channels } = plain;
  const out = Buffer.from(plain.data);
  for (let y = 0; y < h; y++) {
    const dy = (y - h / 2) / (h / 2);
    for (let x = 0; x < w; x++) {
      const dx = (x - w / 2) / (w / 2);
      const r = Math.min(1, Math.sqrt(dx * dx + dy * dy) / Math.SQRT2);
      const t = 1 - (1 - edge) * clamp((r - 0.25) / 0.6, 0, 1);
      const o = (y * w + x) * channels;
      const light = 1 + fill * t;
      for (let k = 0; k < 3; k++)
        out[o + k] = clamp(Math.round((plain.data[o + k] + (sharpened.data[o + k] - plain.data[o + k]) * t) * light));
    }
  }
  return { ...plain, data: out };
}

/** Classic RGB skin-tone rule (Kovac et al.): warm, red over green over blue. */
function isSkin(r: number, g: number, b: number): boolean {
  return r > 95 && g > 40 && b > 20 && r > g && r > b && r - Math.min(g, b) > 15 && Math.abs(r - g) > 15;
}

/** Luminance grain of sd ≈ `amount` grey levels on skin-tone pixels (seeded: the same input gives the same output). */
function skinGrain(image: RawImage, amount: number): RawImage {
  const rng = new Rng(image.width * 31 + image.height);
  const out = Buffer.from(image.data);
  const c = image.channels;
  for (let o = 0; o < out.length; o += c) {
    if (!isSkin(out[o], out[o + 1], out[o + 2])) continue;
    const g = rng.gauss() * amount * 1.7;
    for (let k = 0; k < 3; k++) out[o + k] = clamp(Math.round(out[o + k] + g));
  }
  return { ...image, data: out };
}

/**
 * 4K by the long side: the image keeps its shape and its longer side becomes the target's longer side
 * (16:9 → 3840x2160, 9:16 → 2160x3840, 1:1 → 3840x3840, 4:3 → 3840x2880).
 */
function targetBox(width: number, height: number, tw: number, th: number): { width: number; height: number } {
  const scale = Math.max(tw, th) / Math.max(width, height);
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

export class LocalUpscaleEngine implements UpscaleEngine {
  readonly name = 'local';

  constructor(private readonly config: ToolConfig) {}

  async image(request: UpscaleImageRequest, options?: EngineCallOptions): Promise<ImageResult> {
    const { targetWidth, targetHeight } = request;
    if (!(targetWidth >= 8 && targetHeight >= 8 && targetWidth <= 8192 && targetHeight <= 8192)) {
      throw badRequest(`Invalid upscale target: ${targetWidth}x${targetHeight}`);
    }
    const meta = await sharp(request.image.data).metadata();
    if (!meta.width || !meta.height) throw badRequest('The image cannot be decoded');
    const rotated = (meta.orientation ?? 1) >= 5;
    const srcW = rotated ? meta.height : meta.width;
    const srcH = rotated ? meta.width : meta.height;
    const service = request.model.toLowerCase();
    const level = clamp(request.enhancementLevel ?? SERVICE_LEVEL[service] ?? 0.5, 0, 1);
    const fit = request.fit ?? 'inside';
    const box =
      fit === 'inside'
        ? targetBox(srcW, srcH, targetWidth, targetHeight)
        : { width: targetWidth, height: targetHeight };
    const touches: string[] = [];
    options?.signal?.throwIfAborted();

    const factor = Math.max(box.width / srcW, box.height / srcH);
    // Sharpening works at the scale of a source pixel once it is magnified.
    const sharpenSigma = (base: number) => Math.min(3, base * Math.max(1, factor / 2));
    const resize = {
      kernel: 'lanczos3' as const,
      fit,
      withoutEnlargement: false,
      background: { r: 0, g: 0, b: 0, alpha: 1 },
    };
    let pipeline = sharp(request.image.data).rotate();
    if (service === 'realistic-skin') {
      // Edge-preserving skin smoothing at the source size: blotches and pores in flat areas even out,
      // outlines (eyes, lips, hair, jaw) keep their contrast; then a clean resize and a light sharpen.
      pipeline = fromRaw(edgePreservingSmooth(await rawOf(pipeline), 4, 24, 1));
      touches.push('edge-preserving-smoothing');
      pipeline = pipeline.resize(box.width, box.height, resize);
      touches.push(`lanczos3-${fit}`);
      if (level > 0) {
        pipeline = pipeline.sharpen({ sigma: sharpenSigma(0.6), m1: 0, m2: 1 + 2 * level });
        touches.push(`edge-sharpen-${level.toFixed(2)}`);
      }
      // The "realistic" part: a fine, seeded grain on skin tones at the output size, so smoothed skin
      // keeps a pore-scale texture instead of looking plastic.
      pipeline = fromRaw(skinGrain(await rawOf(pipeline), 2.5 + 3 * level));
      touches.push('skin-grain');
    } else if (service === 'portrait-upscaler') {
      // Gentle denoise, then sharpening that is strongest on the centre of the frame (where a
      // portrait's face is) and fades to a fifth of it at the corners; both at the source size (cheap,
      // and the sharpening then scales with the picture), then a slight saturation lift and the resize.
      let source = await rawOf(pipeline);
      if (request.mode !== 'fast') {
        source = edgePreservingSmooth(source, 3, 18, 1);
        touches.push('portrait-denoise');
      }
      const sharpened = await rawOf(
        fromRaw(source).sharpen({ sigma: 0.8 + 0.8 * level, m1: 1 + level, m2: 4 + 4 * level }),
      );
      pipeline = fromRaw(centreWeighted(source, sharpened, 0.25, 0.06)).modulate({ saturation: 1.04 });
      touches.push(`centre-sharpen-${level.toFixed(2)}`, 'centre-fill-light', 'portrait-tone');
      pipeline = pipeline.resize(box.width, box.height, resize);
      touches.push(`lanczos3-${fit}`);
    } else if (service === 'detailed') {
      // Strong detail: fine sharpening plus local contrast (a large-radius unsharp mask whose blur is
      // taken at 1/8 size, so it stays cheap at 4K; CLAHE costs ~14 s of CPU there).
      pipeline = pipeline.resize(box.width, box.height, resize);
      touches.push(`lanczos3-${fit}`);
      pipeline = pipeline.sharpen({ sigma: sharpenSigma(0.8 + 1.4 * level), m1: 1 + level, m2: 2 + 3 * level });
      touches.push(`sharpen-${level.toFixed(2)}`);
      pipeline = fromRaw(await localContrast(await rawOf(pipeline), 0.4 + 0.5 * level));
      touches.push('local-contrast');
    } else {
      // image-upscaler and every other name: a clean upscale (light denoise at the source size so
      // noise is not magnified) with moderate sharpening.
      const upscaler = service === 'image-upscaler';
      if (upscaler) {
        pipeline = fromRaw(edgePreservingSmooth(await rawOf(pipeline), 1, 20, 1));
        touches.push('light-denoise');
      }
      pipeline = pipeline.resize(box.width, box.height, resize);
      touches.push(`lanczos3-${fit}`);
      if (level > 0) {
        // image-upscaler sharpens edges (m2) harder than flat areas (m1), so the denoised grain stays down.
        const m1 = upscaler ? 0.3 + 0.5 * level : 0.5 + level;
        const m2 = upscaler ? 3 + 4 * level : 1.5 + 3 * level;
        pipeline = pipeline.sharpen({ sigma: sharpenSigma(0.6 + 1.4 * level), m1, m2 });
        touches.push(`sharpen-${level.toFixed(2)}`);
      }
    }
    const inputFormat = meta.format === 'jpeg' || meta.format === 'webp' ? meta.format : 'png';
    const out = await encode(pipeline, formatOf(request.outputFormat ?? inputFormat));
    options?.onProgress?.(1, 0);
    return {
      ...out,
      metadata: {
        engine: 'local',
        model: request.model,
        operation: 'upscale-image',
        source: { width: srcW, height: srcH },
        target: box,
        fit,
        enhancementLevel: level,
        touches,
      },
    };
  }

  async video(request: UpscaleVideoRequest, options?: EngineCallOptions): Promise<VideoResult> {
    if (!(request.scale >= 1 && request.scale <= 8)) throw badRequest(`Invalid upscale factor: ${request.scale}`);
    return withTempDir(async (dir) => {
      const input = join(dir, 'input');
      const known = request.sourceProbe;
      let probe: Awaited<ReturnType<typeof writeInputVideo>>;
      if (known?.video) {
        await writeFile(input, request.video.data);
        probe = { ...known, video: known.video };
      } else {
        probe = await writeInputVideo(this.config, input, request.video.data, options?.signal);
      }
      const srcFps = probe.video.fps ?? 24;
      const d = (probe.durationMs ?? 0) / 1000 || 1;
      let factor = request.scale;
      const long = Math.max(probe.video.width, probe.video.height);
      const short = Math.min(probe.video.width, probe.video.height);
      factor = Math.min(factor, VIDEO_UPSCALE_MAX.long / long, VIDEO_UPSCALE_MAX.short / short);
      factor = Math.max(1, factor);
      const w = even(probe.video.width * factor);
      const h = even(probe.video.height * factor);
      const denoise = clamp(request.denoise ?? 0, 0, 1);
      const sharpen = clamp(request.sharpen ?? 0, 0, 1);
      const enhance = clamp(request.enhance ?? 0, 0, 1);
      const fps = request.fps ? clamp(request.fps, 1, 120) : srcFps;
      const character = videoCharacter(request.model);
      const filters: string[] = [...character.source];
      const steps: string[] = [...character.steps.slice(0, character.source.length)];
      if (denoise > 0) {
        // Denoise at the source size: cheaper, and noise is not magnified.
        const s = (1 + 4 * denoise).toFixed(2);
        const t = (2 + 6 * denoise).toFixed(2);
        filters.push(`hqdn3d=${s}:${(Number(s) * 0.75).toFixed(2)}:${t}:${(Number(t) * 0.75).toFixed(2)}`);
        steps.push('hqdn3d');
      }
      filters.push(`scale=${w}:${h}:flags=lanczos`);
      steps.push('lanczos');
      if (sharpen > 0) {
        // Edge-only sharpening (smartblur with a negative strength and threshold): outlines gain
        // contrast, flat areas are left alone so the grain the denoise removed is not sharpened back.
        filters.push(`smartblur=lr=2.5:ls=${(-0.3 - 0.7 * sharpen).toFixed(2)}:lt=-20`);
        steps.push('edge-sharpen');
      }
      if (enhance > 0) {
        filters.push(`eq=contrast=${(1 + 0.08 * enhance).toFixed(3)}:saturation=${(1 + 0.2 * enhance).toFixed(3)}`);
        steps.push('eq');
      }
      filters.push(...character.output);
      steps.push(...character.steps.slice(character.source.length));
      const motion = character.motion === true || request.interpolation === 'motion';
      if (fps > srcFps + 0.01) {
        // Raising the rate: `framerate` blends neighbouring frames (fast). `minterpolate` (motion
        // compensation) costs ~38 s per second of 1080p on 2 cores, so only when asked for.
        if (motion) filters.push(`minterpolate=fps=${fps}:mi_mode=mci:mc_mode=aobmc`);
        else filters.push(`framerate=fps=${fps}`);
        steps.push(motion ? 'minterpolate' : 'framerate');
      } else if (fps < srcFps - 0.01) {
        filters.push(`fps=${fps}`);
        steps.push('fps');
      }
      filters.push('setsar=1', 'format=yuv420p');
      const out = join(dir, 'out.mp4');
      await runFinalFfmpeg(this.config, filteredVideoArgs(input, filters, fps, '160k', out), d, options, {
        timeoutMs: 1_800_000,
      });
      const [result, data] = await Promise.all([probeMedia(this.config, out, options?.signal), readFile(out)]);
      return {
        data,
        mimeType: 'video/mp4',
        width: result.video?.width ?? w,
        height: result.video?.height ?? h,
        durationSeconds: (result.durationMs ?? 0) / 1000,
        fps: result.video?.fps ?? fps,
        hasAudio: result.audio !== null,
        metadata: {
          engine: 'local',
          model: request.model,
          operation: 'upscale-video',
          requestedScale: request.scale,
          appliedScale: Math.round(factor * 1000) / 1000,
          denoise,
          sharpen,
          enhance,
          steps,
        },
      };
    });
  }
}
