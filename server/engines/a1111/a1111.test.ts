import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { createEngineRegistry } from '../registry.ts';
import { VendorError } from '../vendor/http.ts';
import { vendorOverrides } from '../vendor/index.ts';
import { A1111ImageEngine } from './a1111.ts';
import { type FakeA1111, startFakeA1111 } from './fake-a1111.ts';

let fake: FakeA1111;
let url: string;
let seen: FakeA1111['seen'];
let failures: number[];
let png: Buffer;

beforeAll(async () => {
  png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#884422' } })
    .png()
    .toBuffer();
  fake = await startFakeA1111(png);
  ({ url, seen, failures } = fake);
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  seen.length = 0;
  failures.length = 0;
});

describe('A1111ImageEngine', () => {
  it('posts txt2img and decodes the base64 image with the seed from info', async () => {
    const engine = new A1111ImageEngine(`${url}/`);
    const result = await engine.textToImage({
      model: 'stability',
      prompt: 'a fox',
      negativePrompt: 'blur',
      width: 512,
      height: 384,
    });
    expect(seen[0].path).toBe('/sdapi/v1/txt2img');
    expect(seen[0].body).toMatchObject({ prompt: 'a fox', negative_prompt: 'blur', width: 512, height: 384 });
    expect(result).toMatchObject({ mimeType: 'image/png', width: 40, height: 30, seed: 1234 });
    expect(result.data.equals(png)).toBe(true);
    expect(result.metadata).toMatchObject({ engine: 'a1111', model: 'stability', endpoint: 'txt2img' });
  });

  it('sends img2img with init_images (and the mask for inpainting)', async () => {
    const engine = new A1111ImageEngine(url);
    const image = { data: png, mimeType: 'image/png' };
    const result = await engine.inpaint({
      model: 'stability',
      prompt: 'a hat',
      image,
      mask: image,
      mode: 'replace',
      outputFormat: 'jpeg',
    });
    expect(seen[0].path).toBe('/sdapi/v1/img2img');
    expect(String((seen[0].body.init_images as string[])[0])).toMatch(/^data:image\/png;base64,/);
    expect(seen[0].body.mask).toBeTruthy();
    expect(result.mimeType).toBe('image/jpeg');
  });

  it('compose sends the negative prompt as negative_prompt', async () => {
    const engine = new A1111ImageEngine(url);
    const image = { data: png, mimeType: 'image/png' };
    await engine.compose({
      model: 'stability',
      prompt: 'a poster',
      images: [{ image, weight: 1 }],
      width: 64,
      height: 64,
      negativePrompt: 'red, text',
    });
    expect(seen[0].body).toMatchObject({ prompt: 'a poster', negative_prompt: 'red, text' });
  });

  it('retries 5xx, and reports a refused request with the server detail', async () => {
    const engine = new A1111ImageEngine(url);
    failures.push(500);
    await expect(engine.textToImage({ model: 'stability', prompt: 'x', width: 64, height: 64 })).resolves.toBeTruthy();
    expect(seen).toHaveLength(2);
    failures.push(422);
    const error = await engine.textToImage({ model: 'stability', prompt: 'x', width: 64, height: 64 }).catch((e) => e);
    expect(error).toBeInstanceOf(VendorError);
    expect(error.message).toContain('Invalid sampler');
  });

  it('the fake answers FastAPI’s 422 for a wrong type or an unknown field', async () => {
    const post = (body: unknown) =>
      fetch(`${url}/sdapi/v1/txt2img`, { method: 'POST', body: JSON.stringify(body) }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { detail: Array<{ loc: string[] }> },
      }));
    const ok = { prompt: 'x', seed: -1, steps: 20, cfg_scale: 7, sampler_name: 'Euler a', width: 512, height: 512 };
    expect((await post(ok)).status).toBe(200);
    expect(await post({ ...ok, steps: '20' })).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ['body', 'steps'] }] },
    });
    expect(await post({ ...ok, cfg: 7 })).toMatchObject({ status: 422, body: { detail: [{ loc: ['body', 'cfg'] }] } });
  });

  it('serves the A1111_MODELS names once A1111_URL is set', () => {
    const config = loadConfig({ A1111_URL: url, A1111_MODELS: 'stability' });
    const registry = createEngineRegistry(config, { overrides: vendorOverrides(config) });
    expect(registry.image('stability').engine.name).toBe('a1111');
  });
});
