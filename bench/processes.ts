// Child processes of `npm run bench`: the studio API (server/main.ts), `npm run worker` processes, the bare
// Fastify baseline, and a throwaway PostgreSQL database when one is reachable. All stay in this process tree.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { freePort, studioEnv } from '../scripts/studio-process.ts';

const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface Child {
  baseUrl: string;
  stop(): Promise<void>;
}

function spawnTracked(script: string, env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
  let output = '';
  // BENCH_PROFILE_DIR=dir: each child writes a V8 CPU profile there when it exits (open it in Chrome DevTools).
  const profile = process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', script], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output: () => output };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

async function waitForUrl(url: string, child: ChildProcess, output: () => string, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not answer ${url} in 120 s:\n${output()}`);
}

/** The studio API as `npm start` runs it (demo mode, warn logs, no demo seed) on a free port. */
export async function startApi(options: {
  dataDir: string;
  databaseUrl?: string;
  runWorkers?: boolean;
}): Promise<Child> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = studioEnv({
    port,
    dataDir: options.dataDir,
    logLevel: 'warn',
    databaseUrl: options.databaseUrl,
    extra: {
      SEED_DEMO: 'false',
      RUN_WORKERS: String(options.runWorkers ?? true),
      RATE_LIMIT_AUTH_PER_MINUTE: '100000',
    },
  });
  const { child, output } = spawnTracked('server/main.ts', env);
  try {
    await waitForUrl(`${baseUrl}/readyz`, child, output, 'the studio');
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { baseUrl, stop: () => stopChild(child) };
}

/** One `npm run worker` process on the shared PostgreSQL database and data directory. */
export async function startWorker(options: { dataDir: string; databaseUrl: string }): Promise<Child> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl,
    LOG_LEVEL: 'info',
    NODE_ENV: 'development',
  };
  const { child, output } = spawnTracked('server/worker.ts', env);
  const deadline = Date.now() + 120_000;
  while (!output().includes('worker ready')) {
    if (child.exitCode !== null) throw new Error(`a worker exited with ${child.exitCode}:\n${output()}`);
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`a worker did not get ready in 120 s:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { baseUrl: '', stop: () => stopChild(child) };
}

/** bench/bare-server.ts: the same Fastify, one JSON route, nothing else. */
export async function startBare(): Promise<Child> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const { child, output } = spawnTracked('bench/bare-server.ts', { ...process.env, PORT: String(port) });
  try {
    await waitForUrl(`${baseUrl}/bare`, child, output, 'the bare Fastify server');
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { baseUrl, stop: () => stopChild(child) };
}

interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** The PostgreSQL server to bench on: DATABASE_URL, or a local one on 127.0.0.1:5432 if it answers. */
export async function findPostgres(): Promise<{ url: string } | { skipped: string }> {
  const url = process.env.DATABASE_URL || LOCAL_POSTGRES;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { url };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      skipped: process.env.DATABASE_URL
        ? `DATABASE_URL does not answer (${reason})`
        : `no DATABASE_URL and nothing answers on 127.0.0.1:5432 (${reason})`,
    };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A fresh database on that server for one run; drop() removes it (forcing out leftover connections). */
export async function createBenchDatabase(serverUrl: string, label: string): Promise<BenchDatabase> {
  const name = `genpro_bench_${label}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
