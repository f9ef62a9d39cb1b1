import { spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import type { Config } from '../../config.ts';
import { badRequest } from '../../platform/errors.ts';
import { type MediaProbe, probeMedia } from '../../platform/media/probe.ts';
import { ffmpegPath } from '../../platform/media/tools.ts';
import { makeWorkDir } from '../../platform/media/work-dir.ts';
import type { EngineCallOptions, ProgressCallback } from '../types.ts';

export type ToolConfig = Pick<Config, 'FFMPEG_PATH' | 'FFPROBE_PATH'>;

class FfmpegError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'FfmpegError';
  }
}

export interface FfmpegRun {
  /** Seconds of output expected, to turn ffmpeg's out_time into a 0–1 fraction. */
  durationSeconds: number;
  /**
   * Video frames the output will have, when the caller knows them: progress then counts ffmpeg's `frame=`
   * (video frames written), which an audio stream running ahead of the picture cannot inflate.
   */
  totalFrames?: number;
  signal?: AbortSignal;
  onProgress?: ProgressCallback;
  /** Maps this run's 0–1 progress into a slice of the caller's (for multi-step jobs). */
  progressRange?: [number, number];
  timeoutMs?: number;
}

/** Parses `-progress` key=value blocks; returns seconds of output written so far, when known. */
export function parseProgressTime(block: string): number | undefined {
  const us = /out_time_(?:ms|us)=(\d+)/.exec(block);
  if (us) return Number(us[1]) / 1_000_000;
  const t = /out_time=(\d+):(\d+):(\d+(?:\.\d+)?)/.exec(block);
  if (t) return Number(t[1]) * 3600 + Number(t[2]) * 60 + Number(t[3]);
  return undefined;
}

/** Parses `-progress` key=value blocks; returns the number of video frames written so far, when known. */
export function parseProgressFrame(block: string): number | undefined {
  const frame = /(?:^|\n)frame=(\d+)/.exec(block);
  return frame ? Number(frame[1]) : undefined;
}

/** The 0–1 share of the output written, from the frame count when known, else from out_time. */
function progressShare(block: string, run: FfmpegRun): number | undefined {
  if (run.totalFrames && run.totalFrames > 0) {
    const frame = parseProgressFrame(block);
    if (frame !== undefined) return Math.min(1, frame / run.totalFrames);
  }
  const seconds = parseProgressTime(block);
  if (seconds === undefined || !(run.durationSeconds > 0)) return undefined;
  return Math.max(0, Math.min(1, seconds / run.durationSeconds));
}

/**
 * Runs ffmpeg with `-progress pipe:1`, reporting frames written (or out_time) against the expected output through
 * onProgress, and killing ffmpeg (SIGKILL) when the signal aborts or the timeout passes.
 */
export function runFfmpeg(config: ToolConfig, args: readonly string[], run: FfmpegRun): Promise<void> {
  return new Promise((resolve, reject) => {
    if (run.signal?.aborted) {
      reject(run.signal.reason ?? new Error('aborted'));
      return;
    }
    const full = ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', '-progress', 'pipe:1', '-nostats', ...args];
    const child = spawn(ffmpegPath(config), full, { stdio: ['ignore', 'pipe', 'pipe'] });
    const started = Date.now();
    const [from, to] = run.progressRange ?? [0, 1];
    let stderr = '';
    let pending = '';
    let lastFraction = -1;
    let settled = false;
    const kill = () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    };
    const onAbort = () => {
      kill();
      finish(run.signal?.reason instanceof Error ? run.signal.reason : new Error('aborted'));
    };
    const timer = setTimeout(() => {
      kill();
      finish(new FfmpegError(`ffmpeg timed out after ${run.timeoutMs ?? 300_000} ms`, stderr));
    }, run.timeoutMs ?? 300_000);
    function finish(error?: Error) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    }
    run.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      let idx = pending.indexOf('progress=');
      while (idx >= 0) {
        const end = pending.indexOf('\n', idx);
        if (end < 0) break;
        const block = pending.slice(0, end);
        pending = pending.slice(end + 1);
        const local = run.onProgress ? progressShare(block, run) : undefined;
        if (local !== undefined && run.onProgress) {
          const fraction = from + (to - from) * local;
          if (fraction > lastFraction + 0.005 || local === 1) {
            lastFraction = fraction;
            const elapsed = (Date.now() - started) / 1000;
            const eta = local > 0.02 ? (elapsed / local) * (1 - local) : undefined;
            run.onProgress(
              Math.round(fraction * 1000) / 1000,
              eta === undefined ? undefined : Math.round(eta * 10) / 10,
            );
          }
        }
        idx = pending.indexOf('progress=');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 16_384) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => finish(error));
    child.on('close', (code, signal) => {
      if (code === 0) finish();
      else {
        const last = stderr.trim().split('\n').slice(-3).join(' | ');
        finish(new FfmpegError(`ffmpeg exited with ${code ?? signal}: ${last}`, stderr));
      }
    });
  });
}

/**
 * Runs ffmpeg as the last step of an engine call: progress goes to the call's onProgress and, once
 * ffmpeg has finished, the call is reported complete.
 */
export async function runFinalFfmpeg(
  config: ToolConfig,
  args: readonly string[],
  durationSeconds: number,
  options: EngineCallOptions | undefined,
  run: Pick<FfmpegRun, 'progressRange' | 'timeoutMs' | 'totalFrames'> = {},
): Promise<void> {
  await runFfmpeg(config, args, { durationSeconds, signal: options?.signal, onProgress: options?.onProgress, ...run });
  options?.onProgress?.(1, 0);
}

/** Runs `fn` with a fresh temporary directory, removed afterwards whatever happens. */
export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await makeWorkDir('engine');
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Writes an input video to `file` and probes it; an input without a video stream is a bad request. */
export async function writeInputVideo(
  config: ToolConfig,
  file: string,
  data: Buffer,
  signal: AbortSignal | undefined,
  noVideoMessage = 'The input has no video stream',
): Promise<MediaProbe & { video: NonNullable<MediaProbe['video']> }> {
  await writeFile(file, data);
  const probe = await probeMedia(config, file, signal);
  if (!probe.video) throw badRequest(noVideoMessage);
  return { ...probe, video: probe.video };
}

/** Encoder arguments every local video output uses: H.264 yuv420p, veryfast, +faststart. */
export function h264Args(fps: number): string[] {
  return [
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '22',
    '-pix_fmt',
    'yuv420p',
    '-r',
    String(fps),
    '-movflags',
    '+faststart',
  ];
}

/**
 * Arguments that re-encode an input's first video stream through a filter chain to H.264 and carry its
 * first audio stream, when it has one, over as AAC.
 */
export function filteredVideoArgs(
  input: string,
  filters: readonly string[],
  fps: number,
  audioBitrate: string,
  out: string,
): string[] {
  return [
    '-i',
    input,
    '-map',
    '0:v:0',
    '-map',
    '0:a:0?',
    '-vf',
    filters.join(','),
    ...h264Args(fps),
    '-c:a',
    'aac',
    '-b:a',
    audioBitrate,
    out,
  ];
}
