// npm run create-admin -- --email a@b.c --password secret123 [--first-name X --last-name Y]
// Creates a verified admin, or promotes an existing account (and sets its password).
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { parseCreateAdminArgs } from '../server/features/auth/admin-cli.ts';
import { createAdmin } from '../server/features/auth/service.ts';
import { systemClock } from '../server/platform/clock.ts';

async function main(): Promise<number> {
  const args = parseCreateAdminArgs(process.argv.slice(2));
  if (!args.ok) {
    console.error(args.message);
    return 1;
  }
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    await database.migrate();
    const { user, created } = await createAdmin({ db: database.db, clock: systemClock }, args.input);
    console.log(
      created
        ? `Created admin ${user.email} (${user.first_name} ${user.last_name}, id ${user.id}).`
        : `Promoted ${user.email} to admin (id ${user.id}); its password was set and its other sessions were signed out.`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`create-admin failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
