import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalUpscaleEngine } from '../../engines/local/upscale.ts';
import { testToolConfig } from '../../engines/test-media.ts';
import { ffmpegPath } from '../../platform/media/tools.ts';
import { planVideoEnhancement } from './catalogue.ts';

// Each video-enhancement model does its named job, measured on decoded frames of tiny 1 s clips:
// denoisers lower the noise in flat areas, sharpeners raise edge contrast, Nyx lifts dark footage, Iris
// adds colour, the interpolators make new frames that are not copies of their neighbours.

const run = promisify(execFile);
const engine = new LocalUpscaleEngine(testToolConfig);
const SW = 96;
const SH = 64;
const W = SW * 2;
const H = SH * 2;
let dir: string;

/** A grey field with a white box moving right; `noise` grain and `level` brightness (0–255 grey). */
async function clip(name: string, noise: number, level = 128): Promise<Buffer> {
  const file = join(dir, `${name}.mp4`);
  const hex = level.toString(16).padStart(2, '0');
  const graph =
    `color=c=0x${hex}${hex}${hex}:s=${SW}x${SH}:r=12:d=1[bg];color=c=0xd04030:s=20x20:r=12:d=1[box];` +
    `[bg][box]overlay=x='8+t*48':y=22:shortest=1${noise > 0 ? `,noise=alls=${noise}:allf=t+u` : ''},format=yuv420p`;
  await run(ffmpegPath(testToolConfig), [
    '-y',
    '-f',
    'lavfi',
    '-i',
    graph,
    '-frames:v',
    '12',
    '-c:v',
    'libx264',
    '-crf',
    '12',
    file,
  ]);
  return readFile(file);
}

/** The output's frames as RGB bytes, one buffer per frame. */
async function frames(data: Buffer, name: string): Promise<Buffer[]> {
  const file = join(dir, `${name}-out.mp4`);
  await import('node:fs/promises').then((fs) => fs.writeFile(file, data));
  const { stdout } = await run(
    ffmpegPath(testToolConfig),
    ['-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    {
      encoding: 'buffer',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const size = W * H * 3;
  const out: Buffer[] = [];
  for (let o = 0; o + size <= stdout.length; o += size) out.push(stdout.subarray(o, o + size));
  return out;
}

async function enhance(model: string, video: Buffer, name: string, fps?: number): Promise<Buffer[]> {
  const plan = planVideoEnhancement({ model, options: { quality: 'high' } });
  const result = await engine.video({
    model,
    video: { data: video, mimeType: 'video/mp4' },
    scale: 2,
    ...(fps ? { fps, interpolation: plan.interpolation } : {}),
    denoise: plan.denoise,
    sharpen: plan.sharpen,
    enhance: plan.enhance,
  });
  return frames(result.data, `${name}-${model}`);
}

/** Plain Lanczos ×2, nothing else (an unknown model with every level 0). */
const lanczos = (video: Buffer, name: string) =>
  engine
    .video({ model: 'plain', video: { data: video, mimeType: 'video/mp4' }, scale: 2 })
    .then((r) => frames(r.data, `${name}-plain`));

const grey = (f: Buffer, p: number) => (f[p * 3] + f[p * 3 + 1] + f[p * 3 + 2]) / 3;

/** Mean over frames of the grey standard deviation in the top band (flat: the box never goes there). */
function flatNoise(list: Buffer[]): number {
  let total = 0;
  for (const f of list) {
    let s = 0;
    let q = 0;
    let n = 0;
    for (let y = 4; y < 30; y++)
      for (let x = 4; x < W - 4; x++) {
        const v = grey(f, y * W + x);
        s += v;
        q += v * v;
        n++;
      }
    total += Math.sqrt(q / n - (s / n) ** 2);
  }
  return total / list.length;
}

/** Mean absolute Laplacian over the band the box moves through: edge contrast. */
function edgeContrast(list: Buffer[]): number {
  let total = 0;
  for (const f of list) {
    let s = 0;
    for (let y = 40; y < 90; y++)
      for (let x = 1; x < W - 1; x++) {
        const p = y * W + x;
        s += Math.abs(4 * grey(f, p) - grey(f, p - 1) - grey(f, p + 1) - grey(f, p - W) - grey(f, p + W));
      }
    total += s / (50 * (W - 2));
  }
  return total / list.length;
}

const meanOf = (list: Buffer[], fn: (f: Buffer, p: number) => number) =>
  list.reduce((acc, f) => {
    let s = 0;
    for (let p = 0; p < W * H; p++) s += fn(f, p);
    return acc + s / (W * H);
  }, 0) / list.length;

const saturation = (f: Buffer, p: number) =>
  Math.max(f[p * 3], f[p * 3 + 1], f[p * 3 + 2]) - Math.min(f[p * 3], f[p * 3 + 1], f[p * 3 + 2]);

function meanAbsDiff(a: Buffer, b: Buffer): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i] - b[i]);
  return s / a.length;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'video-models-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('video enhancement models, each doing its named job', () => {
  it('Proteus and Artemis lower the noise of flat areas, Artemis the most', { timeout: 180_000 }, async () => {
    const noisy = await clip('noisy', 14);
    const plain = flatNoise(await lanczos(noisy, 'noisy'));
    const proteus = flatNoise(await enhance('proteus', noisy, 'noisy'));
    const artemis = flatNoise(await enhance('artemis', noisy, 'noisy'));
    expect(proteus).toBeLessThan(plain * 0.85);
    expect(artemis).toBeLessThan(proteus * 0.9);
  });

  it('Gaia and Iris raise edge contrast over Proteus; Iris adds colour', { timeout: 180_000 }, async () => {
    const clean = await clip('clean', 0);
    const proteusFrames = await enhance('proteus', clean, 'clean');
    const proteus = edgeContrast(proteusFrames);
    const plain = edgeContrast(await lanczos(clean, 'clean'));
    const gaia = edgeContrast(await enhance('gaia', clean, 'clean'));
    const irisFrames = await enhance('iris', clean, 'clean');
    expect(proteus).toBeGreaterThan(plain * 1.05);
    expect(gaia).toBeGreaterThan(proteus * 1.1);
    expect(edgeContrast(irisFrames)).toBeGreaterThan(proteus * 1.1);
    expect(meanOf(irisFrames, saturation)).toBeGreaterThan(meanOf(proteusFrames, saturation) * 1.05);
  });

  it('Nyx lifts dark, grainy footage and removes more grain than Proteus', { timeout: 180_000 }, async () => {
    const dark = await clip('dark', 24, 40);
    const proteusFrames = await enhance('proteus', dark, 'dark');
    const nyxFrames = await enhance('nyx', dark, 'dark');
    expect(meanOf(nyxFrames, grey)).toBeGreaterThan(meanOf(proteusFrames, grey) + 8);
    // Grain relative to brightness (the lift also stretches what grain is left).
    const rel = (list: Buffer[]) => flatNoise(list) / meanOf(list, grey);
    expect(rel(nyxFrames)).toBeLessThan(rel(proteusFrames) * 0.8);
  });

  it('Chronos and Apollo double the frame rate with new frames, not duplicates', { timeout: 300_000 }, async () => {
    const clean = await clip('motion', 0);
    for (const model of ['chronos', 'apollo']) {
      const out = await enhance(model, clean, 'motion', 24);
      expect(out.length, model).toBeGreaterThanOrEqual(20);
      let fresh = 0;
      for (let i = 1; i < out.length - 1; i++) {
        if (meanAbsDiff(out[i], out[i - 1]) > 0.3 && meanAbsDiff(out[i], out[i + 1]) > 0.3) fresh++;
      }
      // Every frame differs from both neighbours: the box moves in each one.
      expect(fresh, model).toBeGreaterThanOrEqual(out.length - 4);
    }
  });
});
