// A local stand-in for Runway's API (2024-11-06) for the contract tests: task creation on the three
// endpoints, GET/DELETE /v1/tasks/{id}, and the output files. Each created task plays a script of
// task states, one per poll; `failNext` queues HTTP failures for the next calls.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunwayTask } from './runway.ts';

type Step = Omit<RunwayTask, 'id' | 'output'> & { output?: boolean };

export interface FakeRunway {
  url: string;
  /** Every request seen: method, path, headers and parsed JSON body. */
  requests: Array<{ method: string; path: string; headers: IncomingMessage['headers']; body: unknown }>;
  /** Task states played to the polls of the next created task (the last one repeats). */
  script: Step[];
  /** HTTP failures answered (in order) before the next normal answers. */
  failNext: Array<{ status: number; body: unknown; retryAfter?: string }>;
  cancelled: string[];
  /** Output downloads answered (the path is /outputs/<task>.mp4). */
  downloads: number;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

export async function startFakeRunway(options: { apiKey: string; video: Buffer }): Promise<FakeRunway> {
  const tasks = new Map<string, { steps: Step[]; polls: number }>();
  let next = 1;
  const fake: Omit<FakeRunway, 'url' | 'close'> = {
    requests: [],
    script: [],
    failNext: [],
    cancelled: [],
    downloads: 0,
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await readBody(req).catch(() => 'unparsable');
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(payload === undefined ? '' : JSON.stringify(payload));
    };
    if (url.pathname.startsWith('/outputs/')) {
      fake.downloads++;
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.end(options.video);
      return;
    }
    fake.requests.push({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body });
    if (req.headers.authorization !== `Bearer ${options.apiKey}`) return send(401, { error: 'Invalid API key' });
    if (req.headers['x-runway-version'] !== '2024-11-06')
      return send(400, { error: 'Invalid or missing X-Runway-Version header' });
    const failure = fake.failNext.shift();
    if (failure)
      return send(failure.status, failure.body, failure.retryAfter ? { 'retry-after': failure.retryAfter } : {});

    const create = /^\/v1\/(image_to_video|video_to_video|character_performance)$/.exec(url.pathname);
    if (create && req.method === 'POST') {
      const id = `task-${next++}`;
      tasks.set(id, {
        steps: fake.script.length > 0 ? [...fake.script] : [{ status: 'SUCCEEDED', output: true }],
        polls: 0,
      });
      return send(200, { id });
    }
    const taskPath = /^\/v1\/tasks\/([^/]+)$/.exec(url.pathname);
    if (taskPath) {
      const id = decodeURIComponent(taskPath[1]);
      const task = tasks.get(id);
      if (!task) return send(404, { error: 'Task not found' });
      if (req.method === 'DELETE') {
        fake.cancelled.push(id);
        task.steps = [{ status: 'CANCELLED' }];
        task.polls = 0;
        res.writeHead(204);
        res.end();
        return;
      }
      const step = task.steps[Math.min(task.polls++, task.steps.length - 1)];
      const { output, ...rest } = step;
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return send(200, {
        id,
        createdAt: new Date().toISOString(),
        ...rest,
        ...(output ? { output: [`${origin}/outputs/${id}.mp4?expires=soon`] } : {}),
      });
    }
    send(404, { error: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(fake, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
