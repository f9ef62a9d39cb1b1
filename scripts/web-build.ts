import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distIndex = path.join(root, 'web', 'dist', 'index.html');

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) {
    if (entry === 'dist' || entry === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** True when web/dist is missing or older than any web, common or build-config source. */
export function webBuildIsStale(): boolean {
  if (!existsSync(distIndex)) return true;
  const built = statSync(distIndex).mtimeMs;
  const sources = ['web', 'common', 'vite.config.ts', 'package.json'].map((p) => path.join(root, p));
  return sources.some((source) => newestMtime(source) > built);
}

/** Builds the single-page app with Vite when its sources changed since the last build. */
export async function ensureWebBuilt(log: (line: string) => void = (l) => process.stdout.write(`${l}\n`)) {
  if (!webBuildIsStale()) return;
  await withBuildLock(async () => {
    if (!webBuildIsStale()) return;
    log('Building the web app (sources changed since the last build)…');
    await buildWeb(path.join(root, 'vite.config.ts'));
    log('Web app built.');
  });
}

/**
 * Runs a Vite build and leaves NODE_ENV as it found it: Vite sets it to 'production' in this process
 * when it is unset, and `npm start` builds in the process that then starts the studio, which would then
 * start in production mode (and refuse to start without SMTP_URL) on a fresh checkout.
 */
export async function buildWeb(configFile: string, overrides: Record<string, unknown> = {}): Promise<void> {
  const before = process.env.NODE_ENV;
  try {
    const { build } = await import('vite');
    await build({ configFile, logLevel: 'warn', ...overrides });
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  }
}

const LOCK_STALE_MS = 5 * 60_000;

/** One build at a time per checkout: parallel test runs would otherwise empty web/dist under each other. */
async function withBuildLock(work: () => Promise<void>): Promise<void> {
  const lock = path.join(os.tmpdir(), `genpro-web-build-${Buffer.from(root).toString('hex').slice(-24)}.lock`);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS)
        rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
