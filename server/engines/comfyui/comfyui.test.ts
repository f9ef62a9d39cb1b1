import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { createEngineRegistry } from '../registry.ts';
import { VendorError } from '../vendor/http.ts';
import { vendorOverrides } from '../vendor/index.ts';
import { ComfyUiImageEngine, fillWorkflow } from './comfyui.ts';
import { type FakeComfyUi, startFakeComfyUi } from './fake-comfyui.ts';

let fake: FakeComfyUi;
let engine: ComfyUiImageEngine;

beforeAll(async () => {
  fake = await startFakeComfyUi();
  engine = new ComfyUiImageEngine({ baseUrl: fake.url, pollIntervalMs: 5 });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.prompts.length = 0;
  fake.views.length = 0;
  fake.executionError = undefined;
  fake.pendingPolls = 2;
});

describe('fillWorkflow', () => {
  it('keeps a lone placeholder typed and fills placeholders inside strings', () => {
    expect(
      fillWorkflow(
        { a: '{{seed}}', b: 'x {{prompt}} y', c: ['{{w}}', 1], d: '{{unknown}}' },
        { seed: 7, prompt: 'cat', w: 64 },
      ),
    ).toEqual({
      a: 7,
      b: 'x cat y',
      c: [64, 1],
      d: '{{unknown}}',
    });
  });
});

describe('ComfyUiImageEngine', () => {
  it('queues the text-to-image workflow, polls history and downloads the output', async () => {
    const progress: number[] = [];
    const result = await engine.textToImage(
      { model: 'stability', prompt: 'a lighthouse', negativePrompt: 'blur', width: 1024, height: 768, seed: 42 },
      { onProgress: (f) => progress.push(f) },
    );
    expect(result.mimeType).toBe('image/png');
    expect([result.width, result.height]).toEqual([64, 48]);
    expect(result.seed).toBe(42);
    expect(result.metadata).toMatchObject({ engine: 'comfyui', model: 'stability', workflow: 'text-to-image' });
    const graph = fake.prompts[0] as Record<string, { inputs: Record<string, unknown> }>;
    expect(graph['3'].inputs.seed).toBe(42);
    expect(graph['5'].inputs).toMatchObject({ width: 1024, height: 768 });
    expect(graph['6'].inputs.text).toBe('a lighthouse');
    expect(graph['7'].inputs.text).toBe('blur');
    expect(fake.views[0]).toContain('filename=prompt-');
    expect(progress.at(-1)).toBe(1);
  });

  it('converts to the requested format and uploads the source for edits', async () => {
    const source = {
      data: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
        .png()
        .toBuffer(),
      mimeType: 'image/png',
    };
    const uploadsBefore = fake.uploads;
    const result = await engine.edit({
      model: 'stability',
      prompt: 'make it night',
      image: source,
      outputFormat: 'webp',
    });
    expect(result.mimeType).toBe('image/webp');
    expect((await sharp(result.data).metadata()).format).toBe('webp');
    expect(fake.uploads).toBe(uploadsBefore + 1);
    const graph = fake.prompts[0] as Record<string, { inputs: Record<string, unknown> }>;
    expect(graph['10'].inputs.image).toBe(`upload-${uploadsBefore + 1}.png`);
  });

  it('compose sends the negative prompt into the image-to-image workflow', async () => {
    const image = {
      data: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
        .png()
        .toBuffer(),
      mimeType: 'image/png',
    };
    await engine.compose({
      model: 'stability',
      prompt: 'a poster',
      images: [{ image, weight: 1 }],
      width: 64,
      height: 64,
      negativePrompt: 'text, watermark',
    });
    const graph = fake.prompts[0] as Record<string, { inputs: Record<string, unknown> }>;
    expect(graph['7'].inputs.text).toBe('text, watermark');
  });

  it('retries a busy server (503) before queueing', async () => {
    fake.promptFailures.push(503, 429);
    const result = await engine.textToImage({ model: 'stability', prompt: 'x', width: 64, height: 64 });
    expect(result.data.length).toBeGreaterThan(0);
    expect(fake.prompts).toHaveLength(1);
  });

  it('fails with the execution error of a broken workflow', async () => {
    fake.executionError = 'CUDA out of memory';
    await expect(engine.textToImage({ model: 'stability', prompt: 'x', width: 64, height: 64 })).rejects.toThrow(
      /CUDA out of memory/,
    );
  });

  it('names the missing workflow file', async () => {
    const other = new ComfyUiImageEngine({ baseUrl: fake.url, workflowDir: '/nonexistent' });
    const error = await other.textToImage({ model: 'stability', prompt: 'x', width: 64, height: 64 }).catch((e) => e);
    expect(error).toBeInstanceOf(VendorError);
    expect(error.message).toContain('text-to-image.json');
  });

  it('serves the COMFYUI_MODELS names once COMFYUI_URL is set', () => {
    const config = loadConfig({ COMFYUI_URL: fake.url, COMFYUI_MODELS: 'stability, seedream' });
    const registry = createEngineRegistry(config, { overrides: vendorOverrides(config) });
    expect(registry.image('stability').engine.name).toBe('comfyui');
    expect(registry.image('seedream').engine.name).toBe('comfyui');
    expect(registry.image('runway').engine.name).not.toBe('comfyui');
  });
});
