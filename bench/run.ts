// `npm run bench`: builds the web app if stale, starts the studio on a fresh data dir (as e2e/global-setup.ts
// does), runs the canvas benchmark and prints p50/p95 frame times beside the 16.7 ms budget. Exits 0.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureWebBuilt } from '../scripts/web-build.ts';
import { formatResults, runCanvasBench } from './canvas.bench.ts';

const DEMO = { email: 'creator@genpro.local', password: 'genpro-creator' };

async function freePort(): Promise<number> {
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

async function waitForHealth(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The studio exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The studio did not become healthy in 90 s:\n${output()}`);
}

async function main() {
  await ensureWebBuilt();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-bench-data-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    RATE_LIMIT_AUTH_PER_MINUTE: '1000',
  };
  delete env.DATABASE_URL;
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  try {
    await waitForHealth(baseUrl, child, () => output);
    console.log(`Canvas benchmark: 1000 images, headless Chromium (--disable-gpu), studio at ${baseUrl}`);
    const results = await runCanvasBench({ baseUrl, ...DEMO });
    console.log(formatResults(results));
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
