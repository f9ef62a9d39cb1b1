import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverSecrets, users } from '../../db/schema/index.ts';
import { type FakeS3, startFakeS3 } from '../../platform/storage/fake-s3.ts';
import { solidPng } from '../fixtures.ts';
import {
  StudioClient,
  type StudioRun,
  startStudioProcess,
  startWorkerProcess,
  studioPort,
  type Target,
  targets,
} from './crash-studio.ts';

// Start-up as a cluster does it, with real processes (docs/deploy.md, "Migrations and start-up" and "Secrets"):
// - two API processes and a worker started at the same moment on one EMPTY PostgreSQL database all come up (one
//   used to crash on a duplicate key in pg_type), seed the demo accounts once, and agree on the secrets they
//   generate although each has its own DATA_DIR: a signed media link, a two-factor enrolment, a social
//   connection and a publish made through one work through the others;
// - MIGRATE_ON_START=false waits for the schema, stops with a message naming `npm run migrate`, and starts once
//   `npm run migrate` has run.

// Generous: the whole suite runs beside this test on two cores in CI. Waits end as soon as their condition holds.
const WAIT_MS = 180_000;
const DEMO = {
  admin: { email: 'admin@genpro.local', password: 'genpro-admin' },
  brand: { email: 'brand@genpro.local', password: 'genpro-brand' },
  creator: { email: 'creator@genpro.local', password: 'genpro-creator' },
};
const DEMO_EMAILS = ['admin@genpro.local', 'brand@genpro.local', 'creator@genpro.local', 'pending@genpro.local'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined>, explain = () => ''): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${explain()}`);
    await sleep(200);
  }
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A process of this checkout (`node --import tsx <entry>`) with the test's environment, its output kept. */
interface Spawned {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

function spawnEntry(entry: string, env: Record<string, string | undefined>): Spawned {
  const base: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'info' };
  delete base.DATABASE_URL;
  delete base.TEST_DB;
  delete base.VITEST;
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  return { child, output: () => output, exited };
}

/** `npm run migrate` on a database (DATABASE_URL) or a data dir (PGlite): its exit code and output. */
async function npmRunMigrate(target: {
  databaseUrl?: string;
  dataDir: string;
}): Promise<{ code: number | null; output: string }> {
  const run = spawnEntry('scripts/migrate.ts', { DATABASE_URL: target.databaseUrl, DATA_DIR: target.dataDir });
  const code = await run.exited;
  return { code, output: run.output() };
}

async function journal(): Promise<{ total: number; latest: string }> {
  const text = await readFile(path.join('server', 'db', 'migrations', 'meta', '_journal.json'), 'utf8');
  const entries = (JSON.parse(text) as { entries: Array<{ tag: string }> }).entries;
  return { total: entries.length, latest: entries.at(-1)?.tag ?? '' };
}

const postgres = targets.find((t) => t.name === 'PostgreSQL');

describe.skipIf(!postgres)('two API processes and a worker started together on one empty PostgreSQL database', () => {
  let target: Target;
  let s3: FakeS3;
  let api1: StudioRun;
  let api2: StudioRun;
  let worker: StudioRun;
  let png: Buffer;

  beforeAll(async () => {
    const first = await tempDir('genpro-startup-a-');
    target = await (postgres as (typeof targets)[number]).make(first);
    cleanups.push(() => target.dispose());
    s3 = await startFakeS3('genpro-startup');
    cleanups.push(() => s3.close());
    png = await solidPng(16, 16, '#3366cc');
    const [port1, port2] = [await studioPort(), await studioPort()];
    // One site behind a load balancer: every process has the same PUBLIC_URL and bucket, its own DATA_DIR, and
    // neither APP_SECRET nor MEDIA_URL_SECRET.
    const env = {
      PUBLIC_URL: `http://127.0.0.1:${port1}`,
      SEED_DEMO: 'true',
      RUN_WORKERS: 'false',
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'AKIDTEST',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    const dirs = [first, await tempDir('genpro-startup-b-'), await tempDir('genpro-startup-w-')];
    const started = await Promise.allSettled([
      startStudioProcess({ dataDir: dirs[0] as string, port: port1, databaseUrl: target.databaseUrl, env }),
      startStudioProcess({ dataDir: dirs[1] as string, port: port2, databaseUrl: target.databaseUrl, env }),
      startWorkerProcess({ dataDir: dirs[2] as string, port: port1, databaseUrl: target.databaseUrl, env }),
    ]);
    for (const result of started) if (result.status === 'fulfilled') cleanups.push(() => result.value.kill());
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    [api1, api2, worker] = started.map((r) => (r as PromiseFulfilledResult<StudioRun>).value) as [
      StudioRun,
      StudioRun,
      StudioRun,
    ];
  }, 600_000);

  it('all come up and seed one set of demo accounts', { timeout: 120_000 }, async () => {
    const database = await target.open();
    try {
      const emails = (await database.db.select({ email: users.email }).from(users)).map((u) => u.email).sort();
      expect(emails).toEqual(DEMO_EMAILS);
      // The generated secrets: one of each, for every process.
      const secrets = await database.db.select({ name: serverSecrets.name }).from(serverSecrets);
      expect(secrets.map((s) => s.name).sort()).toEqual(['app-secret', 'media-url-secret']);
    } finally {
      await database.close();
    }
    // One banner lists them: only the process that created them prints them.
    const banners = await until('both banners', async () =>
      api1.output().includes('API docs:') && api2.output().includes('API docs:') ? true : undefined,
    );
    expect(banners).toBe(true);
    expect([api1, api2].filter((run) => run.output().includes('Demo accounts')).length).toBe(1);
    for (const run of [api1, api2, worker]) expect(run.output()).not.toMatch(/duplicate key|failed to start/);
  });

  it('serves a media link signed by one process from the other', { timeout: 120_000 }, async () => {
    const creator = await StudioClient.login(api1.baseUrl, DEMO.creator.email, DEMO.creator.password);
    const upload = await creator.call<{ url: string; signed_url: string }>('POST', '/api/upload/base64-to-url', {
      base64Data: `data:image/png;base64,${png.toString('base64')}`,
    });
    expect(upload.status, JSON.stringify(upload.json)).toBe(200);
    const signed = new URL(upload.json.signed_url);
    expect(signed.searchParams.get('sig')).toBeTruthy();
    for (const run of [api2, api1]) {
      const res = await fetch(`${run.baseUrl}${signed.pathname}${signed.search}`);
      expect(res.status, run.baseUrl).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    }
    // Tampered: refused by both, so the 200 above is the signature's doing.
    const tampered = `${signed.pathname}${signed.search.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`)}`;
    expect((await fetch(`${api2.baseUrl}${tampered}`)).status).toBe(403);
  });

  it('accepts at log-in through one process the two-factor enrolment made through the other', {
    timeout: 120_000,
  }, async () => {
    const brand = await StudioClient.login(api1.baseUrl, DEMO.brand.email, DEMO.brand.password);
    const setup = await brand.call<{ data: { secret: string } }>('POST', '/api/users/two-factor/setup', {});
    expect(setup.status).toBe(200);
    const totp = new TOTP({ secret: Secret.fromBase32(setup.json.data.secret), digits: 6, period: 30 });
    const enrolledAt = Date.now();
    const enable = await brand.call('POST', '/api/users/two-factor/enable', { code: totp.generate() });
    expect(enable.status, JSON.stringify(enable.json)).toBe(200);

    const post = (url: string, body: object) =>
      fetch(`${api2.baseUrl}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const login = await post('/api/auth/login', DEMO.brand);
    const challenge = (await login.json()) as { requiresTwoFactor?: boolean; challengeToken: string };
    expect(challenge.requiresTwoFactor).toBe(true);
    // The enrolment used this time step's code; each step is accepted once, so log in with the next one.
    const code = totp.generate({ timestamp: Math.max(Date.now(), enrolledAt + 30_000) });
    const second = await post('/api/auth/login/two-factor', { challengeToken: challenge.challengeToken, code });
    expect(second.status, await second.clone().text()).toBe(200);
    expect(((await second.json()) as { data: { token: string } }).data.token).toBeTruthy();
  });

  it('completes on one process a social connection started on the other, and the worker publishes through it', {
    timeout: 240_000,
  }, async () => {
    const creator = await StudioClient.login(api1.baseUrl, DEMO.creator.email, DEMO.creator.password);
    await connectAcross(creator.token, api1.baseUrl, api2.baseUrl, 'instagram');
    const upload = await creator.call<{ url: string }>('POST', '/api/upload/base64-to-url', {
      base64Data: `data:image/png;base64,${png.toString('base64')}`,
    });
    expect(upload.status).toBe(200);

    // Published by the worker process (no API process runs workers), with the token sealed by an API process.
    const onApi2 = new StudioClient(api2.baseUrl, creator.token);
    const published = await onApi2.call<{ data: { results: Array<{ post_id: string }> } }>(
      'POST',
      '/api/social/publish',
      {
        message: 'published by the worker',
        platforms: ['instagram'],
        mode: 'materials',
        media_urls: [upload.json.url],
      },
    );
    expect(published.status, JSON.stringify(published.json)).toBe(200);
    const postId = published.json.data.results[0]?.post_id;
    const post = await until(
      'the post published by the worker',
      async () => {
        const list = await creator.call<{ data: Array<{ id: string; status: string; share_url: string | null }> }>(
          'GET',
          '/api/social/scheduled-posts?filter=all',
        );
        const row = list.json.data.find((p) => p.id === postId);
        if (row?.status === 'failed') throw new Error(`publish failed: ${JSON.stringify(row)}\n${worker.output()}`);
        return row?.status === 'published' ? row : undefined;
      },
      () => worker.output().slice(-4000),
    );
    expect(worker.output()).toContain('"msg":"post published"');
    // The post's page shows the image through a post-bound link the worker signed; the API processes serve it.
    const page = await (await fetch(onProcess(String(post.share_url), api2.baseUrl))).text();
    const src = page.match(/<img src="([^"]+)"/)?.[1]?.replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)));
    expect(src).toContain('sig=');
    for (const run of [api2, api1]) {
      const image = await fetch(onProcess(String(src), run.baseUrl));
      expect(image.status, run.baseUrl).toBe(200);
      expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);
    }
  });
});

/** `url` (made with the shared PUBLIC_URL) sent to one process. */
function onProcess(url: string, baseUrl: string): string {
  const parsed = new URL(url);
  return `${baseUrl}${parsed.pathname}${parsed.search}`;
}

/**
 * The sandbox consent flow with a load balancer that sent the first request to `startBase` and the rest to
 * `finishBase`: connect (PKCE verifier sealed there) → consent page → Approve → OAuth callback (unsealed here).
 */
async function connectAcross(token: string, startBase: string, finishBase: string, platform: string): Promise<void> {
  const cookie = `genpro_session=${token}`;
  const started = await fetch(`${startBase}/api/social/connect/${platform}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(started.status).toBe(200);
  const { authUrl } = (await started.json()) as { authUrl: string };
  const connectCookie = started.headers.getSetCookie().find((c) => c.startsWith('genpro_social_connect='));
  const consent = await fetch(onProcess(authUrl, finishBase), { headers: { cookie } });
  const html = await consent.text();
  expect(consent.status, html).toBe(200);
  const fields = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1],
      (m[2] as string).replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c))),
    ]),
  );
  const approved = await fetch(`${finishBase}/social/sandbox/${platform}/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: new URL(authUrl).origin },
    body: new URLSearchParams({ ...fields, decision: 'approve' }).toString(),
  });
  expect(approved.status, await approved.clone().text()).toBe(303);
  const callback = await fetch(onProcess(String(approved.headers.get('location')), finishBase), {
    headers: { cookie: `${cookie}; ${connectCookie?.split(';')[0]}` },
  });
  const result = await callback.text();
  expect(callback.status, result).toBe(200);
  expect(result).toContain('data-ok="true"');
}

describe.each([
  { name: 'PGlite (DATA_DIR)', make: async (): Promise<undefined> => undefined },
  ...(postgres
    ? [{ name: 'PostgreSQL', make: (dir: string) => (postgres as (typeof targets)[number]).make(dir) }]
    : []),
])('MIGRATE_ON_START=false on $name', ({ make }) => {
  it('waits for the schema, stops naming npm run migrate, and starts once it ran', { timeout: 600_000 }, async () => {
    const dataDir = await tempDir('genpro-migrate-');
    const target = await make(dataDir);
    if (target) cleanups.push(() => target.dispose());
    const databaseUrl = target?.databaseUrl;
    const { total, latest } = await journal();
    const port = await studioPort();
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: 'true',
      MIGRATE_ON_START: 'false',
    };

    // An empty database: the process waits (a line says what is missing), then stops with the way out.
    const early = spawnEntry('server/main.ts', { ...env, MIGRATE_WAIT_SECONDS: '2' });
    expect(await early.exited, early.output()).toBe(1);
    expect(early.output()).toContain('MIGRATE_ON_START=false');
    expect(early.output()).toContain('run `npm run migrate`');
    expect(early.output()).toContain(`(0 of ${total} migrations applied, job queue schema not installed)`);
    expect(early.output()).not.toMatch(/\n\s+at /); // a message, not a stack
    if (databaseUrl) {
      expect(early.output()).toContain(
        `waiting for the database schema: 0 of ${total} migrations applied, job queue schema not installed; run \`npm run migrate\``,
      );
    }

    // PostgreSQL: a process already waiting starts as soon as the schema is there. (PGlite's files belong to one
    // process at a time, so there the process starts after npm run migrate.)
    let waiting: Spawned | null = null;
    if (databaseUrl) {
      waiting = spawnEntry('server/main.ts', env);
      await until('the waiting line', async () =>
        waiting?.output().includes('waiting for the database schema') ? true : undefined,
      );
    }
    const migrated = await npmRunMigrate({ databaseUrl, dataDir });
    expect(migrated.code, migrated.output).toBe(0);
    expect(migrated.output).toContain(
      `database schema at ${latest} (${total} migrations; ${total} applied now); job queue schema installed`,
    );
    const again = await npmRunMigrate({ databaseUrl, dataDir });
    expect(again.output).toContain(`database schema at ${latest} (${total} migrations; 0 applied now)`);

    const run = waiting ?? spawnEntry('server/main.ts', env);
    const baseUrl = `http://127.0.0.1:${port}`;
    await until(
      'the process to answer /readyz',
      async () => {
        if (run.child.exitCode !== null) throw new Error(`exited with ${run.child.exitCode}:\n${run.output()}`);
        return (await fetch(`${baseUrl}/readyz`).catch(() => null))?.ok ? true : undefined;
      },
      run.output,
    );
    // Seeded once the schema was there.
    await StudioClient.login(baseUrl, DEMO.admin.email, DEMO.admin.password);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });
});
