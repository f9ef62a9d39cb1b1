// npm run seed: creates the demo accounts when the database has no users yet (npm start does this too).
import { formatDemoAccounts, seedDemoIfEmpty } from '../server/features/auth/seed.ts';
import { runDatabaseCommand } from './cli.ts';

runDatabaseCommand('seed', async (deps) => {
  const accounts = await seedDemoIfEmpty(deps);
  console.log(accounts ? formatDemoAccounts(accounts) : 'The database already has users; nothing was seeded.');
  return 0;
});
