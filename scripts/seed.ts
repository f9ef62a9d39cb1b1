// npm run seed: creates the demo accounts when the database has no users yet (npm start does this too).
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { formatDemoAccounts, seedDemoIfEmpty } from '../server/features/auth/seed.ts';
import { systemClock } from '../server/platform/clock.ts';

async function main(): Promise<number> {
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    await database.migrate();
    const accounts = await seedDemoIfEmpty({ db: database.db, clock: systemClock });
    console.log(accounts ? formatDemoAccounts(accounts) : 'The database already has users; nothing was seeded.');
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`seed failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
