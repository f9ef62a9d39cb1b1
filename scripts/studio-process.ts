import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureWebBuilt } from './web-build.ts';

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitForReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The studio exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The studio did not become ready in 240 s:\n${output()}`);
}

/**
 * The environment of a studio child process as `npm start` runs it (demo mode) on `port` and
 * `dataDir`: on `databaseUrl` when given, else on its embedded database. `extra` adds or overrides.
 */
export function studioEnv(options: {
  port: number;
  dataDir: string;
  logLevel: string;
  databaseUrl?: string;
  extra?: NodeJS.ProcessEnv;
}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(options.port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${options.port}`,
    DATA_DIR: options.dataDir,
    LOG_LEVEL: options.logLevel,
    NODE_ENV: 'development',
    ...options.extra,
  };
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  else delete env.DATABASE_URL;
  return env;
}

export interface StudioProcess {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * The whole studio as `npm start` runs it (web built if stale), on a free port and a fresh embedded
 * data directory, for browser tests and benchmarks. `stop()` ends it and removes its data. With
 * `logFile`, the server logs at info level and its stdout is appended there. `env` adds or overrides variables
 * (e.g. NODE_ENV=production). `prepareData` runs on the fresh data directory before the studio starts (e.g. to
 * set up a database in a state a test needs).
 */
export async function startStudio(
  label: string,
  options: { logFile?: string; env?: NodeJS.ProcessEnv; prepareData?: (dataDir: string) => Promise<void> } = {},
): Promise<StudioProcess> {
  await ensureWebBuilt();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `genpro-${label}-`));
  try {
    await options.prepareData?.(dataDir);
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = studioEnv({
    port,
    dataDir,
    logLevel: options.logFile ? 'info' : 'warn',
    extra: { RATE_LIMIT_AUTH_PER_MINUTE: '1000', ...options.env },
  });
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logStream = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : null;
  child.stdout?.on('data', (chunk) => {
    if (logStream) logStream.write(chunk);
    else output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    logStream?.end();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForReady(baseUrl, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, stop };
}
