// A TextEngine for any OpenAI-compatible chat server (OpenAI, Ollama, vLLM, llama.cpp server) through
// OpenAI's official SDK (`openai`): POST {base}/chat/completions, structured output through
// `response_format: json_schema`, streaming through server-sent events. See docs/engines.md.
import OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { Config } from '../../config.ts';
import { AppError } from '../../platform/errors.ts';
import { DEFAULT_TEXT_MODEL } from '../catalog.ts';
import type { EngineOverrides } from '../registry.ts';
import type { CompleteTextRequest, EngineCallOptions, TextEngine, TextResult } from '../types.ts';
import {
  httpFailure,
  type SdkHttpFailure,
  stainlessFailure,
  VendorBalanceError,
  VendorError,
  vendorContentFiltered,
  vendorSdkCall,
} from '../vendor/http.ts';
import { schemaForPurpose, strictSchema } from './schemas.ts';

const VENDOR = 'OpenAI';
const DEFAULT_BASE = 'https://api.openai.com/v1';
const DEFAULT_MODEL = 'gpt-4o-mini';

export interface OpenAiOptions {
  apiKey?: string;
  /** With or without the `/v1` suffix: `http://localhost:11434` and `http://localhost:11434/v1` both work. */
  baseUrl?: string;
  model?: string;
}

/** `{base}/v1` unless the base already ends in a version segment. */
export function apiBase(baseUrl: string | undefined): string {
  const base = (baseUrl ?? DEFAULT_BASE).replace(/\/+$/, '');
  return /\/v\d+$/.test(new URL(base).pathname) ? base : `${base}/v1`;
}

function messagesOf(request: CompleteTextRequest, wantsJson: boolean): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  const system = [request.system, wantsJson ? 'Answer with a single JSON value and nothing else.' : undefined]
    .filter(Boolean)
    .join('\n');
  if (system) messages.push({ role: 'system', content: system });
  const context =
    request.context && Object.keys(request.context).length > 0
      ? `\n\nContext (JSON):\n${JSON.stringify(request.context)}`
      : '';
  const text = `${request.prompt}${context}`;
  // Vision: the request's images as data-URI image parts after the text.
  const images = (request.images ?? []).map((image) => ({
    type: 'image_url' as const,
    image_url: { url: `data:${image.mimeType};base64,${image.data.toString('base64')}` },
  }));
  messages.push({ role: 'user', content: images.length > 0 ? [{ type: 'text', text }, ...images] : text });
  return messages;
}

/** Parses a JSON answer, tolerating the Markdown fences some local models add. */
function parseJson(text: string): unknown {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(trimmed);
  try {
    return JSON.parse(fenced ? fenced[1] : trimmed);
  } catch {
    return undefined;
  }
}

interface OpenAiError {
  message?: string;
  type?: string;
  code?: string | null;
}

function errorOf(body: unknown): OpenAiError {
  if (body && typeof body === 'object') {
    const error = (body as { error?: unknown }).error;
    if (typeof error === 'string') return { message: error };
    if (error && typeof error === 'object') return error as OpenAiError;
    const message = (body as { message?: unknown }).message;
    if (typeof message === 'string') return { message };
  }
  return typeof body === 'string' && body ? { message: body.slice(0, 300) } : {};
}

const QUOTA = /insufficient_quota|billing_hard_limit|exceeded your current quota/i;
const SAFETY = /content_policy_violation|content_filter|safety/i;

/** OpenAI takes `json_schema.name` as 1–64 of a-z, A-Z, 0-9, _ and - only. */
function schemaName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, 64) || 'answer';
}

/** Failures answered at once, never retried: a spent quota (OpenAI sends it as a 429) and safety refusals. */
function immediateFailure({ status, body }: SdkHttpFailure): Error | undefined {
  const error = errorOf(body);
  const message = error.message ?? `HTTP ${status}`;
  const codes = `${error.code ?? ''} ${error.type ?? ''}`;
  if (status === 402 || QUOTA.test(codes) || QUOTA.test(message)) return new VendorBalanceError(VENDOR, message);
  if (status === 400 && SAFETY.test(codes)) return vendorContentFiltered(VENDOR, message);
  return undefined;
}

/** The SDK's HTTP error with the body as OpenAI sends it (`{error: {...}}`). */
function openAiFailure(error: unknown): SdkHttpFailure | undefined {
  const failure = stainlessFailure(error);
  if (!failure) return undefined;
  return { ...failure, body: failure.body !== undefined ? { error: failure.body } : (error as Error).message };
}

export class OpenAiTextEngine implements TextEngine {
  readonly name = 'openai';
  readonly model: string;
  private readonly client: OpenAI;

  constructor(options: OpenAiOptions) {
    this.model = options.model ?? DEFAULT_MODEL;
    // Local servers need no key: the SDK insists on one, so a placeholder goes in and the header out.
    this.client = new OpenAI({
      apiKey: options.apiKey || 'no-key',
      baseURL: apiBase(options.baseUrl),
      maxRetries: 0,
      timeout: 10 * 60_000,
      ...(options.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
    });
  }

  private body(request: CompleteTextRequest): ChatCompletionCreateParamsNonStreaming {
    const schema = request.jsonSchema ?? schemaForPurpose(request.purpose);
    return {
      model: this.model,
      messages: messagesOf(request, schema !== undefined),
      stream: false,
      ...(schema
        ? {
            response_format: {
              type: 'json_schema',
              json_schema: {
                name: schemaName(schema.name),
                schema: strictSchema(schema.schema) as Record<string, unknown>,
                strict: true,
              },
            },
          }
        : {}),
    };
  }

  /** One SDK call: 429/5xx/network retried with back-off (Retry-After honoured); quota and safety at once. */
  private call<T>(request: () => PromiseLike<T>, signal?: AbortSignal): Promise<T> {
    return vendorSdkCall(VENDOR, request, {
      failureOf: openAiFailure,
      immediate: immediateFailure,
      signal,
      describe: (body) => errorOf(body).message,
    });
  }

  async complete(request: CompleteTextRequest, options: EngineCallOptions = {}): Promise<TextResult> {
    const body = this.body(request);
    const data = await this.call(
      () => this.client.chat.completions.create(body, { signal: options.signal }),
      options.signal,
    );
    const choice = data?.choices?.[0];
    if (!choice) throw new VendorError(VENDOR, 'the reply had no choices', true);
    if (choice.finish_reason === 'content_filter') throw vendorContentFiltered(VENDOR, 'the answer was filtered');
    if (choice.message?.refusal) throw vendorContentFiltered(VENDOR, choice.message.refusal);
    const text = choice.message?.content ?? '';
    const json = body.response_format ? parseJson(text) : undefined;
    if (body.response_format && json === undefined)
      throw new VendorError(VENDOR, 'the model did not answer with valid JSON', true);
    options.onProgress?.(1, 0);
    return {
      text,
      ...(json !== undefined ? { json } : {}),
      metadata: {
        engine: 'openai',
        model: data?.model ?? this.model,
        purpose: request.purpose ?? 'general',
        finishReason: choice.finish_reason ?? null,
        ...(data?.usage ? { usage: data.usage } : {}),
      },
    };
  }

  async *stream(request: CompleteTextRequest, options: EngineCallOptions = {}): AsyncIterable<string> {
    const body: ChatCompletionCreateParamsStreaming = { ...this.body(request), stream: true };
    // Opening the stream is retried; once text flows, a failure ends it.
    const stream = await this.call(
      () => this.client.chat.completions.create(body, { signal: options.signal }),
      options.signal,
    );
    try {
      for await (const chunk of stream) {
        const choice = chunk.choices?.[0];
        if (choice?.finish_reason === 'content_filter') throw vendorContentFiltered(VENDOR, 'the answer was filtered');
        const content = choice?.delta?.content;
        if (content) yield content;
      }
    } catch (error) {
      if (options.signal?.aborted || error instanceof AppError || !(error instanceof Error)) throw error;
      const failure = openAiFailure(error) ?? {
        status: 500,
        body: { error: (error as { error?: unknown }).error },
        retryAfter: null,
      };
      throw (
        immediateFailure({ ...failure, status: failure.status || 500 }) ??
        httpFailure(VENDOR, 500, failure.body, (b) => errorOf(b).message ?? error.message)
      );
    }
  }
}

/** Serves the default text model (and the configured model id) when OPENAI_BASE_URL or OPENAI_API_KEY is set. */
export function openAiOverrides(config: Config): EngineOverrides {
  if (!config.OPENAI_BASE_URL && !config.OPENAI_API_KEY) return {};
  const engine = new OpenAiTextEngine({
    apiKey: config.OPENAI_API_KEY,
    baseUrl: config.OPENAI_BASE_URL,
    model: config.OPENAI_MODEL,
  });
  return { text: { [DEFAULT_TEXT_MODEL]: engine, [engine.model]: engine } };
}
