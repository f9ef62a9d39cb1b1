import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
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
import { encode, formatOf, fromRaw, type RawImage } from './raw.ts';

// Local upscaling: Lanczos (lanczos3) resampling to the target plus sharpening scaled by the
// enhancement level, with per-service touches; video through ffmpeg scale (lanczos), hqdn3d, unsharp
// and a frame-rate filter.

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

    let pipeline = sharp(request.image.data).rotate();
    // Service touches that belong before resampling (noise is cheaper to smooth at the source size).
    if (service === 'realistic-skin') {
      const { data, info } = await pipeline.clone().raw().toBuffer({ resolveWithObject: true });
      const smooth = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
        .median(3)
        .blur(0.7)
        .raw()
        .toBuffer();
      // Mild smoothing: half original, half smoothed (keeps pores and edges, evens blotches).
      const mixed = Buffer.alloc(data.length);
      for (let i = 0; i < data.length; i++) mixed[i] = (data[i] + smooth[i] + 1) >> 1;
      pipeline = sharp(mixed, { raw: { width: info.width, height: info.height, channels: info.channels } });
      touches.push('skin-smoothing');
    } else if (service === 'portrait-upscaler' && request.mode !== 'fast') {
      pipeline = pipeline.median(3);
      touches.push('portrait-denoise');
    }
    pipeline = pipeline.resize(box.width, box.height, {
      kernel: 'lanczos3',
      fit,
      withoutEnlargement: false,
      background: { r: 0, g: 0, b: 0, alpha: 1 },
    });
    touches.push(`lanczos3-${fit}`);
    if (level > 0) {
      pipeline = pipeline.sharpen({ sigma: 0.6 + 1.4 * level, m1: 0.5 + level, m2: 1.5 + 3 * level });
      touches.push(`sharpen-${level.toFixed(2)}`);
    }
    if (service === 'detailed') {
      // Local contrast: a large-radius unsharp mask (the blur taken at 1/8 size, so it stays cheap at
      // 4K; CLAHE costs ~14 s of CPU there).
      const raw = await pipeline.raw().toBuffer({ resolveWithObject: true });
      pipeline = fromRaw(
        await localContrast(
          { data: raw.data, width: raw.info.width, height: raw.info.height, channels: raw.info.channels === 4 ? 4 : 3 },
          0.25 + 0.25 * level,
        ),
      );
      touches.push('local-contrast');
    } else if (service === 'portrait-upscaler') {
      pipeline = pipeline.modulate({ saturation: 1.04 });
      touches.push('portrait-tone');
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
      const filters: string[] = [];
      const steps: string[] = [];
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
        filters.push(`unsharp=5:5:${(0.3 + 1.2 * sharpen).toFixed(2)}:5:5:0`);
        steps.push('unsharp');
      }
      if (enhance > 0) {
        filters.push(`eq=contrast=${(1 + 0.08 * enhance).toFixed(3)}:saturation=${(1 + 0.2 * enhance).toFixed(3)}`);
        steps.push('eq');
      }
      if (fps > srcFps + 0.01) {
        // Raising the rate: `framerate` blends neighbouring frames (fast). `minterpolate` (motion
        // compensation) costs ~38 s per second of 1080p on 2 cores, so only when asked for.
        if (request.interpolation === 'motion') filters.push(`minterpolate=fps=${fps}:mi_mode=mci:mc_mode=aobmc`);
        else filters.push(`framerate=fps=${fps}`);
        steps.push(request.interpolation === 'motion' ? 'minterpolate' : 'framerate');
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
