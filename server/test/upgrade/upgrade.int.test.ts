import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readJournal } from '../../../scripts/backups/schema.ts';
import { type App, buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { type AppContext, closeContext, createContext } from '../../context.ts';
import { type Database, openPglite, openPostgres } from '../../db/client.ts';
import { STUDIO_JOBS } from '../../jobs.ts';
import { hashPassword, sha256 } from '../../platform/auth/crypto.ts';
import { LocalStorage } from '../../platform/storage/local.ts';
import { previousMigrations } from './previous-migrations.ts';
import { insertStatement, previousSchemaRows } from './previous-schema-fixture.ts';
import { FIXTURE, FIXTURE_PASSWORD } from './previous-schema-ids.ts';

// An upgrade keeps data: a database made by the PREVIOUS schema version (every migration but the last), holding a
// row in every one of its tables, is migrated to the current schema; every row is still there with every value, and
// the studio works on it (log-in, assets and their files, credits, editor sessions, campaigns). pg-boss's own
// schema (pgboss) is left out: the job queue installs and migrates it itself at start.

/**
 * Columns the newest migration is meant to change, by table (a rename, a new type, a backfill): their values are not
 * compared. Empty while the newest migration only adds.
 */
const CHANGED_BY_NEWEST_MIGRATION: Record<string, string[]> = {};

const IMAGE_BYTES = Buffer.from('png bytes');

type Rows = Array<Record<string, unknown>>;

/** The tables of the studio's schemas (not drizzle's journal, not pg-boss), as schema.table. */
async function studioTables(database: Database): Promise<string[]> {
  const { rows } = await database.executeSql(
    `select table_schema || '.' || table_name as name from information_schema.tables
      where table_type = 'BASE TABLE'
        and table_schema not in ('pg_catalog', 'information_schema', 'drizzle', 'pgboss')
      order by 1`,
  );
  return rows.map((r) => String(r.name));
}

/** Every row of a table as PostgreSQL renders it in JSON (the same on both drivers), in a stable order. */
async function tableRows(database: Database, table: string): Promise<Rows> {
  const [schema, name] = table.split('.');
  const { rows } = await database.executeSql(`select to_jsonb(t) as row from "${schema}"."${name}" t`);
  return rows
    .map((r) => (typeof r.row === 'string' ? JSON.parse(r.row) : r.row) as Record<string, unknown>)
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

async function emptyDatabase(): Promise<{ database: Database; url?: string; drop: () => Promise<void> }> {
  if (inject('dbTemplate').kind === 'pglite') {
    const database = await openPglite();
    return { database, drop: async () => undefined };
  }
  const admin = process.env.DATABASE_URL as string;
  const name = `genpro_upgrade_${randomBytes(5).toString('hex')}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    database: await openPostgres(url.toString(), 4),
    url: url.toString(),
    drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

describe('upgrade from the previous schema version', () => {
  let dir: string;
  let target: Awaited<ReturnType<typeof emptyDatabase>>;
  let ctx: AppContext | undefined;
  let app: App | undefined;
  const before = new Map<string, Rows>();
  const after = new Map<string, Rows>();
  let previousTables: string[] = [];
  let currentTables: string[] = [];
  let migrations: { applied: number; last: number };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'genpro-upgrade-'));
    target = await emptyDatabase();
    const previous = await previousMigrations(dir);
    const { database } = target;
    // drizzle's migrator on the studio's own handle: the same code path as Database.migrate(), another folder.
    const db = database.db as unknown as Parameters<typeof migratePg>[0] & Parameters<typeof migratePglite>[0];
    if (database.kind === 'pglite') await migratePglite(db, { migrationsFolder: previous });
    else await migratePg(db, { migrationsFolder: previous });

    const rows = previousSchemaRows({
      passwordHash: await hashPassword(FIXTURE_PASSWORD),
      sessionTokenHash: sha256(FIXTURE.sessionToken),
    });
    for (const row of rows) {
      const { text, values } = insertStatement(row);
      await database.executeSql(text, values);
    }
    previousTables = await studioTables(database);
    for (const table of previousTables) before.set(table, await tableRows(database, table));

    // The upgrade, as `npm run migrate` or a starting studio runs it.
    await database.migrate();
    const { rows: applied } = await database.executeSql(
      'select count(*)::int as applied, max(created_at)::text as last from drizzle.__drizzle_migrations',
    );
    migrations = { applied: Number(applied[0]?.applied), last: Number(applied[0]?.last) };
    currentTables = await studioTables(database);
    for (const table of previousTables) {
      if (currentTables.includes(table)) after.set(table, await tableRows(database, table));
    }
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    if (ctx) await closeContext(ctx);
    else await target?.database.close();
    await target?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('the fixture holds at least one row in every table of the previous schema', () => {
    expect(previousTables.length, JSON.stringify(previousTables)).toBeGreaterThan(30);
    const empty = previousTables.filter((table) => (before.get(table)?.length ?? 0) === 0);
    expect(
      empty,
      `tables of the previous schema without a fixture row: add one in server/test/upgrade/previous-schema-fixture.ts`,
    ).toEqual([]);
  });

  it('migrates to the newest schema and keeps every row with every value', async () => {
    const journal = await readJournal();
    expect(migrations).toEqual({ applied: journal.length, last: journal.at(-1)?.when });
    expect(currentTables.length).toBeGreaterThanOrEqual(previousTables.length);
    for (const table of previousTables) {
      expect(currentTables, `${table} is gone after the upgrade`).toContain(table);
      const skip = new Set(CHANGED_BY_NEWEST_MIGRATION[table.split('.')[1] as string] ?? []);
      const previousColumns = Object.keys(before.get(table)?.[0] ?? {}).filter((c) => !skip.has(c));
      const project = (rows: Rows) =>
        rows
          .map((row) => Object.fromEntries(previousColumns.map((c) => [c, row[c]])))
          .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
      expect(project(after.get(table) as Rows), table).toEqual(project(before.get(table) as Rows));
    }
  });

  it('serves the upgraded data: log-in, the old session, assets and their file, credits, sessions, a campaign', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dir,
      SEED_DEMO: 'false',
      RUN_WORKERS: 'false',
    });
    await new LocalStorage(path.join(dir, 'media')).put(FIXTURE.asset.key, IMAGE_BYTES, {
      contentType: 'image/png',
      storageClass: 'generated',
    });
    ctx = await createContext(config, STUDIO_JOBS, { database: target.database });
    app = await buildApp(ctx);
    await app.ready();
    const live = app;
    const get = (url: string, token: string) =>
      live.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

    const login = await live.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: FIXTURE.creator.email, password: FIXTURE_PASSWORD },
    });
    expect(login.statusCode, login.body).toBe(200);
    const token = (login.json() as { data: { token: string } }).data.token;

    const me = await get('/api/auth/me', FIXTURE.sessionToken);
    expect(me.statusCode, me.body).toBe(200);
    expect(me.body).toContain(FIXTURE.creator.email);

    const assets = await get('/api/ai/assets', token);
    expect(assets.statusCode, assets.body).toBe(200);
    const list = (assets.json() as { data: Array<{ id: string; url: string; prompt: string }> }).data;
    expect(list.map((a) => a.id)).toEqual([FIXTURE.asset.id]);
    const file = await get(list[0]?.url as string, token);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload).toEqual(IMAGE_BYTES);

    const credits = await get('/api/credits/history', token);
    expect(credits.statusCode, credits.body).toBe(200);
    const history = (credits.json() as { data: { balance: number; transactions: Array<{ id: string }> } }).data;
    expect(history.balance).toBe(FIXTURE.creator.credits);
    expect(history.transactions.map((t) => t.id)).toEqual([FIXTURE.creditTransaction.id]);

    const sessions = await get('/api/editor-sessions', token);
    expect(sessions.statusCode, sessions.body).toBe(200);
    const summaries = (sessions.json() as { data: Array<{ id: string; name: string }> }).data;
    expect(summaries.map((s) => [s.id, s.name])).toEqual([[FIXTURE.editorSession.id, FIXTURE.editorSession.name]]);
    const session = await get(`/api/editor-sessions/${FIXTURE.editorSession.id}`, token);
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json()).toMatchObject({ data: { data: { prompt: 'blend' } } });

    const brandLogin = await live.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: FIXTURE.brand.email, password: FIXTURE_PASSWORD },
    });
    expect(brandLogin.statusCode, brandLogin.body).toBe(200);
    const brandToken = (brandLogin.json() as { data: { token: string } }).data.token;
    const campaign = await get(`/api/campaigns/${FIXTURE.campaign.id}`, brandToken);
    expect(campaign.statusCode, campaign.body).toBe(200);
    expect(campaign.json()).toMatchObject({ data: { id: FIXTURE.campaign.id, title: FIXTURE.campaign.title } });
  });
});
