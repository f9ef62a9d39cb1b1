// A local stand-in for the Enhancor API shape the adapter speaks: POST /api/{service}/v1/queue →
// {success, requestId}; POST /api/{service}/v1/status {request_id} walking PENDING → IN_QUEUE →
// IN_PROGRESS → COMPLETED with a result URL (the input really enlarged ×4 by sharp).
// Enhancor publishes no API reference (../shared/providers.md §5), so the bodies are checked against
// the shape this adapter and the studio's proxy route use, as strict objects: an unknown field or a
// wrong type is a 400 {success: false, message}. This pins the shape; it is not a vendor contract.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { z } from 'zod';

const QUEUE_SCHEMA = z.strictObject({
  img_url: z
    .string()
    .regex(/^(https:\/\/|data:image\/[\w.+-]+;base64,)/, 'img_url must be an https URL or an image data URI'),
  mode: z.string().min(1).optional(),
  enhancementLevel: z.number().min(0).max(1).optional(),
  webhookUrl: z.url().optional(),
});
const STATUS_SCHEMA = z.strictObject({ request_id: z.string().min(1) });

export const FAKE_ENHANCOR_KEY = 'enhancor-test-key';

interface Job {
  id: string;
  service: string;
  body: { img_url: string; mode?: string; enhancementLevel?: number };
  polls: number;
  output: Buffer;
  fail?: 'safety' | 'balance';
}

export interface FakeEnhancor {
  url: string;
  calls: string[];
  jobs: Job[];
  rateLimitNext(count: number): void;
  /** The next queue call answers 402 with Enhancor-style "insufficient credits". */
  failBalanceNext(): void;
  /** The next job ends FAILED with a moderation message. */
  failSafetyNext(): void;
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

const WALK = ['PENDING', 'IN_QUEUE', 'IN_PROGRESS'];

/** `walk: false` answers COMPLETED at the first status call (for slow-polling callers). */
export async function startFakeEnhancor(options: { walk?: boolean } = {}): Promise<FakeEnhancor> {
  const walk = options.walk ?? true;
  const jobs = new Map<string, Job>();
  const calls: string[] = [];
  let rateLimited = 0;
  let balanceNext = false;
  let safetyNext = false;
  let base = '';

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    calls.push(`${req.method} ${url.pathname}`);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    void (async () => {
      const result = /^\/results\/([^/]+)\.png$/.exec(url.pathname);
      if (result && req.method === 'GET') {
        const job = jobs.get(result[1] ?? '');
        if (!job) return send(404, { message: 'Not found' });
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(job.output);
      }
      if (req.headers['x-api-key'] !== FAKE_ENHANCOR_KEY)
        return send(401, { success: false, message: 'Invalid API key' });
      const m = /^\/api\/([a-z-]+)\/v1\/(queue|status)$/.exec(url.pathname);
      if (!m || req.method !== 'POST') return send(404, { message: 'Not found' });
      const body = await readJson(req);
      const checked = (m[2] === 'queue' ? QUEUE_SCHEMA : STATUS_SCHEMA).safeParse(body);
      if (!checked.success) {
        const issue = checked.error.issues[0];
        const field = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.');
        return send(400, { success: false, message: `Invalid request: ${field}: ${issue.message}` });
      }
      if (m[2] === 'queue') {
        if (rateLimited > 0) {
          rateLimited--;
          return send(429, { success: false, message: 'Too many requests' }, { 'retry-after': '0' });
        }
        if (balanceNext) {
          balanceNext = false;
          return send(402, { success: false, message: 'Insufficient credits' });
        }
        const image = /^data:[^;]+;base64,(.*)$/s.exec(String(body.img_url ?? ''));
        if (!image) return send(400, { success: false, message: 'img_url is required' });
        const input = Buffer.from(image[1] ?? '', 'base64');
        const meta = await sharp(input).metadata();
        const job: Job = {
          id: randomUUID(),
          service: m[1] ?? '',
          body: body as Job['body'],
          polls: 0,
          output: await sharp(input)
            .resize((meta.width ?? 1) * 4, (meta.height ?? 1) * 4)
            .png()
            .toBuffer(),
          fail: safetyNext ? 'safety' : undefined,
        };
        safetyNext = false;
        jobs.set(job.id, job);
        return send(200, { success: true, requestId: job.id });
      }
      const job = jobs.get(String(body.request_id ?? ''));
      if (!job || job.service !== m[1]) return send(404, { success: false, message: 'Request not found' });
      const step = walk ? WALK[job.polls++] : undefined;
      if (step) return send(200, { requestId: job.id, status: step });
      if (job.fail === 'safety')
        return send(200, { requestId: job.id, status: 'FAILED', error: 'Image rejected by content moderation (NSFW)' });
      return send(200, { requestId: job.id, status: 'COMPLETED', cost: 8, result: `${base}/results/${job.id}.png` });
    })().catch((error: unknown) => send(500, { message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    calls,
    get jobs() {
      return [...jobs.values()];
    },
    rateLimitNext: (count) => {
      rateLimited = count;
    },
    failBalanceNext: () => {
      balanceNext = true;
    },
    failSafetyNext: () => {
      safetyNext = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
