import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeMedia } from '../../platform/media/probe.ts';
import { videoEnhanceSettings } from '../catalog.ts';
import { patternPng, testToolConfig } from '../test-media.ts';
import { LocalImageEngine } from './image.ts';
import { LocalUpscaleEngine } from './upscale.ts';
import { LocalVideoEngine } from './video.ts';

const engine = new LocalUpscaleEngine(testToolConfig);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'engine-upscale-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('local upscale engine', () => {
  it('upscales an image to 3840 wide (4K) with Lanczos and sharpening', async () => {
    const image = await patternPng(960, 540);
    const r = await engine.image({ model: 'detailed', image, targetWidth: 3840, targetHeight: 2160 });
    const meta = await sharp(r.data).metadata();
    expect([meta.width, meta.height]).toEqual([3840, 2160]);
    expect(r.metadata).toMatchObject({ engine: 'local', model: 'detailed', enhancementLevel: 0.8, fit: 'inside' });
    expect(r.metadata.touches).toEqual(['lanczos3-inside', 'sharpen-0.80', 'local-contrast']);
  });

  it('brings the long side to the target (keeping the shape) or covers, and applies service touches', async () => {
    const square = await patternPng(200, 200);
    const inside = await engine.image({ model: 'image-upscaler', image: square, targetWidth: 800, targetHeight: 450 });
    expect([inside.width, inside.height]).toEqual([800, 800]);
    const fourByThree = await engine.image({
      model: 'image-upscaler',
      image: await patternPng(400, 300),
      targetWidth: 800,
      targetHeight: 450,
    });
    expect([fourByThree.width, fourByThree.height]).toEqual([800, 600]);
    const cover = await engine.image({
      model: 'image-upscaler',
      image: square,
      targetWidth: 800,
      targetHeight: 450,
      fit: 'cover',
    });
    expect([cover.width, cover.height]).toEqual([800, 450]);
    const portrait = await engine.image({
      model: 'portrait-upscaler',
      image: await patternPng(90, 160),
      targetWidth: 640,
      targetHeight: 360,
    });
    expect([portrait.width, portrait.height]).toEqual([360, 640]);
    expect(portrait.metadata.touches).toContain('portrait-denoise');
    const skin = await engine.image({ model: 'realistic-skin', image: square, targetWidth: 400, targetHeight: 400 });
    expect(skin.metadata.touches).toContain('edge-preserving-smoothing');
    const fast = await engine.image({
      model: 'portrait-upscaler',
      mode: 'fast',
      image: square,
      targetWidth: 400,
      targetHeight: 400,
    });
    expect(fast.metadata.touches).not.toContain('portrait-denoise');
    // more enhancement → more high-frequency energy
    const soft = await engine.image({
      model: 'image-upscaler',
      image: square,
      targetWidth: 400,
      targetHeight: 400,
      enhancementLevel: 0,
    });
    const sharp1 = await engine.image({
      model: 'image-upscaler',
      image: square,
      targetWidth: 400,
      targetHeight: 400,
      enhancementLevel: 1,
    });
    const edge = async (b: Buffer) => {
      // mean absolute Laplacian of the grey image
      const { data, info } = await sharp(b).greyscale().raw().toBuffer({ resolveWithObject: true });
      let sum = 0;
      for (let y = 1; y < info.height - 1; y++) {
        for (let x = 1; x < info.width - 1; x++) {
          const i = y * info.width + x;
          sum += Math.abs(4 * data[i] - data[i - 1] - data[i + 1] - data[i - info.width] - data[i + info.width]);
        }
      }
      return sum / (info.width * info.height);
    };
    expect(await edge(sharp1.data)).toBeGreaterThan(await edge(soft.data));
  });

  it('upscales video with lanczos, denoise/sharpen from the quality preset and a raised frame rate', async () => {
    const video = await new LocalVideoEngine(testToolConfig, new LocalImageEngine()).imageToVideo({
      model: 'seedance',
      prompt: 'zoom in',
      image: await patternPng(320, 180),
      durationSeconds: 1,
      width: 160,
      height: 90,
      fps: 12,
      generateAudio: false,
    });
    const r = await engine.video({ model: 'proteus', video, scale: 2, fps: 24, ...videoEnhanceSettings('high') });
    const file = join(dir, 'up.mp4');
    await writeFile(file, r.data);
    const p = await probeMedia(testToolConfig, file);
    expect([p.video?.width, p.video?.height]).toEqual([320, 180]);
    expect(p.video?.fps).toBe(24);
    expect(Math.abs((p.durationMs ?? 0) / 1000 - 1)).toBeLessThanOrEqual(1 / 12 + 0.03);
    expect(r.metadata).toMatchObject({
      engine: 'local',
      denoise: 0.8,
      sharpen: 0.7,
      enhance: 0.9,
      steps: ['hqdn3d', 'lanczos', 'edge-sharpen', 'eq', 'framerate'],
    });
    expect(videoEnhanceSettings('medium')).toEqual({ denoise: 0.5, sharpen: 0.4, enhance: 0.6 });
  });
});
