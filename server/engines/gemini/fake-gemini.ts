// A local stand-in for the Gemini API (generativelanguage.googleapis.com/v1beta) for the contract
// tests: generateContent (images and text), streamGenerateContent?alt=sse, Veo's predictLongRunning
// with operations to poll, and file downloads that need the API key. Tests script failures per route.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

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
