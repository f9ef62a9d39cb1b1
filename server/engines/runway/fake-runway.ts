// A local stand-in for Runway's API (2024-11-06) for the contract tests: task creation on the three
// endpoints, GET/DELETE /v1/tasks/{id}, and the output files. Each created task plays a script of
// task states, one per poll; `failNext` queues HTTP failures for the next calls.
// Request bodies are validated against Runway's documented schemas (the API reference, mirrored by
// @runwayml/sdk 4.20's request types) as strict objects: an unknown field, a wrong type, a retired model
// (gen4_aleph) or a gen4_turbo last frame is answered 400 {error: 'Validation of body failed', issues}.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { RunwayTask } from './runway.ts';

const uri = z.string().regex(/^(https:\/\/|runway:\/\/|data:[a-z]+\/[\w.+-]+;base64,)/, 'Invalid URI');
const seed = z.number().int().min(0).max(4294967295);
const promptText = z.string().min(1).max(1000);
const contentModeration = z.strictObject({ publicFigureThreshold: z.enum(['auto', 'low']).optional() });
const gen4Ratio = z.enum(['1280:720', '720:1280', '1104:832', '832:1104', '960:960', '1584:672']);

/** POST /v1/image_to_video (gen4_turbo: a first frame only; veo3.1 / veo3.1_fast: first and last). */
const imageToVideo = z.discriminatedUnion('model', [
  z.strictObject({
    model: z.literal('gen4_turbo'),
    promptImage: z.union([uri, z.array(z.strictObject({ uri, position: z.literal('first') })).length(1)]),
    ratio: gen4Ratio,
    promptText: promptText.optional(),
    duration: z.number().int().min(2).max(10).optional(),
    seed: seed.optional(),
    contentModeration: contentModeration.optional(),
  }),
  ...(['veo3.1', 'veo3.1_fast'] as const).map((model) =>
    z.strictObject({
      model: z.literal(model),
      promptImage: z.union([
        uri,
        z
          .array(z.strictObject({ uri, position: z.enum(['first', 'last']) }))
          .min(1)
          .max(2),
      ]),
      ratio: z.enum(['1280:720', '720:1280', '1080:1920', '1920:1080']),
      audio: z.boolean().optional(),
      duration: z.union([z.literal(4), z.literal(6), z.literal(8)]).optional(),
      negativePrompt: z.string().optional(),
      promptText: promptText.optional(),
      seed: seed.optional(),
    }),
  ),
]);

const keyframeRange = z.strictObject({ start_seconds: z.number().int().min(0), end_seconds: z.number().int().min(1) });
/** POST /v1/video_to_video: aleph2 (gen4_aleph is no longer accepted). */
const videoToVideo = z.discriminatedUnion('model', [
  z.strictObject({
    model: z.literal('aleph2'),
    videoUri: uri,
    promptText: promptText.optional(),
    keyframes: z
      .array(
        z.union([
          z.strictObject({ seconds: z.number().min(0), uri, range: keyframeRange.optional() }),
          z.strictObject({ at: z.number().min(0).max(1), uri, range: keyframeRange.optional() }),
        ]),
      )
      .max(5)
      .optional(),
    outputFormat: z.enum(['mp4', 'prores', 'png_sequence', 'sdr_rec709_10bit']).optional(),
    proresProfile: z.enum(['422', '4444', '422 Proxy', '422 LT', '422 HQ', '4444 XQ']).optional(),
    ratio: z.string().optional(),
    seed: seed.optional(),
    targetAspectRatio: z.enum(['16:9', '4:3', '3:2', '1:1', '2:3', '3:4', '9:16', '21:9']).optional(),
    contentModeration: contentModeration.optional(),
  }),
]);

/** POST /v1/character_performance: act_two. */
const characterPerformance = z.strictObject({
  model: z.literal('act_two'),
  character: z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('image'), uri }),
    z.strictObject({ type: z.literal('video'), uri }),
  ]),
  reference: z.strictObject({ type: z.literal('video'), uri }),
  bodyControl: z.boolean().optional(),
  expressionIntensity: z.number().int().min(1).max(5).optional(),
  ratio: gen4Ratio.optional(),
  seed: seed.optional(),
  contentModeration: contentModeration.optional(),
});

const RUNWAY_REQUEST_SCHEMAS: Record<string, z.ZodType> = {
  image_to_video: imageToVideo,
  video_to_video: videoToVideo,
  character_performance: characterPerformance,
};

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
      const checked = RUNWAY_REQUEST_SCHEMAS[create[1]].safeParse(body);
      if (!checked.success)
        return send(400, {
          error: 'Validation of body failed',
          issues: checked.error.issues.map((i) => ({ code: i.code, path: i.path, message: i.message })),
        });
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
