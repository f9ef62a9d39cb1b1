// A local stand-in for api.topazlabs.com speaking the documented video flow: POST /video/ →
// {requestId, estimates}; PATCH /video/{id}/accept → {uploadId, urls} (presigned part URLs on this
// server, each answering an ETag); PATCH /video/{id}/complete-upload/ checks the ETags; GET
// /video/{id}/status walks preprocessing → processing (progress) → complete with a download URL
// whose file is the upload really scaled by ffmpeg to the requested output size and frame rate.
// As Topaz's reference says, `accept` answers one URL for a source of at most 500 MB (or at most 1,000
// frames), otherwise ceil(size / 500 MB) URLs (at least 2, at most 150), and each part must be exactly
// max(500 MB, ceil(size / urls)) bytes but the last. Request bodies are checked against the documented
// schemas as strict objects: an unknown field or a wrong type is a 400 {message, errors}.
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { ffmpegPath, runTool } from '../../platform/media/tools.ts';

export const FAKE_TOPAZ_KEY = 'topaz-test-key';
const SEGMENT_BYTES = 500_000_000;
const MAX_URLS = 150;

const resolution = z.strictObject({ width: z.number().int().positive(), height: z.number().int().positive() });
/** POST /video/ — the documented create-request body. */
const TOPAZ_CREATE_SCHEMA = z.strictObject({
  source: z.strictObject({
    container: z.enum(['mp4', 'mov', 'mkv', 'webm', 'avi']),
    size: z.number().int().positive(),
    duration: z.number().positive(),
    frameRate: z.number().positive(),
    frameCount: z.number().int().positive(),
    resolution,
  }),
  output: z.strictObject({
    resolution,
    frameRate: z.number().positive(),
    container: z.enum(['mp4', 'mov', 'mkv']),
    videoEncoder: z.enum(['H264', 'H265', 'ProRes 422 HQ', 'ProRes 422 LT', 'ProRes 4444', 'AV1']),
    videoProfile: z.string().optional(),
    dynamicCompressionLevel: z.enum(['Low', 'Mid', 'High']).optional(),
    audioCodec: z.enum(['AAC', 'AC3', 'PCM']).optional(),
    audioTransfer: z.enum(['Copy', 'Convert', 'None']),
    cropToFit: z.boolean().optional(),
  }),
  filters: z
    .array(
      z.strictObject({
        model: z.string().regex(/^[a-z]{3,4}-\d+$/, 'Unknown filter model'),
        fps: z.number().positive().optional(),
        slowmo: z.number().positive().optional(),
        duplicate: z.boolean().optional(),
        duplicateThreshold: z.number().optional(),
      }),
    )
    .min(1),
});
/** PATCH /video/{id}/complete-upload/ */
const COMPLETE_SCHEMA = z.strictObject({
  uploadResults: z.array(z.strictObject({ partNum: z.number().int().min(1), eTag: z.string().min(1) })).min(1),
  md5Hash: z.string().optional(),
});

/** How many upload URLs Topaz's accept answers for a source (its reference's rule). */
export function topazUrlCount(size: number, frameCount: number, segmentBytes = SEGMENT_BYTES, singleFrames = 1000) {
  if (size <= segmentBytes || frameCount <= singleFrames) return 1;
  return Math.min(MAX_URLS, Math.max(2, Math.ceil(size / segmentBytes)));
}

function validationError(error: z.ZodError) {
  return {
    message: 'Invalid request body',
    errors: error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
  };
}

interface Job {
  id: string;
  body: z.infer<typeof TOPAZ_CREATE_SCHEMA>;
  urls: number;
  parts: Map<number, Buffer>;
  etags: Map<number, string>;
  accepted: boolean;
  uploaded: boolean;
  polls: number;
  output?: Buffer;
  fail?: 'safety' | 'balance';
  canceled: boolean;
}

export interface FakeTopaz {
  url: string;
  calls: string[];
  jobs: Job[];
  rateLimitNext(count: number): void;
  /** The next POST /video/ answers 402 (the account is out of credits). */
  failBalanceNext(): void;
  /** The next job fails with a content-moderation error code. */
  failSafetyNext(): void;
  /** The next job fails for lack of credits after upload. */
  failBalanceLaterNext(): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const WALK = [
  { status: 'preprocessing', progress: 0 },
  { status: 'processing', progress: 40 },
  { status: 'processing', progress: 80 },
  { status: 'postprocessing', progress: 100 },
] as const;

/** `walk: false` answers `complete` at the first status call after the upload (for slow-polling callers). */
export async function startFakeTopaz(
  tools: Pick<Config, 'FFMPEG_PATH' | 'FFPROBE_PATH'>,
  options: {
    walk?: boolean;
    /** Topaz's 500 MB segment, made small to exercise multi-part uploads with small clips. */
    segmentBytes?: number;
    /** Sources of at most this many frames get a single URL (Topaz: 1,000). */
    singleUploadFrames?: number;
  } = {},
): Promise<FakeTopaz> {
  const walk = options.walk ?? true;
  const segmentBytes = options.segmentBytes ?? SEGMENT_BYTES;
  const singleUploadFrames = options.singleUploadFrames ?? 1000;
  const jobs = new Map<string, Job>();
  const calls: string[] = [];
  let rateLimited = 0;
  let balanceNext = false;
  let pendingFail: Job['fail'];
  let base = '';

  async function render(job: Job): Promise<Buffer> {
    const dir = await mkdtemp(join(tmpdir(), 'fake-topaz-'));
    try {
      const parts = [...job.parts.entries()].sort(([a], [b]) => a - b).map(([, b]) => b);
      await writeFile(join(dir, 'in'), Buffer.concat(parts));
      const { width, height } = job.body.output.resolution;
      await runTool(ffmpegPath(tools), [
        '-hide_banner',
        '-loglevel',
        'error',
        '-i',
        join(dir, 'in'),
        '-vf',
        `scale=${width}:${height}:flags=lanczos,fps=${job.body.output.frameRate}`,
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-y',
        join(dir, 'out.mp4'),
      ]);
      return await readFile(join(dir, 'out.mp4'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    calls.push(`${req.method} ${url.pathname}`);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    void (async () => {
      // Presigned part URLs and the download URL carry their own authorisation (the path).
      const upload = /^\/uploads\/([^/]+)\/(\d+)$/.exec(url.pathname);
      if (upload && req.method === 'PUT') {
        const job = jobs.get(upload[1] ?? '');
        if (!job?.accepted) return send(403, { message: 'Request has expired' });
        const data = await readBody(req);
        const partNum = Number(upload[2]);
        const etag = `"${createHash('md5').update(data).digest('hex')}"`;
        job.parts.set(partNum, data);
        job.etags.set(partNum, etag);
        res.writeHead(200, { etag });
        return res.end();
      }
      const download = /^\/downloads\/([^/]+)\.mp4$/.exec(url.pathname);
      if (download && req.method === 'GET') {
        const job = jobs.get(download[1] ?? '');
        if (!job?.output) return send(404, { message: 'Not found' });
        res.writeHead(200, { 'content-type': 'video/mp4' });
        return res.end(job.output);
      }
      if (req.headers['x-api-key'] !== FAKE_TOPAZ_KEY) return send(401, { message: 'Unauthorized' });

      if (url.pathname === '/video/' && req.method === 'POST') {
        const raw = JSON.parse((await readBody(req)).toString('utf8')) as unknown;
        if (rateLimited > 0) {
          rateLimited--;
          return send(429, { message: 'Too many requests' }, { 'retry-after': '0' });
        }
        if (balanceNext) {
          balanceNext = false;
          return send(402, { message: 'Insufficient credits to process this request' });
        }
        const checked = TOPAZ_CREATE_SCHEMA.safeParse(raw);
        if (!checked.success) return send(400, validationError(checked.error));
        const body = checked.data;
        const job: Job = {
          id: randomUUID(),
          body,
          urls: topazUrlCount(body.source.size, body.source.frameCount, segmentBytes, singleUploadFrames),
          parts: new Map(),
          etags: new Map(),
          accepted: false,
          uploaded: false,
          polls: 0,
          fail: pendingFail,
          canceled: false,
        };
        pendingFail = undefined;
        jobs.set(job.id, job);
        return send(200, { requestId: job.id, estimates: { cost: [8, 10], time: [30, 45] } });
      }
      const m = /^\/video\/([^/]+)(\/accept|\/complete-upload\/?|\/status)?$/.exec(url.pathname);
      const job = m ? jobs.get(m[1] ?? '') : undefined;
      if (!m || !job) return send(404, { message: 'Request not found' });
      const action = m[2] ?? '';
      if (action === '/accept' && req.method === 'PATCH') {
        job.accepted = true;
        const urls = Array.from({ length: job.urls }, (_, i) => `${base}/uploads/${job.id}/${i + 1}`);
        return send(200, { uploadId: `upload-${job.id}`, urls });
      }
      if (action.startsWith('/complete-upload') && req.method === 'PATCH') {
        const checked = COMPLETE_SCHEMA.safeParse(JSON.parse((await readBody(req)).toString('utf8')));
        if (!checked.success) return send(400, validationError(checked.error));
        const { uploadResults } = checked.data;
        const size = [...job.parts.values()].reduce((n, b) => n + b.byteLength, 0);
        if (size !== job.body.source.size) return send(400, { message: 'Uploaded size does not match source.size' });
        if (job.urls > 1) {
          // Multi-part: every URL's part, each exactly one segment but the last, with its ETag.
          const segment = Math.max(segmentBytes, Math.ceil(job.body.source.size / job.urls));
          const expected = Math.ceil(job.body.source.size / segment);
          const ok =
            uploadResults.length === expected &&
            uploadResults.every((r) => job.etags.get(r.partNum) === r.eTag) &&
            [...job.parts.entries()].every(([n, b]) => n === expected || b.byteLength === segment);
          if (!ok) return send(400, { message: 'Upload parts do not match' });
        } else if (job.parts.size !== 1 || !job.parts.has(1)) {
          return send(400, { message: 'The file must be uploaded whole to the single URL' });
        }
        job.uploaded = true;
        if (!job.fail) job.output = await render(job);
        return send(200, { message: 'Upload completed' });
      }
      if (action === '/status' && req.method === 'GET') {
        if (job.canceled) return send(200, { status: 'canceled', progress: 0 });
        if (!job.uploaded) return send(200, { status: job.accepted ? 'accepted' : 'requested', progress: 0 });
        const step = walk ? WALK[job.polls++] : undefined;
        if (step) return send(200, { ...step, estimates: { time: [20, 30] } });
        if (job.fail === 'safety')
          return send(200, {
            status: 'failed',
            progress: 0,
            errorCode: 'CONTENT_MODERATION',
            message: 'Prohibited content detected',
          });
        if (job.fail === 'balance')
          return send(200, {
            status: 'failed',
            progress: 0,
            errorCode: 'INSUFFICIENT_CREDITS',
            message: 'Not enough credits',
          });
        return send(200, {
          status: 'complete',
          progress: 100,
          download: { url: `${base}/downloads/${job.id}.mp4`, expiresAt: Date.now() + 3_600_000 },
        });
      }
      if (action === '' && req.method === 'DELETE') {
        job.canceled = true;
        return send(200, { message: 'Canceled' });
      }
      send(404, { message: 'Not found' });
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
      pendingFail = 'safety';
    },
    failBalanceLaterNext: () => {
      pendingFail = 'balance';
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
