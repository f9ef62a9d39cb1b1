import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';

// One backup is one gzip'd tar archive (made and read by the system `tar`, GNU or bsdtar):
//   manifest.json            what is inside (BackupManifest), first so it can be read alone
//   database/pglite-data.tar the embedded database's data directory (PGlite dumpDataDir), or
//   database/postgres.dump   pg_dump's custom format
//   media/                   the media objects in the local-disk layout: <key> and .meta/<key>.json (type, class, tags)
//   secrets/                 DATA_DIR/secrets: the secrets the studio generated for itself (older installs)

export const MANIFEST_FILE = 'manifest.json';
export const FORMAT = 'genpro-studio-backup';
export const FORMAT_VERSION = 1;

const counts = z.object({
  users: z.number().int().nullable(),
  assets: z.number().int().nullable(),
  mediaObjects: z.number().int().nullable(),
});

export const manifestSchema = z.object({
  format: z.literal(FORMAT),
  formatVersion: z.number().int().min(1),
  studioVersion: z.string(),
  createdAt: z.string(),
  schema: z.object({ tag: z.string().nullable(), when: z.number().int(), applied: z.number().int() }),
  database: z.object({
    kind: z.enum(['pglite', 'postgres']),
    /** Path of the dump inside the archive. */
    file: z.string(),
    bytes: z.number().int(),
    sha256: z.string(),
    /** PostgreSQL's server_version (PGlite: the PostgreSQL inside it). */
    serverVersion: z.string(),
    /** @electric-sql/pglite's version, for an embedded database. */
    pgliteVersion: z.string().optional(),
  }),
  storage: z.object({
    kind: z.enum(['local', 's3']),
    bucket: z.string().optional(),
    endpoint: z.string().optional(),
    region: z.string().optional(),
    /** Whether media/ holds the objects (always for local disk; for S3 only with --include-bucket). */
    included: z.boolean(),
  }),
  media: z.object({ files: z.number().int(), bytes: z.number().int() }),
  /** File names under secrets/ (never their values). */
  secrets: z.array(z.string()),
  counts,
});
export type BackupManifest = z.infer<typeof manifestSchema>;

const run = promisify(execFile);

/** Runs the system tar; GNU tar's exit code 1 ("some files differ", e.g. a file changed while read) is returned, not thrown. */
export async function tar(args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run('tar', args, { maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stderr };
  } catch (error) {
    const failure = error as { code?: number | string; stderr?: string; message: string };
    if (failure.code === 'ENOENT') throw new Error('the `tar` command was not found: install tar (GNU tar or bsdtar)');
    if (failure.code === 1) return { code: 1, stderr: failure.stderr ?? '' };
    throw new Error(`tar ${args[0]} failed: ${(failure.stderr ?? failure.message).trim()}`);
  }
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The keys (relative paths with `/`) of the media objects under a local-disk media root, with their total size. */
export async function listMediaFiles(root: string): Promise<{ keys: string[]; bytes: number }> {
  const keys: string[] = [];
  let bytes = 0;
  const walk = async (dir: string, prefix: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      // Sidecars live under .meta/; writes in progress are `.<uuid>.part`: neither is an object.
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full, `${prefix}${entry.name}/`);
      else if (entry.isFile()) {
        keys.push(`${prefix}${entry.name}`);
        bytes += (await stat(full)).size;
      }
    }
  };
  await walk(root, '');
  return { keys: keys.sort(), bytes };
}

/** Whether a folder holds any file at all (missing: no). */
export async function hasFiles(dir: string): Promise<boolean> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  for (const entry of entries) {
    if (!entry.isDirectory()) return true;
    if (await hasFiles(path.join(dir, entry.name))) return true;
  }
  return false;
}

/** The sidecar LocalStorage keeps beside an object (server/platform/storage/local.ts). */
export async function readSidecar(
  root: string,
  key: string,
): Promise<{ contentType: string; storageClass: string; tags: Record<string, string> } | null> {
  try {
    return JSON.parse(await readFile(path.join(root, '.meta', `${key.split('/').join(path.sep)}.json`), 'utf8'));
  } catch {
    return null;
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** "5 users, 12 assets, 30 media objects" (a table the schema lacks is left out). */
export function formatCounts(c: z.infer<typeof counts>): string {
  const parts: string[] = [];
  if (c.users !== null) parts.push(`${c.users} users`);
  if (c.assets !== null) parts.push(`${c.assets} assets`);
  if (c.mediaObjects !== null) parts.push(`${c.mediaObjects} media objects`);
  return parts.join(', ');
}

/** Thrown for a refusal: nothing was changed, and the message says why and what to do (exit code 2). */
export class Refusal extends Error {}

/** Runs a backup/restore command: exit 0 on success, 2 on a Refusal, 1 on any other failure. */
export function runCommand(name: string, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      if (error instanceof Refusal) {
        console.error(`${name}: ${error.message}`);
        process.exit(2);
      }
      console.error(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
