// Password attacks through the HTTP routes (issue 27, finding 6): weak, common and personal passwords are
// refused wherever a password is set, and guessing one account from many addresses is slowed per account
// without locking its owner out (the owner's right password plus a mailed code, or the TOTP code, gets in).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailCodeRequiredReply } from '../../../common/api/account.ts';
import { ACCOUNT_GUARD } from '../../../common/api/auth.constants.ts';
import type { SessionReply } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { authAttempts, pendingRegistrations, users } from '../../db/schema/index.ts';
import { bearer, latestCode, type Registered, register, registrationBody } from '../../features/auth/testing.ts';
import { guardDelaySeconds } from '../../platform/auth/attempts.ts';
import { ManualClock } from '../../platform/clock.ts';
import { listOutbox } from '../../platform/mail/index.ts';
import { createTestApp, type TestApp } from '../harness.ts';

let t: TestApp;
const clock = new ManualClock(new Date('2030-07-01T08:00:00Z'));
const WEAK = ['password', '12345678', 'aaaaaaaa', 'Password1', 'qwertyuiop', 'iloveyou2', 'Summer2024'];

beforeAll(async () => {
  // Behind a proxy: the client address comes from X-Forwarded-For.
  t = await createTestApp({ clock, env: { TRUST_PROXY: 'true', RATE_LIMIT_AUTH_PER_MINUTE: '100000' } });
});
afterAll(async () => {
  await t?.close();
});

const from = (ip: string) => ({ 'x-forwarded-for': ip });
const login = (email: string, password: string, ip: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, headers: from(ip) });
const secondStep = (challengeToken: string, code: string, ip: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login/two-factor',
    payload: { challengeToken, code },
    headers: from(ip),
  });
const retryAfterOf = (res: { json(): unknown }) =>
  (res.json() as { details: { retryAfterSeconds: number } }).details.retryAfterSeconds;
const attemptsFor = async (email: string) =>
  (
    await t.ctx.db
      .select()
      .from(authAttempts)
      .where(eq(authAttempts.subject, `account:${email}`))
  ).filter((row) => row.kind === 'login_guard').length;

describe('weak passwords', () => {
  it.each(WEAK)('registration refuses %j with the reason, and no account is made', async (password) => {
    const body = registrationBody({ password });
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      code: 'weak_password',
      error: MESSAGES.validation.passwordTooCommon,
      details: { fieldErrors: { password: [MESSAGES.validation.passwordTooCommon] } },
    });
    expect(
      await t.ctx.db
        .select()
        .from(users)
        .where(eq(users.email, String(body.email))),
    ).toEqual([]);
    expect(
      await t.ctx.db
        .select()
        .from(pendingRegistrations)
        .where(eq(pendingRegistrations.email, String(body.email))),
    ).toEqual([]);
  });

  it('registration refuses a password made of the email or the name', async () => {
    for (const [overrides, password] of [
      [{ email: 'marguerite.fontaine@example.com' }, 'marguerite.fontaine@example.com'],
      [{ email: 'marguerite.fontaine@example.com' }, 'Marguerite1987!'],
      [{ first_name: 'Bartholomew', last_name: 'Quince' }, 'bartholomewquince'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: registrationBody({ ...overrides, password }),
      });
      expect(res.statusCode, password).toBe(400);
      expect(res.json()).toMatchObject({ code: 'weak_password', error: MESSAGES.validation.passwordPersonal });
    }
  });

  it('password change refuses a weak new password and keeps the old one', async () => {
    const owner = await register(t.app);
    for (const newPassword of ['Password1', '12345678']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/users/security',
        payload: { action: 'change_password', currentPassword: owner.password, newPassword },
        headers: { ...bearer(owner.token), ...from('192.0.2.10') },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'weak_password',
        error: MESSAGES.validation.passwordTooCommon,
        details: { fieldErrors: { newPassword: [MESSAGES.validation.passwordTooCommon] } },
      });
    }
    const res = await login(owner.email, owner.password, '192.0.2.10');
    expect((res.json() as SessionReply).data.user.email).toBe(owner.email);
  });

  it('a strong passphrase is accepted', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: registrationBody({ email: 'strong.passphrase@example.com', password: 'violet tractor umbrella sings' }),
    });
    expect(res.statusCode).toBe(202);
    expect(
      await t.ctx.db
        .select()
        .from(pendingRegistrations)
        .where(eq(pendingRegistrations.email, 'strong.passphrase@example.com')),
    ).toHaveLength(1);
  });
});

describe('guessing one account from many addresses', () => {
  it('300 wrong guesses from 30 addresses: 30 are checked, the rest wait; the owner still gets in with a mailed code', {
    timeout: 120_000,
  }, async () => {
    const owner = await register(t.app);
    const addresses = Array.from({ length: 30 }, (_, i) => `203.0.113.${i + 1}`);
    const statuses: number[] = [];
    for (let round = 0; round < 10; round++) {
      for (const ip of addresses) {
        const res = await login(owner.email, `wrong guess ${round}-${ip}`, ip);
        statuses.push(res.statusCode);
        if (res.statusCode === 429) {
          expect(res.json()).toMatchObject({ code: 'rate_limited' });
          expect(retryAfterOf(res)).toBeGreaterThan(0);
        }
      }
    }
    // Each address had its first guess checked; every later one waits for the account's growing delay.
    expect(statuses.filter((s) => s === 401)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(270);
    expect(await attemptsFor(owner.email)).toBe(30);

    // The right password from an attacking address waits too: it is not even checked.
    expect((await login(owner.email, owner.password, addresses[0])).statusCode).toBe(429);
    // From a fresh address it is checked but opens no session: a code goes to the owner's mailbox.
    const stolen = await login(owner.email, owner.password, '198.51.100.200');
    expect(stolen.statusCode).toBe(200);
    expect(stolen.json()).toMatchObject({ requiresEmailCode: true, message: MESSAGES.auth.loginCodeMailed });
    expect(stolen.json()).not.toHaveProperty('data');
    expect(stolen.headers['set-cookie']).toBeUndefined();
    const [mail] = await listOutbox(t.ctx.db, { to: owner.email });
    expect(mail.subject).toBe('Your GenPro Studio sign-in code');

    // Guessing the mailed code: 5 wrong tries kill the challenge.
    const { challengeToken } = stolen.json() as EmailCodeRequiredReply;
    const code = await latestCode(t.app, owner.email);
    const wrong = code === '000000' ? '111111' : '000000';
    const guesses = [];
    for (let i = 0; i < 5; i++) guesses.push((await secondStep(challengeToken, wrong, '198.51.100.200')).statusCode);
    expect(guesses).toEqual([400, 400, 400, 400, 400]);
    expect((await secondStep(challengeToken, code, '198.51.100.200')).json()).toMatchObject({
      error: MESSAGES.account.challengeTooManyTries,
    });

    // The owner, from their own address: the password, then the code just mailed.
    const first = await login(owner.email, owner.password, '192.0.2.44');
    const ownerChallenge = (first.json() as EmailCodeRequiredReply).challengeToken;
    const ownerCode = await latestCode(t.app, owner.email);
    const signedIn = await secondStep(ownerChallenge, ownerCode, '192.0.2.44');
    expect(signedIn.statusCode).toBe(200);
    expect((signedIn.json() as SessionReply).data.user.email).toBe(owner.email);
    // The code is single use.
    expect((await secondStep(ownerChallenge, ownerCode, '192.0.2.44')).json()).toMatchObject({
      error: MESSAGES.account.challengeExpired,
    });
  });

  it("the delay grows with the account's failures and the address is checked again once it has passed", async () => {
    const owner: Registered = await register(t.app);
    const ip = '203.0.113.200';
    for (let i = 0; i < ACCOUNT_GUARD.guardAfterFailures; i++) {
      expect((await login(owner.email, 'wrong guess', ip)).statusCode).toBe(401);
    }
    const waits: number[] = [];
    for (let failures = ACCOUNT_GUARD.guardAfterFailures; failures < ACCOUNT_GUARD.guardAfterFailures + 5; failures++) {
      const refused = await login(owner.email, 'wrong guess', ip);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ error: MESSAGES.auth.accountSlowedDown(retryAfterOf(refused)) });
      waits.push(retryAfterOf(refused));
      clock.advance(guardDelaySeconds(failures) * 1000);
      expect((await login(owner.email, 'wrong guess', ip)).statusCode).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16]);
    // The owner is not locked out by it: from their address, password then mailed code.
    const first = await login(owner.email, owner.password, '192.0.2.45');
    expect(first.json()).toMatchObject({ requiresEmailCode: true });
    const signedIn = await secondStep(
      (first.json() as EmailCodeRequiredReply).challengeToken,
      await latestCode(t.app, owner.email),
      '192.0.2.45',
    );
    expect(signedIn.statusCode).toBe(200);
    // The guard ages out: a day later the password alone signs in again.
    clock.advance(ACCOUNT_GUARD.guardWindowHours * 3_600_000 + 1000);
    const later = await login(owner.email, owner.password, '192.0.2.45');
    expect((later.json() as SessionReply).data.user.email).toBe(owner.email);
  });

  it('wrong mailed codes from an address that has the password never block the owner', async () => {
    const owner = await register(t.app);
    const attacker = '203.0.113.210';
    for (let i = 0; i < ACCOUNT_GUARD.guardAfterFailures; i++) await login(owner.email, 'wrong guess', '203.0.113.211');
    // Someone with the password asks for challenge after challenge and guesses 40 codes.
    const answers: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await login(owner.email, owner.password, attacker);
      const { challengeToken } = res.json() as EmailCodeRequiredReply;
      answers.push((await secondStep(challengeToken, '000000', attacker)).statusCode);
    }
    expect(answers.filter((s) => s === 400).length).toBeLessThanOrEqual(ACCOUNT_GUARD.guardAfterFailures);
    expect(answers.filter((s) => s === 429).length).toBeGreaterThanOrEqual(40 - ACCOUNT_GUARD.guardAfterFailures);
    // The owner's right code from their own address gets in.
    const first = await login(owner.email, owner.password, '192.0.2.46');
    const signedIn = await secondStep(
      (first.json() as EmailCodeRequiredReply).challengeToken,
      await latestCode(t.app, owner.email),
      '192.0.2.46',
    );
    expect(signedIn.statusCode).toBe(200);
  });
});
