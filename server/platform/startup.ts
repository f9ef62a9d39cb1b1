import type { FastifyBaseLogger } from 'fastify';
import { type Config, ConfigError } from '../config.ts';
import { type Database, type MigrationStatus, migrationStatus } from '../db/client.ts';
import { installJobSchema, jobSchemaReady } from './jobs/schema.ts';
import type { JobKinds } from './jobs/types.ts';
import { loadStoredSecrets, type StoredSecrets } from './secrets.ts';

// What a process needs of its database before it serves (docs/deploy.md, "Migrations and start-up"): the
// migrations, pg-boss's schema and the generated secrets, each created by one process at a time under the
// start-up lock, so processes started together on an empty PostgreSQL database do not race.

type Log = Pick<FastifyBaseLogger, 'info' | 'warn'>;

const WAIT_POLL_MS = 1000;

export interface SchemaReport {
  before: MigrationStatus;
  after: MigrationStatus;
}

/** Applies the migrations and installs the job queue's schema (and the queues of `kinds`) under the start-up lock. */
export function migrateDatabase(database: Database, kinds: JobKinds | undefined, log: Log): Promise<SchemaReport> {
  return database.withStartupLock(
    async () => {
      const before = await migrationStatus(database);
      await database.migrate();
      await installJobSchema(database, kinds);
      return { before, after: await migrationStatus(database) };
    },
    () => log.info('another process holds the start-up lock (migrating); waiting for it'),
  );
}

/** "database schema at 0016_operations (17 migrations; 1 applied now)" */
export function describeSchema(report: SchemaReport): string {
  const now = report.after.applied - report.before.applied;
  return `database schema at ${report.after.current ?? 'nothing'} (${report.after.total} migrations; ${now} applied now)`;
}

/**
 * Start-up: with MIGRATE_ON_START, migrates (migrateDatabase); otherwise waits for the schema (waitForSchema).
 * Then loads the generated secrets of the variables left unset (creating them once, under the lock).
 */
export async function prepareDatabase(
  database: Database,
  config: Pick<Config, 'MIGRATE_ON_START' | 'MIGRATE_WAIT_SECONDS' | 'APP_SECRET' | 'MEDIA_URL_SECRET' | 'dataDir'>,
  kinds: JobKinds | undefined,
  log: Log,
): Promise<StoredSecrets> {
  if (!config.MIGRATE_ON_START) await waitForSchema(database, config, log);
  return database.withStartupLock(
    async () => {
      if (config.MIGRATE_ON_START) {
        const report = await migrateDatabase(database, kinds, log);
        if (report.after.applied > report.before.applied) log.info(describeSchema(report));
      }
      return loadStoredSecrets(database.db, config, log);
    },
    () => log.info('another process holds the start-up lock (migrating); waiting for it'),
  );
}

/**
 * MIGRATE_ON_START=false: waits until every migration of this code and pg-boss's schema are in the database,
 * logging what is missing, for up to MIGRATE_WAIT_SECONDS; then throws a ConfigError naming `npm run migrate`.
 * An embedded database belongs to this process, so nothing else can migrate it meanwhile: no wait there.
 */
async function waitForSchema(
  database: Database,
  config: Pick<Config, 'MIGRATE_WAIT_SECONDS'>,
  log: Log,
): Promise<void> {
  const deadline = Date.now() + (database.kind === 'pglite' ? 0 : config.MIGRATE_WAIT_SECONDS * 1000);
  let said = '';
  for (;;) {
    const status = await migrationStatus(database);
    const jobs = await jobSchemaReady(database);
    if (status.applied === status.total && jobs) return;
    const missing = `${status.applied} of ${status.total} migrations applied${jobs ? '' : ', job queue schema not installed'}`;
    if (Date.now() >= deadline) {
      const waited = database.kind === 'pglite' ? '' : ` after ${config.MIGRATE_WAIT_SECONDS} s`;
      throw new ConfigError(
        `The database schema is not ready${waited} (${missing}) and MIGRATE_ON_START=false leaves migrating to the deploy pipeline: run \`npm run migrate\` against this database first, or start a process with MIGRATE_ON_START=true (MIGRATE_WAIT_SECONDS sets how long to wait).`,
      );
    }
    if (missing !== said) {
      log.warn(`waiting for the database schema: ${missing}; run \`npm run migrate\``);
      said = missing;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(WAIT_POLL_MS, deadline - Date.now())));
  }
}
