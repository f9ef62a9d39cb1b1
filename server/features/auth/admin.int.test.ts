import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WELCOME_CREDITS } from '../../../common/api/auth.constants.ts';
import type { MeReply, SessionReply } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { creditTransactions, users } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { parseCreateAdminArgs } from './admin-cli.ts';
import { formatDemoAccounts, seedDemoIfEmpty } from './seed.ts';
import { createAdmin } from './service.ts';
import { bearer, registerUnverified } from './testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' } });
});
afterAll(async () => {
  await t?.close();
});

const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

// Seeding needs an empty users table, so it runs first in this file.
describe('seedDemoIfEmpty', () => {
  it('creates the four demo accounts once, verified, with credits and trials', async () => {
    const accounts = await seedDemoIfEmpty(t.ctx);
    expect(accounts).not.toBeNull();
    expect(accounts?.map((a) => a.role)).toEqual(['admin', 'brand', 'creator', 'creator']);
    const rows = await t.ctx.db.select().from(users);
    expect(rows).toHaveLength(4);
    expect(rows.every((u) => u.isVerified && u.credits === WELCOME_CREDITS)).toBe(true);
    const byEmail = new Map(rows.map((u) => [u.email, u]));
    expect(byEmail.get('creator@genpro.local')).toMatchObject({
      userStatus: 'approved_creator',
      creatorType: 'content_creator',
    });
    expect(byEmail.get('pending@genpro.local')).toMatchObject({ userStatus: 'pending' });
    expect(byEmail.get('brand@genpro.local')).toMatchObject({ userStatus: null, role: 'brand' });

    for (const account of accounts ?? []) {
      const res = await login(account.email, account.password);
      expect(res.statusCode).toBe(200);
      const me = await t.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: bearer((res.json() as SessionReply).data.token),
      });
      const user = (me.json() as MeReply).data.user;
      expect(user).toMatchObject({ role: account.role, is_verified: true, credits: WELCOME_CREDITS });
      expect(user.subscription).toMatchObject({ status: 'trialing', isActive: true });
    }
    const ledger = await t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.source, 'welcome'));
    expect(ledger).toHaveLength(4);

    const banner = formatDemoAccounts(accounts ?? []);
    for (const a of accounts ?? []) {
      expect(banner).toContain(a.email);
      expect(banner).toContain(a.password);
    }

    expect(await seedDemoIfEmpty(t.ctx)).toBeNull();
    expect(await t.ctx.db.select().from(users)).toHaveLength(4);
  });
});

describe('createAdmin', () => {
  it('creates a verified admin who can log in', async () => {
    const { user, created } = await createAdmin(t.ctx, { email: 'Boss@Example.com', password: 'admin-password-1' });
    expect(created).toBe(true);
    expect(user).toMatchObject({
      email: 'boss@example.com',
      role: 'admin',
      is_verified: true,
      user_status: null,
      first_name: 'Admin',
      credits: WELCOME_CREDITS,
    });
    expect((await login('boss@example.com', 'admin-password-1')).statusCode).toBe(200);
  });

  it('promotes an existing account, sets its password and signs its sessions out', async () => {
    // Unverified (as sign-ups were before issue 27), so without the welcome credits until the promotion verifies it.
    const reg = await registerUnverified(t, { role: 'creator' });
    const { user, created } = await createAdmin(t.ctx, {
      email: reg.email,
      password: 'new-admin-password',
      firstName: 'Promoted',
    });
    expect(created).toBe(false);
    expect(user).toMatchObject({
      role: 'admin',
      is_verified: true,
      user_status: null,
      first_name: 'Promoted',
      last_name: 'Tester',
      credits: WELCOME_CREDITS,
    });
    await createAdmin(t.ctx, { email: reg.email, password: 'new-admin-password' });
    const welcome = await t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.userId, reg.userId));
    expect(welcome.map((row) => row.source)).toEqual(['welcome']);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(reg.token) })).statusCode).toBe(
      401,
    );
    expect((await login(reg.email, reg.password)).json()).toMatchObject({ error: MESSAGES.auth.invalidCredentials });
    expect((await login(reg.email, 'new-admin-password')).statusCode).toBe(200);
  });
});

describe('create-admin arguments', () => {
  it('accepts the documented flags', () => {
    expect(
      parseCreateAdminArgs([
        '--email',
        'A@B.co',
        '--password',
        'secret123',
        '--first-name',
        'Ann',
        '--last-name',
        'Lee',
      ]),
    ).toEqual({ ok: true, input: { email: 'a@b.co', password: 'secret123', firstName: 'Ann', lastName: 'Lee' } });
  });

  it.each([
    [[], '--email and --password are required'],
    [['--email', 'a@b.co'], '--email and --password are required'],
    [['--email', 'nope', '--password', 'secret123'], `--email: ${MESSAGES.validation.emailInvalid}`],
    [['--email', 'a@b.co', '--password', 'short'], `--password: ${MESSAGES.validation.passwordTooShort(8)}`],
    [['--email', 'a@b.co', '--password', 'secret123', '--role', 'x'], "Unknown option '--role'"],
  ])('rejects %j', (argv, message) => {
    const result = parseCreateAdminArgs(argv);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.message).toContain(message);
      expect(result.message).toContain('Usage: npm run create-admin');
    }
  });
});
