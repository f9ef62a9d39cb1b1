// A local stand-in for api.replicate.com that speaks the documented predictions API: POST
// /v1/predictions → {id, status:"starting", urls}, GET /v1/predictions/{id} walking starting →
// processing → succeeded with an output URL (the input really upscaled ×scale with sharp), POST
// /v1/files for large inputs. Tests script failures: 429s, a 402 balance error, a safety failure.
// The prediction body is checked against Replicate's documented create-prediction schema and
// nightmareai/real-esrgan's input schema (image URI, scale 0–10, face_enhance) as strict objects: an
// unknown field or a wrong type is Replicate's 422 "Input validation failed" with invalid_fields.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { z } from 'zod';

/** POST /v1/predictions for nightmareai/real-esrgan. */
const PREDICTION_SCHEMA = z.strictObject({
  version: z.string().regex(/^([a-z0-9_.-]+\/[a-z0-9_.-]+:)?[0-9a-f]{64}$/, 'Invalid version'),
  input: z.strictObject({
    image: z.string().regex(/^(https?:\/\/|data:image\/[\w.+-]+;base64,)/, 'Does not match format "uri"'),
    scale: z.number().min(0).max(10).optional(),
    face_enhance: z.boolean().optional(),
  }),
  webhook: z.url().optional(),
  webhook_events_filter: z.array(z.enum(['start', 'output', 'logs', 'completed'])).optional(),
  stream: z.boolean().optional(),
});

interface FakePrediction {
  id: string;
  version: string;
  input: { image: string; scale: number; face_enhance?: boolean };
  polls: number;
  output?: Buffer;
  canceled: boolean;
}

export interface FakeReplicate {
  /** Base URL with /v1, as REPLICATE_API_BASE. */
  url: string;
  /** Requests received, as "METHOD /path". */
  calls: string[];
  /** Every prediction body received. */
  created: Array<{ version: string; input: FakePrediction['input'] }>;
  /** Answer the next N POST /predictions with 429 (Retry-After: 0). */
  rateLimitNext(count: number): void;
  /** Answer the next POST /predictions with 402 insufficient credit. */
  failBalanceNext(): void;
  /** The next prediction fails with Replicate's NSFW error. */
  failSafetyNext(): void;
  /** The next output download answers 503 once (then the file). */
  flakyOutputNext(): void;
  close(): Promise<void>;
}

const TOKEN = 'r8_test_token';
export const FAKE_REPLICATE_TOKEN = TOKEN;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Statuses a prediction walks through, one per GET. */
const WALK = ['starting', 'processing', 'processing'] as const;

export async function startFakeReplicate(): Promise<FakeReplicate> {
  const predictions = new Map<string, FakePrediction>();
  const files = new Map<string, Buffer>();
  const calls: string[] = [];
  const created: FakeReplicate['created'] = [];
  let rateLimited = 0;
  let balanceNext = false;
  let safetyNext = false;
  const safetyIds = new Set<string>();
  let flakyOutput = false;
  let base = '';

  async function imageOf(ref: string): Promise<Buffer> {
    const data = /^data:[^;]+;base64,(.*)$/s.exec(ref);
    if (data) return Buffer.from(data[1] ?? '', 'base64');
    const file = /\/files\/([^/]+)$/.exec(ref);
    const stored = file ? files.get(file[1] ?? '') : undefined;
    if (!stored) throw new Error(`unknown image ${ref.slice(0, 60)}`);
    return stored;
  }

  function view(p: FakePrediction, status: string) {
    return {
      id: p.id,
      version: p.version,
      input: { ...p.input, image: p.input.image.slice(0, 40) },
      status,
      logs: status === 'processing' ? `Tile 1/2\n${p.polls === 1 ? '50%' : '100%'}|####` : '',
      error: status === 'failed' ? 'NSFW content detected. Try running it again, or try a different prompt.' : null,
      output: status === 'succeeded' ? `${base}/outputs/${p.id}.png` : null,
      urls: { get: `${base}/v1/predictions/${p.id}`, cancel: `${base}/v1/predictions/${p.id}/cancel` },
    };
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    calls.push(`${req.method} ${url.pathname}`);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    void (async () => {
      const outputMatch = /^\/outputs\/([^/]+)\.png$/.exec(url.pathname);
      if (outputMatch && req.method === 'GET') {
        if (flakyOutput) {
          flakyOutput = false;
          return send(503, { detail: 'Service Unavailable' });
        }
        const p = predictions.get(outputMatch[1] ?? '');
        if (!p?.output) return send(404, { detail: 'Not found' });
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(p.output);
      }
      if (req.headers.authorization !== `Bearer ${TOKEN}`)
        return send(401, { title: 'Unauthenticated', detail: 'You did not pass a valid authentication token' });

      if (url.pathname === '/v1/files' && req.method === 'POST') {
        const form = await new Request('http://fake', {
          method: 'POST',
          headers: { 'content-type': req.headers['content-type'] ?? '' },
          body: new Uint8Array(await readBody(req)),
        }).formData();
        const content = form.get('content');
        if (!(content instanceof Blob)) return send(422, { detail: 'content is required' });
        const id = randomUUID();
        files.set(id, Buffer.from(await content.arrayBuffer()));
        return send(201, { id, size: content.size, urls: { get: `${base}/v1/files/${id}` } });
      }

      if (url.pathname === '/v1/predictions' && req.method === 'POST') {
        const raw = JSON.parse((await readBody(req)).toString('utf8')) as unknown;
        if (rateLimited > 0) {
          rateLimited--;
          return send(429, { title: 'Too Many Requests', detail: 'Request was throttled.' }, { 'retry-after': '0' });
        }
        if (balanceNext) {
          balanceNext = false;
          return send(402, {
            title: 'Insufficient credit',
            detail: 'You have insufficient credit to run this model. Go to https://replicate.com/account/billing.',
          });
        }
        const checked = PREDICTION_SCHEMA.safeParse(raw);
        if (!checked.success) {
          const fields = checked.error.issues.map((i) => ({
            type: i.code,
            field: i.path.join('.') || (i.code === 'unrecognized_keys' ? i.keys.join(', ') : ''),
            description:
              i.code === 'unrecognized_keys' ? `Additional property ${i.keys.join(', ')} is not allowed` : i.message,
          }));
          return send(422, {
            title: 'Input validation failed',
            detail: fields.map((f) => `- ${f.field}: ${f.description}`).join('\n'),
            status: 422,
            invalid_fields: fields,
          });
        }
        const body = checked.data as { version: string; input: FakePrediction['input'] };
        created.push({ version: body.version, input: { ...body.input, image: body.input.image.slice(0, 60) } });
        const p: FakePrediction = {
          id: randomUUID().replace(/-/g, ''),
          version: body.version,
          input: body.input,
          polls: 0,
          canceled: false,
        };
        predictions.set(p.id, p);
        if (safetyNext) {
          safetyNext = false;
          safetyIds.add(p.id);
        }
        const image = await imageOf(body.input.image);
        const meta = await sharp(image).metadata();
        const scale = body.input.scale ?? 4;
        p.output = await sharp(image)
          .resize((meta.width ?? 1) * scale, (meta.height ?? 1) * scale, { kernel: 'lanczos3' })
          .png()
          .toBuffer();
        return send(201, view(p, 'starting'));
      }

      const getMatch = /^\/v1\/predictions\/([^/]+)$/.exec(url.pathname);
      if (getMatch && req.method === 'GET') {
        const p = predictions.get(getMatch[1] ?? '');
        if (!p) return send(404, { detail: 'Not found.' });
        p.polls++;
        if (p.canceled) return send(200, view(p, 'canceled'));
        const status = p.polls <= WALK.length - 1 ? WALK[p.polls] : safetyIds.has(p.id) ? 'failed' : 'succeeded';
        return send(200, view(p, status ?? 'processing'));
      }
      const cancelMatch = /^\/v1\/predictions\/([^/]+)\/cancel$/.exec(url.pathname);
      if (cancelMatch && req.method === 'POST') {
        const p = predictions.get(cancelMatch[1] ?? '');
        if (!p) return send(404, { detail: 'Not found.' });
        p.canceled = true;
        return send(200, view(p, 'canceled'));
      }
      send(404, { detail: 'Not found.' });
    })().catch((error: unknown) => send(500, { detail: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/v1`,
    calls,
    created,
    rateLimitNext: (count) => {
      rateLimited = count;
    },
    failBalanceNext: () => {
      balanceNext = true;
    },
    failSafetyNext: () => {
      safetyNext = true;
    },
    flakyOutputNext: () => {
      flakyOutput = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
