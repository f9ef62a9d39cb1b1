// Media benchmark: our call's wall time beside the same ffmpeg/sharp operation run directly by this
// process (same binary, same arguments or pipeline, same inputs), median of RUNS alternating runs.
// - master compile: what sequence.compile-master does once the clips are on disk, for clips stored
//   through the media store as a generation or upload stores them (read their kept probe facts, probe
//   the clips without any, plan, keyframes when needed, ffmpeg) vs the planned ffmpeg command alone;
//   once with mixed clips (re-encode) and once with matching clips (stream copy). The master's own
//   probe runs beside storing it (like its poster frame), so it is part of saving, not of the compile.
// - 4K image upscale: LocalUpscaleEngine.image (image-upscaler, as upscale.image calls it) vs the
//   sharp pipeline it runs (rotate, lanczos3 resize to 3840x2160, sharpen, PNG).
// - video enhancement: LocalUpscaleEngine.video (as upscale.video calls it, "high" quality preset)
//   vs the ffmpeg command it builds, run on the same file.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { UPSCALE_TARGET } from '../common/api/generation.constants.ts';
import { VIDEO_ENHANCE } from '../common/api/uploads.constants.ts';
import { openPglite } from '../server/db/client.ts';
import { h264Args, type ToolConfig } from '../server/engines/local/ffmpeg.ts';
import { LocalUpscaleEngine } from '../server/engines/local/upscale.ts';
import { type ClipFacts, compileArgs, compileMaster, planCompile } from '../server/features/sequences/compile.ts';
import { systemClock } from '../server/platform/clock.ts';
import { probeMedia } from '../server/platform/media/probe.ts';
import { MediaStore } from '../server/platform/media/store.ts';
import { ffmpegPath } from '../server/platform/media/tools.ts';
import { LocalStorage } from '../server/platform/storage/local.ts';
import { type BenchRow, type BenchSection, ms } from './report.ts';

const RUNS = 5;
const BUDGET = 1.15;
const tools: ToolConfig = { FFMPEG_PATH: process.env.FFMPEG_PATH, FFPROBE_PATH: process.env.FFPROBE_PATH };

function runFfmpegDirect(args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath(tools), ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}: ${stderr}`))));
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Runs ours and the baseline RUNS times each (after one untimed warm-up of each), alternating which goes first; medians. */
async function compare(
  name: string,
  ours: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
): Promise<BenchRow> {
  await ours();
  await baseline();
  const oursMs: number[] = [];
  const baseMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    if (i % 2 === 0) {
      oursMs.push(await timed(ours));
      baseMs.push(await timed(baseline));
    } else {
      baseMs.push(await timed(baseline));
      oursMs.push(await timed(ours));
    }
  }
  const o = median(oursMs);
  const b = median(baseMs);
  return { name, ours: ms(o), baseline: ms(b), ratio: o / b, budget: `≤ ${BUDGET}×`, pass: o / b <= BUDGET };
}

interface ClipSpec {
  width: number;
  height: number;
  fps: number;
  audio: boolean;
}

async function makeClip(file: string, spec: ClipSpec, seconds: number, hue: number): Promise<void> {
  const video = `testsrc2=duration=${seconds}:size=${spec.width}x${spec.height}:rate=${spec.fps},hue=h=${hue}`;
  await runFfmpegDirect([
    '-f',
    'lavfi',
    '-i',
    video,
    ...(spec.audio ? ['-f', 'lavfi', '-i', `sine=frequency=${220 + hue}:duration=${seconds}:sample_rate=48000`] : []),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-pix_fmt',
    'yuv420p',
    ...(spec.audio ? ['-c:a', 'aac', '-ac', '2', '-ar', '48000'] : []),
    '-shortest',
    file,
  ]);
}

/** The master compile as the sequence.compile-master handler runs it once the stored clips are on disk. */
async function compileLikeTheTask(
  store: MediaStore,
  clips: readonly { file: string; key: string }[],
  seconds: number,
  dir: string,
): Promise<void> {
  const out = path.join(dir, 'master.mp4');
  const known = await store.factsOf(clips.map((clip) => clip.key));
  const inputs = clips.map(({ file, key }, i) => ({
    file,
    itemId: `clip-${i}`,
    startTime: 0,
    duration: seconds,
    facts: known.get(key),
  }));
  await compileMaster(tools, inputs, out, {
    workDir: dir,
    onProgress: () => undefined,
    onFacts: (i, facts) => store.saveFacts(clips[i]?.key ?? '', facts),
  });
}

async function compileRows(dir: string, store: MediaStore): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const cases: { label: string; seconds: number; streamCopy: boolean; specs: (i: number) => ClipSpec }[] = [
    {
      label: 'master compile, 10 mixed clips × 2 s 640x360/480x360 (re-encode)',
      seconds: 2,
      streamCopy: false,
      specs: (i) =>
        i % 2 === 0
          ? { width: 640, height: 360, fps: 24, audio: true }
          : { width: 480, height: 360, fps: 30, audio: i % 3 !== 0 },
    },
    {
      label: 'master compile, 10 matching clips × 5 s 1280x720 (stream copy)',
      seconds: 5,
      streamCopy: true,
      specs: () => ({ width: 1280, height: 720, fps: 24, audio: true }),
    },
  ];
  for (const [n, { label, seconds, streamCopy, specs }] of cases.entries()) {
    const caseDir = path.join(dir, `compile-${n}`);
    const files: string[] = [];
    const stored: { file: string; key: string }[] = [];
    await mkdir(caseDir, { recursive: true });
    for (let i = 0; i < 10; i++) {
      const file = path.join(caseDir, `clip-${i}.mp4`);
      await makeClip(file, specs(i), seconds, i * 30);
      files.push(file);
      // Stored as a generated video is (saveOutputs), so its row carries the probe facts.
      const put = await store.put({
        body: await readFile(file),
        contentType: 'video/mp4',
        ext: 'mp4',
        storageClass: 'generated',
        userId: null,
        source: 'generation',
      });
      stored.push({ file, key: put.key });
    }
    // The baseline runs exactly the command our compile plans, without probing or progress.
    const clips: ClipFacts[] = [];
    for (const file of files) {
      const probe = await probeMedia(tools, file);
      if (!probe.video) throw new Error(`${file} has no video`);
      clips.push({ file, probe: { ...probe, video: probe.video }, startTime: 0, duration: seconds });
    }
    const plan = planCompile(clips);
    if (plan.streamCopy !== streamCopy) throw new Error(`${label}: planned streamCopy=${plan.streamCopy}`);
    const direct = await compileArgs(clips, plan, path.join(caseDir, 'direct.mp4'), caseDir);
    rows.push(
      await compare(
        label,
        () => compileLikeTheTask(store, stored, seconds, caseDir),
        () => runFfmpegDirect(direct),
      ),
    );
  }
  return rows;
}

async function upscaleRow(): Promise<BenchRow> {
  // A 1920x1080 photo-like PNG (gradient + noise), brought to 4K as upscale.image does.
  const { width, height } = { width: 1920, height: 1080 };
  const raw = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let i = 0; i < raw.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const p = Math.floor(i / 3);
    raw[i] = ((p % width) * 255) / width / 2 + (Math.floor(p / width) * 255) / height / 2 + (seed % 24) - 12;
  }
  const png = await sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
  const engine = new LocalUpscaleEngine(tools);
  const level = 0.6; // image-upscaler's default level
  return compare(
    '4K image upscale (image-upscaler, 1920x1080 PNG → 3840x2160 PNG)',
    () =>
      engine.image({
        model: 'image-upscaler',
        image: { data: png, mimeType: 'image/png' },
        targetWidth: UPSCALE_TARGET.width,
        targetHeight: UPSCALE_TARGET.height,
      }),
    () =>
      sharp(png)
        .rotate()
        .resize(UPSCALE_TARGET.width, UPSCALE_TARGET.height, { kernel: 'lanczos3', fit: 'inside' })
        .sharpen({ sigma: 0.6 + 1.4 * level, m1: 0.5 + level, m2: 1.5 + 3 * level })
        .png({ compressionLevel: 6, adaptiveFiltering: false })
        .toBuffer(),
  );
}

async function enhanceRow(dir: string): Promise<BenchRow> {
  const source = path.join(dir, 'enhance-source.mp4');
  await makeClip(source, { width: 480, height: 270, fps: 24, audio: true }, 3, 40);
  const data = await readFile(source);
  const preset = VIDEO_ENHANCE.presets.high;
  const engine = new LocalUpscaleEngine(tools);
  // The task hands the engine the facts probed when the clip was stored (media_objects.probe), as here.
  const sourceProbe = await probeMedia(tools, source);
  const request = {
    model: VIDEO_ENHANCE.defaultModel,
    video: { data, mimeType: 'video/mp4' },
    scale: 2,
    sourceProbe,
    ...preset,
  };
  // The command the engine runs for this request (see LocalUpscaleEngine.video), on the same file.
  const s = (1 + 4 * preset.denoise).toFixed(2);
  const t = (2 + 6 * preset.denoise).toFixed(2);
  const filters = [
    `hqdn3d=${s}:${(Number(s) * 0.75).toFixed(2)}:${t}:${(Number(t) * 0.75).toFixed(2)}`,
    'scale=960:540:flags=lanczos',
    `unsharp=5:5:${(0.3 + 1.2 * preset.sharpen).toFixed(2)}:5:5:0`,
    `eq=contrast=${(1 + 0.08 * preset.enhance).toFixed(3)}:saturation=${(1 + 0.2 * preset.enhance).toFixed(3)}`,
    'setsar=1',
    'format=yuv420p',
  ];
  const out = path.join(dir, 'enhance-direct.mp4');
  const direct = ['-i', source, '-map', '0:v:0', '-map', '0:a:0?', '-vf', filters.join(',')]
    .concat(h264Args(24))
    .concat(['-c:a', 'aac', '-b:a', '160k', out]);
  const check = await engine.video(request);
  if (check.width !== 960 || check.height !== 540)
    throw new Error(`unexpected enhance output ${check.width}x${check.height}`);
  return compare(
    'video enhancement (high preset, 480x270 3 s → 960x540)',
    () => engine.video(request),
    () => runFfmpegDirect(direct),
  );
}

export async function runMediaBench(): Promise<BenchSection> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'genpro-media-bench-'));
  const database = await openPglite();
  try {
    await database.migrate();
    const store = new MediaStore({
      db: database.db,
      storage: new LocalStorage(path.join(dir, 'media')),
      clock: systemClock,
      config: tools,
    });
    const rows = [...(await compileRows(dir, store)), await upscaleRow(), await enhanceRow(dir)];
    return {
      title: 'Media: our call vs the same ffmpeg/sharp operation run directly',
      method: [
        `Wall time, median of ${RUNS} runs each (order alternating) after one warm-up each, in this process (bundled ffmpeg, sharp).`,
        'Ours: the engine/compile functions the task handlers call, with their probing, temp files and progress parsing.',
        'Master compile: clips stored through the media store first (as generations/uploads are), so the compile plans from the probe facts kept on their rows; the master’s probe runs beside storing it and is not counted. Video enhancement likewise gets the stored facts of its source (the output is still probed).',
        'Baseline: the exact ffmpeg arguments / sharp pipeline ours runs, invoked directly on the same inputs.',
      ],
      rows,
    };
  } finally {
    await database.close();
    await rm(dir, { recursive: true, force: true });
  }
}
