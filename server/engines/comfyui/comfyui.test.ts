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

describe('prompts ComfyUI would refuse', () => {
  it('the fake refuses an unknown node class, a dangling link and a graph without outputs (400)', async () => {
    const post = (body: unknown) =>
      fetch(`${fake.url}/prompt`, { method: 'POST', body: JSON.stringify(body) }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { error: { type: string } },
      }));
    const save = { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: 'x' } };
    const decode = { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['3', 2] } };
    const loader = { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'sd.safetensors' } };
    expect((await post({ prompt: { '1': save, '2': decode, '3': loader } })).status).toBe(200);
    expect(
      await post({ prompt: { '1': save, '2': { ...decode, class_type: 'MagicNode' }, '3': loader } }),
    ).toMatchObject({
      status: 400,
      body: { error: { type: 'invalid_prompt' } },
    });
    expect(await post({ prompt: { '1': save, '2': decode } })).toMatchObject({
      status: 400,
      body: { error: { type: 'prompt_outputs_failed_validation' } },
    });
    expect(await post({ prompt: { '2': decode, '3': loader } })).toMatchObject({
      status: 400,
      body: { error: { type: 'prompt_no_outputs' } },
    });
    expect(await post({ prompt: {}, clientId: 'x' })).toMatchObject({
      status: 400,
      body: { error: { type: 'invalid_prompt' } },
    });
  });

  it('surfaces a workflow with a value left unfilled as vendor_rejected with ComfyUI’s validation message', async () => {
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'comfy-wf-'));
    try {
      // A user export with a placeholder the studio does not fill ({{steps}}).
      await writeFile(
        join(dir, 'text-to-image.json'),
        JSON.stringify({
          '1': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'sd.safetensors' } },
          '2': { class_type: 'EmptyLatentImage', inputs: { width: '{{width}}', height: '{{height}}', batch_size: 1 } },
          '3': {
            class_type: 'KSampler',
            inputs: { model: ['1', 0], seed: '{{seed}}', steps: '{{steps}}', latent_image: ['2', 0] },
          },
          '4': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['1', 2] } },
          '5': { class_type: 'SaveImage', inputs: { images: ['4', 0], filename_prefix: 'studio' } },
        }),
      );
      const custom = new ComfyUiImageEngine({ baseUrl: fake.url, pollIntervalMs: 5, workflowDir: dir });
      const error = await custom
        .textToImage({ model: 'stability', prompt: 'x', width: 64, height: 64 })
        .catch((e) => e);
      expect(error).toBeInstanceOf(VendorError);
      expect(error).toMatchObject({ status: 400, code: 'vendor_rejected' });
      expect(error.message).toContain('Prompt outputs failed validation');
      expect(error.message).toContain('steps, {{steps}}');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
