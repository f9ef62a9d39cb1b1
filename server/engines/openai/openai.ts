// A TextEngine for any OpenAI-compatible chat server (OpenAI, Ollama, vLLM, llama.cpp server):
// POST {base}/chat/completions, structured output through `response_format: json_schema`, streaming
// through server-sent events. See docs/engines.md.
import type { Config } from '../../config.ts';
import { DEFAULT_TEXT_MODEL } from '../catalog.ts';
import type { EngineOverrides } from '../registry.ts';
import type { CompleteTextRequest, EngineCallOptions, TextEngine, TextResult } from '../types.ts';
import { DEFAULT_RETRY, retryDelayMs, VendorBalanceError, VendorError, vendorContentFiltered } from '../vendor/http.ts';
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

type ChatContent = string | Array<{ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }>;

interface ChatMessage {
  role: 'system' | 'user';
  content: ChatContent;
}

function messagesOf(request: CompleteTextRequest, wantsJson: boolean): ChatMessage[] {
  const messages: ChatMessage[] = [];
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

/** The product's error for a failed reply; `undefined` when it should be retried. */
function failure(status: number, body: unknown, finalAttempt: boolean): Error | undefined {
  const error = errorOf(body);
  const message = error.message ?? `HTTP ${status}`;
  const codes = `${error.code ?? ''} ${error.type ?? ''}`;
  if (status === 402 || QUOTA.test(codes) || QUOTA.test(message)) return new VendorBalanceError(VENDOR, message);
  if (status === 400 && SAFETY.test(codes)) return vendorContentFiltered(VENDOR, message);
  const retryable = status === 429 || status >= 500;
  if (retryable && !finalAttempt) return undefined;
  return new VendorError(VENDOR, message, retryable, status);
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

export class OpenAiTextEngine implements TextEngine {
  readonly name = 'openai';
  private readonly base: string;
  readonly model: string;

  constructor(private readonly options: OpenAiOptions) {
    this.base = apiBase(options.baseUrl);
    this.model = options.model ?? DEFAULT_MODEL;
  }

  private body(request: CompleteTextRequest, stream: boolean): Record<string, unknown> {
    const schema = request.jsonSchema ?? schemaForPurpose(request.purpose);
    const body: Record<string, unknown> = {
      model: this.model,
      messages: messagesOf(request, schema !== undefined),
      stream,
    };
    if (schema) {
      body.response_format = {
        type: 'json_schema',
        json_schema: { name: schema.name, schema: strictSchema(schema.schema), strict: true },
      };
    }
    return body;
  }

  /**
   * POSTs a chat completion. 429 and 5xx (and network errors) are retried with back-off honouring
   * Retry-After; `insufficient_quota` is a balance error at once, not a rate limit. This does its own
   * fetch rather than vendorJson because a stream must hand back the open response.
   */
  private async post(json: Record<string, unknown>, signal?: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    const policy = DEFAULT_RETRY;
    for (let attempt = 1; ; attempt++) {
      const final = attempt >= policy.attempts;
      let response: Response;
      try {
        response = await fetch(`${this.base}/chat/completions`, {
          method: 'POST',
          headers,
          body: JSON.stringify(json),
          signal,
        });
      } catch (error) {
        if (signal?.aborted) throw error;
        if (final) throw new VendorError(VENDOR, `network error: ${(error as Error).message}`, true);
        await sleep(retryDelayMs(attempt, policy, null), signal);
        continue;
      }
      if (response.ok) return response;
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // keep the text for the message
      }
      const error = failure(response.status, parsed, final);
      if (error) throw error;
      await sleep(retryDelayMs(attempt, policy, response.headers.get('retry-after')), signal);
    }
  }

  async complete(request: CompleteTextRequest, options: EngineCallOptions = {}): Promise<TextResult> {
    const body = this.body(request, false);
    const response = await this.post(body, options.signal);
    const data = (await response.json().catch(() => null)) as {
      model?: string;
      choices?: Array<{ finish_reason?: string; message?: { content?: string | null; refusal?: string | null } }>;
      usage?: unknown;
    } | null;
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
    const response = await this.post(this.body(request, true), options.signal);
    if (!response.body) throw new VendorError(VENDOR, 'the stream had no body', true);
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      // Events end at a blank line; a network chunk may hold part of one or several.
      for (let end = buffer.search(/\r?\n\r?\n/); end >= 0; end = buffer.search(/\r?\n\r?\n/)) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        const data = event
          .split(/\r?\n/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n');
        if (!data) continue;
        if (data === '[DONE]') return;
        let parsed: {
          error?: unknown;
          choices?: Array<{ delta?: { content?: string | null }; finish_reason?: string | null }>;
        };
        try {
          parsed = JSON.parse(data);
        } catch {
          continue;
        }
        if (parsed.error) throw failure(500, parsed, true) ?? new VendorError(VENDOR, 'stream failed', true);
        const choice = parsed.choices?.[0];
        if (choice?.finish_reason === 'content_filter') throw vendorContentFiltered(VENDOR, 'the answer was filtered');
        const content = choice?.delta?.content;
        if (content) yield content;
      }
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
