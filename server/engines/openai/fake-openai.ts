// A local OpenAI-compatible chat server for tests: answers POST /v1/chat/completions from a queue of
// scripted replies (JSON or an SSE stream) and records every request it saw. The request body is
// checked against OpenAI's documented Create chat completion schema first (strict: an unknown argument
// or a wrong type is OpenAI's 400 invalid_request_error), including its strict structured-output rules
// (every object closed with additionalProperties: false and every property required).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

const textContent = z.union([
  z.string(),
  z.array(z.strictObject({ type: z.literal('text'), text: z.string() })).min(1),
]);
/** A user message may also carry images (OpenAI's image_url content part: a URL or a data URI, optional detail). */
const userContent = z.union([
  z.string(),
  z
    .array(
      z.union([
        z.strictObject({ type: z.literal('text'), text: z.string() }),
        z.strictObject({
          type: z.literal('image_url'),
          image_url: z.strictObject({
            url: z.string().regex(/^(https?:\/\/|data:image\/(png|jpeg|webp|gif);base64,)/),
            detail: z.enum(['auto', 'low', 'high']).optional(),
          }),
        }),
      ]),
    )
    .min(1),
]);
const message = z.discriminatedUnion('role', [
  z.strictObject({ role: z.literal('system'), content: textContent, name: z.string().optional() }),
  z.strictObject({ role: z.literal('developer'), content: textContent, name: z.string().optional() }),
  z.strictObject({ role: z.literal('user'), content: userContent, name: z.string().optional() }),
  z.strictObject({
    role: z.literal('assistant'),
    content: textContent.nullable().optional(),
    name: z.string().optional(),
    refusal: z.string().nullable().optional(),
  }),
]);
/** POST /v1/chat/completions (the arguments this studio could send; OpenAI refuses any other). */
const CHAT_COMPLETION_SCHEMA = z.strictObject({
  model: z.string().min(1),
  messages: z.array(message).min(1),
  stream: z.boolean().nullable().optional(),
  stream_options: z.strictObject({ include_usage: z.boolean().optional() }).nullable().optional(),
  response_format: z
    .discriminatedUnion('type', [
      z.strictObject({ type: z.literal('text') }),
      z.strictObject({ type: z.literal('json_object') }),
      z.strictObject({
        type: z.literal('json_schema'),
        json_schema: z.strictObject({
          name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
          description: z.string().optional(),
          schema: z.record(z.string(), z.unknown()).optional(),
          strict: z.boolean().nullable().optional(),
        }),
      }),
    ])
    .optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  top_p: z.number().min(0).max(1).nullable().optional(),
  n: z.number().int().min(1).max(128).nullable().optional(),
  max_tokens: z.number().int().nullable().optional(),
  max_completion_tokens: z.number().int().nullable().optional(),
  stop: z
    .union([z.string(), z.array(z.string()).max(4)])
    .nullable()
    .optional(),
  seed: z.number().int().nullable().optional(),
  presence_penalty: z.number().min(-2).max(2).nullable().optional(),
  frequency_penalty: z.number().min(-2).max(2).nullable().optional(),
  user: z.string().optional(),
  safety_identifier: z.string().optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
  store: z.boolean().nullable().optional(),
  reasoning_effort: z.enum(['minimal', 'low', 'medium', 'high']).nullable().optional(),
});

/** OpenAI's strict structured-output rule: every object closed and every property required. */
function strictSchemaViolation(schema: unknown, context = '()'): string | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const s = schema as Record<string, unknown>;
  if (s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object')) || s.properties) {
    if (s.additionalProperties !== false)
      return `In context=${context}, 'additionalProperties' is required to be supplied and to be false.`;
    const keys = Object.keys((s.properties as object) ?? {});
    const required = new Set(Array.isArray(s.required) ? s.required : []);
    const missing = keys.find((k) => !required.has(k));
    if (missing)
      return `In context=${context}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`;
  }
  for (const [key, value] of Object.entries(s)) {
    const children = Array.isArray(value)
      ? value
      : key === 'properties' || key === '$defs' || key === 'definitions'
        ? Object.values(value as object)
        : [value];
    for (const child of children) {
      const found =
        child && typeof child === 'object' ? strictSchemaViolation(child, `(${context}, '${key}')`) : undefined;
      if (found) return found;
    }
  }
  return undefined;
}

/** OpenAI's 400 for a request it refuses. */
function invalidRequest(message: string, param: string | null, code: string | null) {
  return { error: { message, type: 'invalid_request_error', param, code } };
}

/** Why OpenAI would refuse this body, as its error body; undefined when it is acceptable. */
function refusalOf(body: unknown): ReturnType<typeof invalidRequest> | undefined {
  const checked = CHAT_COMPLETION_SCHEMA.safeParse(body);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    if (issue.code === 'unrecognized_keys')
      return invalidRequest(`Unrecognized request argument supplied: ${issue.keys.join(', ')}`, null, null);
    const param = issue.path.join('.');
    return invalidRequest(`Invalid value for '${param}': ${issue.message}`, param, 'invalid_value');
  }
  const format = checked.data.response_format;
  if (format?.type === 'json_schema' && format.json_schema.strict) {
    const violation = strictSchemaViolation(format.json_schema.schema);
    if (violation)
      return invalidRequest(
        `Invalid schema for response_format '${format.json_schema.name}': ${violation}`,
        'response_format',
        'invalid_json_schema',
      );
  }
  return undefined;
}

export type FakeReply =
  | { status: number; body: unknown; headers?: Record<string, string> }
  | { stream: string[]; chunkSplit?: number };

export interface FakeOpenAi {
  url: string;
  requests: Array<{ path: string; headers: IncomingMessage['headers']; body: Record<string, unknown> }>;
  /** Replies used in order; when empty, `fallback` answers. */
  replies: FakeReply[];
  fallback: (body: Record<string, unknown>) => FakeReply;
  close(): Promise<void>;
}

/** A chat completion reply carrying `content`. */
export function chatReply(content: string, finishReason = 'stop'): FakeReply {
  return {
    status: 200,
    body: {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      model: 'fake-model',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finishReason }],
      usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
    },
  };
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const fake: FakeOpenAi = {
    url: '',
    requests: [],
    replies: [],
    fallback: () => chatReply('Hello from the fake.'),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    fake.requests.push({ path: req.url ?? '', headers: req.headers, body });
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Not found', type: 'invalid_request_error' } }));
      return;
    }
    const refusal = refusalOf(body);
    if (refusal) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify(refusal));
      return;
    }
    const reply = fake.replies.shift() ?? fake.fallback(body);
    if ('stream' in reply) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const all = reply.stream.map((s) => `data: ${s}\n\n`).join('');
      // Split across writes at odd offsets so events straddle network chunks.
      const step = reply.chunkSplit ?? all.length;
      for (let i = 0; i < all.length; i += step) {
        res.write(all.slice(i, i + step));
        await new Promise((r) => setTimeout(r, 1));
      }
      res.end();
      return;
    }
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
