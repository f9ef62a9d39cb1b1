import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { makeTestClip } from '../../test/fixtures.ts';
import { createEngineRegistry } from '../registry.ts';
import { colourDistance, meanRgb, patternPng, rectMask, solidPng, testToolConfig } from '../test-media.ts';
import { ContentFilteredError, type ImageEngine, type TextEngine, type VideoEngine } from '../types.ts';
import { VendorBalanceError, VendorError } from '../vendor/http.ts';
import { vendorOverrides } from '../vendor/index.ts';
import { FakeGemini } from './fake-gemini.ts';
import { GEMINI_IMAGE_NAMES, GEMINI_TEXT_NAME, geminiOverrides } from './index.ts';
import { toGeminiSchema } from './text.ts';
import { VEO_MODEL_IDS } from './video.ts';

const KEY = 'test-gemini-key';
let fake: FakeGemini;
let video: Buffer;
let workDir: string;
let image: ImageEngine;
let veo: VideoEngine;
let text: TextEngine;

const GREEN: [number, number, number] = [40, 160, 90];

function lastRequest(route: string) {
  return [...fake.requests].reverse().find((r) => r.path.includes(route))!;
}

function parts(body: unknown) {
  return (
    body as {
      contents: Array<{ parts: Array<Record<string, { mimeType: string; data: string }> & { text?: string }> }>;
    }
  ).contents[0].parts;
}

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-gemini-'));
  video = await makeTestClip(testToolConfig, workDir, { seconds: 2, width: 320, height: 180, fps: 12 });
  fake = await new FakeGemini({ apiKey: KEY, video }).start();
  const config = loadConfig({
    GEMINI_API_KEY: KEY,
    GEMINI_API_BASE: fake.base,
    GEMINI_POLL_INTERVAL_MS: '20',
    FFMPEG_PATH: process.env.FFMPEG_PATH,
    FFPROBE_PATH: process.env.FFPROBE_PATH,
  });
  const o = geminiOverrides(config);
  image = o.image!.nanobana;
  veo = o.video!['veo-3.0-generate-001'];
  text = o.text![GEMINI_TEXT_NAME];
});
afterAll(async () => {
  await fake?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});
beforeEach(() => {
  for (const list of Object.values(fake.scripted)) list.length = 0;
  fake.pendingPolls = 2;
  fake.operationOutcome = { kind: 'video' };
});

describe('configuration', () => {
  it('serves nothing without GEMINI_API_KEY', () => {
    expect(geminiOverrides(loadConfig({}))).toEqual({});
  });

  it('takes over the Gemini image names, the Veo names and the text names in the registry', () => {
    const config = loadConfig({ GEMINI_API_KEY: KEY, GEMINI_API_BASE: fake.base });
    const registry = createEngineRegistry(config, { overrides: vendorOverrides(config) });
    for (const name of GEMINI_IMAGE_NAMES) expect(registry.image(name).engine.name).toBe('gemini');
    for (const name of Object.keys(VEO_MODEL_IDS)) expect(registry.video(name).engine.name).toBe('gemini');
    expect(registry.image('seedream4').engine.name).not.toBe('gemini');
    expect(registry.text('gemini').engine.name).toBe('gemini');
    expect(registry.text().engine.name).toBe('gemini');
  });
});

describe('Nano Banana images', () => {
  it('textToImage sends the prompt, aspect ratio, seed and references inline with the key, and returns the picture at the asked size', async () => {
    const ref = await solidPng(64, 64, [200, 20, 20]);
    const onProgress: number[] = [];
    const result = await image.textToImage(
      { model: 'nanobana', prompt: 'a lighthouse at dusk', width: 512, height: 288, seed: 9, referenceImages: [ref] },
      { onProgress: (f) => onProgress.push(f) },
    );
    const req = lastRequest(':generateContent');
    expect(req.path).toBe('/v1beta/models/gemini-2.5-flash-image:generateContent');
    expect(req.headers['x-goog-api-key']).toBe(KEY);
    expect(req.body).toMatchObject({
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'], imageConfig: { aspectRatio: '16:9' }, seed: 9 },
    });
    const sent = parts(req.body);
    expect(sent[0].text).toContain('a lighthouse at dusk');
    expect(Buffer.from(sent[1].inlineData.data, 'base64').equals(ref.data)).toBe(true);
    expect(result).toMatchObject({ mimeType: 'image/png', width: 512, height: 288, seed: 9 });
    expect(result.metadata).toMatchObject({
      engine: 'gemini',
      model: 'nanobana',
      vendorWidth: 1024,
      vendorHeight: 576,
    });
    const meta = await sharp(result.data).metadata();
    expect([meta.width, meta.height]).toEqual([512, 288]);
    expect(colourDistance(await meanRgb(result.data), GREEN)).toBeLessThan(6);
    expect(onProgress.at(-1)).toBeGreaterThan(0.5);
  });

  it('edit and compose send every picture as inline data', async () => {
    const source = await patternPng(300, 200);
    const edited = await image.edit({ model: 'gemini-2.5-flash-image', prompt: 'make it night', image: source });
    expect([edited.width, edited.height]).toEqual([300, 200]);
    expect(parts(lastRequest(':generateContent').body)).toHaveLength(2);

    const a = await solidPng(64, 64, [255, 0, 0]);
    const b = await solidPng(64, 64, [0, 0, 255]);
    const composed = await image.compose({
      model: 'nanobana',
      prompt: 'a poster',
      width: 400,
      height: 400,
      images: [
        { image: a, weight: 0.75, role: 'subject' },
        { image: b, weight: 0.25 },
      ],
      compositionMode: 'high-fidelity-preservation',
      preserveDetails: false,
      negativePrompt: 'text, watermark',
    });
    const sent = parts(lastRequest(':generateContent').body);
    expect(sent.filter((p) => p.inlineData)).toHaveLength(2);
    expect(sent[0].text).toContain('Image 1 (subject): 75% influence');
    expect(sent[0].text).toContain('Keep the subject image faithful');
    expect(sent[0].text).toContain('A smooth, simplified rendering is fine.');
    expect(sent[0].text).toContain('Avoid: text, watermark.');
    expect(composed.metadata).toMatchObject({ engine: 'gemini', operation: 'compose' });
    expect([composed.width, composed.height]).toEqual([400, 400]);
  });

  it('inpaint sends image and mask with instructions and keeps every pixel outside the mask', async () => {
    const source = await patternPng(200, 120);
    const mask = await rectMask(200, 120, { left: 50, top: 30, width: 60, height: 40 });
    const result = await image.inpaint({
      model: 'nanobana',
      prompt: 'a red balloon',
      image: source,
      mask,
      mode: 'inpaint',
    });
    const sent = parts(lastRequest(':generateContent').body);
    expect(sent[0].text).toMatch(/mask/i);
    expect(sent[0].text).toContain('a red balloon');
    expect(sent.filter((p) => p.inlineData)).toHaveLength(2);
    const before = await sharp(source.data).removeAlpha().raw().toBuffer();
    const after = await sharp(result.data).removeAlpha().raw().toBuffer();
    const at = (x: number, y: number, buf: Buffer) => [...buf.subarray((y * 200 + x) * 3, (y * 200 + x) * 3 + 3)];
    expect(at(5, 5, after)).toEqual(at(5, 5, before));
    expect(at(190, 110, after)).toEqual(at(190, 110, before));
    expect(colourDistance(at(80, 50, after), GREEN)).toBeLessThan(4);
  });

  it('a blocked prompt, a safety finish and a silent refusal are content filtered', async () => {
    const req = { model: 'nanobana', prompt: 'something', width: 256, height: 256 };
    fake.scripted.generate.push({ status: 200, body: { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } } });
    await expect(image.textToImage(req)).rejects.toThrow(/PROHIBITED_CONTENT/);
    fake.scripted.generate.push({
      status: 200,
      body: { candidates: [{ content: { parts: [] }, finishReason: 'IMAGE_SAFETY' }] },
    });
    const err = await image.textToImage(req).catch((e) => e);
    expect(err).toBeInstanceOf(ContentFilteredError);
    expect(err.status).toBe(422);
    fake.scripted.generate.push({
      status: 200,
      body: { candidates: [{ content: { parts: [{ text: "I can't make that image." }] }, finishReason: 'STOP' }] },
    });
    await expect(image.textToImage(req)).rejects.toBeInstanceOf(ContentFilteredError);
    fake.scripted.generate.push({ status: 200, body: { candidates: [{ finishReason: 'NO_IMAGE' }] } });
    const none = await image.textToImage(req).catch((e) => e);
    expect(none).toBeInstanceOf(VendorError);
    expect(none.message).toMatch(/NO_IMAGE/);
  });

  it('retries a 429 RESOURCE_EXHAUSTED and then succeeds', async () => {
    fake.scripted.generate.push({
      status: 429,
      headers: { 'retry-after': '0' },
      body: { error: { code: 429, message: 'Resource has been exhausted', status: 'RESOURCE_EXHAUSTED' } },
    });
    const before = fake.count('generate');
    const result = await image.textToImage({ model: 'nanobana', prompt: 'sea', width: 256, height: 256 });
    expect(fake.count('generate') - before).toBe(2);
    expect(result.metadata.engine).toBe('gemini');
  });

  it('billing and daily quota errors are balance errors; a lasting per-minute limit stays retryable', async () => {
    fake.scripted.generate.push({
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'Gemini API free tier is not available in your country. Please enable billing on your project.',
          status: 'FAILED_PRECONDITION',
        },
      },
    });
    const req = { model: 'nanobana', prompt: 'sea', width: 256, height: 256 };
    await expect(image.textToImage(req)).rejects.toBeInstanceOf(VendorBalanceError);

    const quota = (quotaId: string) => ({
      status: 429,
      headers: { 'retry-after': '0' },
      body: {
        error: {
          code: 429,
          message: 'You exceeded your current quota, please check your plan and billing details.',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaId }] }],
        },
      },
    });
    for (let i = 0; i < 4; i++) fake.scripted.generate.push(quota('GenerateRequestsPerDayPerProjectPerModel'));
    const daily = await image.textToImage(req).catch((e) => e);
    expect(daily).toBeInstanceOf(VendorBalanceError);
    expect(daily.status).toBe(402);

    for (let i = 0; i < 4; i++) fake.scripted.generate.push(quota('GenerateRequestsPerMinutePerProjectPerModel'));
    const perMinute = await image.textToImage(req).catch((e) => e);
    expect(perMinute).toBeInstanceOf(VendorError);
    expect(perMinute.retryable).toBe(true);
  });
});

describe('Veo 3 video', () => {
  it('submits, polls the operation through its pending states, downloads the URI with the key and probes the clip', async () => {
    const progress: number[] = [];
    const before = fake.count('operation');
    const result = await veo.textToVideo(
      {
        model: 'veo-3',
        prompt: 'waves on a beach',
        negativePrompt: 'people',
        durationSeconds: 5,
        width: 1280,
        height: 720,
        fps: 24,
        generateAudio: true,
      },
      { onProgress: (f) => progress.push(f) },
    );
    const submit = lastRequest(':predictLongRunning');
    expect(submit.path).toBe('/v1beta/models/veo-3.0-generate-001:predictLongRunning');
    expect(submit.body).toEqual({
      instances: [{ prompt: 'waves on a beach' }],
      parameters: {
        aspectRatio: '16:9',
        resolution: '720p',
        durationSeconds: 6,
        personGeneration: 'allow_all',
        negativePrompt: 'people',
      },
    });
    expect(fake.count('operation') - before).toBe(3);
    const download = lastRequest(':download');
    expect(download.headers['x-goog-api-key']).toBe(KEY);
    expect(result.data.equals(video)).toBe(true);
    expect(result).toMatchObject({ mimeType: 'video/mp4', width: 320, height: 180, hasAudio: false });
    expect(result.durationSeconds).toBeCloseTo(2, 0);
    expect(result.metadata).toMatchObject({ engine: 'gemini', model: 'veo-3', vendorModel: 'veo-3.0-generate-001' });
    expect(progress.length).toBeGreaterThan(2);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(1);
  });

  it('downloads the output again when the first download fails', async () => {
    fake.pendingPolls = 0;
    fake.scripted.download.push({ status: 503, headers: { 'retry-after': '0' }, body: { error: { code: 503 } } });
    const before = fake.count('download');
    const result = await veo.textToVideo({
      model: 'veo-3.0-generate-001',
      prompt: 'x',
      durationSeconds: 8,
      width: 1280,
      height: 720,
      fps: 24,
      generateAudio: true,
    });
    expect(fake.count('download') - before).toBe(2);
    expect(result.data.equals(video)).toBe(true);
  });

  it('sends the first frame, and the last frame only to Veo 3.1', async () => {
    const first = await solidPng(64, 64, [10, 10, 10]);
    const last = await solidPng(64, 64, [250, 250, 250]);
    const base = {
      prompt: 'dawn',
      durationSeconds: 8,
      width: 720,
      height: 1280,
      fps: 24,
      generateAudio: true,
      lastFrame: last,
    };
    await veo.imageToVideo({ ...base, model: 'veo-3.1-generate-preview', image: first });
    const dual = lastRequest(':predictLongRunning').body as {
      instances: Array<Record<string, { bytesBase64Encoded: string }>>;
    };
    expect(lastRequest(':predictLongRunning').path).toContain('veo-3.1-generate-preview');
    expect(Buffer.from(dual.instances[0].image.bytesBase64Encoded, 'base64').equals(first.data)).toBe(true);
    expect(Buffer.from(dual.instances[0].lastFrame.bytesBase64Encoded, 'base64').equals(last.data)).toBe(true);
    await veo.imageToVideo({ ...base, model: 'veo-3.0-fast-generate-preview', image: first });
    const single = lastRequest(':predictLongRunning').body as {
      instances: Array<Record<string, unknown>>;
      parameters: unknown;
    };
    expect(single.instances[0].lastFrame).toBeUndefined();
    expect(single.parameters).toMatchObject({ aspectRatio: '9:16', durationSeconds: 8 });
  });

  it('sends personGeneration as Veo takes it: allow_all for text, allow_adult for image-led modes', async () => {
    fake.pendingPolls = 0;
    const image = await solidPng(64, 64, [10, 10, 10]);
    const base = {
      prompt: 'a crowd at dusk',
      durationSeconds: 4,
      width: 1280,
      height: 720,
      fps: 24,
      generateAudio: true,
    };
    const sent = () => lastRequest(':predictLongRunning').body as { parameters: Record<string, unknown> };
    const text = await veo.textToVideo({ ...base, model: 'veo-3.1-generate-preview' });
    expect(sent().parameters.personGeneration).toBe('allow_all');
    // Sent by Google's SDK (@google/genai), not a hand-rolled client.
    expect(lastRequest(':predictLongRunning').headers['x-goog-api-client']).toMatch(/google-genai-sdk\//);
    expect(text.metadata).toMatchObject({ personGeneration: 'allow_all' });
    await veo.imageToVideo({ ...base, model: 'veo-3.0-generate-001', image });
    expect(sent().parameters.personGeneration).toBe('allow_adult');
    await veo.imageToVideo({ ...base, model: 'veo-3.1-generate-preview', image, lastFrame: image });
    expect(sent().parameters.personGeneration).toBe('allow_adult');
    await veo.textToVideo({ ...base, model: 'veo-3.1-generate-preview', referenceImages: [image] });
    expect(sent().parameters).toMatchObject({ personGeneration: 'allow_adult', durationSeconds: 8 });
    // 1080p is rendered at 8 s only.
    await veo.textToVideo({ ...base, model: 'veo-3', width: 1920, height: 1080 });
    expect(sent().parameters).toMatchObject({ resolution: '1080p', durationSeconds: 8 });
  });

  it('the fake refuses what Veo refuses, and the adapter surfaces it as vendor_rejected', async () => {
    const post = (model: string, body: unknown) =>
      fetch(`${fake.base}/v1beta/models/${model}:predictLongRunning`, {
        method: 'POST',
        headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { error: { status: string; message: string } },
      }));
    const image = {
      bytesBase64Encoded: (await solidPng(8, 8, [1, 2, 3])).data.toString('base64'),
      mimeType: 'image/png',
    };
    const unknown = await post('veo-3.0-generate-001', { instances: [{ prompt: 'x' }], parameters: { seed: 7 } });
    expect(unknown).toMatchObject({ status: 400, body: { error: { status: 'INVALID_ARGUMENT' } } });
    expect(unknown.body.error.message).toContain('Unknown name');
    const wrongType = await post('veo-3.0-generate-001', {
      instances: [{ prompt: 'x' }],
      parameters: { durationSeconds: '8' },
    });
    expect(wrongType.status).toBe(400);
    const person = await post('veo-3.1-generate-preview', {
      instances: [{ prompt: 'x', image }],
      parameters: { personGeneration: 'allow_all' },
    });
    expect(person).toMatchObject({
      status: 400,
      body: { error: { message: 'allow_all for personGeneration is currently not supported.' } },
    });
    const content = await fetch(`${fake.base}/v1beta/models/gemini-2.5-flash:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generation_config: {} }),
    });
    expect(content.status).toBe(400);

    // Through the adapter: a video reference in an unsupported format is refused by Veo, clearly.
    const error = await veo
      .imageToVideo({
        model: 'veo-3.1-generate-preview',
        prompt: 'x',
        durationSeconds: 8,
        width: 1280,
        height: 720,
        fps: 24,
        generateAudio: false,
        image: { data: Buffer.from('GIF89a'), mimeType: 'image/gif' },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorError);
    expect(error).toMatchObject({ status: 400, code: 'vendor_rejected', retryable: false });
    expect((error as Error).message).toMatch(/^Gemini: Invalid JSON payload received\. instances\.0\.image\.mimeType/);
  });

  it('a finished operation with filtered media is content filtered, not a success', async () => {
    fake.operationOutcome = { kind: 'filtered', reasons: ['The prompt could not be submitted (celebrity).'] };
    const err = await veo
      .textToVideo({
        model: 'veo-3.0-generate-001',
        prompt: 'x',
        durationSeconds: 8,
        width: 1280,
        height: 720,
        fps: 24,
        generateAudio: true,
      })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ContentFilteredError);
    expect(err.message).toContain('celebrity');
  });

  it('retries a 429 on submit and maps a failed operation onto the error kinds', async () => {
    const req = {
      model: 'veo-3.0-generate-001',
      prompt: 'x',
      durationSeconds: 8,
      width: 1280,
      height: 720,
      fps: 24,
      generateAudio: true,
    };
    fake.pendingPolls = 0;
    fake.scripted.predict.push({
      status: 429,
      headers: { 'retry-after': '0' },
      body: { error: { code: 429, message: 'Resource has been exhausted', status: 'RESOURCE_EXHAUSTED' } },
    });
    await expect(veo.textToVideo(req)).resolves.toMatchObject({ metadata: { engine: 'gemini' } });

    fake.operationOutcome = { kind: 'error', error: { code: 13, message: 'Internal error', status: 'INTERNAL' } };
    const failed = await veo.textToVideo(req).catch((e) => e);
    expect(failed).toBeInstanceOf(VendorError);
    expect(failed.retryable).toBe(true);
  });

  it('stops polling when the signal aborts', async () => {
    fake.pendingPolls = 1000;
    const controller = new AbortController();
    const run = veo.textToVideo(
      {
        model: 'veo-3.0-generate-001',
        prompt: 'x',
        durationSeconds: 8,
        width: 1280,
        height: 720,
        fps: 24,
        generateAudio: true,
      },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(new Error('cancelled')), 100);
    await expect(run).rejects.toThrow('cancelled');
  });
});

describe('Gemini text', () => {
  it('complete asks JSON mode with a Gemini responseSchema and parses the reply', async () => {
    const schema = {
      type: 'object',
      properties: {
        title: { type: 'string' },
        steps: { type: 'array', items: { type: 'string' } },
        tone: { anyOf: [{ type: 'string', enum: ['calm', 'bold'] }, { type: 'null' }] },
      },
      required: ['title', 'steps'],
      additionalProperties: false,
    };
    const result = await text.complete({
      system: 'You plan.',
      prompt: 'Plan a shoot',
      context: { brand: 'Acme' },
      jsonSchema: { name: 'plan', schema },
    });
    const req = lastRequest(':generateContent');
    expect(req.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(req.body).toMatchObject({
      systemInstruction: { parts: [{ text: 'You plan.' }] },
      generationConfig: {
        responseMimeType: 'application/json',
        responseSchema: {
          type: 'OBJECT',
          properties: {
            title: { type: 'STRING' },
            steps: { type: 'ARRAY', items: { type: 'STRING' } },
            tone: { type: 'STRING', enum: ['calm', 'bold'], nullable: true },
          },
          required: ['title', 'steps'],
        },
      },
    });
    expect(JSON.stringify(req.body)).not.toContain('additionalProperties');
    expect(parts(req.body)[0].text).toContain('"brand":"Acme"');
    expect(result.json).toEqual(fake.jsonReply);
    expect(result.metadata).toMatchObject({ engine: 'gemini' });
  });

  it('gives the film and movie agents the shape they read when they name a purpose instead of a schema', async () => {
    fake.jsonReply = { acts: [{ scenes: [] }] };
    const result = await text.complete({ purpose: 'screenplay', prompt: 'A heist' });
    const config = (lastRequest(':generateContent').body as { generationConfig: Record<string, { type: string }> })
      .generationConfig;
    expect(config.responseMimeType).toBe('application/json');
    expect(config.responseSchema.type).toBe('OBJECT');
    expect(result.json).toEqual({ acts: [{ scenes: [] }] });
    const prose = await text.complete({ prompt: 'Say hello' });
    expect(prose.json).toBeUndefined();
  });

  it('inlines $ref definitions in schemas', () => {
    const schema = {
      $defs: { shot: { type: 'object', properties: { n: { type: 'integer' } } } },
      type: 'array',
      items: { $ref: '#/$defs/shot' },
    };
    expect(toGeminiSchema(schema)).toEqual({
      type: 'ARRAY',
      items: { type: 'OBJECT', properties: { n: { type: 'INTEGER' } } },
    });
  });

  it('stream reads SSE events split across network chunks', async () => {
    const out: string[] = [];
    for await (const piece of text.stream({ prompt: 'hi' })) out.push(piece);
    expect(out.join('')).toBe('Hello from Gemini.');
    expect(lastRequest(':streamGenerateContent').path).toBe(
      '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
  });

  it('stream retries a 429 before the first event; a blocked prompt is content filtered', async () => {
    fake.scripted.stream.push({
      status: 429,
      headers: { 'retry-after': '0' },
      body: { error: { code: 429, message: 'Resource has been exhausted', status: 'RESOURCE_EXHAUSTED' } },
    });
    const out: string[] = [];
    for await (const piece of text.stream({ prompt: 'hi' })) out.push(piece);
    expect(out.join('')).toBe('Hello from Gemini.');

    fake.scripted.generate.push({ status: 200, body: { promptFeedback: { blockReason: 'SAFETY' } } });
    await expect(text.complete({ prompt: 'x' })).rejects.toBeInstanceOf(ContentFilteredError);
  });
});
