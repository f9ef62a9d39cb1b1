// Gemini text for the agents: generateContent (JSON mode with a responseSchema for structured output)
// and streamGenerateContent?alt=sse for stream().
import { schemaForPurpose } from '../openai/schemas.ts';
import type { CompleteTextRequest, EngineCallOptions, TextEngine, TextResult } from '../types.ts';
import { DEFAULT_RETRY, retryDelayMs, VendorBalanceError, VendorError } from '../vendor/http.ts';
import {
  apiUrl,
  assertNotBlocked,
  authHeaders,
  classifyVendorFailure,
  describeGoogleError,
  type GeminiSettings,
  type GenerateContentReply,
  geminiJson,
  inlinePart,
  modelPath,
  VENDOR,
} from './api.ts';

/** Keys of Gemini's Schema object (an OpenAPI 3.0 subset); everything else in a JSON Schema is dropped. */
const SCHEMA_KEYS = new Set([
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'propertyOrdering',
]);

/**
 * A JSON Schema (as zod's toJSONSchema writes it) as Gemini's `responseSchema`: upper-case types,
 * `["x","null"]` → nullable, `const` → a one-value enum, `oneOf` → `anyOf`, local `$ref`s inlined.
 */
export function toGeminiSchema(schema: unknown, root: unknown = schema, depth = 0): Record<string, unknown> {
  if (!schema || typeof schema !== 'object' || depth > 24) return { type: 'STRING' };
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string') {
    const target = s.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], root);
    return toGeminiSchema(target, root, depth + 1);
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(s)) if (SCHEMA_KEYS.has(key)) out[key] = value;
  let type = s.type;
  if (Array.isArray(type)) {
    if (type.includes('null')) out.nullable = true;
    type = type.find((t) => t !== 'null');
  }
  if (s.const !== undefined) {
    out.enum = [String(s.const)];
    type ??= 'string';
  }
  const variants = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(variants)) {
    const nonNull = variants.filter((v) => (v as Record<string, unknown>)?.type !== 'null');
    if (nonNull.length < variants.length) out.nullable = true;
    if (nonNull.length === 1) return { ...toGeminiSchema(nonNull[0], root, depth + 1), ...out };
    out.anyOf = nonNull.map((v) => toGeminiSchema(v, root, depth + 1));
  }
  if (typeof type === 'string') out.type = type.toUpperCase();
  if (Array.isArray(out.enum)) {
    out.enum = out.enum.map(String);
    out.type = 'STRING';
  }
  if (s.properties && typeof s.properties === 'object') {
    out.properties = Object.fromEntries(
      Object.entries(s.properties as Record<string, unknown>).map(([k, v]) => [k, toGeminiSchema(v, root, depth + 1)]),
    );
    out.type ??= 'OBJECT';
    if (Array.isArray(s.required)) out.required = s.required;
  }
  if (s.items) {
    out.items = toGeminiSchema(s.items, root, depth + 1);
    out.type ??= 'ARRAY';
  }
  if (!out.type && !out.anyOf) out.type = 'STRING';
  return out;
}

function replyText(reply: GenerateContentReply): string {
  return (reply.candidates?.[0]?.content?.parts ?? [])
    .filter((p) => typeof p.text === 'string' && !p.thought)
    .map((p) => p.text)
    .join('');
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** The request's schema, or the shape the film and movie agents read (they name a purpose instead). */
function schemaFor(request: CompleteTextRequest) {
  return request.jsonSchema ?? schemaForPurpose(request.purpose);
}

/** A JSON answer (Markdown fences tolerated), or undefined for prose. */
function parseJson(text: string): unknown {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(trimmed);
  const candidate = fenced ? fenced[1] : trimmed;
  if (!/^[[{]/.test(candidate)) return undefined;
  try {
    return JSON.parse(candidate);
  } catch {
    return undefined;
  }
}

const BALANCE_WORDS = /billing|prepayment|payment required|credits? (are|is) depleted/i;

export class GeminiTextEngine implements TextEngine {
  readonly name = 'gemini';

  constructor(
    private readonly settings: GeminiSettings,
    /** The Gemini model id (e.g. gemini-2.5-flash). */
    private readonly vendorModel: string,
  ) {}

  private body(request: CompleteTextRequest, structured: boolean) {
    const schema = structured ? schemaFor(request) : undefined;
    const context = request.context && Object.keys(request.context).length > 0 ? request.context : undefined;
    const text = context ? `${request.prompt}\n\nContext (JSON):\n${JSON.stringify(context)}` : request.prompt;
    return {
      // Vision: the request's images as inline parts after the text.
      contents: [{ role: 'user', parts: [{ text }, ...(request.images ?? []).map(inlinePart)] }],
      ...(request.system ? { systemInstruction: { parts: [{ text: request.system }] } } : {}),
      ...(schema
        ? { generationConfig: { responseMimeType: 'application/json', responseSchema: toGeminiSchema(schema.schema) } }
        : {}),
    };
  }

  async complete(request: CompleteTextRequest, options: EngineCallOptions = {}): Promise<TextResult> {
    options.onProgress?.(0.05);
    const { data } = await geminiJson<GenerateContentReply>(
      this.settings,
      `${modelPath(this.vendorModel)}:generateContent`,
      { method: 'POST', signal: options.signal, json: this.body(request, true) },
    );
    assertNotBlocked(data);
    const text = replyText(data);
    const finishReason = data.candidates?.[0]?.finishReason;
    if (!text) throw new VendorError(VENDOR, `the reply was empty (${finishReason ?? 'no candidates'})`, true);
    const metadata = {
      engine: 'gemini',
      model: request.model ?? 'gemini',
      vendorModel: data.modelVersion ?? this.vendorModel,
      purpose: request.purpose,
      finishReason,
      usage: data.usageMetadata,
    };
    options.onProgress?.(1);
    const json = parseJson(text);
    if (schemaFor(request) && json === undefined)
      throw new VendorError(VENDOR, `the structured reply is not valid JSON (${finishReason ?? 'unknown'})`, true);
    return json === undefined ? { text, metadata } : { text, json, metadata };
  }

  async *stream(request: CompleteTextRequest, options: EngineCallOptions = {}): AsyncIterable<string> {
    const response = await this.openStream(request, options.signal);
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      // Events end at a blank line; a network chunk may hold half an event.
      for (let end = buffer.search(/\r?\n\r?\n/); end >= 0; end = buffer.search(/\r?\n\r?\n/)) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        const text = this.eventText(event);
        if (text) yield text;
      }
    }
    const rest = this.eventText(buffer + decoder.decode());
    if (rest) yield rest;
  }

  private eventText(event: string): string {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (!data || data === '[DONE]') return '';
    let reply: GenerateContentReply & { error?: unknown };
    try {
      reply = JSON.parse(data);
    } catch {
      throw new VendorError(VENDOR, 'the stream sent an unreadable event', true);
    }
    if (reply.error) throw new VendorError(VENDOR, describeGoogleError(reply) ?? 'stream error', true);
    assertNotBlocked(reply);
    return replyText(reply);
  }

  /** Opens the SSE stream, retrying 429/5xx/network failures (with back-off) before any text arrives. */
  private async openStream(request: CompleteTextRequest, signal?: AbortSignal): Promise<Response> {
    const url = apiUrl(this.settings, `${modelPath(this.vendorModel)}:streamGenerateContent?alt=sse`);
    const init = {
      method: 'POST',
      headers: { ...authHeaders(this.settings), 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(this.body(request, false)),
      signal,
    };
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(url, init);
      } catch (error) {
        if (signal?.aborted) throw error;
        if (attempt >= DEFAULT_RETRY.attempts)
          throw new VendorError(VENDOR, `network error: ${(error as Error).message}`, true);
        await sleep(retryDelayMs(attempt, DEFAULT_RETRY, null), signal);
        continue;
      }
      if (response.ok) return response;
      const raw = await response.text();
      let parsed: unknown = raw;
      try {
        parsed = JSON.parse(raw);
      } catch {
        // keep the text
      }
      const message = describeGoogleError(parsed) ?? `HTTP ${response.status}`;
      const retryable = response.status === 429 || response.status >= 500;
      if (retryable && attempt < DEFAULT_RETRY.attempts) {
        await sleep(retryDelayMs(attempt, DEFAULT_RETRY, response.headers.get('retry-after')), signal);
        continue;
      }
      if (response.status === 402 || (!retryable && BALANCE_WORDS.test(message)))
        throw new VendorBalanceError(VENDOR, message);
      throw classifyVendorFailure(new VendorError(VENDOR, message, retryable, response.status));
    }
  }
}
