// npm run create-admin -- --email a@b.c --password 'a long unguessable phrase' [--first-name X --last-name Y]
// Creates a verified admin, or promotes an existing account (and sets its password).
import { parseCreateAdminArgs } from '../server/features/auth/admin-cli.ts';
import { createAdmin } from '../server/features/auth/service.ts';
import { runDatabaseCommand } from './cli.ts';

const args = parseCreateAdminArgs(process.argv.slice(2));
if (!args.ok) {
  console.error(args.message);
  process.exit(1);
}

runDatabaseCommand('create-admin', async (deps) => {
  const { user, created } = await createAdmin(deps, args.input);
  console.log(
    created
      ? `Created admin ${user.email} (${user.first_name} ${user.last_name}, id ${user.id}).`
      : `Promoted ${user.email} to admin (id ${user.id}); its password was set and its other sessions were signed out.`,
  );
  return 0;
});
