import { parseArgs } from 'node:util';
import { z } from 'zod';
import { NAME_MAX_LENGTH } from '../../../common/api/auth.constants.ts';
import { emailField, passwordField } from '../../../common/api/auth.ts';
import type { AdminInput } from './service.ts';

const CREATE_ADMIN_USAGE =
  'Usage: npm run create-admin -- --email <email> --password <password> [--first-name <name>] [--last-name <name>]';

const nameField = z.string().trim().min(1).max(NAME_MAX_LENGTH).optional();
const adminArgs = z.object({
  email: emailField,
  password: passwordField,
  firstName: nameField,
  lastName: nameField,
});

/** Parses and validates the create-admin arguments with the same rules as sign-up. */
export function parseCreateAdminArgs(argv: string[]): { ok: true; input: AdminInput } | { ok: false; message: string } {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        'first-name': { type: 'string' },
        'last-name': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { ok: false, message: `${error instanceof Error ? error.message : String(error)}\n${CREATE_ADMIN_USAGE}` };
  }
  if (values.help) return { ok: false, message: CREATE_ADMIN_USAGE };
  if (values.email === undefined || values.password === undefined) {
    return { ok: false, message: `--email and --password are required.\n${CREATE_ADMIN_USAGE}` };
  }
  const parsed = adminArgs.safeParse({
    email: values.email,
    password: values.password,
    firstName: values['first-name'],
    lastName: values['last-name'],
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `--${flagName(String(i.path[0] ?? ''))}: ${i.message}`);
    return { ok: false, message: `${problems.join('\n')}\n${CREATE_ADMIN_USAGE}` };
  }
  return { ok: true, input: parsed.data };
}

function flagName(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
