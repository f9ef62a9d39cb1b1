import sharp from 'sharp';
import { z } from 'zod';
import { THUMBNAIL_WIDTH } from '../../../common/api/media.constants.ts';
import type { Config } from '../../config.ts';
import { ffmpegPath, ffprobePath, runTool } from './tools.ts';

type ToolConfig = Pick<Config, 'FFMPEG_PATH' | 'FFPROBE_PATH'>;

export interface ImageInfo {
  format: string;
  /** Display size, after EXIF orientation. */
  width: number;
  height: number;
  hasAlpha: boolean;
  space?: string;
  pages?: number;
}

export async function imageInfo(file: string): Promise<ImageInfo> {
  const meta = await sharp(file).metadata();
  if (!meta.width || !meta.height || !meta.format) throw new Error('not a decodable image');
  const rotated = meta.orientation !== undefined && meta.orientation >= 5;
  return {
    format: meta.format,
    width: rotated ? meta.height : meta.width,
    height: rotated ? meta.width : meta.height,
    hasAlpha: meta.hasAlpha ?? false,
    space: meta.space,
    pages: meta.pages,
  };
}

/** A WebP thumbnail THUMBNAIL_WIDTH wide (or the source width when smaller), upright. */
export async function webpThumbnail(input: string | Buffer, width: number = THUMBNAIL_WIDTH): Promise<Buffer> {
  return sharp(input, { animated: false })
    .rotate()
    .resize({ width, withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer();
}

export interface MediaProbe {
  formatName: string;
  durationMs: number | null;
  bitRate: number | null;
  video: { codec: string; width: number; height: number; fps: number | null; rotation: number } | null;
  audio: { codec: string; sampleRate: number | null; channels: number | null } | null;
}

const mediaFactsSchema = z.object({
  formatName: z.string(),
  durationMs: z.number().nullable(),
  bitRate: z.number().nullable(),
  video: z
    .object({
      codec: z.string(),
      width: z.number(),
      height: z.number(),
      fps: z.number().nullable(),
      rotation: z.number(),
    })
    .nullable(),
  audio: z.object({ codec: z.string(), sampleRate: z.number().nullable(), channels: z.number().nullable() }).nullable(),
  /** Keyframe times of the video stream, once something needed them. */
  keyframes: z.array(z.number()).optional(),
});

/** A probe kept on a stored object's `media_objects.probe` (content under a key never changes). */
export type MediaFacts = z.infer<typeof mediaFactsSchema>;

/** The facts stored on a row, or null when there are none or they have an older shape. */
export function parseMediaFacts(value: unknown): MediaFacts | null {
  const parsed = mediaFactsSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
  tags?: Record<string, string>;
  side_data_list?: { rotation?: number }[];
  disposition?: { attached_pic?: number };
}

interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: { format_name?: string; duration?: string; bit_rate?: string };
}

function parseRate(rate: string | undefined): number | null {
  if (!rate) return null;
  const [num, den] = rate.split('/').map(Number);
  if (!num || !den) return null;
  return Math.round((num / den) * 1000) / 1000;
}

function toNumber(value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** Streams and duration of a video or audio file, through ffprobe. */
export async function probeMedia(config: ToolConfig, file: string, signal?: AbortSignal): Promise<MediaProbe> {
  const { stdout } = await runTool(
    ffprobePath(config),
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
    { signal, timeoutMs: 60_000 },
  );
  const out = JSON.parse(stdout.toString('utf8')) as FfprobeOutput;
  const streams = out.streams ?? [];
  const v = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const a = streams.find((s) => s.codec_type === 'audio');
  const duration = toNumber(out.format?.duration) ?? toNumber(v?.duration) ?? toNumber(a?.duration);
  let video: MediaProbe['video'] = null;
  if (v?.width && v.height) {
    const rotation =
      Math.abs(Number(v.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? v.tags?.rotate ?? 0)) % 360;
    const sideways = rotation === 90 || rotation === 270;
    video = {
      codec: v.codec_name ?? 'unknown',
      width: sideways ? v.height : v.width,
      height: sideways ? v.width : v.height,
      fps: parseRate(v.avg_frame_rate) ?? parseRate(v.r_frame_rate),
      rotation,
    };
  }
  return {
    formatName: out.format?.format_name ?? 'unknown',
    durationMs: duration === null ? null : Math.round(duration * 1000),
    bitRate: toNumber(out.format?.bit_rate),
    video,
    audio: a
      ? { codec: a.codec_name ?? 'unknown', sampleRate: toNumber(a.sample_rate), channels: a.channels ?? null }
      : null,
  };
}

/** One frame of a video at `atSeconds`, as PNG bytes (ffmpeg applies the rotation). */
export async function grabFrame(
  config: ToolConfig,
  file: string,
  atSeconds: number,
  signal?: AbortSignal,
): Promise<Buffer> {
  const { stdout } = await runTool(
    ffmpegPath(config),
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-ss',
      atSeconds.toFixed(3),
      '-i',
      file,
      '-frames:v',
      '1',
      '-an',
      '-f',
      'image2pipe',
      '-vcodec',
      'png',
      'pipe:1',
    ],
    { signal, timeoutMs: 60_000 },
  );
  if (stdout.length === 0) throw new Error('ffmpeg produced no frame');
  return stdout;
}
