// A local stand-in for BytePlus ModelArk (/api/v3) for the contract tests: Seedream image generation,
// Seedance tasks (create, poll, cancel) and the output files. `failNext` queues HTTP failures;
// `imageError` makes the next image call fail with an Ark error; `script` plays Seedance task states.
// Request bodies are checked against ModelArk's documented schemas (Seedream 4.0 image generation,
// Seedance content generation tasks) as strict objects: an unknown field or a wrong type is Ark's
// 400 {error: {code: 'InvalidParameter', message, param, type: 'BadRequest'}}.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { SeedanceTask } from './byteplus.ts';

const imageRef = z.string().regex(/^(https?:\/\/|data:image\/[\w.+-]+;base64,)/, 'must be a URL or a Base64 data URI');
/** POST /api/v3/images/generations (Seedream 4.0). */
const SEEDREAM_SCHEMA = z.strictObject({
  model: z.string().min(1),
  prompt: z.string().min(1),
  image: z.union([imageRef, z.array(imageRef).min(1).max(10)]).optional(),
  size: z.string().regex(/^(1K|2K|4K|\d{3,4}x\d{3,4})$/, 'must be 1K, 2K, 4K or WIDTHxHEIGHT'),
  seed: z.number().int().min(-1).max(2_147_483_647).optional(),
  sequential_image_generation: z.enum(['auto', 'disabled']).optional(),
  sequential_image_generation_options: z.strictObject({ max_images: z.number().int().min(1).max(15) }).optional(),
  stream: z.boolean().optional(),
  response_format: z.enum(['url', 'b64_json']).optional(),
  watermark: z.boolean().optional(),
});
/** POST /api/v3/contents/generations/tasks (Seedance). */
const SEEDANCE_SCHEMA = z.strictObject({
  model: z.string().min(1),
  content: z
    .array(
      z.discriminatedUnion('type', [
        z.strictObject({ type: z.literal('text'), text: z.string().min(1) }),
        z.strictObject({
          type: z.literal('image_url'),
          image_url: z.strictObject({ url: imageRef }),
          role: z.enum(['first_frame', 'last_frame', 'reference_image']).optional(),
        }),
      ]),
    )
    .min(1),
  callback_url: z.url().optional(),
  return_last_frame: z.boolean().optional(),
});

/** Ark's 400 for a parameter it does not accept. */
function invalidParameter(error: z.ZodError) {
  const issue = error.issues[0];
  const param = issue.code === 'unrecognized_keys' ? issue.keys.join(',') : issue.path.join('.');
  return {
    error: {
      code: 'InvalidParameter',
      message: `The parameter \`${param}\` specified in the request is not valid: ${issue.message}.`,
      param,
      type: 'BadRequest',
    },
  };
}

type Step = Pick<SeedanceTask, 'status' | 'error'>;

export interface FakeArk {
  /** The base URL with /api/v3. */
  url: string;
  requests: Array<{ method: string; path: string; headers: IncomingMessage['headers']; body: unknown }>;
  failNext: Array<{ status: number; body: unknown; retryAfter?: string }>;
  script: Step[];
  cancelled: string[];
  downloads: string[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

export async function startFakeArk(options: { apiKey: string; image: Buffer; video: Buffer }): Promise<FakeArk> {
  const tasks = new Map<string, { steps: Step[]; polls: number }>();
  let next = 1;
  const fake: Omit<FakeArk, 'url' | 'close'> = { requests: [], failNext: [], script: [], cancelled: [], downloads: [] };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(payload === undefined ? '' : JSON.stringify(payload));
    };
    if (url.pathname.startsWith('/files/')) {
      fake.downloads.push(url.pathname);
      const video = url.pathname.endsWith('.mp4');
      res.writeHead(200, { 'content-type': video ? 'video/mp4' : 'image/png' });
      res.end(video ? options.video : options.image);
      return;
    }
    const body = await readBody(req).catch(() => 'unparsable');
    fake.requests.push({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body });
    if (req.headers.authorization !== `Bearer ${options.apiKey}`)
      return send(401, {
        error: { code: 'AuthenticationError', message: 'The API key is invalid.', type: 'Unauthorized' },
      });
    const failure = fake.failNext.shift();
    if (failure)
      return send(failure.status, failure.body, failure.retryAfter ? { 'retry-after': failure.retryAfter } : {});

    if (url.pathname === '/api/v3/images/generations' && req.method === 'POST') {
      const checked = SEEDREAM_SCHEMA.safeParse(body);
      if (!checked.success) return send(400, invalidParameter(checked.error));
      return send(200, {
        model: (body as { model: string }).model,
        created_at: Math.floor(Date.now() / 1000),
        data: [
          { url: `${origin}/files/image-${next++}.png?X-Tos-Expires=86400`, size: (body as { size: string }).size },
        ],
        usage: { generated_images: 1, output_tokens: 16384, total_tokens: 16384 },
      });
    }
    if (url.pathname === '/api/v3/contents/generations/tasks' && req.method === 'POST') {
      const checked = SEEDANCE_SCHEMA.safeParse(body);
      if (!checked.success) return send(400, invalidParameter(checked.error));
      const id = `cgt-${next++}`;
      tasks.set(id, { steps: fake.script.length > 0 ? [...fake.script] : [{ status: 'succeeded' }], polls: 0 });
      return send(200, { id });
    }
    const taskPath = /^\/api\/v3\/contents\/generations\/tasks\/([^/]+)$/.exec(url.pathname);
    if (taskPath) {
      const id = decodeURIComponent(taskPath[1]);
      const task = tasks.get(id);
      if (!task) return send(404, { error: { code: 'ResourceNotFound', message: 'task not found' } });
      if (req.method === 'DELETE') {
        fake.cancelled.push(id);
        task.steps = [{ status: 'cancelled' }];
        task.polls = 0;
        return send(200, {});
      }
      const step = task.steps[Math.min(task.polls++, task.steps.length - 1)];
      return send(200, {
        id,
        model: 'seedance-1-0-pro-250528',
        status: step.status,
        ...(step.status === 'succeeded'
          ? { content: { video_url: `${origin}/files/${id}.mp4?X-Tos-Expires=86400` } }
          : {}),
        ...(step.error ? { error: step.error } : {}),
        usage: { completion_tokens: 108900, total_tokens: 108900 },
        created_at: Math.floor(Date.now() / 1000),
        updated_at: Math.floor(Date.now() / 1000),
      });
    }
    send(404, { error: { code: 'NotFound', message: 'not found' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(fake, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
