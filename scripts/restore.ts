// npm run restore -- <backup.tar.gz> [--replace] [--pg-bin <dir>]
// Brings a `npm run backup` archive back into an empty studio (the database and storage this environment
// configures), then applies the migrations this code has that the backup lacks. See docs/deploy.md.
import { createReadStream } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { type Config, loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { createStorage } from '../server/platform/storage/index.ts';
import { isStorageClass } from '../server/platform/storage/keys.ts';
import {
  type BackupManifest,
  FORMAT_VERSION,
  formatBytes,
  formatCounts,
  hasFiles,
  listMediaFiles,
  MANIFEST_FILE,
  manifestSchema,
  Refusal,
  readSidecar,
  runCommand,
  sha256File,
  tar,
} from './backups/archive.ts';
import { embeddedDatabaseUse, embeddedInUseMessage } from './backups/embedded.ts';
import { connect, dropStudioSchemas, pgTool, tablesBySchema } from './backups/postgres.ts';
import { appliedSchema, countStudioRows, isNewerThanCode, readJournal } from './backups/schema.ts';

const USAGE = 'Usage: npm run restore -- <backup.tar.gz> [--replace] [--pg-bin <dir>]';

interface Options {
  archive: string;
  replace: boolean;
  pgBin?: string;
}

const FLAGS = {
  replace: { type: 'boolean' },
  'pg-bin': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parseOptions(): Options | null {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof FLAGS; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ options: FLAGS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new Refusal(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  if (parsed.values.help) return null;
  if (parsed.positionals.length !== 1) throw new Refusal(`Name one backup archive.\n${USAGE}`);
  return {
    archive: path.resolve(parsed.positionals[0] as string),
    replace: Boolean(parsed.values.replace),
    pgBin: parsed.values['pg-bin'],
  };
}

async function readManifest(archive: string, staging: string): Promise<BackupManifest> {
  try {
    // An archive repacked by hand (`tar -C dir .`) names it ./manifest.json.
    await tar(['-xzf', archive, '-C', staging, MANIFEST_FILE]).catch(() =>
      tar(['-xzf', archive, '-C', staging, `./${MANIFEST_FILE}`]),
    );
    const parsed = manifestSchema.safeParse(JSON.parse(await readFile(path.join(staging, MANIFEST_FILE), 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // reported below
  }
  throw new Refusal(`${archive} is not a GenPro Studio backup (no readable ${MANIFEST_FILE}).`);
}

/** What the target already holds: each entry one line of the refusal. */
async function occupied(config: Config, manifest: BackupManifest): Promise<string[]> {
  const found: string[] = [];
  if (config.DATABASE_URL) {
    const client = await connect(config.DATABASE_URL, 'genpro-restore');
    try {
      const tables = await tablesBySchema(client);
      if (tables.size > 0) {
        const users = tables.has('public')
          ? await client
              .query<{ n: number }>(
                `select case when to_regclass('public.users') is null then null else (select count(*)::int from public.users) end as n`,
              )
              .then((r) => r.rows[0]?.n ?? null)
          : null;
        const list = [...tables].map(([schema, n]) => `${schema}: ${n}`).join(', ');
        found.push(
          `the PostgreSQL database at DATABASE_URL has tables (${list})${users === null ? '' : `, ${users} users`}`,
        );
      }
    } finally {
      await client.end();
    }
  } else if (await hasFiles(path.join(config.dataDir, 'pg'))) {
    found.push(`${path.join(config.dataDir, 'pg')} holds an embedded database`);
  }
  if (!config.S3_BUCKET) {
    const media = await listMediaFiles(path.join(config.dataDir, 'media'));
    if (media.keys.length > 0)
      found.push(`${path.join(config.dataDir, 'media')} holds ${media.keys.length} media files`);
  }
  const existing = (await listMediaFiles(path.join(config.dataDir, 'secrets'))).keys;
  const clashing = manifest.secrets.filter((name) => existing.includes(name));
  if (clashing.length > 0) found.push(`${path.join(config.dataDir, 'secrets')} already has ${clashing.join(', ')}`);
  return found;
}

/** --replace: moves the embedded database, local media and clashing secrets aside; drops PostgreSQL's studio schemas. */
async function clearTarget(config: Config): Promise<void> {
  const aside = path.join(config.dataDir, `replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const moved: string[] = [];
  const moveAside = async (name: string) => {
    const from = path.join(config.dataDir, name);
    if (!(await stat(from).catch(() => null))) return;
    await mkdir(aside, { recursive: true, mode: 0o700 });
    await rename(from, path.join(aside, name));
    moved.push(name);
  };
  if (config.DATABASE_URL) {
    const client = await connect(config.DATABASE_URL, 'genpro-restore');
    try {
      await dropStudioSchemas(client);
      const left = await tablesBySchema(client);
      if (left.size > 0) {
        throw new Refusal(
          `The database still has tables outside the studio's schemas (${[...left.keys()].join(', ')}) after ` +
            'dropping public, drizzle and pgboss: restore into a new database.',
        );
      }
    } finally {
      await client.end();
    }
    console.log('Replaced: dropped the schemas public, drizzle and pgboss of the database at DATABASE_URL.');
  } else {
    await moveAside('pg');
  }
  if (!config.S3_BUCKET) await moveAside('media');
  await moveAside('secrets');
  if (moved.length > 0) console.log(`Replaced: moved ${moved.join(', ')} aside to ${aside}.`);
}

async function restoreDatabase(config: Config, manifest: BackupManifest, file: string, pgBin?: string): Promise<void> {
  if (config.DATABASE_URL) {
    await pgTool(
      'pg_restore',
      ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', '--no-password', file],
      config.DATABASE_URL,
      'genpro-restore',
      pgBin,
    );
    return;
  }
  const pgDir = path.join(config.dataDir, 'pg');
  await mkdir(pgDir, { recursive: true });
  try {
    const db = await PGlite.create({ dataDir: pgDir, loadDataDir: new Blob([await readFile(file)]) });
    await db.close();
  } catch (error) {
    await rm(pgDir, { recursive: true, force: true });
    throw new Error(
      `PGlite could not open the archived database (made by PostgreSQL ${manifest.database.serverVersion} in ` +
        `PGlite ${manifest.database.pgliteVersion ?? 'unknown'}): ${error instanceof Error ? error.message : error}`,
    );
  }
}

/** Puts the archive's media into the configured storage: a rename onto local disk, an upload per object to S3. */
async function restoreMedia(config: Config, mediaDir: string): Promise<number> {
  const { keys } = await listMediaFiles(mediaDir);
  if (keys.length === 0) return 0;
  const storage = createStorage(config);
  if (storage.kind === 'local') {
    const target = path.join(config.dataDir, 'media');
    await rm(target, { recursive: true, force: true }); // holds no file (checked), at most empty folders
    await rename(mediaDir, target);
    return keys.length;
  }
  for (const key of keys) {
    const file = path.join(mediaDir, ...key.split('/'));
    const sidecar = await readSidecar(mediaDir, key);
    const storageClass = sidecar?.storageClass ?? '';
    await storage.put(key, createReadStream(file), {
      contentType: sidecar?.contentType ?? 'application/octet-stream',
      storageClass: isStorageClass(storageClass) ? storageClass : 'upload',
      tags: sidecar?.tags ?? {},
      contentLength: (await stat(file)).size,
    });
  }
  return keys.length;
}

async function restoreSecrets(config: Config, secretsDir: string): Promise<string[]> {
  const names = await readdir(secretsDir).catch(() => [] as string[]);
  if (names.length === 0) return [];
  const target = path.join(config.dataDir, 'secrets');
  await mkdir(target, { recursive: true, mode: 0o700 });
  for (const name of names) {
    await rename(path.join(secretsDir, name), path.join(target, name));
    await chmod(path.join(target, name), 0o600);
  }
  return names;
}

async function main(): Promise<void> {
  const options = parseOptions();
  if (!options) {
    console.log(USAGE);
    return;
  }
  if (!(await stat(options.archive).catch(() => null))?.isFile()) throw new Refusal(`${options.archive} not found.`);
  const config = loadConfig();
  await mkdir(config.dataDir, { recursive: true });
  // Inside DATA_DIR, so the media are renamed into place rather than copied.
  const staging = await mkdtemp(path.join(config.dataDir, '.restore-'));
  try {
    const manifest = await readManifest(options.archive, staging);
    if (manifest.formatVersion > FORMAT_VERSION) {
      throw new Refusal(
        `This backup has format version ${manifest.formatVersion}; this studio reads up to ${FORMAT_VERSION}. ` +
          `Restore it with GenPro Studio ${manifest.studioVersion} or newer.`,
      );
    }
    const journal = await readJournal();
    const newest = journal.at(-1)?.tag ?? 'none';
    if (isNewerThanCode(manifest.schema, journal)) {
      throw new Refusal(
        `This backup comes from a newer schema (${manifest.schema.tag ?? `migration of ${manifest.schema.when}`}, ` +
          `GenPro Studio ${manifest.studioVersion}) than this code knows (${newest}). Restore it with that version ` +
          'of the studio or a newer one.',
      );
    }
    const kind = config.DATABASE_URL ? 'postgres' : 'pglite';
    if (manifest.database.kind !== kind) {
      const name = { pglite: 'the embedded database (PGlite)', postgres: 'PostgreSQL' };
      throw new Refusal(
        `This backup holds ${name[manifest.database.kind]}, but this environment is set up for ${name[kind]} ` +
          `(${kind === 'postgres' ? 'DATABASE_URL is set' : 'DATABASE_URL is unset'}). A backup restores into the same kind of database.`,
      );
    }
    const pgDir = path.join(config.dataDir, 'pg');
    if (!config.DATABASE_URL) {
      const busy = embeddedInUseMessage(await embeddedDatabaseUse(pgDir), 'npm run restore', pgDir);
      if (busy) throw new Refusal(busy);
    }
    const found = await occupied(config, manifest);
    if (found.length > 0 && !options.replace) {
      throw new Refusal(
        `The target studio is not empty:\n  ${found.join('\n  ')}\nnpm run restore only fills an empty studio: ` +
          'point DATABASE_URL / DATA_DIR at new ones, or pass --replace to discard what is there ' +
          '(PostgreSQL: its schemas public, drizzle and pgboss are dropped; files are moved aside in DATA_DIR).',
      );
    }

    await tar(['-xzf', options.archive, '-C', staging]);
    const dump = path.join(staging, manifest.database.file);
    if ((await sha256File(dump)) !== manifest.database.sha256) {
      throw new Error(`${manifest.database.file} in the archive does not match its checksum: the archive is damaged.`);
    }
    if (found.length > 0) await clearTarget(config);

    await restoreDatabase(config, manifest, dump, options.pgBin);
    const database = await openDatabase(config, 'genpro-restore');
    let counts: BackupManifest['counts'];
    let schemaAfter: string;
    try {
      const query = async (sql: string) => (await database.executeSql(sql)).rows;
      // The studio migrates at start anyway; doing it here reports it, and fails here rather than at start.
      await database.migrate();
      const after = await appliedSchema(query, journal);
      schemaAfter = after?.tag ?? 'unknown';
      counts = await countStudioRows(query);
    } finally {
      await database.close();
    }

    const media = await restoreMedia(config, path.join(staging, 'media'));
    const secrets = await restoreSecrets(config, path.join(staging, 'secrets'));

    const from = manifest.schema.tag ?? String(manifest.schema.when);
    console.log(`Restored the backup of ${manifest.createdAt} (GenPro Studio ${manifest.studioVersion}).`);
    console.log(
      `  database: ${kind === 'pglite' ? `PGlite in ${pgDir}` : 'PostgreSQL at DATABASE_URL'}, schema ${from}` +
        `${from === schemaAfter ? '' : `, migrated to ${schemaAfter}`}: ${formatCounts(counts)}`,
    );
    if (manifest.storage.kind === 's3' && !manifest.storage.included) {
      console.log(
        `  media: not in this archive: they are in S3 bucket ${manifest.storage.bucket}` +
          `${config.S3_BUCKET === manifest.storage.bucket ? ' (the bucket configured here)' : '; point S3_BUCKET at it, or at a copy of it'}`,
      );
    } else {
      const where = config.S3_BUCKET ? `S3 bucket ${config.S3_BUCKET}` : path.join(config.dataDir, 'media');
      console.log(`  media: ${media} files (${formatBytes(manifest.media.bytes)}) into ${where}`);
    }
    console.log(
      `  secrets: ${secrets.length > 0 ? `${secrets.join(', ')} into ${path.join(config.dataDir, 'secrets')}` : 'none in the archive'}` +
        ' (if the backed-up studio had APP_SECRET or MEDIA_URL_SECRET set, set the same values here)',
    );
    for (const [name, before] of Object.entries(manifest.counts)) {
      const now = counts[name as keyof typeof counts];
      if (before !== null && now !== before) console.warn(`  warning: ${name}: ${now} here, ${before} in the backup`);
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

runCommand('restore', main);
