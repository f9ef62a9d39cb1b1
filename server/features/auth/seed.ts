import { inArray, sql } from 'drizzle-orm';
import type { Role } from '../../../common/api/auth.constants.ts';
import { DEMO_ADMIN_EMAIL } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { STARTUP_LOCK_KEY } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { hashPassword } from '../../platform/auth/crypto.ts';
import { insertAccount, type NewAccount } from './service.ts';

export interface DemoAccount {
  role: Role;
  email: string;
  password: string;
  note: string;
}

type DemoSpec = DemoAccount & Pick<NewAccount, 'firstName' | 'lastName' | 'userStatus' | 'creatorType'>;

/** Fixed demo credentials (documented in docs/accounts.md); only ever created on an empty database. */
const DEMO_ACCOUNTS: readonly DemoSpec[] = [
  {
    role: 'admin',
    email: DEMO_ADMIN_EMAIL,
    password: 'genpro-admin',
    note: 'admin: approves creators and brands',
    firstName: 'Ada',
    lastName: 'Admin',
    userStatus: null,
  },
  {
    role: 'brand',
    email: 'brand@genpro.local',
    password: 'genpro-brand',
    note: 'brand',
    firstName: 'Bea',
    lastName: 'Brand',
    userStatus: null,
  },
  {
    role: 'creator',
    email: 'creator@genpro.local',
    password: 'genpro-creator',
    note: 'approved creator (content_creator)',
    firstName: 'Cleo',
    lastName: 'Creator',
    userStatus: 'approved_creator',
    creatorType: 'content_creator',
  },
  {
    role: 'creator',
    email: 'pending@genpro.local',
    password: 'genpro-pending',
    note: 'creator awaiting approval',
    firstName: 'Pat',
    lastName: 'Pending',
    userStatus: 'pending',
  },
];

/**
 * When the users table is empty: an admin, a brand, an approved creator and a pending creator, all
 * verified, each with the welcome credits and a trial. Returns them, or null when there were users.
 */
export async function seedDemoIfEmpty(ctx: Pick<AppContext, 'db' | 'clock'>): Promise<DemoAccount[] | null> {
  const hashes = await Promise.all(DEMO_ACCOUNTS.map((a) => hashPassword(a.password)));
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    // The start-up lock, held for the transaction: two starting processes never both seed, and a seed waits
    // for a migration in progress (a process with MIGRATE_ON_START=false seeds once the schema is there).
    await tx.execute(sql`select pg_advisory_xact_lock(${STARTUP_LOCK_KEY})`);
    const [{ count }] = await tx.select({ count: sql<number>`count(*)::int` }).from(users);
    if (count > 0) return null;
    for (const [i, account] of DEMO_ACCOUNTS.entries()) {
      await insertAccount(tx, now, {
        firstName: account.firstName,
        lastName: account.lastName,
        email: account.email,
        passwordHash: hashes[i],
        role: account.role,
        userStatus: account.userStatus,
        creatorType: account.creatorType ?? null,
        isVerified: true,
      });
    }
    return DEMO_ACCOUNTS.map(({ role, email, password, note }) => ({ role, email, password, note }));
  });
}

/** The start-up banner's table of demo credentials. */
export function formatDemoAccounts(list: readonly DemoAccount[]): string {
  const rows = [['role', 'email', 'password', 'note'], ...list.map((a) => [a.role, a.email, a.password, a.note])];
  const widths = [0, 1, 2].map((col) => Math.max(...rows.map((r) => r[col].length)));
  const line = (r: string[]) =>
    `  ${r
      .map((cell, col) => (col < 3 ? cell.padEnd(widths[col]) : cell))
      .join('  ')
      .trimEnd()}`;
  return ['Demo accounts (change or remove them before going public):', ...rows.map(line)].join('\n');
}

/** The demo accounts (published passwords) that exist in the database, by email. */
export async function presentDemoAccounts(ctx: Pick<AppContext, 'db'>): Promise<string[]> {
  const rows = await ctx.db
    .select({ email: users.email })
    .from(users)
    .where(
      inArray(
        users.email,
        DEMO_ACCOUNTS.map((a) => a.email),
      ),
    );
  return rows.map((r) => r.email).sort();
}
