import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { createEngineRegistry } from '../registry.ts';
import { ContentFilteredError } from '../types.ts';
import { VendorBalanceError, VendorError } from '../vendor/http.ts';
import { vendorOverrides } from '../vendor/index.ts';
import { chatReply, type FakeOpenAi, startFakeOpenAi } from './fake-openai.ts';
import { apiBase, OpenAiTextEngine } from './openai.ts';

let fake: FakeOpenAi;
let engine: OpenAiTextEngine;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  engine = new OpenAiTextEngine({ apiKey: 'sk-test', baseUrl: fake.url, model: 'fake-model' });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.replies.length = 0;
});

describe('apiBase', () => {
  it('adds /v1 unless the base already names a version', () => {
    expect(apiBase('http://localhost:11434')).toBe('http://localhost:11434/v1');
    expect(apiBase('http://localhost:11434/v1/')).toBe('http://localhost:11434/v1');
    expect(apiBase(undefined)).toBe('https://api.openai.com/v1');
  });
});

describe('OpenAiTextEngine.complete', () => {
  it('sends the model, messages and bearer key, and returns the text', async () => {
    fake.replies.push(chatReply('A sharper prompt.'));
    const result = await engine.complete({ system: 'Be brief.', prompt: 'a cat', context: { style: 'noir' } });
    expect(result.text).toBe('A sharper prompt.');
    expect(result.json).toBeUndefined();
    expect(result.metadata).toMatchObject({ engine: 'openai', model: 'fake-model' });
    const [request] = fake.requests;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(request.body).toMatchObject({ model: 'fake-model', stream: false });
    expect(request.body.response_format).toBeUndefined();
    const messages = request.body.messages as Array<{ role: string; content: string }>;
    expect(messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(messages[1].role).toBe('user');
    expect(messages[1].content).toContain('a cat');
    expect(messages[1].content).toContain('"style":"noir"');
  });

  it('asks for structured output with a strict JSON schema and parses the answer', async () => {
    fake.replies.push(chatReply('{"enhanced_prompt":"a black cat at night","subject":"cat"}'));
    const result = await engine.complete({
      prompt: 'a cat',
      jsonSchema: {
        name: 'prompt_enhancement',
        schema: {
          type: 'object',
          properties: { enhanced_prompt: { type: 'string' }, subject: { type: 'string' } },
          required: ['enhanced_prompt'],
        },
      },
    });
    expect(result.json).toEqual({ enhanced_prompt: 'a black cat at night', subject: 'cat' });
    expect(fake.requests[0].body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'prompt_enhancement',
        strict: true,
        schema: {
          type: 'object',
          properties: { enhanced_prompt: { type: 'string' }, subject: { type: 'string' } },
          required: ['enhanced_prompt', 'subject'],
          additionalProperties: false,
        },
      },
    });
  });

  it('uses the screenplay schema for the film agent purpose and tolerates fenced JSON', async () => {
    fake.replies.push(chatReply('```json\n{"logline":"x","acts":[]}\n```'));
    const result = await engine.complete({ purpose: 'screenplay', prompt: 'a keeper' });
    expect(result.json).toEqual({ logline: 'x', acts: [] });
    const format = fake.requests[0].body.response_format as { json_schema: { name: string } };
    expect(format.json_schema.name).toBe('screenplay');
  });

  it('retries a 429 (honouring Retry-After) and then succeeds', async () => {
    fake.replies.push(
      {
        status: 429,
        headers: { 'retry-after': '0' },
        body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
      },
      { status: 503, headers: { 'retry-after': '0' }, body: { error: { message: 'overloaded' } } },
      chatReply('third time lucky'),
    );
    const result = await engine.complete({ prompt: 'hello' });
    expect(result.text).toBe('third time lucky');
    expect(fake.requests).toHaveLength(3);
  });

  it('maps insufficient_quota to a balance error without retrying', async () => {
    fake.replies.push({
      status: 429,
      body: {
        error: { message: 'You exceeded your current quota.', type: 'insufficient_quota', code: 'insufficient_quota' },
      },
    });
    await expect(engine.complete({ prompt: 'hello' })).rejects.toBeInstanceOf(VendorBalanceError);
    expect(fake.requests).toHaveLength(1);
  });

  it('maps safety refusals to ContentFilteredError', async () => {
    fake.replies.push({
      status: 400,
      body: {
        error: {
          message: 'Your request was rejected.',
          type: 'invalid_request_error',
          code: 'content_policy_violation',
        },
      },
    });
    await expect(engine.complete({ prompt: 'hello' })).rejects.toBeInstanceOf(ContentFilteredError);
    fake.replies.push(chatReply('', 'content_filter'));
    await expect(engine.complete({ prompt: 'hello' })).rejects.toBeInstanceOf(ContentFilteredError);
  });

  it('answers other 4xx as a rejected request with the vendor message', async () => {
    fake.replies.push({
      status: 404,
      body: { error: { message: 'The model `nope` does not exist', code: 'model_not_found' } },
    });
    const error = await engine.complete({ prompt: 'hello' }).catch((e) => e);
    expect(error).toBeInstanceOf(VendorError);
    expect(error.status).toBe(400);
    expect(error.message).toContain('does not exist');
  });
});

describe('requests OpenAI would refuse', () => {
  const post = (body: unknown) =>
    fetch(`${fake.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error: Record<string, unknown> } }));
  const messages = [{ role: 'user', content: 'hi' }];

  it('the fake answers 400 invalid_request_error for an unknown argument, a wrong type or a loose strict schema', async () => {
    const unknown = await post({ model: 'm', messages, response_mime_type: 'application/json' });
    expect(unknown).toMatchObject({
      status: 400,
      body: {
        error: { type: 'invalid_request_error', message: 'Unrecognized request argument supplied: response_mime_type' },
      },
    });
    const wrongType = await post({ model: 'm', messages, temperature: 'warm' });
    expect(wrongType).toMatchObject({ status: 400, body: { error: { param: 'temperature' } } });
    const loose = await post({
      model: 'm',
      messages,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'x', strict: true, schema: { type: 'object', properties: { a: { type: 'string' } } } },
      },
    });
    expect(loose).toMatchObject({ status: 400, body: { error: { code: 'invalid_json_schema' } } });
    const badName = await post({
      model: 'm',
      messages,
      response_format: { type: 'json_schema', json_schema: { name: 'prompt enhancement' } },
    });
    expect(badName.status).toBe(400);
    expect(fake.requests).toHaveLength(4);
  });

  it('sends a schema name OpenAI accepts, whatever the feature called it', async () => {
    fake.replies.push(chatReply('{"a":"b"}'));
    const result = await engine.complete({
      prompt: 'x',
      jsonSchema: {
        name: 'prompt enhancement (v2)',
        schema: { type: 'object', properties: { a: { type: 'string' } } },
      },
    });
    expect(result.json).toEqual({ a: 'b' });
    expect(fake.requests[0].body.response_format).toMatchObject({ json_schema: { name: 'prompt_enhancement_v2_' } });
  });

  it('surfaces a refused request as vendor_rejected with OpenAI’s message, without retrying', async () => {
    const misconfigured = new OpenAiTextEngine({ apiKey: 'sk-test', baseUrl: fake.url, model: '' });
    const error = await misconfigured.complete({ prompt: 'hello' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorError);
    expect(error).toMatchObject({ status: 400, code: 'vendor_rejected', retryable: false });
    expect((error as Error).message).toMatch(/^OpenAI: Invalid value for 'model'/);
    expect(fake.requests).toHaveLength(1);
    // Sent by OpenAI's SDK.
    expect(fake.requests[0].headers['user-agent']).toMatch(/^OpenAI\/JS /);
  });
});

describe('OpenAiTextEngine.stream', () => {
  it('yields the deltas of an SSE stream split across network chunks, until [DONE]', async () => {
    const delta = (content: string) => JSON.stringify({ choices: [{ index: 0, delta: { content } }] });
    fake.replies.push({
      stream: [
        JSON.stringify({ choices: [{ index: 0, delta: { role: 'assistant' } }] }),
        delta('Compile '),
        delta('the master '),
        delta('video.'),
        '[DONE]',
        delta(' never seen'),
      ],
      chunkSplit: 7,
    });
    const parts: string[] = [];
    for await (const part of engine.stream({ prompt: 'how?' })) parts.push(part);
    expect(parts.join('')).toBe('Compile the master video.');
    expect(fake.requests[0].body.stream).toBe(true);
  });

  it('retries a 429 before the stream opens', async () => {
    fake.replies.push(
      { status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'slow down' } } },
      { stream: [JSON.stringify({ choices: [{ delta: { content: 'ok' } }] }), '[DONE]'] },
    );
    const parts: string[] = [];
    for await (const part of engine.stream({ prompt: 'hi' })) parts.push(part);
    expect(parts).toEqual(['ok']);
    expect(fake.requests).toHaveLength(2);
  });
});

describe('configuration', () => {
  it('serves the default text model once OPENAI_BASE_URL is set, through the content policy', async () => {
    const config = loadConfig({ OPENAI_BASE_URL: fake.url, OPENAI_MODEL: 'llama3.1' });
    const registry = createEngineRegistry(config, { overrides: vendorOverrides(config) });
    expect(registry.text().engine.name).toBe('openai');
    expect(registry.text('llama3.1').engine.name).toBe('openai');
    fake.replies.push(chatReply('fine'));
    expect((await registry.text().engine.complete({ prompt: 'hi' })).metadata.engine).toBe('openai');
    expect(fake.requests[0].headers.authorization).toBeUndefined();
    expect(fake.requests[0].body.model).toBe('llama3.1');
  });

  it('leaves the local engine in place when nothing is configured', () => {
    const config = loadConfig({});
    expect(createEngineRegistry(config, { overrides: vendorOverrides(config) }).text().engine.name).toBe('local');
  });
});
