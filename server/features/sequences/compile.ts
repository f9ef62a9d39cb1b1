import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MESSAGES } from '../../../common/messages.ts';
import { SEQUENCE_MESSAGES } from '../../../common/rules/sequences.ts';
import type { Config } from '../../config.ts';
import { h264Args, runFfmpeg } from '../../engines/local/ffmpeg.ts';
import { PermanentTaskError } from '../../platform/jobs/types.ts';
import { type MediaFacts, type MediaProbe, probeMedia } from '../../platform/media/probe.ts';
import { ffprobePath, runTool } from '../../platform/media/tools.ts';

// The master video: every clip cut to its window, in timeline order, normalised to one size, frame
// rate and audio layout and joined into one H.264/AAC MP4 with +faststart. When every clip already
// matches (H.264 at the target size and rate, AAC with the same layout, cuts starting on keyframes)
// the clips are joined by stream copy through the concat demuxer; otherwise everything is re-encoded
// in one filter graph (scale + pad to fit, fps, silent AAC where a clip has no audio).

type ToolConfig = Pick<Config, 'FFMPEG_PATH' | 'FFPROBE_PATH'>;

/** Size used when the first clip's cannot be read. */
const FALLBACK_SIZE = { width: 1280, height: 720 } as const;
const FALLBACK_FPS = 24;
const AUDIO = { sampleRate: 48_000, channels: 2, layout: 'stereo', bitrate: '128k' } as const;
/** Shortest piece of a clip kept when a window starts in the clip's last 0.1 s. */
const MIN_CUT_SECONDS = 0.1;

export interface ClipFacts {
  file: string;
  probe: MediaProbe & { video: NonNullable<MediaProbe['video']> };
  /** The requested window. */
  startTime: number;
  duration: number;
  /** Keyframe times of the video stream (only needed to decide stream copy). */
  keyframes?: readonly number[];
}

interface CompileTarget {
  width: number;
  height: number;
  fps: number;
  sampleRate: number;
  channels: number;
}

export interface CompilePlan {
  target: CompileTarget;
  cuts: { start: number; duration: number }[];
  streamCopy: boolean;
  /** Every clip already has the target codecs, size, rate and audio layout (stream copy if cuts start on keyframes). */
  layoutMatches: boolean;
  /** Sum of the cut durations. */
  duration: number;
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);
const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** The part of a clip a window really covers: the window clamped to the clip's length. */
export function cutOf(clip: Pick<ClipFacts, 'startTime' | 'duration' | 'probe'>): { start: number; duration: number } {
  const length = clip.probe.durationMs === null ? null : clip.probe.durationMs / 1000;
  if (length === null) return { start: round3(clip.startTime), duration: round3(clip.duration) };
  const start = Math.min(Math.max(0, clip.startTime), Math.max(0, length - MIN_CUT_SECONDS));
  return { start: round3(start), duration: round3(Math.max(MIN_CUT_SECONDS, Math.min(clip.duration, length - start))) };
}

const onKeyframe = (time: number, keyframes: readonly number[] | undefined) =>
  time === 0 || (keyframes ?? []).some((k) => Math.abs(k - time) < 0.001);

/** The target size, rate and audio layout (the first clip's), and whether stream copy is possible. */
export function planCompile(clips: readonly ClipFacts[]): CompilePlan {
  const first = clips[0];
  if (!first) throw new Error('planCompile needs at least one clip');
  const width = first.probe.video.width > 0 ? even(first.probe.video.width) : FALLBACK_SIZE.width;
  const height = first.probe.video.height > 0 ? even(first.probe.video.height) : FALLBACK_SIZE.height;
  const fps = Math.min(60, Math.max(1, Math.round(first.probe.video.fps ?? FALLBACK_FPS)));
  const firstAudio = first.probe.audio;
  const target: CompileTarget = {
    width,
    height,
    fps,
    sampleRate: firstAudio?.sampleRate ?? AUDIO.sampleRate,
    channels: firstAudio?.channels ?? AUDIO.channels,
  };
  const cuts = clips.map(cutOf);
  const layoutMatches = clips.every((clip) => {
    const { video, audio } = clip.probe;
    return (
      video.codec === 'h264' &&
      video.rotation === 0 &&
      video.width === target.width &&
      video.height === target.height &&
      video.fps !== null &&
      Math.abs(video.fps - target.fps) < 0.01 &&
      audio !== null &&
      audio.codec === 'aac' &&
      audio.sampleRate === target.sampleRate &&
      audio.channels === target.channels
    );
  });
  const streamCopy = layoutMatches && clips.every((clip, i) => onKeyframe(cuts[i]?.start ?? 0, clip.keyframes));
  // Re-encoding writes standard stereo 48 kHz audio.
  if (!streamCopy) Object.assign(target, { sampleRate: AUDIO.sampleRate, channels: AUDIO.channels });
  const duration = round3(cuts.reduce((sum, cut) => sum + cut.duration, 0));
  return { target, cuts, streamCopy, layoutMatches, duration };
}

/** Keyframe times of a file's first video stream, through ffprobe. */
async function keyframeTimes(config: ToolConfig, file: string, signal?: AbortSignal): Promise<number[]> {
  const { stdout } = await runTool(
    ffprobePath(config),
    [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-skip_frame',
      'nokey',
      '-show_entries',
      'frame=pkt_pts_time,pts_time,best_effort_timestamp_time',
      '-of',
      'json',
      file,
    ],
    { signal, timeoutMs: 60_000 },
  );
  const parsed = JSON.parse(stdout.toString('utf8')) as { frames?: Record<string, string | undefined>[] };
  return (parsed.frames ?? [])
    .map((f) => Number(f.pts_time ?? f.pkt_pts_time ?? f.best_effort_timestamp_time))
    .filter((n) => Number.isFinite(n));
}

/** The filter graph that cuts, normalises and concatenates every clip (re-encode path). */
export function reencodeFilterGraph(clips: readonly Pick<ClipFacts, 'probe'>[], plan: CompilePlan): string {
  const { width, height, fps } = plan.target;
  const aformat = `aformat=sample_fmts=fltp:sample_rates=${AUDIO.sampleRate}:channel_layouts=${AUDIO.layout}`;
  const parts: string[] = [];
  const labels: string[] = [];
  clips.forEach((clip, i) => {
    const cut = plan.cuts[i];
    if (!cut) return;
    const end = round3(cut.start + cut.duration);
    parts.push(
      `[${i}:v:0]fps=${fps},trim=start=${cut.start}:end=${end},setpts=PTS-STARTPTS,` +
        `scale=${width}:${height}:force_original_aspect_ratio=decrease,` +
        `pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1,format=yuv420p[v${i}]`,
    );
    parts.push(
      clip.probe.audio
        ? `[${i}:a:0]atrim=start=${cut.start}:end=${end},asetpts=PTS-STARTPTS,${aformat},apad,atrim=duration=${cut.duration},asetpts=PTS-STARTPTS[a${i}]`
        : `anullsrc=r=${AUDIO.sampleRate}:cl=${AUDIO.layout},atrim=duration=${cut.duration},${aformat},asetpts=PTS-STARTPTS[a${i}]`,
    );
    labels.push(`[v${i}][a${i}]`);
  });
  parts.push(`${labels.join('')}concat=n=${labels.length}:v=1:a=1[vout][aout]`);
  return parts.join(';');
}

/** The ffmpeg arguments of the compile (writing the concat list into `workDir` for stream copy). */
export async function compileArgs(
  clips: readonly ClipFacts[],
  plan: CompilePlan,
  out: string,
  workDir: string,
): Promise<string[]> {
  if (plan.streamCopy) {
    const list = clips
      .map((clip, i) => {
        const cut = plan.cuts[i] ?? { start: 0, duration: plan.duration };
        const escaped = clip.file.replaceAll("'", "'\\''");
        return `file '${escaped}'\ninpoint ${cut.start}\noutpoint ${round3(cut.start + cut.duration)}\n`;
      })
      .join('');
    const listFile = path.join(workDir, 'concat.txt');
    await writeFile(listFile, list);
    return ['-f', 'concat', '-safe', '0', '-i', listFile, '-map', '0:v:0', '-map', '0:a:0', '-c', 'copy'].concat([
      '-movflags',
      '+faststart',
      out,
    ]);
  }
  const inputs = clips.flatMap((clip) => ['-i', clip.file]);
  return [
    ...inputs,
    '-filter_complex',
    reencodeFilterGraph(clips, plan),
    '-map',
    '[vout]',
    '-map',
    '[aout]',
    ...h264Args(plan.target.fps),
    '-c:a',
    'aac',
    '-b:a',
    AUDIO.bitrate,
    '-ar',
    String(AUDIO.sampleRate),
    '-ac',
    String(AUDIO.channels),
    out,
  ];
}

/** Runs the compile: stream copy through the concat demuxer, or one re-encode. Writes `out`. */
async function runCompile(
  config: ToolConfig,
  clips: readonly ClipFacts[],
  plan: CompilePlan,
  out: string,
  options: { workDir: string; signal?: AbortSignal; onProgress?: (fraction: number) => void },
): Promise<void> {
  await runFfmpeg(config, await compileArgs(clips, plan, out, options.workDir), {
    durationSeconds: plan.duration,
    signal: options.signal,
    onProgress: options.onProgress ? (fraction: number) => options.onProgress?.(fraction) : undefined,
    timeoutMs: 600_000,
  });
}

/**
 * A window must start inside its clip: one starting at or past the clip's end would play nothing (it used
 * to be cut to a 0.1 s sliver of the last frame), so the compile is refused, naming the item.
 */
function assertStartsWithinClip(input: Pick<CompileInput, 'itemId' | 'startTime'>, facts: MediaFacts): void {
  if (facts.durationMs === null) return;
  const length = facts.durationMs / 1000;
  if (input.startTime < length) return;
  throw new PermanentTaskError(
    'invalid_input',
    SEQUENCE_MESSAGES.startBeyondClip(input.itemId, input.startTime, Math.round(length * 10) / 10),
  );
}

/** ffprobe runs at once while the clips are read (each is short and mostly waits on process start-up). */
const PROBE_CONCURRENCY = 4;

async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export interface CompileInput extends Pick<ClipFacts, 'file' | 'startTime' | 'duration'> {
  /** The sequence item's id, named in the error of a window that starts past the clip's end. */
  itemId: string;
  /** What an earlier probe of the same bytes found (the clip's stored media row); probed when absent. */
  facts?: MediaFacts | null;
}

/**
 * The master compile of clips on disk: probes the clips without known facts (an unreadable one fails the
 * task permanently), plans, reads keyframes only when they decide stream copy, and runs ffmpeg into
 * `out`. Facts it had to learn (a probe, keyframes) go to `onFacts` so they can be kept. Returns the plan.
 */
export async function compileMaster(
  config: ToolConfig,
  inputs: readonly CompileInput[],
  out: string,
  options: {
    workDir: string;
    signal?: AbortSignal;
    onProgress?: (fraction: number) => void;
    onFacts?: (index: number, facts: MediaFacts) => Promise<void>;
  },
): Promise<CompilePlan> {
  const learned = new Set<number>();
  const facts = await mapLimited(
    inputs.map((input, index) => ({ input, index })),
    PROBE_CONCURRENCY,
    async ({ input, index }): Promise<MediaFacts> => {
      const known = input.facts ?? (await probeMedia(config, input.file, options.signal).catch(() => null));
      if (!known?.video) throw new PermanentTaskError('invalid_input', MESSAGES.inputs.unreadable);
      assertStartsWithinClip(input, known);
      if (!input.facts) learned.add(index);
      return known;
    },
  );
  const clips = inputs.map((input, i): ClipFacts => {
    const { keyframes, ...probe } = facts[i] as MediaFacts & { video: NonNullable<MediaFacts['video']> };
    return { file: input.file, startTime: input.startTime, duration: input.duration, probe, keyframes };
  });
  let plan = planCompile(clips);
  if (plan.layoutMatches && !plan.streamCopy) {
    await mapLimited(
      clips.map((clip, index) => ({ clip, index })),
      PROBE_CONCURRENCY,
      async ({ clip, index }) => {
        if (clip.keyframes) return;
        clip.keyframes = await keyframeTimes(config, clip.file, options.signal);
        learned.add(index);
      },
    );
    plan = planCompile(clips);
  }
  // Keeping what was learned is best effort and runs beside ffmpeg.
  const keeping = Promise.all(
    [...learned].map((i) => {
      const clip = clips[i] as ClipFacts;
      return options.onFacts?.(i, { ...clip.probe, ...(clip.keyframes ? { keyframes: [...clip.keyframes] } : {}) });
    }),
  ).catch(() => undefined);
  try {
    await runCompile(config, clips, plan, out, options);
  } finally {
    await keeping;
  }
  return plan;
}
