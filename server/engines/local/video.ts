import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { badRequest } from '../../platform/errors.ts';
import { grabFrame, probeMedia } from '../../platform/media/probe.ts';
import type {
  CharacterPerformanceRequest,
  EngineCallOptions,
  ImageEngine,
  ImageToVideoRequest,
  MediaBuffer,
  TextToVideoRequest,
  VideoEngine,
  VideoResult,
  VideoToVideoRequest,
} from '../types.ts';
import { clamp } from './colour.ts';
import {
  filteredVideoArgs,
  h264Args,
  runFinalFfmpeg,
  type ToolConfig,
  withTempDir,
  writeInputVideo,
} from './ffmpeg.ts';
import { hasPhrase } from './prompt-words.ts';
import { resolveSeed, rngFor } from './random.ts';
import { channelStats, decode, step } from './raw.ts';
import { type AmbientAudio, ambientAudioGraph, gradeFilters } from './video-filters.ts';

// The local video engine: motion from stills with ffmpeg 4.1 (zoompan zoom/pan, a parallax foreground
// layer overlaid at a different speed, fades), crossfades for first+last frame, prompt-driven grading
// of an input video, and character animation timed to a driving performance. Outputs are H.264 yuv420p
// MP4 with +faststart; an ambient AAC track is added when audio is asked for.

export type CameraMotion = 'zoom-in' | 'zoom-out' | 'pan-left' | 'pan-right' | 'tilt-up' | 'tilt-down' | 'parallax';

const MOTION_WORDS: Array<[CameraMotion, readonly string[]]> = [
  ['zoom-out', ['zoom out', 'pull back', 'pull out', 'dolly out', 'reveal']],
  ['zoom-in', ['zoom in', 'push in', 'dolly in', 'close in', 'zoom']],
  ['pan-left', ['pan left']],
  ['pan-right', ['pan right', 'pan', 'panning', 'tracking shot', 'truck']],
  ['tilt-up', ['tilt up', 'crane up', 'rising']],
  ['tilt-down', ['tilt down', 'crane down', 'descending']],
  ['parallax', ['parallax', 'orbit', 'dolly', 'flyover', 'fly over', 'drone']],
];

/** The camera move a prompt asks for; without one, parallax (a slow push-in plus a faster foreground). */
export function cameraMotion(prompt: string): CameraMotion {
  for (const [motion, words] of MOTION_WORDS) if (words.some((w) => hasPhrase(prompt, w))) return motion;
  return 'parallax';
}

const even = (v: number) => Math.max(2, Math.floor(v / 2) * 2);

interface Shape {
  width: number;
  height: number;
  fps: number;
  durationSeconds: number;
  frames: number;
}

function shapeOf(r: { width: number; height: number; fps: number; durationSeconds: number }): Shape {
  if (!(r.width > 0 && r.height > 0)) throw badRequest(`Invalid video size: ${r.width}x${r.height}`);
  if (r.width > 3840 || r.height > 3840) throw badRequest(`Video size ${r.width}x${r.height} exceeds 3840 px`);
  if (!(r.durationSeconds > 0) || r.durationSeconds > 60)
    throw badRequest('Video duration must be between 0 and 60 seconds');
  const fps = Math.round(clamp(r.fps || 24, 1, 60));
  const frames = Math.max(1, Math.round(r.durationSeconds * fps));
  return { width: even(r.width), height: even(r.height), fps, frames, durationSeconds: frames / fps };
}

/** zoompan expressions (z, x, y) for a motion over n frames. */
function zoompanExpr(motion: CameraMotion, n: number): { z: string; x: string; y: string } {
  const p = `(on/${Math.max(1, n - 1)})`;
  const centreX = 'iw/2-(iw/zoom/2)';
  const centreY = 'ih/2-(ih/zoom/2)';
  switch (motion) {
    case 'zoom-out':
      return { z: `1.25-0.25*${p}`, x: centreX, y: centreY };
    case 'pan-left':
      return { z: '1.18', x: `(iw-iw/zoom)*(1-${p})`, y: centreY };
    case 'pan-right':
      return { z: '1.18', x: `(iw-iw/zoom)*${p}`, y: centreY };
    case 'tilt-up':
      return { z: '1.18', x: centreX, y: `(ih-ih/zoom)*(1-${p})` };
    case 'tilt-down':
      return { z: '1.18', x: centreX, y: `(ih-ih/zoom)*${p}` };
    case 'parallax':
      return { z: `1.04+0.1*${p}`, x: centreX, y: centreY };
    default:
      return { z: `1+0.22*${p}`, x: centreX, y: centreY };
  }
}

function fadeLength(duration: number): number {
  return Math.min(0.5, duration / 6);
}

async function toPng(image: MediaBuffer | Buffer, width: number, height: number): Promise<Buffer> {
  const bytes = Buffer.isBuffer(image) ? image : image.data;
  return sharp(bytes)
    .rotate()
    .removeAlpha()
    .resize(width, height, { fit: 'cover', kernel: 'lanczos3' })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** The lower part of the still with a feathered top edge, wider than the frame: the parallax layer. */
async function foregroundLayer(
  still: Buffer,
  width: number,
  height: number,
): Promise<{ png: Buffer; width: number; height: number; top: number }> {
  const fw = even(width * 1.12);
  const full = await sharp(still)
    .removeAlpha()
    .resize(fw, even(height * 1.12), { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const fh = even(full.info.height * 0.42);
  const top = full.info.height - fh;
  const rgba = Buffer.alloc(fw * fh * 4);
  const feather = fh * 0.45;
  for (let y = 0; y < fh; y++) {
    const a = Math.round(255 * clamp(y / feather, 0, 1) ** 1.5);
    for (let x = 0; x < fw; x++) {
      const s = ((top + y) * fw + x) * full.info.channels;
      const d = (y * fw + x) * 4;
      rgba[d] = full.data[s];
      rgba[d + 1] = full.data[s + 1];
      rgba[d + 2] = full.data[s + 2];
      rgba[d + 3] = a;
    }
  }
  const png = await sharp(rgba, { raw: { width: fw, height: fh, channels: 4 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
  return { png, width: fw, height: fh, top: height - fh };
}

/**
 * Arguments that encode a filter graph's [v] output, and the ambient bed's [a] when there is one, to
 * `out` at the shape's rate and length.
 */
function graphVideoArgs(
  inputArgs: readonly string[],
  graph: readonly string[],
  audio: AmbientAudio | null,
  shape: Shape,
  out: string,
): string[] {
  const args = [...inputArgs];
  const filters = [...graph];
  if (audio) {
    args.push(...audio.inputs);
    filters.push(audio.graph);
  }
  args.push('-filter_complex', filters.join(';'), '-map', '[v]');
  if (audio) args.push('-map', '[a]', '-c:a', 'aac', '-b:a', '128k', '-ar', '44100');
  const seconds = shape.durationSeconds.toFixed(3);
  args.push(...h264Args(shape.fps), '-frames:v', String(shape.frames), '-t', seconds, out);
  return args;
}

/** Runs ffmpeg as the call's last step and reads back the MP4 it writes to `out`. */
async function renderVideo(
  config: ToolConfig,
  args: readonly string[],
  out: string,
  durationSeconds: number,
  metadata: VideoResult['metadata'],
  options: EngineCallOptions | undefined,
  progress: { range?: [number, number]; totalFrames: number },
): Promise<VideoResult> {
  await runFinalFfmpeg(config, args, durationSeconds, options, {
    progressRange: progress.range,
    totalFrames: progress.totalFrames,
  });
  const probe = await probeMedia(config, out, options?.signal);
  if (!probe.video) throw new Error('ffmpeg produced no video stream');
  return {
    data: await readFile(out),
    mimeType: 'video/mp4',
    width: probe.video.width,
    height: probe.video.height,
    durationSeconds: (probe.durationMs ?? 0) / 1000,
    fps: probe.video.fps ?? 0,
    hasAudio: probe.audio !== null,
    metadata,
  };
}

export class LocalVideoEngine implements VideoEngine {
  readonly name = 'local';

  constructor(
    private readonly config: ToolConfig,
    private readonly images: ImageEngine,
  ) {}

  async textToVideo(request: TextToVideoRequest, options?: EngineCallOptions): Promise<VideoResult> {
    const shape = shapeOf(request);
    if (request.firstFrame && request.lastFrame) {
      return this.crossfade(request, shape, request.firstFrame, request.lastFrame, options);
    }
    if (request.firstFrame) {
      return this.imageToVideo({ ...request, image: request.firstFrame }, options);
    }
    // Paint the opening still with headroom for the camera move, then animate it.
    const still = await this.images.textToImage(
      {
        model: request.model,
        prompt: request.prompt,
        negativePrompt: request.negativePrompt,
        style: request.style,
        width: even(shape.width * 1.5),
        height: even(shape.height * 1.5),
        seed: request.seed,
        referenceImages: request.referenceImages,
      },
      { signal: options?.signal },
    );
    options?.onProgress?.(0.08);
    const result = await this.animateStill(request, shape, still.data, options, [0.08, 1]);
    result.metadata.operation = 'text-to-video';
    result.metadata.still = { scene: still.metadata.scene, seed: still.seed };
    if (request.lastFrame) result.metadata.lastFrameIgnored = true;
    return result;
  }

  async imageToVideo(request: ImageToVideoRequest, options?: EngineCallOptions): Promise<VideoResult> {
    const shape = shapeOf(request);
    if (request.lastFrame) return this.crossfade(request, shape, request.image, request.lastFrame, options);
    const still = await toPng(request.image, even(shape.width * 1.5), even(shape.height * 1.5));
    const result = await this.animateStill(request, shape, still, options, [0, 1]);
    result.metadata.operation = 'image-to-video';
    return result;
  }

  private async animateStill(
    request: Omit<TextToVideoRequest, 'firstFrame'>,
    shape: Shape,
    still: Buffer,
    options: EngineCallOptions | undefined,
    range: [number, number],
  ): Promise<VideoResult> {
    const { width: w, height: h, fps, frames: n, durationSeconds: d } = shape;
    const motion = cameraMotion(request.prompt);
    const seed = resolveSeed(request.prompt, request.seed);
    const rng = rngFor(request.prompt, seed, 'video');
    return withTempDir(async (dir) => {
      const bgFile = join(dir, 'still.png');
      await writeFile(bgFile, still);
      const args: string[] = ['-i', bgFile];
      const z = zoompanExpr(motion, n);
      const fadeD = fadeLength(d);
      const graph: string[] = [
        `[0:v]zoompan=z='${z.z}':x='${z.x}':y='${z.y}':d=${n}:s=${w}x${h}:fps=${fps},setsar=1[bg]`,
      ];
      let videoLabel = 'bg';
      if (motion === 'parallax') {
        const fg = await foregroundLayer(still, w, h);
        const fgFile = join(dir, 'foreground.png');
        await writeFile(fgFile, fg.png);
        args.push('-loop', '1', '-framerate', String(fps), '-t', d.toFixed(3), '-i', fgFile);
        const dir0 = rng.chance(0.5) ? 1 : -1;
        const travel = fg.width - w;
        // The foreground slides across its full extra width while the background only pushes in.
        const x = `-${travel / 2}+${dir0 * (travel / 2)}*(2*t/${d.toFixed(3)}-1)`;
        graph.push(
          `[1:v]format=yuva420p[fg]`,
          `[bg]format=yuv420p[bgy]`,
          `[bgy][fg]overlay=x='${x}':y=${fg.top}:eval=frame:format=yuv420[par]`,
        );
        videoLabel = 'par';
      }
      graph.push(
        `[${videoLabel}]fade=t=in:st=0:d=${fadeD.toFixed(3)},fade=t=out:st=${(d - fadeD).toFixed(3)}:d=${fadeD.toFixed(3)},format=yuv420p[v]`,
      );
      const audio = request.generateAudio
        ? ambientAudioGraph(request.prompt, d, args.filter((a) => a === '-i').length, seed)
        : null;
      const out = join(dir, 'out.mp4');
      return renderVideo(
        this.config,
        graphVideoArgs(args, graph, audio, shape, out),
        out,
        d,
        {
          engine: 'local',
          model: request.model,
          motion,
          seed,
          fades: fadeD,
          audio: audio ? audio.description : null,
        },
        options,
        { range, totalFrames: n },
      );
    });
  }

  /** First → last frame: each still drifts, the last fades in over the middle half (overlay + alpha fade; ffmpeg 4.1 has no xfade). */
  private async crossfade(
    request: Omit<TextToVideoRequest, 'firstFrame' | 'lastFrame'>,
    shape: Shape,
    first: MediaBuffer,
    last: MediaBuffer,
    options?: EngineCallOptions,
  ): Promise<VideoResult> {
    const { width: w, height: h, fps, frames: n, durationSeconds: d } = shape;
    const seed = resolveSeed(request.prompt, request.seed);
    return withTempDir(async (dir) => {
      const a = join(dir, 'first.png');
      const b = join(dir, 'last.png');
      await writeFile(a, await toPng(first, even(w * 1.25), even(h * 1.25)));
      await writeFile(b, await toPng(last, even(w * 1.25), even(h * 1.25)));
      const zin = zoompanExpr('zoom-in', n);
      const zout = zoompanExpr('zoom-out', n);
      const start = d * 0.25;
      const len = d * 0.5;
      const graph = [
        `[0:v]zoompan=z='${zin.z}':x='${zin.x}':y='${zin.y}':d=${n}:s=${w}x${h}:fps=${fps},setsar=1,format=yuva420p[a]`,
        `[1:v]zoompan=z='${zout.z}':x='${zout.x}':y='${zout.y}':d=${n}:s=${w}x${h}:fps=${fps},setsar=1,format=yuva420p,fade=t=in:st=${start.toFixed(3)}:d=${len.toFixed(3)}:alpha=1[b]`,
        `[a][b]overlay=format=auto,format=yuv420p[v]`,
      ];
      const audio = request.generateAudio ? ambientAudioGraph(request.prompt, d, 2, seed) : null;
      const out = join(dir, 'out.mp4');
      return renderVideo(
        this.config,
        graphVideoArgs(['-i', a, '-i', b], graph, audio, shape, out),
        out,
        d,
        {
          engine: 'local',
          model: request.model,
          operation: 'first-last-frame',
          crossfade: { start, duration: len },
          audio: audio ? audio.description : null,
        },
        options,
        { totalFrames: n },
      );
    });
  }

  async videoToVideo(request: VideoToVideoRequest, options?: EngineCallOptions): Promise<VideoResult> {
    return withTempDir(async (dir) => {
      const input = join(dir, 'input');
      const probe = await writeInputVideo(this.config, input, request.video.data, options?.signal);
      const d = (probe.durationMs ?? 0) / 1000 || 1;
      const fps = Math.round(clamp(probe.video.fps ?? 24, 1, 60));
      const filters: string[] = [];
      const { filters: grade, operations } = gradeFilters(request.prompt);
      const weighted = (request.references ?? []).filter((r) => r.weight > 0);
      if (weighted.length === 0 && request.reference) weighted.push({ image: request.reference, weight: 1 });
      if (weighted.length > 0) {
        // Colour transfer: map the input's per-channel mean/spread onto the references' (their
        // statistics mixed by weight) with lutrgb.
        const frame = await decode(await grabFrame(this.config, input, Math.min(d / 2, 1), options?.signal));
        const a = channelStats(frame);
        const total = weighted.reduce((sum, r) => sum + r.weight, 0);
        const b = { mean: [0, 0, 0], std: [0, 0, 0] };
        for (const r of weighted) {
          const stats = channelStats(await step(await decode(r.image), (s) => s.resize(256, 256, { fit: 'inside' })));
          for (let k = 0; k < 3; k++) {
            b.mean[k] += (stats.mean[k] * r.weight) / total;
            b.std[k] += (stats.std[k] * r.weight) / total;
          }
        }
        const lut = (['r', 'g', 'b'] as const)
          .map((c, k) => {
            const scale = (b.std[k] / a.std[k]).toFixed(4);
            return `${c}='clip((val-${a.mean[k].toFixed(2)})*${scale}+${b.mean[k].toFixed(2)},0,255)'`;
          })
          .join(':');
        filters.push(`lutrgb=${lut}`);
        operations.unshift('colour-transfer');
      }
      filters.push(...grade);
      const w = request.width ? even(request.width) : undefined;
      const h = request.height ? even(request.height) : undefined;
      if (w && h) filters.push(`scale=${w}:${h}:force_original_aspect_ratio=increase:flags=lanczos`, `crop=${w}:${h}`);
      else filters.push('scale=trunc(iw/2)*2:trunc(ih/2)*2');
      filters.push('setsar=1', 'format=yuv420p');
      const out = join(dir, 'out.mp4');
      return renderVideo(
        this.config,
        filteredVideoArgs(input, filters, fps, '128k', out),
        out,
        d,
        {
          engine: 'local',
          model: request.model,
          operation: 'video-to-video',
          operations,
          references: weighted.length,
        },
        options,
        { totalFrames: Math.max(1, Math.round(d * fps)) },
      );
    });
  }

  async characterPerformance(request: CharacterPerformanceRequest, options?: EngineCallOptions): Promise<VideoResult> {
    return withTempDir(async (dir) => {
      const refFile = join(dir, 'performance');
      const probe = await writeInputVideo(
        this.config,
        refFile,
        request.reference.data,
        options?.signal,
        'The reference performance has no video stream',
      );
      const d = clamp((probe.durationMs ?? 0) / 1000, 1, 30);
      const fps = Math.round(clamp(probe.video.fps ?? 24, 12, 30));
      const w = even(request.width ?? probe.video.width);
      const h = even(request.height ?? probe.video.height);
      const intensity = clamp(request.expressionIntensity ?? 0.5, 0, 1);
      const charFile = join(dir, 'character.png');
      await writeFile(charFile, await toPng(request.character, even(w * 1.15), even(h * 1.15)));
      // The character breathes, sways and bobs at a rhythm scaled by expressionIntensity, for exactly
      // the performance's length; the driving performance plays picture-in-picture with its own sound.
      const amp = (0.008 + 0.03 * intensity).toFixed(4);
      const bob = (4 + 14 * intensity).toFixed(1);
      const pipW = even(w / 4);
      const graph = [
        `[0:v]rotate=a='${amp}*sin(2*PI*t/2.6)':c=black:ow=iw:oh=ih,crop=${w}:${h}:x='(iw-${w})/2+${bob}*sin(2*PI*t/3.7)':y='(ih-${h})/2+${bob}*sin(2*PI*t/1.3)',setsar=1[char]`,
        `[1:v]scale=${pipW}:-2,setsar=1[pip]`,
        `[char][pip]overlay=x=W-w-${even(w / 40)}:y=H-h-${even(h / 40)}:shortest=1,format=yuv420p[v]`,
      ];
      const out = join(dir, 'out.mp4');
      const args = [
        '-loop',
        '1',
        '-framerate',
        String(fps),
        '-t',
        d.toFixed(3),
        '-i',
        charFile,
        '-i',
        refFile,
        '-filter_complex',
        graph.join(';'),
        '-map',
        '[v]',
        '-map',
        '1:a:0?',
        ...h264Args(fps),
        '-c:a',
        'aac',
        '-b:a',
        '128k',
        '-t',
        d.toFixed(3),
        out,
      ];
      return renderVideo(
        this.config,
        args,
        out,
        d,
        {
          engine: 'local',
          model: request.model,
          operation: 'character-performance',
          expressionIntensity: intensity,
          followsReferenceSeconds: d,
        },
        options,
        { totalFrames: Math.max(1, Math.round(d * fps)) },
      );
    });
  }
}
