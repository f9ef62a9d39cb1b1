import { describe, expect, it, vi } from 'vitest';
import { LOCAL_PREVIEW_PRICES, PRICES } from '../../common/api/generation.constants.ts';
import { loadConfig } from '../config.ts';
import { AppError } from '../platform/errors.ts';
import { AUDIO_MODEL_NAMES, IMAGE_MODEL_NAMES, UPSCALE_SERVICE_NAMES, VIDEO_MODEL_NAMES } from './catalog.ts';
import { createEngineRegistry, isPoliced } from './registry.ts';
import { patternPng, testToolConfig } from './test-media.ts';
import { ContentFilteredError, type ImageEngine, type ImageResult } from './types.ts';
import { vendorEnablers } from './vendor/index.ts';

const registry = createEngineRegistry(testToolConfig);

function fakeImageEngine(name: string): ImageEngine & { calls: number } {
  const result = (model: string): ImageResult => ({
    data: Buffer.from('x'),
    mimeType: 'image/png',
    width: 1,
    height: 1,
    metadata: { engine: name, model },
  });
  const engine = {
    name,
    calls: 0,
    textToImage: vi.fn(async (r: { model: string }) => {
      engine.calls++;
      return result(r.model);
    }),
    edit: vi.fn(async (r: { model: string }) => result(r.model)),
    compose: vi.fn(async (r: { model: string }) => result(r.model)),
    inpaint: vi.fn(async (r: { model: string }) => result(r.model)),
  };
  return engine;
}

describe('engine registry', () => {
  it('maps every spec name to a local engine, with capabilities', () => {
    const models = registry.models();
    expect(models.image).toEqual([...IMAGE_MODEL_NAMES]);
    expect(models.video).toEqual([...VIDEO_MODEL_NAMES]);
    expect(models.audio).toEqual([...AUDIO_MODEL_NAMES]);
    expect(models.upscale).toEqual([...UPSCALE_SERVICE_NAMES]);
    expect(models.text).toEqual(['local']);
    for (const name of models.image)
      expect(registry.image(name)).toMatchObject({ model: name, engine: { name: 'local' } });
    for (const name of models.video)
      expect(registry.video(name)).toMatchObject({ model: name, engine: { name: 'local' } });
    for (const name of models.audio) expect(registry.audio(name).engine.name).toBe('local');
    for (const name of models.upscale) expect(registry.upscale(name).engine.name).toBe('local');
    expect(registry.text().model).toBe('local');
    expect(isPoliced(registry.image('nanobana').engine)).toBe(true);
    expect(isPoliced(registry.text().engine)).toBe(true);
  });

  it('reports per-model limits (runway 3, seedream 10, seedreamai 6, others 3) and video capabilities', () => {
    expect(registry.image('runway').capabilities.maxReferenceImages).toBe(3);
    expect(registry.image('seedream4').capabilities.maxReferenceImages).toBe(10);
    expect(registry.image('seedream').capabilities.maxReferenceImages).toBe(10);
    expect(registry.image('seedreamai').capabilities.maxReferenceImages).toBe(6);
    expect(registry.image('nanobana').capabilities.maxReferenceImages).toBe(3);
    expect(registry.image('seedream4').capabilities.maxWidth).toBeGreaterThanOrEqual(3840);
    expect(registry.video('runway-gen4_turbo').capabilities.maxReferenceImages).toBe(3);
    const veo = registry.video('veo-3.0-generate-001').capabilities;
    expect(veo.supportsAudio).toBe(true);
    expect(veo.durations).toEqual(expect.arrayContaining([5, 8, 10]));
    expect(veo.aspectRatios).toEqual(['16:9', '9:16']);
    expect(registry.video('veo-3.1-generate-preview').capabilities.inputs).toContain('first-last-frame');
    expect(registry.video('seedance').capabilities).toMatchObject({
      supportsAudio: false,
      durations: expect.arrayContaining([12]),
    });
    expect(registry.video('runway-gen4_aleph').capabilities.inputs).toEqual(['video']);
    expect(registry.video('runway-act_two').capabilities.inputs).toEqual(['character-performance']);
  });

  it('resolves names case-insensitively and rejects unknown ones with a 400', () => {
    expect(registry.image('SeeDream4').model).toBe('seedream4');
    for (const call of [
      () => registry.image('dall-e-9'),
      () => registry.video('sora'),
      () => registry.audio('mystery'),
      () => registry.upscale('nope'),
      () => registry.text('gpt-x'),
    ]) {
      expect(call).toThrow(
        expect.objectContaining({ status: 400, message: expect.stringMatching(/^Unknown model: /) }),
      );
    }
    expect(() => registry.image('dall-e-9')).toThrow('Unknown model: dall-e-9');
  });

  it('runs the content policy before any engine work, for every kind', async () => {
    const fake = fakeImageEngine('local');
    const reg = createEngineRegistry(testToolConfig, { local: { image: fake } });
    const image = await patternPng(32, 32);
    const bad = 'a gore scene';
    await expect(
      reg.image('nanobana').engine.textToImage({ model: 'nanobana', prompt: bad, width: 64, height: 64 }),
    ).rejects.toBeInstanceOf(ContentFilteredError);
    await expect(reg.image('nanobana').engine.edit({ model: 'nanobana', prompt: bad, image })).rejects.toMatchObject({
      status: 422,
      code: 'content_filtered',
    });
    await expect(
      reg.image('nanobana').engine.inpaint({ model: 'nanobana', prompt: bad, image, mask: image, mode: 'inpaint' }),
    ).rejects.toBeInstanceOf(ContentFilteredError);
    await expect(
      reg.image('nanobana').engine.compose({ model: 'nanobana', prompt: bad, images: [], width: 8, height: 8 }),
    ).rejects.toBeInstanceOf(ContentFilteredError);
    expect(fake.textToImage).not.toHaveBeenCalled();
    expect(fake.edit).not.toHaveBeenCalled();
    const ok = await reg
      .image('nanobana')
      .engine.textToImage({ model: 'nanobana', prompt: 'a calm lake', width: 64, height: 64 });
    expect(ok.metadata.engine).toBe('local');
    expect(fake.calls).toBe(1);

    await expect(
      registry.video('seedance').engine.textToVideo({
        model: 'seedance',
        prompt: 'p0rn',
        durationSeconds: 1,
        width: 64,
        height: 64,
        fps: 12,
        generateAudio: false,
      }),
    ).rejects.toBeInstanceOf(ContentFilteredError);
    await expect(
      registry
        .video('seedance')
        .engine.videoToVideo({ model: 'seedance', prompt: 'deepfake of the mayor', video: image }),
    ).rejects.toBeInstanceOf(ContentFilteredError);
    await expect(
      registry.audio('suno-v3.5').engine.music({ model: 'suno-v3.5', prompt: 'x', genre: 'gore', durationSeconds: 15 }),
    ).rejects.toBeInstanceOf(ContentFilteredError);
    await expect(
      registry.audio('voice').engine.voice({ model: 'voice', text: 'how to make a bomb' }),
    ).rejects.toBeInstanceOf(ContentFilteredError);
    await expect(
      registry.text().engine.complete({ prompt: 'hentai', purpose: 'prompt-enhancement' }),
    ).rejects.toBeInstanceOf(ContentFilteredError);
    await expect(
      registry.text().engine.complete({ prompt: 'plan', purpose: 'campaign-plan', context: { name: 'gore fest' } }),
    ).rejects.toBeInstanceOf(ContentFilteredError);
    const stream = registry.text().engine.stream({ prompt: 'g o r e' });
    await expect(
      (async () => {
        for await (const _ of stream) {
          // consume
        }
      })(),
    ).rejects.toBeInstanceOf(ContentFilteredError);
    expect(() => registry.checkPrompt('decapitated')).toThrow(ContentFilteredError);
    expect(() => registry.checkPrompt('a decorated cake')).not.toThrow();
  });

  it('lets a configured vendor take over a name (still policed), leaving others local', async () => {
    const vendor = fakeImageEngine('gemini');
    const reg = createEngineRegistry(testToolConfig, {
      overrides: { image: { nanobana: vendor, 'imagen-4': vendor } },
    });
    expect(reg.image('nanobana').engine.name).toBe('gemini');
    expect(reg.image('seedream4').engine.name).toBe('local');
    expect(reg.models().image).toContain('imagen-4');
    expect(reg.image('imagen-4').capabilities.maxReferenceImages).toBe(3);
    await expect(
      reg.image('nanobana').engine.textToImage({ model: 'nanobana', prompt: 'gore', width: 8, height: 8 }),
    ).rejects.toBeInstanceOf(ContentFilteredError);
    expect(vendor.calls).toBe(0);
    const r = await reg.image('nanobana').engine.textToImage({ model: 'nanobana', prompt: 'ok', width: 8, height: 8 });
    expect(r.metadata.engine).toBe('gemini');
  });

  it('every local output says engine: local', async () => {
    const image = await registry
      .image('stability')
      .engine.textToImage({ model: 'stability', prompt: 'a lighthouse', width: 96, height: 64 });
    expect(image.metadata).toMatchObject({ engine: 'local', model: 'stability' });
    const text = await registry.text().engine.complete({ prompt: 'a lighthouse', purpose: 'prompt-enhancement' });
    expect(text.metadata.engine).toBe('local');
    const up = await registry
      .upscale('upscale_4k')
      .engine.image({ model: 'upscale_4k', image, targetWidth: 192, targetHeight: 128 });
    expect(up.metadata).toMatchObject({ engine: 'local', model: 'upscale_4k' });
  });
});

describe('which engine serves a name (issue 19)', () => {
  it('lists every name with its engine, the local price list and availability', () => {
    const reg = createEngineRegistry(testToolConfig, {
      overrides: { image: { nanobana: fakeImageEngine('gemini') } },
      enablers: { image: { nanobana: ['GEMINI_API_KEY'], seedream4: ['BYTEPLUS_API_KEY'] } },
    });
    const nano = reg.catalogue().find((m) => m.kind === 'image' && m.model === 'nanobana');
    expect(nano).toMatchObject({ engine: 'gemini', engineKind: 'vendor', vendor: 'Google', available: true });
    const seedream = reg.catalogue().find((m) => m.kind === 'image' && m.model === 'seedream4');
    expect(seedream).toMatchObject({
      name: 'Seedream 4',
      engine: 'local',
      engineKind: 'local',
      vendor: null,
      available: true,
      enabledBy: ['BYTEPLUS_API_KEY'],
      lastCall: null,
    });
    expect(reg.catalogue()).toHaveLength(Object.values(reg.models()).flat().length);
    expect(reg.engineKind('image', 'NanoBana')).toBe('vendor');
    expect(reg.prices('image', 'nanobana')).toEqual(PRICES);
    expect(reg.prices('image', 'seedream4')).toEqual(LOCAL_PREVIEW_PRICES);
    expect(() => reg.prices('image', 'dall-e')).toThrow(/Unknown model: dall-e/);
  });

  it("charges the operator's LOCAL_PREVIEW_PRICES for the local engines", () => {
    const config = loadConfig({ LOCAL_PREVIEW_PRICES: '{"videoPro":7,"image":2}' });
    const reg = createEngineRegistry(config);
    expect(reg.prices('video', 'veo-3.0-generate-001')).toEqual({ ...LOCAL_PREVIEW_PRICES, videoPro: 7, image: 2 });
    expect(() => loadConfig({ LOCAL_PREVIEW_PRICES: '{"videoPro":-1}' })).toThrow(/LOCAL_PREVIEW_PRICES/);
    expect(() => loadConfig({ LOCAL_PREVIEW_PRICES: '{"veo":3}' })).toThrow(/LOCAL_PREVIEW_PRICES/);
    expect(() => loadConfig({ LOCAL_PREVIEW_PRICES: 'cheap' })).toThrow(/LOCAL_PREVIEW_PRICES/);
  });

  it('with LOCAL_ENGINES off, a name no vendor serves answers 503 naming what enables it; vendor names still work', async () => {
    const config = loadConfig({ LOCAL_ENGINES: 'false' });
    const vendor = fakeImageEngine('gemini');
    const reg = createEngineRegistry(config, {
      overrides: { image: { nanobana: vendor } },
      enablers: { video: { 'veo-3.0-generate-001': ['GEMINI_API_KEY'] } },
    });
    let error: unknown;
    try {
      reg.video('veo-3.0-generate-001');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 503, code: 'engine_unavailable' });
    expect((error as Error).message).toBe(
      'Veo 3 (veo-3.0-generate-001) is not available on this server. Set GEMINI_API_KEY or LOCAL_ENGINES=true',
    );
    expect(() => reg.audio('suno-v3.5')).toThrow('Set LOCAL_ENGINES=true');
    expect(reg.image('nanobana').engine.name).toBe('gemini');
    const veo = reg.catalogue().find((m) => m.model === 'veo-3.0-generate-001');
    expect(veo).toMatchObject({ available: false, engine: 'local' });
    expect(veo?.unavailableReason).toContain('Set GEMINI_API_KEY or LOCAL_ENGINES=true');
    expect(reg.catalogue().find((m) => m.model === 'nanobana')?.available).toBe(true);
    expect(reg.localEnginesOn()).toBe(false);
  });

  it("records how each engine's last call ended, not counting policy refusals or aborted calls", async () => {
    const vendor = fakeImageEngine('gemini');
    const reg = createEngineRegistry(testToolConfig, { overrides: { image: { nanobana: vendor } } });
    const lastCall = () => reg.catalogue().find((m) => m.model === 'nanobana')?.lastCall;
    const engine = reg.image('nanobana').engine;
    await expect(engine.textToImage({ model: 'nanobana', prompt: 'gore', width: 8, height: 8 })).rejects.toThrow();
    expect(lastCall()).toBeNull();
    await engine.textToImage({ model: 'nanobana', prompt: 'a lake', width: 8, height: 8 });
    expect(lastCall()).toMatchObject({ outcome: 'ok' });
    vi.mocked(vendor.textToImage).mockRejectedValueOnce(new Error('Gemini answered 500'));
    await expect(engine.textToImage({ model: 'nanobana', prompt: 'a lake', width: 8, height: 8 })).rejects.toThrow();
    expect(lastCall()).toMatchObject({ outcome: 'failed', message: 'Gemini answered 500' });
    expect(Date.parse(lastCall()?.at ?? '')).toBeGreaterThan(Date.now() - 60_000);
    // Every name the same engine serves shares its last call; other engines are untouched.
    expect(reg.catalogue().find((m) => m.model === 'seedream4')?.lastCall).toBeNull();
    const aborted = new AbortController();
    aborted.abort();
    vi.mocked(vendor.textToImage).mockRejectedValueOnce(new Error('aborted'));
    await expect(
      engine.textToImage({ model: 'nanobana', prompt: 'a lake', width: 8, height: 8 }, { signal: aborted.signal }),
    ).rejects.toThrow();
    expect(lastCall()).toMatchObject({ outcome: 'failed', message: 'Gemini answered 500' });
  });

  it('knows which variable enables each vendor name, from the adapters themselves', () => {
    const enablers = vendorEnablers(testToolConfig);
    expect(enablers.video?.['veo-3.0-generate-001']).toEqual(['GEMINI_API_KEY']);
    expect(enablers.image?.seedream4).toEqual(['BYTEPLUS_API_KEY']);
    expect(enablers.video?.['runway-act_two']).toEqual(['RUNWAY_API_KEY']);
    expect(enablers.upscale?.topaz).toEqual(['TOPAZ_API_KEY']);
    expect(enablers.audio?.['suno-v3.5']).toBeUndefined();
  });
});
