// A local OpenAI-compatible chat server for tests: answers POST /v1/chat/completions from a queue of
// scripted replies (JSON or an SSE stream) and records every request it saw.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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
