// A local ComfyUI for tests: /upload/image, /prompt, /history/{id} (empty for `pendingPolls` polls,
// then the outputs), /view serving a generated PNG. Failures can be scripted per endpoint.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

export interface FakeComfyUi {
  url: string;
  prompts: Array<Record<string, unknown>>;
  uploads: number;
  views: string[];
  /** Status codes answered by POST /prompt before it succeeds. */
  promptFailures: number[];
  pendingPolls: number;
  /** Make the next run fail with this execution error. */
  executionError?: string;
  close(): Promise<void>;
}

export async function startFakeComfyUi(): Promise<FakeComfyUi> {
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
  const polls = new Map<string, number>();
  let next = 0;
  const fake: FakeComfyUi = {
    url: '',
    prompts: [],
    uploads: 0,
    views: [],
    promptFailures: [],
    pendingPolls: 2,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const json = (res: import('node:http').ServerResponse, status: number, body: unknown, headers = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'POST' && url.pathname === '/upload/image') {
      fake.uploads++;
      return json(res, 200, { name: `upload-${fake.uploads}.png`, subfolder: '', type: 'input' });
    }
    if (req.method === 'POST' && url.pathname === '/prompt') {
      const status = fake.promptFailures.shift();
      if (status) return json(res, status, { error: { message: 'busy' } }, { 'retry-after': '0' });
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { prompt: Record<string, unknown> };
      fake.prompts.push(body.prompt);
      const id = `prompt-${++next}`;
      polls.set(id, 0);
      return json(res, 200, { prompt_id: id, number: next, node_errors: {} });
    }
    const history = /^\/history\/(.+)$/.exec(url.pathname);
    if (req.method === 'GET' && history) {
      const id = history[1];
      const seen = polls.get(id) ?? 0;
      polls.set(id, seen + 1);
      if (seen < fake.pendingPolls) return json(res, 200, {});
      if (fake.executionError)
        return json(res, 200, {
          [id]: {
            outputs: {},
            status: {
              status_str: 'error',
              completed: false,
              messages: [['execution_error', { exception_message: fake.executionError }]],
            },
          },
        });
      return json(res, 200, {
        [id]: {
          outputs: { '9': { images: [{ filename: `${id}_00001_.png`, subfolder: '', type: 'output' }] } },
          status: { status_str: 'success', completed: true, messages: [] },
        },
      });
    }
    if (req.method === 'GET' && url.pathname === '/view') {
      fake.views.push(url.search);
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(png);
    }
    json(res, 404, { error: { message: 'not found' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
