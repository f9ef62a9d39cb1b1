import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Database, openPglite, openPostgres } from '../db/client.ts';
import { STUDIO_JOBS } from '../jobs.ts';
import { installJobSchema } from '../platform/jobs/schema.ts';

/** Test databases: one migrated template per run, copied for every test file. */
export interface TemplateRef {
  kind: 'pglite' | 'postgres';
  /** pglite: the dump file; postgres: the template database name. */
  location: string;
}

function adminUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required for the postgres test project');
  return url;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function prepare(database: Database): Promise<void> {
  await database.migrate();
  await installJobSchema(database, STUDIO_JOBS);
}

/** Run by vitest's globalSetup: builds the template with migrations and the job queue schema. */
export async function buildTemplate(
  kind: 'pglite' | 'postgres',
): Promise<{ ref: TemplateRef; dispose: () => Promise<void> }> {
  const runId = `${process.pid}_${randomBytes(3).toString('hex')}`;
  if (kind === 'postgres') {
    const name = `genpro_tpl_${runId}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    const database = await openPostgres(withDatabase(adminUrl(), name), 2, 'genpro-test');
    await prepare(database);
    await database.close();
    return {
      ref: { kind, location: name },
      dispose: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    };
  }
  const database = await openPglite();
  await prepare(database);
  const dump = await database.pglite!.dumpDataDir('gzip');
  const file = path.join(os.tmpdir(), `genpro-template-${runId}.tar.gz`);
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  return { ref: { kind, location: file }, dispose: async () => undefined };
}

/** A fresh, migrated database for one test file; closing it drops it. */
export async function openTestDatabase(ref: TemplateRef): Promise<Database> {
  if (ref.kind === 'postgres') {
    const name = `genpro_t_${randomBytes(6).toString('hex')}`;
    await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${ref.location}`);
    const database = await openPostgres(withDatabase(adminUrl(), name), 4, 'genpro-test');
    return {
      ...database,
      close: async () => {
        await database.close();
        await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  }
  const bytes = await readFile(ref.location);
  return openPglite({ loadDataDir: new Blob([bytes]) });
}
