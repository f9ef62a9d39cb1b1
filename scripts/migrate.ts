// npm run migrate: applies the database migrations and installs the job queue's schema, under the start-up lock
// (safe beside starting or running processes on PostgreSQL), and prints where the schema stands. The deploy
// pipeline's step before starting processes with MIGRATE_ON_START=false (docs/deploy.md). Embedded (PGlite, no
// DATABASE_URL): stop `npm start` first, its files belong to one process at a time.
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { STUDIO_JOBS } from '../server/jobs.ts';
import { describeSchema, migrateDatabase } from '../server/platform/startup.ts';

async function main(): Promise<number> {
  // Only what reaching the database needs: a pipeline need not carry the app's other settings.
  const config = loadConfig({ DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR });
  const database = await openDatabase(config, 'genpro-migrate');
  try {
    const log = { info: (line: string) => console.log(line), warn: (line: string) => console.warn(line) };
    const report = await migrateDatabase(database, STUDIO_JOBS, log);
    console.log(`${describeSchema(report)}; job queue schema installed`);
    return 0;
  } finally {
    await database.close();
  }
}

/** The error and its cause (drizzle wraps PostgreSQL's error in "Failed query: …"). */
function explain(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  const message = error.message.startsWith('Failed query:') ? error.message.split('\n')[0] : error.message;
  return `${message}${cause}`;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`npm run migrate failed: ${explain(error)}`);
    process.exit(1);
  },
);
