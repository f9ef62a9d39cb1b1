import { spawn } from 'node:child_process';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import ffprobeInstaller from '@ffprobe-installer/ffprobe';
import type { Config } from '../../config.ts';

type ToolConfig = Pick<Config, 'FFMPEG_PATH' | 'FFPROBE_PATH'>;

/** FFMPEG_PATH, else the binary bundled by @ffmpeg-installer/ffmpeg (ffmpeg 4.1). */
export function ffmpegPath(config: ToolConfig): string {
  return config.FFMPEG_PATH ?? ffmpegInstaller.path;
}

/** FFPROBE_PATH, else the binary bundled by @ffprobe-installer/ffprobe. */
export function ffprobePath(config: ToolConfig): string {
  return config.FFPROBE_PATH ?? ffprobeInstaller.path;
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
}

class ToolError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/** Runs a binary with arguments (no shell), collecting stdout as bytes; rejects on a non-zero exit. */
export function runTool(
  binary: string,
  args: readonly string[],
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      signal: options.signal,
      timeout: options.timeoutMs ?? 120_000,
      killSignal: 'SIGKILL',
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 16_384) err += chunk.toString('utf8');
    });
    child.on('error', (error) => reject(error));
    child.on('close', (code, signal) => {
      if (code === 0) resolve({ stdout: Buffer.concat(out), stderr: err });
      else {
        const last = err.trim().split('\n').slice(-3).join(' | ');
        reject(new ToolError(`${binary.split('/').at(-1)} exited with ${code ?? signal}: ${last}`, code, err));
      }
    });
  });
}
