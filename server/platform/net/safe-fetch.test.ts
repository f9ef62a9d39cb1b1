import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages.ts';
import { AppError } from '../errors.ts';
import { isPublicAddress } from './address.ts';
import { type SafeFetchOptions, safeFetch } from './safe-fetch.ts';

let server: Server;
let port: number;
let base: string;
const hits: string[] = [];

function handler(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://fixture');
  hits.push(url.pathname);
  switch (url.pathname) {
    case '/ok':
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '5' });
      res.end('hello');
      return;
    case '/redirect':
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/ok' });
      res.end();
      return;
    case '/loop':
      res.writeHead(301, { location: '/loop' });
      res.end();
      return;
    case '/big-declared':
      res.writeHead(200, { 'content-length': '5000' });
      res.end(Buffer.alloc(5000));
      return;
    case '/big-chunked': {
      // No Content-Length: the cap is found while streaming.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      let sent = 0;
      const push = () => {
        while (sent < 64 * 1024) {
          sent += 1024;
          if (!res.write(Buffer.alloc(1024))) return res.once('drain', push);
        }
        res.end();
      };
      push();
      return;
    }
    case '/missing':
      res.writeHead(404);
      res.end('nope');
      return;
    case '/slow':
      res.writeHead(200);
      res.write('a');
      // never ends
      return;
    default:
      res.writeHead(500);
      res.end();
  }
}

/** The fixture listens on 127.0.0.1; these options let the test reach it as if it were public. */
const allowFixture = (extra: Partial<SafeFetchOptions> = {}): SafeFetchOptions => ({
  maxBytes: 1024,
  isAllowedAddress: (address) => address === '127.0.0.1',
  ...extra,
});

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

beforeAll(async () => {
  server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.254',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '192.0.2.10',
    '198.18.0.1',
    '::',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:7f00:1',
    '::127.0.0.1',
    '64:ff9b::a00:1',
    '2002:a00:1::1',
    '2001:db8::1',
    '2001::1',
    '127.1',
    '0x7f.0.0.1',
    'localhost',
    '',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '::ffff:8.8.8.8',
    '2606:4700:4700::1111',
    '[2a00:1450:4001:80b::200e]',
  ])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('safeFetch', () => {
  it('fetches from an allowed address and reports type and final URL', async () => {
    const result = await safeFetch(`${base}/ok`, allowFixture());
    expect(result.data.toString()).toBe('hello');
    expect(result.contentType).toBe('image/png');
    expect(result.finalUrl).toBe(`${base}/ok`);
  });

  it('connects to the vetted address, whatever the name would resolve to next (pinned lookup)', async () => {
    let lookups = 0;
    const result = await safeFetch(
      `http://media.example.test:${port}/ok`,
      allowFixture({
        resolve: async () => {
          lookups++;
          // A rebinding resolver would answer differently the second time; only one lookup happens.
          return lookups === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.0.0.1', family: 4 }];
        },
      }),
    );
    expect(result.data.toString()).toBe('hello');
    expect(lookups).toBe(1);
  });

  it('follows redirects, vetting each target', async () => {
    const result = await safeFetch(`${base}/redirect?to=/ok`, allowFixture());
    expect(result.finalUrl).toBe(`${base}/ok`);
    expect(result.data.toString()).toBe('hello');
  });

  it('by default refuses loopback, private, link-local and metadata addresses before connecting', async () => {
    const before = hits.length;
    for (const url of [
      `${base}/ok`,
      `http://localhost:${port}/ok`,
      'http://10.0.0.5/secret',
      'http://192.168.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      `http://[::1]:${port}/ok`,
      'http://[::ffff:127.0.0.1]/',
      'http://0.0.0.0/',
      'http://2130706433/',
      'http://0x7f000001/',
    ]) {
      const error = await refusal(safeFetch(url, { maxBytes: 1024 }));
      expect(error.status, url).toBe(400);
      expect(error.code, url).toBe('url_not_allowed');
      expect(error.message).toBe(MESSAGES.remote.privateAddress);
    }
    expect(hits.length).toBe(before);
  });

  it('refuses a host name with any private answer', async () => {
    const error = await refusal(
      safeFetch('http://mixed.example.test/', {
        maxBytes: 1024,
        resolve: async () => [
          { address: '93.184.216.34', family: 4 },
          { address: '10.0.0.1', family: 4 },
        ],
      }),
    );
    expect(error.code).toBe('url_not_allowed');
  });

  it('refuses a redirect from an allowed host to a private one', async () => {
    for (const to of ['http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/', `http://[::1]:${port}/ok`]) {
      const error = await refusal(safeFetch(`${base}/redirect?to=${encodeURIComponent(to)}`, allowFixture()));
      expect(error.code, to).toBe('url_not_allowed');
    }
    // Nor may a redirect leave http(s).
    const ftp = await refusal(
      safeFetch(`${base}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`, allowFixture()),
    );
    expect(ftp).toMatchObject({ status: 400, message: MESSAGES.remote.invalidUrl });
  });

  it('stops after 5 redirects', async () => {
    const error = await refusal(safeFetch(`${base}/loop`, allowFixture()));
    expect(error).toMatchObject({ status: 502, code: 'too_many_redirects', message: MESSAGES.remote.fetchFailed });
  });

  it('accepts only http and https URLs', async () => {
    for (const url of [
      'ftp://example.com/a.png',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'not a url',
      '/relative',
      'http://user:pw@example.com/',
    ]) {
      const error = await refusal(safeFetch(url, { maxBytes: 10 }));
      expect(error, url).toMatchObject({ status: 400, code: 'invalid_url', message: MESSAGES.remote.invalidUrl });
    }
  });

  it('answers 413 for a declared length over the cap and for a body that runs past it', async () => {
    const declared = await refusal(safeFetch(`${base}/big-declared`, allowFixture({ maxBytes: 1000 })));
    expect(declared).toMatchObject({ status: 413, message: MESSAGES.remote.tooLarge });
    const streamed = await refusal(safeFetch(`${base}/big-chunked`, allowFixture({ maxBytes: 4096 })));
    expect(streamed).toMatchObject({ status: 413, message: MESSAGES.remote.streamTooLarge });
  });

  it('answers 502 for error statuses, unknown hosts, refused connections and timeouts', async () => {
    expect(await refusal(safeFetch(`${base}/missing`, allowFixture()))).toMatchObject({
      status: 502,
      message: MESSAGES.remote.fetchFailed,
    });
    expect(
      await refusal(
        safeFetch('http://no-such-host.invalid/', {
          maxBytes: 10,
          resolve: async () => {
            throw new Error('ENOTFOUND');
          },
        }),
      ),
    ).toMatchObject({ status: 502, code: 'dns_failed' });
    // A port nothing listens on.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await refusal(safeFetch(`http://127.0.0.1:${closedPort}/`, allowFixture()))).toMatchObject({ status: 502 });
    expect(await refusal(safeFetch(`${base}/slow`, allowFixture({ timeoutMs: 300 })))).toMatchObject({
      status: 502,
      code: 'fetch_timeout',
    });
  });

  it("passes the caller's abort through", async () => {
    const controller = new AbortController();
    const pending = safeFetch(`${base}/slow`, allowFixture({ signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('task stopped')), 50);
    await expect(pending).rejects.toThrow('task stopped');
  });
});
