import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Scratch folders for media work (ffmpeg inputs and outputs, downloads) live under
 * `<tmp>/genpro-work/<pid>/`, so what a killed process left behind is known by its process id and
 * swept at the next start (`sweepDeadWorkDirs`) without touching the folders of processes still running.
 */
const ROOT = path.join(os.tmpdir(), 'genpro-work');

/** Temp-folder prefixes of earlier versions, made directly in the temp folder. */
const LEGACY_PREFIXES = [
  'genpro-engine-',
  'genpro-media-',
  'genpro-veo-',
  'genpro-vendor-',
  'genpro-input-',
  'genpro-master-',
  'genpro-store-probe-',
];
const LEGACY_MIN_AGE_MS = 6 * 3_600_000;

let ownRoot: Promise<string> | undefined;

/** A new, empty scratch folder of this process (`label` names it in listings); remove it when done. */
export async function makeWorkDir(label: string): Promise<string> {
  ownRoot ??= mkdir(path.join(ROOT, String(process.pid)), { recursive: true }).then(() =>
    path.join(ROOT, String(process.pid)),
  );
  return mkdtemp(path.join(await ownRoot, `${label}-`));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the scratch folders of processes that are gone, and earlier versions' temp folders older than
 * six hours. Returns how many folders were removed.
 */
export async function sweepDeadWorkDirs(options: { root?: string; tmp?: string } = {}): Promise<number> {
  const root = options.root ?? ROOT;
  const tmp = options.tmp ?? os.tmpdir();
  let removed = 0;
  for (const entry of await readdir(root).catch(() => [] as string[])) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || isAlive(pid)) continue;
    await rm(path.join(root, entry), { recursive: true, force: true });
    removed++;
  }
  const now = Date.now();
  for (const entry of await readdir(tmp).catch(() => [] as string[])) {
    if (!LEGACY_PREFIXES.some((prefix) => entry.startsWith(prefix))) continue;
    const info = await stat(path.join(tmp, entry)).catch(() => null);
    if (!info?.isDirectory() || now - info.mtimeMs < LEGACY_MIN_AGE_MS) continue;
    await rm(path.join(tmp, entry), { recursive: true, force: true });
    removed++;
  }
  return removed;
}
