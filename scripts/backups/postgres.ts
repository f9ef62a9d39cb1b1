import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/**
 * How PostgreSQL's client programs reach DATABASE_URL: the URL without its password (which would show in the
 * process list) and PGPASSWORD. libpq reads the same URL syntax, query parameters (sslmode, …) included.
 */
function libpq(url: string, appName: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  const env: NodeJS.ProcessEnv = { ...process.env, PGAPPNAME: appName };
  if (password) env.PGPASSWORD = password;
  return { dbname: u.toString(), env };
}

/** Runs pg_dump / pg_restore (from `binDir`, else PATH), with the messages an operator needs when it fails. */
export async function pgTool(
  tool: 'pg_dump' | 'pg_restore',
  args: string[],
  url: string,
  appName: string,
  binDir?: string,
): Promise<void> {
  const target = libpq(url, appName);
  const command = binDir ? path.join(binDir, tool) : tool;
  try {
    await run(command, [...args, `--dbname=${target.dbname}`], { env: target.env, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === 'ENOENT') {
      throw new Error(
        `${command} was not found: install PostgreSQL's client programs (Debian: apt-get install postgresql-client), ` +
          'or pass --pg-bin <folder holding pg_dump and pg_restore>',
      );
    }
    const stderr = (failure.stderr ?? failure.message).trim();
    const hint = /version mismatch/.test(stderr)
      ? `\n${tool} must be at least as new as the server: pass --pg-bin <folder of a newer client>`
      : '';
    throw new Error(`${tool} failed: ${stderr}${hint}`);
  }
}

export async function connect(url: string, appName: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: appName });
  await client.connect();
  return client;
}

/** The tables of a database outside PostgreSQL's own schemas, by schema. */
export async function tablesBySchema(client: pg.Client): Promise<Map<string, number>> {
  const { rows } = await client.query<{ schema: string; tables: number }>(
    `select n.nspname as schema, count(*)::int as tables
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p')
        and n.nspname not in ('pg_catalog', 'information_schema')
        and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'
      group by 1 order by 1`,
  );
  return new Map(rows.map((r) => [r.schema, r.tables]));
}

/** The schemas the studio creates: its tables, drizzle's migration journal, the job queue. */
const STUDIO_SCHEMAS = ['public', 'drizzle', 'pgboss'] as const;

/** Drops the studio's schemas (and everything in them), leaving an empty `public`. */
export async function dropStudioSchemas(client: pg.Client): Promise<void> {
  await client.query('begin');
  try {
    for (const schema of STUDIO_SCHEMAS) await client.query(`drop schema if exists ${schema} cascade`);
    await client.query('create schema public');
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
}
