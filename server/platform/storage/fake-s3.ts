// A small S3 server for tests: path-style PUT (with x-amz-tagging), GET (Range, ?tagging), HEAD and
// DELETE of objects, HEAD and ListObjectsV2 (one page) of the bucket. The AWS SDK talks real HTTP to it.
// `failPuts` makes PutObject answer an S3 error (InternalError by default), to test what the studio does
// when storage fails; `down()` stops the server (connections refused, open ones cut) and `up()` starts it
// again on the same port, objects kept.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface FakeObject {
  body: Buffer;
  contentType: string;
  tags: Record<string, string>;
  metadata: Record<string, string>;
}

interface PutFault {
  /** How many PutObject requests fail; every one until `failPuts(null)` when omitted. */
  count?: number;
  /** Only PUTs of keys that match. */
  keys?: RegExp;
  /** The HTTP status and S3 error code; 500 InternalError by default. */
  status?: number;
  code?: string;
  message?: string;
  /** Store the object, then answer the error (a write that landed whose answer was lost). */
  storeAnyway?: boolean;
}

export interface FakeS3 {
  endpoint: string;
  bucket: string;
  objects: Map<string, FakeObject>;
  requests: { method: string; url: string; headers: IncomingMessage['headers'] }[];
  /** PutObject answers an error while the fault lasts; null clears it. */
  failPuts(fault: PutFault | null): void;
  /** An outage: stops listening and cuts every open connection; the objects are kept. */
  down(): Promise<void>;
  /** Back after an outage, on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

function xmlEscape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function notFound(res: ServerResponse, method: string, key: string): void {
  res.statusCode = 404;
  if (method === 'HEAD') return void res.end();
  res.setHeader('content-type', 'application/xml');
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message><Key>${xmlEscape(key)}</Key></Error>`,
  );
}

function s3Error(res: ServerResponse, fault: PutFault, key: string): void {
  res.statusCode = fault.status ?? 500;
  res.setHeader('content-type', 'application/xml');
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${xmlEscape(fault.code ?? 'InternalError')}</Code><Message>${xmlEscape(fault.message ?? 'We encountered an internal error. Please try again.')}</Message><Key>${xmlEscape(key)}</Key><RequestId>fake-s3</RequestId></Error>`,
  );
}

export async function startFakeS3(bucket = 'genpro-test'): Promise<FakeS3> {
  const objects = new Map<string, FakeObject>();
  const requests: FakeS3['requests'] = [];
  let putFault: PutFault | null = null;
  let putFaultsLeft = Number.POSITIVE_INFINITY;
  const server: Server = createServer(async (req, res) => {
    const method = req.method ?? 'GET';
    requests.push({ method, url: req.url ?? '', headers: req.headers });
    const url = new URL(req.url ?? '/', 'http://localhost');
    const [, bucketName, ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (bucketName !== bucket) {
      res.statusCode = 404;
      return void res.end(method === 'HEAD' ? undefined : '<Error><Code>NoSuchBucket</Code></Error>');
    }
    if (!key && method === 'GET' && url.searchParams.get('list-type') === '2') {
      // ListObjectsV2, in one page (npm run backup --include-bucket lists the bucket).
      const prefix = url.searchParams.get('prefix') ?? '';
      const contents = [...objects]
        .filter(([k]) => k.startsWith(prefix))
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, o]) => `<Contents><Key>${xmlEscape(k)}</Key><Size>${o.body.length}</Size></Contents>`)
        .join('');
      res.setHeader('content-type', 'application/xml');
      return void res.end(
        `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${bucket}</Name><Prefix>${xmlEscape(prefix)}</Prefix><IsTruncated>false</IsTruncated>${contents}</ListBucketResult>`,
      );
    }
    if (!key) {
      res.statusCode = method === 'HEAD' ? 200 : 405;
      return void res.end();
    }
    if (method === 'PUT') {
      const fault = putFault && putFaultsLeft > 0 && (!putFault.keys || putFault.keys.test(key)) ? putFault : null;
      if (fault) putFaultsLeft--;
      if (fault && !fault.storeAnyway) return s3Error(res, fault, key);
      const tags = Object.fromEntries(new URLSearchParams(String(req.headers['x-amz-tagging'] ?? '')));
      const metadata: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (name.startsWith('x-amz-meta-')) metadata[name.slice(11)] = String(value);
      }
      objects.set(key, {
        body,
        contentType: String(req.headers['content-type'] ?? 'application/octet-stream'),
        tags,
        metadata,
      });
      if (fault) return s3Error(res, fault, key);
      res.setHeader('etag', `"${body.length}"`);
      return void res.end();
    }
    const object = objects.get(key);
    if (method === 'DELETE') {
      objects.delete(key);
      res.statusCode = 204;
      return void res.end();
    }
    if (!object) return notFound(res, method, key);
    if (method === 'GET' && url.searchParams.has('tagging')) {
      const tagSet = Object.entries(object.tags)
        .map(([k, v]) => `<Tag><Key>${xmlEscape(k)}</Key><Value>${xmlEscape(v)}</Value></Tag>`)
        .join('');
      res.setHeader('content-type', 'application/xml');
      return void res.end(`<?xml version="1.0" encoding="UTF-8"?><Tagging><TagSet>${tagSet}</TagSet></Tagging>`);
    }
    res.setHeader('content-type', object.contentType);
    res.setHeader('accept-ranges', 'bytes');
    res.setHeader('etag', `"${object.body.length}"`);
    let payload = object.body;
    const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ''));
    if (range) {
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), object.body.length - 1) : object.body.length - 1;
      if (start >= object.body.length) {
        res.statusCode = 416;
        return void res.end();
      }
      payload = object.body.subarray(start, end + 1);
      res.statusCode = 206;
      res.setHeader('content-range', `bytes ${start}-${end}/${object.body.length}`);
    }
    res.setHeader('content-length', String(payload.length));
    res.end(method === 'HEAD' ? undefined : payload);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    objects,
    requests,
    failPuts: (fault) => {
      putFault = fault;
      putFaultsLeft = fault?.count ?? Number.POSITIVE_INFINITY;
    },
    down: stop,
    up: () =>
      new Promise<void>((resolve, reject) => {
        if (server.listening) return resolve();
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      }),
    close: stop,
  };
}
