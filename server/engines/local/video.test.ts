import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grabFrame, type MediaProbe, probeMedia } from '../../platform/media/probe.ts';
import { colourDistance, meanRgb, patternPng, solidPng, testToolConfig } from '../test-media.ts';
import type { VideoResult } from '../types.ts';
import { parseProgressFrame, parseProgressTime } from './ffmpeg.ts';
import { LocalImageEngine } from './image.ts';
import { cameraMotion, LocalVideoEngine } from './video.ts';

const engine = new LocalVideoEngine(testToolConfig, new LocalImageEngine());
let dir: string;
let n = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'engine-video-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function save(result: VideoResult): Promise<{ file: string; probe: MediaProbe }> {
  const file = join(dir, `out-${n++}.mp4`);
  await writeFile(file, result.data);
  return { file, probe: await probeMedia(testToolConfig, file) };
}

function expectShape(probe: MediaProbe, w: number, h: number, seconds: number, fps: number) {
  expect(probe.video?.codec).toBe('h264');
  expect(probe.video?.width).toBe(w);
  expect(probe.video?.height).toBe(h);
  expect(probe.video?.fps).toBeCloseTo(fps, 1);
  // within one frame (the container may add an audio priming tail)
  expect(Math.abs((probe.durationMs ?? 0) / 1000 - seconds)).toBeLessThanOrEqual(1 / fps + 0.03);
}

describe('local video engine', () => {
  it('image to video: requested size, duration, fps; no audio unless asked; motion visible', async () => {
    const image = await patternPng(640, 360);
    const progress: number[] = [];
    const r = await engine.imageToVideo(
      {
        model: 'seedance',
        prompt: 'slow zoom in',
        image,
        durationSeconds: 2,
        width: 320,
        height: 180,
        fps: 24,
        generateAudio: false,
      },
      { onProgress: (f) => progress.push(f) },
    );
    const { file, probe } = await save(r);
    expectShape(probe, 320, 180, 2, 24);
    expect(probe.audio).toBeNull();
    expect(r.hasAudio).toBe(false);
    expect(r.mimeType).toBe('video/mp4');
    expect(r.metadata).toMatchObject({
      engine: 'local',
      model: 'seedance',
      motion: 'zoom-in',
      operation: 'image-to-video',
    });
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(1);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    // +faststart: the moov atom precedes mdat
    expect(r.data.indexOf('moov')).toBeLessThan(r.data.indexOf('mdat'));
    const early = await grabFrame(testToolConfig, file, 0.6);
    const late = await grabFrame(testToolConfig, file, 1.4);
    const [a, b] = await Promise.all([sharp(early).raw().toBuffer(), sharp(late).raw().toBuffer()]);
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff += Math.abs(a[i] - b[i]);
    expect(diff / a.length).toBeGreaterThan(2);
  });

  it('text to video with audio (parallax default): AAC track of the same duration', async () => {
    const r = await engine.textToVideo({
      model: 'veo-3.0-generate-001',
      prompt: 'calm sunset over the ocean',
      durationSeconds: 1.5,
      width: 256,
      height: 144,
      fps: 12,
      generateAudio: true,
      seed: 3,
    });
    const { file, probe } = await save(r);
    expectShape(probe, 256, 144, 1.5, 12);
    expect(probe.audio?.codec).toBe('aac');
    // The parallax layer is composited cleanly: neighbouring pixels in the foreground stay close
    // (a channel-layout mistake shows up as one-pixel colour stripes).
    const frame = await sharp(await grabFrame(testToolConfig, file, 0.75))
      .raw()
      .toBuffer({ resolveWithObject: true });
    let jump = 0;
    let count = 0;
    const { width, height, channels } = frame.info;
    for (let y = Math.floor(height * 0.7); y < height; y++) {
      for (let x = 0; x < width - 1; x++) {
        const i = (y * width + x) * channels;
        jump +=
          Math.abs(frame.data[i] - frame.data[i + channels]) +
          Math.abs(frame.data[i + 2] - frame.data[i + 2 + channels]);
        count += 2;
      }
    }
    expect(jump / count).toBeLessThan(8);
    expect(r.hasAudio).toBe(true);
    expect(r.metadata).toMatchObject({ engine: 'local', motion: 'parallax', operation: 'text-to-video' });
    expect(String(r.metadata.audio)).toContain('ambient');
  });

  it('first + last frame crossfades from one still to the other', async () => {
    const red = await solidPng(160, 90, [220, 30, 30]);
    const blue = await solidPng(160, 90, [30, 30, 220]);
    const r = await engine.textToVideo({
      model: 'veo-3.1-generate-preview',
      prompt: 'transition',
      durationSeconds: 2,
      width: 160,
      height: 90,
      fps: 12,
      generateAudio: false,
      firstFrame: red,
      lastFrame: blue,
    });
    const { file, probe } = await save(r);
    expectShape(probe, 160, 90, 2, 12);
    const first = await meanRgb(await grabFrame(testToolConfig, file, 0.05));
    const middle = await meanRgb(await grabFrame(testToolConfig, file, 1));
    const last = await meanRgb(await grabFrame(testToolConfig, file, 1.9));
    expect(colourDistance(first, [220, 30, 30])).toBeLessThan(40);
    expect(colourDistance(last, [30, 30, 220])).toBeLessThan(40);
    expect(middle[0]).toBeLessThan(first[0]);
    expect(middle[2]).toBeGreaterThan(first[2]);
    expect(r.metadata.operation).toBe('first-last-frame');
  });

  it('video to video grades by prompt and keeps length; character performance follows the reference length', async () => {
    const source = await engine.imageToVideo({
      model: 'seedance',
      prompt: 'pan right',
      image: await patternPng(320, 180),
      durationSeconds: 1.5,
      width: 192,
      height: 108,
      fps: 12,
      generateAudio: true,
    });
    const graded = await engine.videoToVideo({
      model: 'runway-gen4_aleph',
      prompt: 'black and white film noir',
      video: source,
    });
    const g = await save(graded);
    expectShape(g.probe, 192, 108, 1.5, 12);
    expect(g.probe.audio).not.toBeNull();
    const frame = await sharp(await grabFrame(testToolConfig, g.file, 0.7))
      .raw()
      .toBuffer();
    let chroma = 0;
    for (let i = 0; i < frame.length; i += 3) chroma += Math.abs(frame[i] - frame[i + 2]);
    expect(chroma / (frame.length / 3)).toBeLessThan(4);
    expect(graded.metadata).toMatchObject({ engine: 'local', operation: 'video-to-video' });
    expect(graded.metadata.operations).toContain('black-and-white');

    const perf = await engine.characterPerformance({
      model: 'runway-act_two',
      character: await solidPng(200, 200, [240, 200, 160]),
      reference: source,
      width: 160,
      height: 160,
    });
    const p = await save(perf);
    expect(p.probe.video?.width).toBe(160);
    expect(Math.abs((p.probe.durationMs ?? 0) / 1000 - 1.5)).toBeLessThanOrEqual(1 / 12 + 0.05);
    expect(perf.metadata).toMatchObject({ engine: 'local', operation: 'character-performance' });
  });

  it('stops ffmpeg when the signal aborts', async () => {
    const controller = new AbortController();
    const run = engine.imageToVideo(
      {
        model: 'seedance',
        prompt: 'zoom',
        image: await patternPng(320, 180),
        durationSeconds: 20,
        width: 640,
        height: 360,
        fps: 30,
        generateAudio: false,
      },
      { signal: controller.signal, onProgress: () => controller.abort(new Error('cancelled by test')) },
    );
    await expect(run).rejects.toThrow('cancelled by test');
  });

  it('rejects impossible requests', async () => {
    const image = await patternPng(64, 64);
    await expect(
      engine.imageToVideo({
        model: 'seedance',
        prompt: '',
        image,
        durationSeconds: 0,
        width: 64,
        height: 64,
        fps: 12,
        generateAudio: false,
      }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('reads camera moves and ffmpeg progress', () => {
    expect(cameraMotion('a slow pull back reveal')).toBe('zoom-out');
    expect(cameraMotion('pan left across the city')).toBe('pan-left');
    expect(cameraMotion('a quiet lake')).toBe('parallax');
    expect(parseProgressTime('frame=10\nout_time_us=1500000\nprogress=continue')).toBe(1.5);
    expect(parseProgressTime('out_time=00:01:02.500000\nprogress=end')).toBe(62.5);
    expect(parseProgressFrame('frame=10\nfps=24.0\nout_time_us=1500000\nprogress=continue')).toBe(10);
    expect(parseProgressFrame('fps=24.0\nout_time_us=1500000\nprogress=continue')).toBeUndefined();
  });
});
