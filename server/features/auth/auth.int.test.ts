import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_CODE, PASSWORD_MIN_LENGTH, TRIAL_DAYS, WELCOME_CREDITS } from '../../../common/api/auth.constants.ts';
import type { MeReply, SessionReply, VerifyCodeReply } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { creditTransactions, mailOutbox, pendingRegistrations, users } from '../../db/schema/index.ts';
import { ManualClock } from '../../platform/clock.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import {
  bearer,
  finishRegistration,
  latestCode,
  register,
  registerUnverified,
  registrationBody,
  startRegistration,
  wrongCode,
} from './testing.ts';

let t: TestApp;
const clock = new ManualClock(new Date('2030-01-15T10:00:00Z'));

beforeAll(async () => {
  t = await createTestApp({ clock, env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' } });
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers });

describe('register → code → verify → me', () => {
  it('runs the whole sign-up flow', async () => {
    const body = registrationBody({ email: 'Flow.User@Example.COM', role: 'creator' });
    const res = await post('/api/auth/register', body);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({
      success: true,
      message: MESSAGES.auth.registrationCodeSent,
      email: 'flow.user@example.com',
      cooldownSeconds: EMAIL_CODE.resendCooldownSeconds,
    });
    // No account and no session until the code comes back: a pending registration only.
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await t.ctx.db.select().from(users).where(eq(users.email, 'flow.user@example.com'))).toEqual([]);
    const [pending] = await t.ctx.db
      .select()
      .from(pendingRegistrations)
      .where(eq(pendingRegistrations.email, 'flow.user@example.com'));
    expect(pending).toMatchObject({ firstName: 'Rita', role: 'creator', wrongTries: 0 });
    expect(pending.passwordHash).not.toContain(body.password);
    expect(pending.expiresAt.getTime() - clock.now().getTime()).toBe(EMAIL_CODE.expiresInSeconds * 1000);

    // The mail is in the outbox table, sent through the outbox transport, the code in the text only.
    const [mail] = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'flow.user@example.com'));
    expect(mail.transport).toBe('outbox');
    expect(mail.sentAt).not.toBeNull();
    expect(mail.subject).not.toMatch(/\d{6}/);
    const code = await latestCode(t.app, 'flow.user@example.com');
    expect(mail.text).toContain(code);
    // The code is stored hashed.
    expect(pending.codeHash).not.toContain(code);

    const verified = await post('/api/auth/verify-code', { email: 'Flow.User@example.com', code });
    expect(verified.statusCode).toBe(200);
    const v = verified.json() as VerifyCodeReply;
    expect(v.success).toBe(true);
    expect(v.message).toBe(MESSAGES.verification.verified);
    expect(v.token).toMatch(/^[\w-]{40,}$/);
    expect(v.user).toMatchObject({
      email: 'flow.user@example.com',
      first_name: 'Rita',
      role: 'creator',
      user_status: 'pending',
      is_verified: true,
      credits: WELCOME_CREDITS,
    });
    const setCookie = String(verified.headers['set-cookie']);
    expect(setCookie).toContain(`genpro_session=${v.token}`);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toMatch(/Secure/i);
    expect(await t.ctx.db.select().from(pendingRegistrations).where(eq(pendingRegistrations.id, pending.id))).toEqual(
      [],
    );

    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(v.token) });
    expect(me.statusCode).toBe(200);
    const meBody = me.json() as MeReply;
    expect(meBody.data.credits).toBe(WELCOME_CREDITS);
    expect(meBody.data.user).toMatchObject({ is_verified: true, credits: WELCOME_CREDITS, timezone: 'UTC' });
    expect(meBody.data.user.subscription).toEqual({
      status: 'trialing',
      planType: 'trial',
      isActive: true,
      trialEnd: new Date(clock.now().getTime() + TRIAL_DAYS * 86_400_000).toISOString(),
      cancelAtPeriodEnd: false,
    });

    const ledger = await t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.userId, v.user.id));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      type: 'addition',
      amount: WELCOME_CREDITS,
      balanceAfter: WELCOME_CREDITS,
      source: 'welcome',
    });

    // The code is consumed with the pending registration: using it again answers like any wrong code.
    const again = await post('/api/auth/verify-code', { email: 'flow.user@example.com', code });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'invalid_code' });
    // The password chosen at sign-up signs in.
    const login = await post('/api/auth/login', { email: 'flow.user@example.com', password: body.password });
    expect(login.statusCode).toBe(200);
  });

  it('grants the welcome credits once, however often and however concurrently the email is verified', async () => {
    const { email } = await startRegistration(t.app);
    const code = await latestCode(t.app, email);
    const all = await Promise.all(Array.from({ length: 4 }, () => post('/api/auth/verify-code', { email, code })));
    const winners = all.filter((r) => r.statusCode === 200);
    expect(winners, all.map((r) => r.body).join(' ')).toHaveLength(1);
    const { token, user } = winners[0].json() as VerifyCodeReply;
    const reg = { userId: user.id, email };
    const credits = async () =>
      ((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })).json() as MeReply).data
        .credits;
    expect(await credits()).toBe(WELCOME_CREDITS);
    expect(await t.ctx.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);

    // Verifying again (as after an email change) verifies, and grants nothing more.
    await t.ctx.db.update(users).set({ isVerified: false }).where(eq(users.id, reg.userId));
    clock.advance(EMAIL_CODE.resendCooldownSeconds * 1000);
    expect((await post('/api/auth/resend-verification', { email: reg.email })).statusCode).toBe(200);
    const again = await post('/api/auth/verify-code', { code: await latestCode(t.app, reg.email) }, bearer(token));
    expect(again.statusCode).toBe(200);
    expect((again.json() as VerifyCodeReply).message).toBe(MESSAGES.verification.verified);
    const rotated = (again.json() as VerifyCodeReply).token;
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(rotated) });
    expect((me.json() as MeReply).data.credits).toBe(WELCOME_CREDITS);
    const ledger = await t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.userId, reg.userId));
    expect(ledger.map((row) => row.source)).toEqual(['welcome']);
  });

  it('brands have no user_status', async () => {
    const { email } = await startRegistration(t.app, { role: 'brand' });
    const { user } = await finishRegistration(t.app, email);
    expect(user).toMatchObject({ role: 'brand', user_status: null });
  });

  it('the trial stops counting as active after TRIAL_DAYS', async () => {
    const local = new ManualClock(new Date('2030-01-01T00:00:00Z'));
    const other = await createTestApp({ clock: local });
    try {
      const reg = await register(other.app);
      local.advance(TRIAL_DAYS * 86_400_000 + 1000);
      const me = await other.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(reg.token) });
      expect((me.json() as MeReply).data.user.subscription).toMatchObject({ status: 'paused', isActive: false });
    } finally {
      await other.close();
    }
  });
});

describe('validation', () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['missing first name', { first_name: undefined }, 'first_name', MESSAGES.validation.firstNameRequired],
    ['blank first name', { first_name: '   ' }, 'first_name', MESSAGES.validation.firstNameRequired],
    ['missing last name', { last_name: undefined }, 'last_name', MESSAGES.validation.lastNameRequired],
    ['blank last name', { last_name: '' }, 'last_name', MESSAGES.validation.lastNameRequired],
    ['bad email', { email: 'not-an-email' }, 'email', MESSAGES.validation.emailInvalid],
    ['short password', { password: 'short' }, 'password', MESSAGES.validation.passwordTooShort(PASSWORD_MIN_LENGTH)],
    ['missing password', { password: undefined }, 'password', MESSAGES.validation.passwordRequired],
    ['admin role', { role: 'admin' }, 'role', MESSAGES.validation.roleInvalid],
    ['missing role', { role: undefined }, 'role', MESSAGES.validation.roleInvalid],
  ];
  it.each(cases)('register rejects %s with 400 and the field message', async (_name, override, field, message) => {
    const res = await post('/api/auth/register', registrationBody(override));
    expect(res.statusCode).toBe(400);
    const body = res.json() as { success: boolean; error: string; details: { fieldErrors: Record<string, string[]> } };
    expect(body.success).toBe(false);
    expect(body.error).toBe(message);
    expect(body.details.fieldErrors[field]).toContain(message);
  });

  it('errors carry their catalogue key and values, so the web translates them by code', async () => {
    const short = await post('/api/auth/register', registrationBody({ password: 'short' }));
    expect(short.json()).toMatchObject({
      code: 'validation',
      messageKey: 'validation.passwordTooShort',
      messageParams: { min: PASSWORD_MIN_LENGTH },
    });
    const wrong = await post('/api/auth/login', { email: 'nobody@example.com', password: 'wrong-password-1' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ messageKey: 'auth.invalidCredentials' });
    expect(wrong.json()).not.toHaveProperty('messageParams');
    // A text that is not a catalogue message carries no key.
    const unknown = await t.app.inject({ method: 'GET', url: '/api/no-such-route' });
    expect(unknown.json()).toMatchObject({ code: 'not_found', messageKey: 'generic.notFound' });
  });

  it('login validates too', async () => {
    const res = await post('/api/auth/login', { email: 'nope', password: '' });
    expect(res.statusCode).toBe(400);
    const body = res.json() as { details: { fieldErrors: Record<string, string[]> } };
    expect(body.details.fieldErrors.email).toContain(MESSAGES.validation.emailInvalid);
    expect(body.details.fieldErrors.password).toContain(MESSAGES.validation.passwordRequired);
  });

  it('verify-code wants six digits', async () => {
    const reg = await register(t.app);
    for (const code of ['12345', '1234567', 'abcdef']) {
      const res = await post('/api/auth/verify-code', { code }, bearer(reg.token));
      expect(res.statusCode).toBe(400);
      expect((res.json() as { error: string }).error).toBe(MESSAGES.verification.codeFormat);
    }
  });
});

describe('duplicates and credentials', () => {
  it('a taken email, whatever its case, gets the answer a new email gets and no second account (issue 27)', async () => {
    const reg = await register(t.app);
    const taken = await post('/api/auth/register', registrationBody({ email: reg.email.toUpperCase() }));
    const fresh = await post('/api/auth/register', registrationBody({ email: `new-${reg.email}` }));
    expect(taken.statusCode).toBe(202);
    expect(taken.json()).toEqual({ ...(fresh.json() as object), email: reg.email });
    const count = await t.ctx.db.select().from(users).where(eq(users.email, reg.email));
    expect(count).toHaveLength(1);
  });

  it('parallel sign-ups with one email keep one pending registration and create one account', async () => {
    const body = registrationBody();
    const replies = await Promise.all([post('/api/auth/register', body), post('/api/auth/register', body)]);
    expect(replies.map((r) => r.statusCode)).toEqual([202, 202]);
    const email = String(body.email);
    expect(
      await t.ctx.db.select().from(pendingRegistrations).where(eq(pendingRegistrations.email, email)),
    ).toHaveLength(1);
    await finishRegistration(t.app, email);
    expect(await t.ctx.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
  });

  it('registering a pending email again replaces its code (the newest mailed code works, the older does not)', async () => {
    const { email } = await startRegistration(t.app);
    const first = await latestCode(t.app, email);
    clock.advance(1000);
    await startRegistration(t.app, { email, first_name: 'Rosa' });
    const second = await latestCode(t.app, email);
    if (second !== first) {
      const old = await post('/api/auth/verify-code', { email, code: first });
      expect(old.json()).toMatchObject({ code: 'invalid_code' });
    }
    const { user } = await finishRegistration(t.app, email, second);
    expect(user).toMatchObject({ first_name: 'Rosa' });
  });

  it('log-in works unverified, case-insensitively, and sets the cookie', async () => {
    const reg = await registerUnverified(t);
    const res = await post('/api/auth/login', { email: `  ${reg.email.toUpperCase()} `, password: reg.password });
    expect(res.statusCode).toBe(200);
    const body = res.json() as SessionReply;
    expect(body.data.user).toMatchObject({ email: reg.email, is_verified: false });
    expect(body.data.token).not.toBe(reg.token);
    expect(String(res.headers['set-cookie'])).toContain(`genpro_session=${body.data.token}`);
  });

  it('a wrong password, an unknown email and a pending sign-up get the same 401', async () => {
    const reg = await register(t.app);
    const wrong = await post('/api/auth/login', { email: reg.email, password: 'not the password' });
    const unknown = await post('/api/auth/login', { email: 'nobody@example.com', password: 'whatever123' });
    const started = await startRegistration(t.app);
    const pending = await post('/api/auth/login', { email: started.email, password: started.password });
    for (const res of [wrong, unknown, pending]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        success: false,
        error: MESSAGES.auth.invalidCredentials,
        code: 'unauthorized',
        messageKey: 'auth.invalidCredentials',
      });
    }
  });

  it('me without a session is 401', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(none.statusCode).toBe(401);
    expect((none.json() as { error: string }).error).toBe(MESSAGES.auth.required);
    const bad = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer('made-up') });
    expect(bad.statusCode).toBe(401);
    expect((bad.json() as { error: string }).error).toBe(MESSAGES.auth.loginAgain);
  });
});

describe('email codes', () => {
  it('a wrong code answers 400 with the message the boxes show', async () => {
    const reg = await startRegistration(t.app);
    const code = await latestCode(t.app, reg.email);
    const res = await post('/api/auth/verify-code', { email: reg.email, code: wrongCode(code) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      error: MESSAGES.verification.invalidCode,
      code: 'invalid_code',
    });
    // The right code still works after one miss.
    const ok = await post('/api/auth/verify-code', { email: reg.email, code });
    expect(ok.statusCode).toBe(200);
  });

  it(`${EMAIL_CODE.maxWrongTries} wrong tries kill the code`, async () => {
    const reg = await startRegistration(t.app);
    const code = await latestCode(t.app, reg.email);
    const errors: string[] = [];
    for (let i = 0; i < EMAIL_CODE.maxWrongTries; i++) {
      const res = await post('/api/auth/verify-code', { email: reg.email, code: wrongCode(code) });
      expect(res.statusCode).toBe(400);
      errors.push((res.json() as { error: string }).error);
    }
    expect(errors.slice(0, -1).every((e) => e === MESSAGES.verification.invalidCode)).toBe(true);
    expect(errors.at(-1)).toBe(MESSAGES.verification.tooManyWrong);
    const right = await post('/api/auth/verify-code', { email: reg.email, code });
    expect(right.statusCode).toBe(400);
    expect((right.json() as { error: string }).error).toBe(MESSAGES.verification.tooManyWrong);

    // A new code brings the account back.
    clock.advance(EMAIL_CODE.resendCooldownSeconds * 1000);
    expect((await post('/api/auth/resend-verification', { email: reg.email })).statusCode).toBe(200);
    const fresh = await latestCode(t.app, reg.email);
    expect((await post('/api/auth/verify-code', { email: reg.email, code: fresh })).statusCode).toBe(200);
  });

  it(`codes expire after ${EMAIL_CODE.expiresInSeconds} s`, async () => {
    const reg = await startRegistration(t.app);
    const code = await latestCode(t.app, reg.email);
    clock.advance(EMAIL_CODE.expiresInSeconds * 1000);
    const res = await post('/api/auth/verify-code', { email: reg.email, code });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: MESSAGES.verification.expired, code: 'code_expired' });
  });

  it('a code just before expiry still works', async () => {
    const reg = await startRegistration(t.app);
    const code = await latestCode(t.app, reg.email);
    clock.advance(EMAIL_CODE.expiresInSeconds * 1000 - 1000);
    expect((await post('/api/auth/verify-code', { email: reg.email, code })).statusCode).toBe(200);
  });

  it('resend has a cooldown, then sends a code that replaces the old one', async () => {
    const reg = await startRegistration(t.app);
    // Registering counts as the first send: the cooldown runs from it.
    expect((await post('/api/auth/resend-verification', { email: reg.email })).statusCode).toBe(429);
    clock.advance(EMAIL_CODE.resendCooldownSeconds * 1000);
    expect((await post('/api/auth/resend-verification', { email: reg.email })).statusCode).toBe(200);
    const first = await latestCode(t.app, reg.email);

    clock.advance(10_000);
    const early = await post('/api/auth/resend-verification', { email: reg.email });
    expect(early.statusCode).toBe(429);
    const wait = EMAIL_CODE.resendCooldownSeconds - 10;
    expect(early.json()).toMatchObject({
      success: false,
      error: MESSAGES.verification.cooldown(wait),
      details: { retryAfterSeconds: wait },
    });
    expect(early.headers['retry-after']).toBe(String(wait));

    clock.advance(wait * 1000);
    const ok = await post('/api/auth/resend-verification', { email: reg.email.toUpperCase() });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({
      success: true,
      message: MESSAGES.verification.sent,
      cooldownSeconds: EMAIL_CODE.resendCooldownSeconds,
    });
    const second = await latestCode(t.app, reg.email);
    if (second !== first) {
      const old = await post('/api/auth/verify-code', { email: reg.email, code: first });
      expect(old.statusCode).toBe(400);
      expect((old.json() as { error: string }).error).toBe(MESSAGES.verification.invalidCode);
    }
    const [row] = await t.ctx.db.select().from(pendingRegistrations).where(eq(pendingRegistrations.email, reg.email));
    expect(row.expiresAt.getTime() - clock.now().getTime()).toBe(EMAIL_CODE.expiresInSeconds * 1000);
    const good = await post('/api/auth/verify-code', { email: reg.email, code: second });
    expect(good.statusCode).toBe(200);
  });

  it('resend answers the same for unknown and verified emails and sends nothing', async () => {
    const before = await t.ctx.db.select().from(mailOutbox);
    const unknown = await post('/api/auth/resend-verification', { email: 'ghost@example.com' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toMatchObject({ success: true, message: MESSAGES.verification.sent });

    const reg = await register(t.app);
    clock.advance(EMAIL_CODE.resendCooldownSeconds * 1000);
    const mailsBefore = (await t.ctx.db.select().from(mailOutbox)).length;
    const verified = await post('/api/auth/resend-verification', { email: reg.email });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual(unknown.json());
    expect((await t.ctx.db.select().from(mailOutbox)).length).toBe(mailsBefore);
    expect(before.some((m) => m.to === 'ghost@example.com')).toBe(false);
  });

  it('resend answers an unknown and an unverified email alike, cooldown included; only the account gets a code (issue 21)', async () => {
    const reg = await registerUnverified(t);
    clock.advance(EMAIL_CODE.resendCooldownSeconds * 1000);
    const ghost = `ghost-${crypto.randomUUID()}@example.com`;
    const mailsTo = async (to: string) =>
      (await t.ctx.db.select().from(mailOutbox)).filter((m) => m.to.toLowerCase() === to.toLowerCase()).length;
    const mailsBefore = await mailsTo(reg.email);

    const answers = async () => {
      const known = await post('/api/auth/resend-verification', { email: reg.email });
      const unknown = await post('/api/auth/resend-verification', { email: ghost });
      expect(unknown.statusCode).toBe(known.statusCode);
      expect(unknown.json()).toEqual(known.json());
      expect(unknown.headers['retry-after']).toBe(known.headers['retry-after']);
      return known;
    };
    expect((await answers()).statusCode).toBe(200);
    clock.advance(5_000);
    const early = await answers();
    expect(early.statusCode).toBe(429);
    expect(early.json().error).toBe(MESSAGES.verification.cooldown(EMAIL_CODE.resendCooldownSeconds - 5));

    // The unverified address got one new code; the unknown one got nothing.
    expect(await mailsTo(reg.email)).toBe(mailsBefore + 1);
    expect(await mailsTo(ghost)).toBe(0);
  });

  it('verify-code without an email needs a session', async () => {
    const res = await post('/api/auth/verify-code', { code: '123456' });
    expect(res.statusCode).toBe(401);
  });
});
