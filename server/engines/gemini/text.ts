// Gemini text for the agents through @google/genai: generateContent (JSON mode with a responseSchema for
// structured output) and generateContentStream (streamGenerateContent?alt=sse) for stream().
import type { GenerateContentParameters } from '@google/genai';
import { AppError } from '../../platform/errors.ts';
import { schemaForPurpose } from '../openai/schemas.ts';
import type { CompleteTextRequest, EngineCallOptions, TextEngine, TextResult } from '../types.ts';
import { VendorError } from '../vendor/http.ts';
import {
  assertNotBlocked,
  describeGoogleError,
  type GeminiSettings,
  type GenerateContentReply,
  geminiCall,
  geminiClient,
  geminiFailure,
  inlinePart,
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

export class GeminiTextEngine implements TextEngine {
  readonly name = 'gemini';

  constructor(
    private readonly settings: GeminiSettings,
    /** The Gemini model id (e.g. gemini-2.5-flash). */
    private readonly vendorModel: string,
  ) {}

  private params(request: CompleteTextRequest, structured: boolean, signal?: AbortSignal): GenerateContentParameters {
    const schema = structured ? schemaFor(request) : undefined;
    const context = request.context && Object.keys(request.context).length > 0 ? request.context : undefined;
    const text = context ? `${request.prompt}\n\nContext (JSON):\n${JSON.stringify(context)}` : request.prompt;
    return {
      model: this.vendorModel,
      // Vision: the request's images as inline parts after the text.
      contents: [{ role: 'user', parts: [{ text }, ...(request.images ?? []).map(inlinePart)] }],
      config: {
        ...(request.system ? { systemInstruction: { parts: [{ text: request.system }] } } : {}),
        ...(schema ? { responseMimeType: 'application/json', responseSchema: toGeminiSchema(schema.schema) } : {}),
        abortSignal: signal,
      },
    };
  }

  async complete(request: CompleteTextRequest, options: EngineCallOptions = {}): Promise<TextResult> {
    options.onProgress?.(0.05);
    const data = (await geminiCall(
      () => geminiClient(this.settings).models.generateContent(this.params(request, true, options.signal)),
      options.signal,
    )) as GenerateContentReply;
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
    // Opening the stream (429/5xx/network) is retried with back-off before any text arrives.
    const stream = await geminiCall(
      () => geminiClient(this.settings).models.generateContentStream(this.params(request, false, options.signal)),
      options.signal,
    );
    try {
      for await (const chunk of stream) {
        const reply = chunk as GenerateContentReply;
        assertNotBlocked(reply);
        const text = replyText(reply);
        if (text) yield text;
      }
    } catch (error) {
      if (options.signal?.aborted || error instanceof AppError || !(error instanceof Error)) throw error;
      const failure = geminiFailure(error);
      const message = (failure && describeGoogleError(failure.body)) || error.message;
      throw new VendorError(VENDOR, `the stream broke off: ${message}`, true);
    }
  }
}
