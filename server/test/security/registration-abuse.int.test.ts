// Attack classes of issue 27 on sign-up: account enumeration through registration (finding 8) and welcome
// credits farmed by deleting and re-registering an email (finding 9).
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DELETE_ACCOUNT_PHRASE } from '../../../common/api/account.constants.ts';
import { AUTH_LOCKOUT, EMAIL_CODE, WELCOME_CREDITS } from '../../../common/api/auth.constants.ts';
import type { MeReply, VerifyCodeReply } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import {
  creditTransactions,
  mailOutbox,
  pendingRegistrations,
  users,
  welcomeCreditEmails,
} from '../../db/schema/index.ts';
import { insertAccount } from '../../features/auth/service.ts';
import {
  bearer,
  latestCode,
  register,
  registrationBody,
  startRegistration,
  wrongCode,
} from '../../features/auth/testing.ts';
import { grantWelcomeCreditsOncePerEmail, welcomeEmailHash, welcomeMailbox } from '../../features/auth/welcome.ts';
import { DUMMY_PASSWORD_HASH, hashPassword } from '../../platform/auth/crypto.ts';
import { ManualClock } from '../../platform/clock.ts';
import { createTestApp, type TestApp } from '../harness.ts';

// Counts the password hashings of a registration: a taken email must cost the same scrypt as a new one.
vi.mock('../../platform/auth/crypto.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../platform/auth/crypto.ts')>();
  return { ...original, hashPassword: vi.fn(original.hashPassword) };
});

let t: TestApp;
const clock = new ManualClock(new Date('2031-03-01T09:00:00Z'));

beforeAll(async () => {
  t = await createTestApp({ clock, env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' } });
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers });
const mailsTo = async (to: string) =>
  (await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, to))).sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime(),
  );
const unique = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.com`;

describe('account enumeration through registration (issue 27, finding 8)', () => {
  it('a taken and a new email get the same status, body and headers; neither gets a session or an account', async () => {
    const owner = await register(t.app);
    clock.advance(EMAIL_CODE.resendCooldownSeconds * 1000);
    const attackerPassword = 'attacker chosen pw 1';
    const fresh = unique('fresh');
    const taken = await post(
      '/api/auth/register',
      registrationBody({ email: owner.email, password: attackerPassword }),
    );
    const created = await post('/api/auth/register', registrationBody({ email: fresh, password: attackerPassword }));

    expect(taken.statusCode).toBe(202);
    expect(created.statusCode).toBe(taken.statusCode);
    const strip = (body: Record<string, unknown>) => ({ ...body, email: '<the email asked>' });
    expect(strip(taken.json())).toEqual(strip(created.json()));
    expect(taken.json()).toEqual({
      success: true,
      message: MESSAGES.auth.registrationCodeSent,
      email: owner.email,
      cooldownSeconds: EMAIL_CODE.resendCooldownSeconds,
    });
    const headerNames = (res: typeof taken) =>
      Object.keys(res.headers)
        .filter((h) => !['date', 'content-length', 'x-request-id'].includes(h))
        .sort();
    expect(headerNames(taken)).toEqual(headerNames(created));
    expect(taken.headers['set-cookie']).toBeUndefined();
    expect(created.headers['set-cookie']).toBeUndefined();

    // Signing in with the password just chosen tells nothing either: no account exists for the new email yet.
    const loginTaken = await post('/api/auth/login', { email: owner.email, password: attackerPassword });
    const loginFresh = await post('/api/auth/login', { email: fresh, password: attackerPassword });
    expect(loginTaken.statusCode).toBe(401);
    expect(loginFresh.statusCode).toBe(401);
    expect(loginFresh.json()).toEqual(loginTaken.json());
    expect(await t.ctx.db.select().from(users).where(eq(users.email, fresh))).toEqual([]);

    // Nor does resend-verification right after: both addresses are in the cooldown the registration started.
    const resendTaken = await post('/api/auth/resend-verification', { email: owner.email });
    const resendFresh = await post('/api/auth/resend-verification', { email: fresh });
    expect(resendTaken.statusCode).toBe(429);
    expect(resendFresh.statusCode).toBe(429);
    expect(resendFresh.json()).toEqual(resendTaken.json());

    // Nor does verify-code with a guessed code: no sign-up pending and a pending one answer alike.
    const guessTaken = await post('/api/auth/verify-code', { email: owner.email, code: '123456' });
    const guessFresh = await post('/api/auth/verify-code', {
      email: fresh,
      code: wrongCode(await latestCode(t.app, fresh)),
    });
    expect(guessTaken.statusCode).toBe(400);
    expect(guessFresh.statusCode).toBe(400);
    expect(guessFresh.json()).toEqual(guessTaken.json());

    // The owner's account is untouched: the old password still signs in.
    expect((await post('/api/auth/login', { email: owner.email, password: owner.password })).statusCode).toBe(200);
  });

  it('a taken email costs the same password hashing as a new one (no timing shortcut)', async () => {
    const owner = await register(t.app);
    const hashings = async (email: string) => {
      vi.mocked(hashPassword).mockClear();
      const res = await post('/api/auth/register', registrationBody({ email }));
      expect(res.statusCode).toBe(202);
      return vi.mocked(hashPassword).mock.calls.length;
    };
    // scrypt dominates the answer's time; skipping it for a taken email would tell them apart by the clock.
    expect(await hashings(owner.email)).toBe(1);
    expect(await hashings(unique('timing'))).toBe(1);
  });

  it('the owner of a taken email is mailed that someone tried to register, with how to sign in or reset the password', async () => {
    const owner = await register(t.app, { first_name: 'Olga' });
    clock.advance(EMAIL_CODE.resendCooldownSeconds * 1000);
    const before = (await mailsTo(owner.email)).length;
    expect((await post('/api/auth/register', registrationBody({ email: owner.email.toUpperCase() }))).statusCode).toBe(
      202,
    );
    const mails = await mailsTo(owner.email);
    expect(mails).toHaveLength(before + 1);
    const notice = mails.at(-1);
    expect(notice?.subject).toBe('Someone tried to register with your GenPro Studio email');
    expect(notice?.text).toContain('Hi Olga,');
    expect(notice?.text).toContain(`${t.config.publicUrl}/auth/login`);
    expect(notice?.text).toContain(`${t.config.publicUrl}/auth/forgot-password`);
    expect(notice?.text).not.toMatch(/\b\d{6}\b/);
    expect(
      await t.ctx.db.select().from(pendingRegistrations).where(eq(pendingRegistrations.email, owner.email)),
    ).toEqual([]);

    // Registering it again and again does not flood the owner: one notice per resend cooldown, same answer.
    clock.advance(5_000);
    const again = await post('/api/auth/register', registrationBody({ email: owner.email }));
    expect(again.statusCode).toBe(202);
    expect(await mailsTo(owner.email)).toHaveLength(before + 1);
    clock.advance(EMAIL_CODE.resendCooldownSeconds * 1000);
    await post('/api/auth/register', registrationBody({ email: owner.email }));
    expect(await mailsTo(owner.email)).toHaveLength(before + 2);
  });

  it('a new email: the mailed code creates the account and signs it in; registering again first replaces the code', async () => {
    const email = unique('newcomer');
    await startRegistration(t.app, { email, first_name: 'Nina' });
    const first = await latestCode(t.app, email);
    clock.advance(2_000);
    await startRegistration(t.app, { email, first_name: 'Nina', password: 'the second password' });
    const second = await latestCode(t.app, email);
    expect(
      await t.ctx.db.select().from(pendingRegistrations).where(eq(pendingRegistrations.email, email)),
    ).toHaveLength(1);
    if (first !== second) {
      expect((await post('/api/auth/verify-code', { email, code: first })).json()).toMatchObject({
        code: 'invalid_code',
      });
    }
    const verified = await post('/api/auth/verify-code', { email, code: second });
    expect(verified.statusCode).toBe(200);
    const body = verified.json() as VerifyCodeReply;
    expect(body.user).toMatchObject({ email, first_name: 'Nina', is_verified: true });
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(body.token) });
    expect(me.statusCode).toBe(200);
    expect((await post('/api/auth/login', { email, password: 'the second password' })).statusCode).toBe(200);
  });

  it(`guessing a pending sign-up's code is capped per address (${AUTH_LOCKOUT.maxFailedCodes} in the window), re-registering or not`, async () => {
    const email = unique('victim');
    await startRegistration(t.app, { email });
    const code = await latestCode(t.app, email);
    const wrong = wrongCode(code);
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_LOCKOUT.maxFailedCodes + 1; i++) {
      if (i > 0 && i % EMAIL_CODE.maxWrongTries === 0) {
        // Each code dies after maxWrongTries: the attacker registers the address again for a fresh one.
        await startRegistration(t.app, { email });
      }
      const res = await post('/api/auth/verify-code', { email, code: wrong }, { 'x-forwarded-for': `198.51.100.${i}` });
      statuses.push(res.statusCode);
    }
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('welcome credits farmed by deleting and re-registering (issue 27, finding 9)', () => {
  const credits = async (token: string) =>
    ((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })).json() as MeReply).data
      .credits;

  it('register → verify grants them; delete the account, register the same email again → verify grants nothing', async () => {
    const email = unique('farmer');
    const first = await register(t.app, { email });
    expect(await credits(first.token)).toBe(WELCOME_CREDITS);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/delete-account',
      payload: { password: first.password, confirmDelete: DELETE_ACCOUNT_PHRASE },
      headers: bearer(first.token),
    });
    expect(deleted.statusCode).toBe(200);
    expect(await t.ctx.db.select().from(users).where(eq(users.email, email))).toEqual([]);

    clock.advance(EMAIL_CODE.resendCooldownSeconds * 1000);
    const second = await register(t.app, { email: email.toUpperCase() });
    expect(second.userId).not.toBe(first.userId);
    expect(await credits(second.token)).toBe(0);
    const welcome = await t.ctx.db
      .select()
      .from(creditTransactions)
      .where(and(eq(creditTransactions.userId, second.userId), eq(creditTransactions.source, 'welcome')));
    expect(welcome).toEqual([]);
    // What is kept of the deleted account is a keyed hash of the mailbox, not the address.
    const kept = await t.ctx.db
      .select()
      .from(welcomeCreditEmails)
      .where(eq(welcomeCreditEmails.emailHash, welcomeEmailHash(t.config, email)));
    expect(kept).toHaveLength(1);
    expect(kept[0].emailHash).not.toContain(email.split('@')[0]);
  });

  it('a sub-address or a dotted Gmail spelling of the same mailbox gets no second grant', async () => {
    expect(welcomeMailbox(' Jane.Doe+promo@GoogleMail.com ')).toBe('janedoe@gmail.com');
    expect(welcomeMailbox('jane.doe+x@example.com')).toBe('jane.doe@example.com');
    const base = `farm.${crypto.randomUUID().slice(0, 6)}`;
    const first = await register(t.app, { email: `${base}@gmail.com` });
    expect(await credits(first.token)).toBe(WELCOME_CREDITS);
    const second = await register(t.app, { email: `${base.replace('.', '')}+2@gmail.com` });
    expect(await credits(second.token)).toBe(0);
  });

  it('verifications racing for one sign-up create one account and grant once', async () => {
    const { email } = await startRegistration(t.app);
    const code = await latestCode(t.app, email);
    const replies = await Promise.all(Array.from({ length: 5 }, () => post('/api/auth/verify-code', { email, code })));
    expect(replies.filter((r) => r.statusCode === 200)).toHaveLength(1);
    const [user] = await t.ctx.db.select().from(users).where(eq(users.email, email));
    const ledger = await t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.userId, user.id));
    expect(ledger.map((row) => [row.source, row.amount])).toEqual([['welcome', WELCOME_CREDITS]]);
  });

  it('two accounts of one mailbox verifying at the same moment cannot both get the grant', async () => {
    const base = `race.${crypto.randomUUID().slice(0, 6)}`;
    const now = clock.now();
    const [a, b] = await Promise.all(
      [`${base}@gmail.com`, `${base.replace('.', '')}+b@gmail.com`].map((email) =>
        t.ctx.db.transaction((tx) =>
          insertAccount(tx, now, {
            firstName: 'R',
            lastName: 'Ace',
            email,
            passwordHash: DUMMY_PASSWORD_HASH,
            role: 'brand',
            userStatus: null,
            isVerified: true,
            grantWelcome: false,
          }),
        ),
      ),
    );
    const granted = await Promise.all(
      [a, b].map((user) => t.ctx.db.transaction((tx) => grantWelcomeCreditsOncePerEmail(tx, t.config, user))),
    );
    expect(granted.sort()).toEqual([false, true]);
    const rows = await t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.source, 'welcome'));
    expect(rows.filter((row) => row.userId === a.id || row.userId === b.id)).toHaveLength(1);
  });
});
