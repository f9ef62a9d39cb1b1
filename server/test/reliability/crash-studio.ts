import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { freePort } from '../../../scripts/studio-process.ts';
import { type Database, openPglite, openPostgres } from '../../db/client.ts';

/** One run of the real studio process (`node --import tsx server/main.ts`) on a given data dir / database. */
export interface StudioRun {
  baseUrl: string;
  /** The process id (a worker's tasks run in it; its ffmpeg renders are its children). */
  pid: number;
  /** Everything the process wrote to stdout and stderr. */
  output(): string;
  /** SIGKILL: no shutdown hooks, no flush. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the clean shutdown; throws when the process exits non-zero. */
  stop(): Promise<void>;
  /** Sends a signal and returns at once. */
  signal(signal: NodeJS.Signals): void;
  /** Resolves with the exit code once the process has exited. */
  exited(): Promise<number | null>;
}

interface StudioOptions {
  dataDir: string;
  port: number;
  /** PostgreSQL URL; the embedded PGlite in dataDir when absent. */
  databaseUrl?: string;
  env?: Record<string, string>;
  /** Also appends everything the process writes to this file (e.g. under TEST_LOG_DIR, for the secrets scan). */
  logFile?: string;
  /** What startStudioProcess polls until it answers 200: `/readyz` by default. */
  readyPath?: string;
  /** How long a start may take before it counts as failed; 120 s by default. */
  startTimeoutMs?: number;
}

export async function studioPort(): Promise<number> {
  return freePort();
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Spawns `entry` with the studio's test environment on the data dir / database of `options`. */
function spawnStudio(entry: string, options: StudioOptions): { child: ChildProcess; run: StudioRun } {
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(options.port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    DATA_DIR: options.dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
    RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    ...options.env,
  };
  delete env.DATABASE_URL;
  delete env.TEST_DB;
  delete env.VITEST;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logStream = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : null;
  child.once('exit', () => logStream?.end());
  child.stdout?.on('data', (chunk) => {
    output += chunk;
    logStream?.write(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
    logStream?.write(chunk);
  });
  const run: StudioRun = {
    baseUrl,
    pid: child.pid ?? 0,
    output: () => output,
    kill: async () => {
      child.kill('SIGKILL');
      await exited(child);
    },
    signal: (signal) => {
      child.kill(signal);
    },
    exited: () => exited(child),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const code = await exited(child);
      if (code !== 0) throw new Error(`${entry} exited with ${code}:\n${output}`);
    },
  };
  return { child, run };
}

export async function startStudioProcess(options: StudioOptions): Promise<StudioRun> {
  const { child, run } = spawnStudio('server/main.ts', options);
  // Start-up (migrations, PGlite recovery after a SIGKILL) is slow when the machine is busy.
  const limit = options.startTimeoutMs ?? 120_000;
  const deadline = Date.now() + limit;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The studio exited with ${child.exitCode}:\n${run.output()}`);
    try {
      if ((await fetch(`${run.baseUrl}${options.readyPath ?? '/readyz'}`)).ok) return run;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await run.kill();
      throw new Error(`The studio did not become ready in ${limit / 1000} s:\n${run.output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `npm run worker` (server/worker.ts: no HTTP) on the data dir / database; resolves once it logged "worker ready". */
export async function startWorkerProcess(options: StudioOptions): Promise<StudioRun> {
  const { child, run } = spawnStudio('server/worker.ts', { ...options, env: { LOG_LEVEL: 'info', ...options.env } });
  const limit = options.startTimeoutMs ?? 120_000;
  const deadline = Date.now() + limit;
  while (!run.output().includes('"msg":"worker ready"')) {
    if (child.exitCode !== null) throw new Error(`The worker exited with ${child.exitCode}:\n${run.output()}`);
    if (Date.now() > deadline) {
      await run.kill();
      throw new Error(`The worker was not ready in ${limit / 1000} s:\n${run.output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return run;
}

/** A signed-in studio user talking JSON to one run (the base URL changes on restart only if the port does). */
export class StudioClient {
  constructor(
    private readonly baseUrl: string,
    readonly token: string,
  ) {}

  static async login(baseUrl: string, email: string, password: string): Promise<StudioClient> {
    const res = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (!res.ok) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { data: { token: string } };
    return new StudioClient(baseUrl, body.data.token);
  }

  async call<T = unknown>(method: string, url: string, body?: object): Promise<{ status: number; json: T }> {
    const res = await fetch(`${this.baseUrl}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : null) as T };
  }

  /** The sandbox consent flow over HTTP: connect → consent page → Approve → OAuth callback. */
  async connectSandbox(platform: string): Promise<void> {
    const started = await fetch(`${this.baseUrl}/api/social/connect/${platform}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}` },
    });
    if (started.status !== 200) throw new Error(`connect ${platform}: ${started.status}`);
    const { authUrl } = (await started.json()) as { authUrl: string };
    // The callback must come with the connect cookie of the browser that started the flow.
    const connectCookie = started.headers.getSetCookie().find((c) => c.startsWith('genpro_social_connect='));
    const cookie = `genpro_session=${this.token}`;
    const consent = await fetch(authUrl, { headers: { cookie } });
    const html = await consent.text();
    if (consent.status !== 200) throw new Error(`consent page ${platform}: ${consent.status}`);
    const fields = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
        m[1],
        (m[2] as string).replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c))),
      ]),
    );
    const approved = await fetch(`${this.baseUrl}/social/sandbox/${platform}/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: this.baseUrl },
      body: new URLSearchParams({ ...fields, decision: 'approve' }).toString(),
    });
    if (approved.status !== 303) throw new Error(`approve ${platform}: ${approved.status} ${await approved.text()}`);
    const callback = await fetch(String(approved.headers.get('location')), {
      headers: { cookie: `${cookie}; ${connectCookie?.split(';')[0]}` },
    });
    if (callback.status !== 200) throw new Error(`callback ${platform}: ${callback.status} ${await callback.text()}`);
  }
}

/** A database the studio processes of a test share: a PGlite data dir, or a fresh PostgreSQL database. */
export interface Target {
  label: string;
  databaseUrl?: string;
  open(): Promise<Database>;
  dispose(): Promise<void>;
}

async function pgliteTarget(dataDir: string): Promise<Target> {
  // The data dir starts as the run's migrated template (an initdb alone takes ~15 s on a busy machine).
  const template = inject('dbTemplate');
  if (template.kind === 'pglite') {
    const seeded = await openPglite({
      dataDir: path.join(dataDir, 'pg'),
      loadDataDir: new Blob([await readFile(template.location)]),
    });
    await seeded.close();
  }
  return {
    label: 'PGlite',
    open: () => openPglite({ dataDir: path.join(dataDir, 'pg') }),
    dispose: async () => undefined,
  };
}

/** A fresh PostgreSQL database on the server of `adminUrl`, named `<prefix>_<pid>_<random>`; dropped by dispose. */
export async function postgresTarget(adminUrl: string, prefix = 'genpro_crash'): Promise<Target> {
  const name = `${prefix}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    label: 'PostgreSQL',
    databaseUrl: url.toString(),
    open: () => openPostgres(url.toString(), 2, 'genpro-test'),
    dispose: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** PGlite always; PostgreSQL too when DATABASE_URL is set. */
export const targets: Array<{ name: string; make: (dataDir: string) => Promise<Target> }> = [
  { name: 'PGlite (on-disk data dir)', make: pgliteTarget },
];
const adminUrl = process.env.DATABASE_URL;
if (adminUrl) targets.push({ name: 'PostgreSQL', make: () => postgresTarget(adminUrl) });

/**
 * A fresh data dir and database (from `make`) for one test's studio processes; the cleanup pushed onto `cleanups`
 * kills the test's current run (`runOf()`) and removes both.
 */
export async function prepareStudio(
  make: (dataDir: string) => Promise<Target>,
  prefix: string,
  cleanups: Array<() => Promise<void>>,
  runOf: () => StudioRun | null,
): Promise<{ dataDir: string; target: Target; port: number }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), prefix));
  const target = await make(dataDir);
  cleanups.push(async () => {
    await runOf()?.kill();
    await target.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { dataDir, target, port: await studioPort() };
}
