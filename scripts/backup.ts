// npm run backup [-- --out <file.tar.gz>] [--include-bucket] [--pg-bin <dir>]
// Writes one archive with a consistent copy of the database, the media and the generated secrets, and a manifest;
// `npm run restore` brings it back into an empty studio. See docs/deploy.md, "Backups and restore".
import { chmod, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { paginateListObjectsV2 } from '@aws-sdk/client-s3';
import { PGlite } from '@electric-sql/pglite';
import { type Config, loadConfig } from '../server/config.ts';
import { createStorage } from '../server/platform/storage/index.ts';
import { isStorageClass } from '../server/platform/storage/keys.ts';
import { LocalStorage } from '../server/platform/storage/local.ts';
import { S3Storage } from '../server/platform/storage/s3.ts';
import {
  type BackupManifest,
  FORMAT,
  FORMAT_VERSION,
  formatBytes,
  formatCounts,
  listMediaFiles,
  MANIFEST_FILE,
  Refusal,
  runCommand,
  sha256File,
  tar,
} from './backups/archive.ts';
import { embeddedDatabaseUse, embeddedInUseMessage } from './backups/embedded.ts';
import { connect, pgTool } from './backups/postgres.ts';
import {
  appliedSchema,
  countStudioRows,
  readJournal,
  type SchemaVersion,
  type StudioCounts,
} from './backups/schema.ts';

const USAGE = 'Usage: npm run backup [-- --out <file.tar.gz>] [--include-bucket] [--pg-bin <dir>]';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface DatabaseCopy {
  file: string;
  serverVersion: string;
  pgliteVersion?: string;
  schema: SchemaVersion;
  counts: StudioCounts;
}

async function packageVersion(file: string): Promise<string> {
  return (JSON.parse(await readFile(file, 'utf8')) as { version: string }).version;
}

/**
 * The embedded database: refused while another process has it open; otherwise opened here, checkpointed and
 * dumped whole (PGlite's dumpDataDir), which nothing else can change meanwhile.
 */
async function copyPglite(config: Config, staging: string): Promise<DatabaseCopy> {
  const pgDir = path.join(config.dataDir, 'pg');
  if (!(await stat(path.join(pgDir, 'PG_VERSION')).catch(() => null))) {
    throw new Refusal(`There is no embedded database in ${pgDir} (DATA_DIR=${config.DATA_DIR}); nothing to back up.`);
  }
  const use = await embeddedDatabaseUse(pgDir);
  const busy = embeddedInUseMessage(use, 'npm run backup', pgDir);
  if (busy) throw new Refusal(busy);
  if (use.pidFile) console.log('The embedded database was not closed cleanly last time; opening it recovers it.');

  const db = await PGlite.create({ dataDir: pgDir });
  try {
    const query = async (sql: string) => (await db.query<Record<string, unknown>>(sql)).rows;
    const schema = await appliedSchema(query, await readJournal());
    if (!schema) throw new Refusal(`The embedded database in ${pgDir} has no studio schema; nothing to back up.`);
    const counts = await countStudioRows(query);
    const [version] = await query('show server_version');
    await db.exec('CHECKPOINT');
    const dump = await db.dumpDataDir('none');
    const file = 'database/pglite-data.tar';
    await writeFile(path.join(staging, file), Buffer.from(await dump.arrayBuffer()));
    const pgliteMain = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
    return {
      file,
      serverVersion: String(version?.server_version),
      pgliteVersion: await packageVersion(path.join(path.dirname(pgliteMain), '..', 'package.json')),
      schema,
      counts,
    };
  } finally {
    await db.close();
  }
}

/**
 * PostgreSQL: the counts and pg_dump read one snapshot (exported by a repeatable-read transaction held open until
 * pg_dump has finished), so the manifest describes exactly what the dump holds, while the studio keeps running.
 */
async function copyPostgres(url: string, staging: string, pgBin?: string): Promise<DatabaseCopy> {
  const client = await connect(url, 'genpro-backup');
  try {
    await client.query('begin isolation level repeatable read read only');
    const query = async (sql: string) => (await client.query<Record<string, unknown>>(sql)).rows;
    const schema = await appliedSchema(query, await readJournal());
    if (!schema) throw new Refusal('The database at DATABASE_URL has no studio schema; nothing to back up.');
    const counts = await countStudioRows(query);
    const [version] = await query('show server_version');
    const [snapshot] = await query('select pg_export_snapshot() as id');
    const file = 'database/postgres.dump';
    await pgTool(
      'pg_dump',
      ['--format=custom', `--snapshot=${snapshot?.id}`, `--file=${path.join(staging, file)}`, '--no-password'],
      url,
      'genpro-backup',
      pgBin,
    );
    await client.query('commit');
    return { file, serverVersion: String(version?.server_version), schema, counts };
  } finally {
    await client.end();
  }
}

/** Copies every object of the bucket into `root` in the local-disk layout (bytes, and a sidecar with type and tags). */
async function copyBucket(storage: S3Storage, root: string): Promise<number> {
  const target = new LocalStorage(root);
  let copied = 0;
  for await (const page of paginateListObjectsV2({ client: storage.client }, { Bucket: storage.bucket })) {
    for (const object of page.Contents ?? []) {
      const key = object.Key;
      if (!key) continue;
      const info = await storage.head(key);
      if (!info) continue; // deleted since listed, or not a studio key
      const [first, second] = key.split('/');
      const storageClass = first === 'temp' ? second : first;
      await target.put(key, await storage.read(key), {
        contentType: info.contentType,
        storageClass: storageClass && isStorageClass(storageClass) ? storageClass : 'upload',
        tags: info.tags,
      });
      copied++;
    }
  }
  return copied;
}

function defaultOutput(now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
  return path.resolve('backups', `genpro-backup-${stamp}.tar.gz`);
}

async function main(): Promise<void> {
  let values: { out?: string; 'include-bucket'?: boolean; 'pg-bin'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        out: { type: 'string' },
        'include-bucket': { type: 'boolean' },
        'pg-bin': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new Refusal(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  const createdAt = new Date();
  const out = path.resolve(values.out ?? defaultOutput(createdAt));
  await mkdir(path.dirname(out), { recursive: true, mode: 0o700 });
  // Beside the archive, where the operator has made room for it.
  const staging = await mkdtemp(path.join(path.dirname(out), '.genpro-backup-'));
  const partial = `${out}.partial`;
  try {
    await mkdir(path.join(staging, 'database'));
    // The database first, then the media: a file deleted in between is the only thing the copy can miss, and the
    // studio deletes files rarely (uploads made in between are merely extra files).
    const database = config.DATABASE_URL
      ? await copyPostgres(config.DATABASE_URL, staging, values['pg-bin'])
      : await copyPglite(config, staging);

    const storage = createStorage(config);
    const members: string[] = [];
    let media = { files: 0, bytes: 0 };
    if (storage instanceof S3Storage) {
      if (values['include-bucket']) {
        const copied = await copyBucket(storage, path.join(staging, 'media'));
        media = { files: copied, bytes: (await listMediaFiles(path.join(staging, 'media'))).bytes };
        if (copied > 0) members.push('-C', staging, 'media');
      }
    } else {
      const local = await listMediaFiles(path.join(config.dataDir, 'media'));
      media = { files: local.keys.length, bytes: local.bytes };
      if (local.keys.length > 0) members.push('-C', config.dataDir, 'media');
    }
    const secretsDir = path.join(config.dataDir, 'secrets');
    const secrets = (await listMediaFiles(secretsDir)).keys;
    if (secrets.length > 0) members.push('-C', config.dataDir, 'secrets');

    const databaseFile = path.join(staging, database.file);
    const manifest: BackupManifest = {
      format: FORMAT,
      formatVersion: FORMAT_VERSION,
      studioVersion: await packageVersion(path.join(ROOT, 'package.json')),
      createdAt: createdAt.toISOString(),
      schema: database.schema,
      database: {
        kind: config.DATABASE_URL ? 'postgres' : 'pglite',
        file: database.file,
        bytes: (await stat(databaseFile)).size,
        sha256: await sha256File(databaseFile),
        serverVersion: database.serverVersion,
        ...(database.pgliteVersion ? { pgliteVersion: database.pgliteVersion } : {}),
      },
      storage:
        storage instanceof S3Storage
          ? {
              kind: 's3',
              bucket: storage.bucket,
              endpoint: config.S3_ENDPOINT,
              region: config.S3_REGION,
              included: Boolean(values['include-bucket']),
            }
          : { kind: 'local', included: true },
      media,
      secrets,
      counts: database.counts,
    };
    await writeFile(path.join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);

    // Writes still in progress (`.<uuid>.part`) are not objects.
    const result = await tar([
      '-czf',
      partial,
      '--exclude=.*.part',
      '-C',
      staging,
      MANIFEST_FILE,
      'database',
      ...members,
    ]);
    if (result.code === 1) {
      console.warn(`Some media files changed while they were read (the studio is running):\n${result.stderr.trim()}`);
    }
    await chmod(partial, 0o600);
    await rename(partial, out);

    const size = (await stat(out)).size;
    const schema = database.schema.tag ?? `unknown (${database.schema.when})`;
    console.log(`Backup written to ${out} (${formatBytes(size)}).`);
    console.log(
      `  database: ${manifest.database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'} ${database.serverVersion}, ` +
        `schema ${schema}: ${formatCounts(database.counts)}`,
    );
    if (manifest.storage.kind === 's3' && !manifest.storage.included) {
      console.log(
        `  media: not copied: they stay in S3 bucket ${manifest.storage.bucket} (keep its versioning on; ` +
          '--include-bucket copies them into the archive)',
      );
    } else {
      console.log(`  media: ${media.files} files, ${formatBytes(media.bytes)}`);
    }
    console.log(`  secrets: ${secrets.length > 0 ? secrets.join(', ') : 'none in DATA_DIR/secrets'}`);
    console.log('  The archive holds secrets and personal data: keep it where only operators can read it.');
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}

runCommand('backup', main);
