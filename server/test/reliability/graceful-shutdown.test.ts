import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { mediaObjects } from '../../db/schema/index.ts';
import { solidPng } from '../fixtures.ts';
import { prepareStudio, StudioClient, type StudioRun, startStudioProcess, targets } from './crash-studio.ts';

// SIGTERM the real studio process while it answers: an upload whose body is still arriving, an upload whose body
// never ends and an open event stream. The upload finishes with 200, the stream gets the reconnect hint and ends,
// new connections are refused, the never-ending request is cut when SHUTDOWN_GRACE_SECONDS is over, and the process
// exits 0 with its drain logged.

const GRACE_SECONDS = 8;
const WAIT_MS = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const BOUNDARY = 'genpro-shutdown-test';

function multipart(file: Buffer): { head: Buffer; tail: Buffer } {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="type"\r\n\r\nai-asset\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="slow.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  return { head: Buffer.concat([head, file]), tail: Buffer.from(`\r\n--${BOUNDARY}--\r\n`) };
}

interface SlowUpload {
  /** Resolves once the server has the request (it answered `100 Continue`) and the first part of the body. */
  started: Promise<void>;
  /** Sends the rest of the body. */
  finish(): void;
  /** The answer, or the error that ended the request without one. */
  outcome: Promise<{ status: number; connection?: string; body: string } | { error: string }>;
}

/** POST /api/upload with `Expect: 100-continue`, the body sent up to its last bytes, the rest when told. */
function slowUpload(baseUrl: string, token: string, file: Buffer): SlowUpload {
  const { head, tail } = multipart(file);
  const request = http.request(`${baseUrl}/api/upload`, {
    method: 'POST',
    // Kept alive as a browser or proxy would: only the drain makes the server close the connection after answering.
    agent: new http.Agent({ keepAlive: true, maxSockets: 1 }),
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'content-length': String(head.length + tail.length),
      expect: '100-continue',
    },
  });
  const started = new Promise<void>((resolve) => {
    request.once('continue', () => request.write(head, () => resolve()));
  });
  const outcome = new Promise<{ status: number; connection?: string; body: string } | { error: string }>((resolve) => {
    request.once('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.once('end', () =>
        resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body }),
      );
      response.once('error', (error) => resolve({ error: error.message }));
    });
    request.once('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
  request.flushHeaders();
  return { started, finish: () => request.end(tail), outcome };
}

/** GET /api/tasks/events read as raw text until the server ends it. */
async function openEventStream(baseUrl: string, token: string) {
  const res = await fetch(`${baseUrl}/api/tasks/events`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  let text = '';
  let ended = false;
  const reader = (res.body as ReadableStream).pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
    } catch {
      // cut: `ended` stays false
      return;
    }
    ended = true;
  })();
  return { text: () => text, ended: () => ended };
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

describe.each(targets)('graceful shutdown of an API process on $name', ({ make }) => {
  it('SIGTERM: in-flight requests finish, streams get a reconnect hint, new connections are refused, the rest is cut after the grace, exit 0', {
    timeout: 300_000,
  }, async () => {
    let run: StudioRun | null = null;
    const { dataDir, target, port } = await prepareStudio(make, 'genpro-shutdown-', cleanups, () => run);
    run = await startStudioProcess({
      dataDir,
      port,
      databaseUrl: target.databaseUrl,
      env: { SEED_DEMO: 'true', LOG_LEVEL: 'info', SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS) },
    });
    const studio = run;
    const client = await StudioClient.login(studio.baseUrl, 'creator@genpro.local', 'genpro-creator');
    const png = await solidPng(64, 64, '#2266aa');

    const stream = await openEventStream(studio.baseUrl, client.token);
    await until('the stream to be live', () => (stream.text().includes('event: ready') ? true : undefined));
    const slow = slowUpload(studio.baseUrl, client.token, png);
    const endless = slowUpload(studio.baseUrl, client.token, png);
    await Promise.all([slow.started, endless.started]);

    studio.signal('SIGTERM');
    const exit = studio.exited();

    // The stream is told to reconnect (elsewhere) and ends.
    await until('the event stream to end', () => (stream.ended() ? true : undefined));
    expect(stream.text()).toMatch(/retry: \d+\nevent: reconnect\ndata: \{"reason":"draining","retryMs":\d+\}\n\n$/);

    // No new connection is accepted.
    const refused = await until('new connections to be refused', async () => {
      try {
        await fetch(`${studio.baseUrl}/livez`);
        return undefined;
      } catch (error) {
        return (error as { cause?: { code?: string } }).cause?.code ?? String(error);
      }
    });
    expect(refused).toBe('ECONNREFUSED');

    // The upload that was in flight completes and is stored.
    slow.finish();
    const answer = await slow.outcome;
    // ... and closes its connection, so the client's next request goes to another process.
    expect(answer).toMatchObject({ status: 200, connection: 'close' });
    const uploaded = JSON.parse((answer as { body: string }).body) as { success: boolean; data: { url: string } };
    expect(uploaded.success).toBe(true);
    expect(uploaded.data.url).toMatch(/^\/api\/images\//);

    // The one that never ends is cut once the grace is over, and the process still exits, cleanly.
    expect(await endless.outcome).toHaveProperty('error');
    expect(await exit).toBe(0);
    const output = studio.output();
    expect(output).toContain('draining: 2 requests in flight, 1 event streams');
    expect(output).toContain('grace over: 1 requests cut');
    expect(output).toContain('"msg":"stopped"');
    run = null;

    // The upload is really there: its row, and its bytes on the studio's disk.
    const key = uploaded.data.url.replace(/^\/api\/images\//, '');
    const database = await target.open();
    try {
      const rows = await database.db.select().from(mediaObjects).where(eq(mediaObjects.key, key));
      expect(rows).toHaveLength(1);
    } finally {
      await database.close();
    }
    expect((await readFile(path.join(dataDir, 'media', ...key.split('/')))).equals(png)).toBe(true);
  });
});

// The signal handling does not depend on the database: the embedded one is enough.
describe('a second signal while an API process drains', () => {
  it('exits at once instead of waiting out a long grace', { timeout: 300_000 }, async () => {
    let run: StudioRun | null = null;
    const { dataDir, port } = await prepareStudio(targets[0].make, 'genpro-shutdown-', cleanups, () => run);
    run = await startStudioProcess({
      dataDir,
      port,
      env: { SEED_DEMO: 'true', LOG_LEVEL: 'info', SHUTDOWN_GRACE_SECONDS: '3600' },
    });
    const studio = run;
    const client = await StudioClient.login(studio.baseUrl, 'creator@genpro.local', 'genpro-creator');
    const endless = slowUpload(studio.baseUrl, client.token, await solidPng(16, 16, '#aa2266'));
    await endless.started;

    studio.signal('SIGTERM');
    await until('the drain to start', () => (studio.output().includes('draining: 1 requests') ? true : undefined));
    studio.signal('SIGINT');
    // Well before the hour of grace: the test's own timeout would end it otherwise.
    expect(await studio.exited()).toBe(1);
    expect(studio.output()).toContain('second signal: stopping now');
    expect(await endless.outcome).toHaveProperty('error');
    run = null;
  });
});
