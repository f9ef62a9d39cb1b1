import { loadConfig } from '../server/config.ts';
import { type Db, openDatabase } from '../server/db/client.ts';
import { type Clock, systemClock } from '../server/platform/clock.ts';

/**
 * Runs an operator command against the configured database (migrated first) and exits with its code.
 * In embedded mode stop `npm start` first: PGlite's files belong to one process at a time.
 */
export function runDatabaseCommand(name: string, command: (deps: { db: Db; clock: Clock }) => Promise<number>): void {
  const main = async () => {
    const database = await openDatabase(loadConfig(), `genpro-${name}`);
    try {
      await database.migrate();
      return await command({ db: database.db, clock: systemClock });
    } finally {
      await database.close();
    }
  };
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
