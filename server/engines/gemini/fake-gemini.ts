// A local stand-in for the Gemini API (generativelanguage.googleapis.com/v1beta) for the contract
// tests: generateContent (images and text), streamGenerateContent?alt=sse, Veo's predictLongRunning
// with operations to poll, and file downloads that need the API key. Tests script failures per route.
// Request bodies are checked against the documented v1beta schemas (GenerateContentRequest, Veo's
// predictLongRunning instances/parameters) as strict objects: an unknown field or a wrong type is
// Google's 400 INVALID_ARGUMENT with BadRequest field violations; Veo's documented rules apply
// (personGeneration per mode, lastFrame/referenceImages on 3.1 only, 8 s for 1080p and references).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { z } from 'zod';

const blob = z.strictObject({ mimeType: z.string().min(1), data: z.base64() });
const part = z.union([z.strictObject({ text: z.string() }), z.strictObject({ inlineData: blob })]);
const content = z.strictObject({ role: z.enum(['user', 'model']).optional(), parts: z.array(part).min(1) });
/** POST models/{model}:generateContent and :streamGenerateContent — GenerateContentRequest. */
const GENERATE_CONTENT_SCHEMA = z.strictObject({
  contents: z.array(content).min(1),
  systemInstruction: content.optional(),
  generationConfig: z
    .strictObject({
      responseModalities: z.array(z.enum(['TEXT', 'IMAGE', 'AUDIO'])).optional(),
      imageConfig: z
        .strictObject({
          aspectRatio: z.enum(['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9']).optional(),
          imageSize: z.enum(['1K', '2K', '4K']).optional(),
        })
        .optional(),
      seed: z.number().int().optional(),
      responseMimeType: z.enum(['text/plain', 'application/json', 'text/x.enum']).optional(),
      responseSchema: z.record(z.string(), z.unknown()).optional(),
      temperature: z.number().min(0).max(2).optional(),
      topP: z.number().optional(),
      topK: z.number().int().optional(),
      candidateCount: z.number().int().min(1).optional(),
      maxOutputTokens: z.number().int().min(1).optional(),
      stopSequences: z.array(z.string()).optional(),
    })
    .optional(),
  safetySettings: z
    .array(z.strictObject({ category: z.string(), threshold: z.string(), method: z.string().optional() }))
    .optional(),
});

const veoImage = z.strictObject({
  bytesBase64Encoded: z.base64(),
  mimeType: z.enum(['image/png', 'image/jpeg', 'image/webp']),
});
/** POST models/{veo}:predictLongRunning — one instance and Veo's parameters (Gemini API). */
const PREDICT_VIDEO_SCHEMA = z.strictObject({
  instances: z
    .array(
      z.strictObject({
        prompt: z.string().min(1),
        image: veoImage.optional(),
        lastFrame: veoImage.optional(),
        referenceImages: z
          .array(z.strictObject({ image: veoImage, referenceType: z.enum(['asset', 'ASSET']) }))
          .max(3)
          .optional(),
      }),
    )
    .length(1),
  parameters: z.strictObject({
    aspectRatio: z.enum(['16:9', '9:16']).optional(),
    resolution: z.enum(['720p', '1080p', '4k']).optional(),
    durationSeconds: z.union([z.literal(4), z.literal(6), z.literal(8)]).optional(),
    negativePrompt: z.string().optional(),
    personGeneration: z.enum(['allow_all', 'allow_adult', 'dont_allow']).optional(),
    sampleCount: z.number().int().min(1).max(4).optional(),
    enhancePrompt: z.boolean().optional(),
  }),
});

/** Veo's rules beyond the field types, as the Gemini API documents them; a message when broken. */
function veoRuleViolation(model: string, body: z.infer<typeof PREDICT_VIDEO_SCHEMA>): string | undefined {
  const instance = body.instances[0];
  const p = body.parameters;
  const v31 = model.startsWith('veo-3.1');
  if (!v31 && (instance.lastFrame || instance.referenceImages))
    return `lastFrame and referenceImages are not supported by ${model}.`;
  const imageLed = Boolean(instance.image || instance.lastFrame || instance.referenceImages?.length);
  const expected = imageLed ? 'allow_adult' : 'allow_all';
  if (p.personGeneration !== undefined && p.personGeneration !== expected)
    return `${p.personGeneration} for personGeneration is currently not supported.`;
  if (
    (p.resolution === '1080p' || p.resolution === '4k' || instance.referenceImages?.length) &&
    p.durationSeconds !== undefined &&
    p.durationSeconds !== 8
  )
    return 'durationSeconds must be 8 for 1080p, 4k or reference images.';
  if (!v31 && p.resolution === '1080p' && p.aspectRatio === '9:16') return '1080p is supported for 16:9 only.';
  return undefined;
}

/** Google's 400 for a request it cannot read. */
function invalidArgument(message: string, violations: Array<{ field: string; description: string }> = []) {
  return {
    error: {
      code: 400,
      message,
      status: 'INVALID_ARGUMENT',
      details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: violations }],
    },
  };
}

function zodViolations(error: z.ZodError) {
  return error.issues.map((i) => ({
    field: i.path.join('.'),
    description:
      i.code === 'unrecognized_keys'
        ? `Unknown name ${JSON.stringify(i.keys.join(','))}: Cannot find field.`
        : i.message,
  }));
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** A scripted answer: an HTTP status with a JSON body (and headers). */
export interface ScriptedReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type Route = 'generate' | 'stream' | 'predict' | 'operation' | 'download';

/** What one Veo operation reports once done (default: one sample whose URI serves `video`). */
export type OperationOutcome =
  | { kind: 'video' }
  | { kind: 'filtered'; reasons: string[] }
  | { kind: 'error'; error: { code: number; message: string; status: string } };

export interface FakeGeminiOptions {
  apiKey: string;
  /** The MP4 served by the Veo file download. */
  video: Buffer;
}

export class FakeGemini {
  readonly requests: RecordedRequest[] = [];
  /** Replies used (first in, first out) before the route's normal answer. */
  readonly scripted: Record<Route, ScriptedReply[]> = {
    generate: [],
    stream: [],
    predict: [],
    operation: [],
    download: [],
  };
  /** How many polls an operation answers without `done` before finishing. */
  pendingPolls = 2;
  operationOutcome: OperationOutcome = { kind: 'video' };
  /** Colour of the picture generateContent answers with, and its size. */
  imageColour = { r: 40, g: 160, b: 90 };
  imageSize = { width: 1024, height: 576 };
  /** Text answered by the text model; JSON mode answers `jsonReply` serialised. */
  textReply = 'Hello from Gemini.';
  jsonReply: unknown = { title: 'A plan', steps: ['one', 'two'] };
  /** The stream's text, sent as one SSE event per item (each split across two writes). */
  streamChunks = ['Hello', ' from', ' Gemini.'];
  private readonly polls = new Map<string, number>();
  private server?: Server;
  private nextOperation = 1;
  base = '';

  constructor(private readonly options: FakeGeminiOptions) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error) => {
        res.statusCode = 500;
        res.end(JSON.stringify({ error: { code: 500, message: String(error), status: 'INTERNAL' } }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  count(route: Route): number {
    return this.requests.filter((r) => routeOf(r.method, r.path) === route).length;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const body = raw ? JSON.parse(raw) : undefined;
    const url = new URL(req.url ?? '/', this.base);
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname + url.search,
      headers: req.headers,
      body,
    };
    this.requests.push(record);
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(value));
    };
    if (req.headers['x-goog-api-key'] !== this.options.apiKey)
      return json(403, { error: { code: 403, message: 'API key not valid.', status: 'PERMISSION_DENIED' } });
    const route = routeOf(record.method, record.path);
    if (!route) return json(404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
    if (route === 'generate' || route === 'stream') {
      const checked = GENERATE_CONTENT_SCHEMA.safeParse(body);
      if (!checked.success) {
        const violations = zodViolations(checked.error);
        return json(
          400,
          invalidArgument(
            `Invalid JSON payload received. ${violations[0].field}: ${violations[0].description}`,
            violations,
          ),
        );
      }
    }
    if (route === 'predict') {
      const checked = PREDICT_VIDEO_SCHEMA.safeParse(body);
      if (!checked.success) {
        const violations = zodViolations(checked.error);
        return json(
          400,
          invalidArgument(
            `Invalid JSON payload received. ${violations[0].field}: ${violations[0].description}`,
            violations,
          ),
        );
      }
      const rule = veoRuleViolation(url.pathname.match(/models\/([^:]+):/)?.[1] ?? '', checked.data);
      if (rule) return json(400, invalidArgument(rule));
    }
    const scripted = this.scripted[route].shift();
    if (scripted) return json(scripted.status, scripted.body, scripted.headers);

    switch (route) {
      case 'generate':
        return json(200, await this.generate(url.pathname, body));
      case 'stream':
        return this.stream(res);
      case 'predict': {
        const model = url.pathname.match(/models\/([^:]+):/)?.[1] ?? 'veo';
        const name = `models/${model}/operations/op${this.nextOperation++}`;
        this.polls.set(name, 0);
        return json(200, { name });
      }
      case 'operation': {
        const name = url.pathname.replace(/^\/v1beta\//, '');
        const seen = this.polls.get(name);
        if (seen === undefined)
          return json(404, { error: { code: 404, message: 'no such operation', status: 'NOT_FOUND' } });
        this.polls.set(name, seen + 1);
        if (seen < this.pendingPolls) return json(200, { name });
        return json(200, this.finishedOperation(name));
      }
      case 'download':
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(this.options.video.length) });
        return void res.end(this.options.video);
    }
  }

  private finishedOperation(name: string) {
    const outcome = this.operationOutcome;
    if (outcome.kind === 'error') return { name, done: true, error: outcome.error };
    if (outcome.kind === 'filtered')
      return {
        name,
        done: true,
        response: {
          '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse',
          generateVideoResponse: { raiMediaFilteredCount: 1, raiMediaFilteredReasons: outcome.reasons },
        },
      };
    const id = name.split('/').at(-1);
    return {
      name,
      done: true,
      response: {
        '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse',
        generateVideoResponse: {
          generatedSamples: [{ video: { uri: `${this.base}/v1beta/files/${id}:download?alt=media` } }],
        },
      },
    };
  }

  private async generate(pathname: string, body: { generationConfig?: Record<string, unknown> } | undefined) {
    const usageMetadata = { promptTokenCount: 12, candidatesTokenCount: 30, totalTokenCount: 42 };
    if (pathname.includes('-image')) {
      const png = await sharp({ create: { ...this.imageSize, channels: 3, background: this.imageColour } })
        .png()
        .toBuffer();
      return {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { text: 'Here is your image.' },
                { inlineData: { mimeType: 'image/png', data: png.toString('base64') } },
              ],
            },
            finishReason: 'STOP',
          },
        ],
        usageMetadata,
        modelVersion: 'gemini-2.5-flash-image',
      };
    }
    const structured = body?.generationConfig?.responseMimeType === 'application/json';
    const text = structured ? JSON.stringify(this.jsonReply) : this.textReply;
    return {
      candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }],
      usageMetadata,
      modelVersion: 'gemini-2.5-flash',
    };
  }

  private async stream(res: ServerResponse): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const chunk of this.streamChunks) {
      const event = `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: chunk }] } }] })}\r\n\r\n`;
      const half = Math.floor(event.length / 2);
      res.write(event.slice(0, half));
      await new Promise((resolve) => setTimeout(resolve, 5));
      res.write(event.slice(half));
    }
    res.end(
      `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP' }] })}\r\n\r\n`,
    );
  }
}

function routeOf(method: string, path: string): Route | undefined {
  if (method === 'POST' && /:generateContent$/.test(path)) return 'generate';
  if (method === 'POST' && /:streamGenerateContent\?alt=sse$/.test(path)) return 'stream';
  if (method === 'POST' && /:predictLongRunning$/.test(path)) return 'predict';
  if (method === 'GET' && /\/operations\/[^/]+$/.test(path)) return 'operation';
  if (method === 'GET' && /\/files\/[^/]+:download/.test(path)) return 'download';
  return undefined;
}
