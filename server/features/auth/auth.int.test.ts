import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_CODE, PASSWORD_MIN_LENGTH, TRIAL_DAYS, WELCOME_CREDITS } from '../../../common/api/auth.constants.ts';
import type { MeReply, SessionReply, VerifyCodeReply } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { creditTransactions, emailVerificationCodes, mailOutbox, users } from '../../db/schema/index.ts';
import { ManualClock } from '../../platform/clock.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { bearer, latestCode, register, registrationBody, wrongCode } from './testing.ts';

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
    expect(res.statusCode).toBe(201);
    const reg = res.json() as SessionReply;
    expect(reg.success).toBe(true);
    expect(reg.data.token).toMatch(/^[\w-]{40,}$/);
    expect(reg.data.user).toMatchObject({
      email: 'flow.user@example.com',
      first_name: 'Rita',
      role: 'creator',
      user_status: 'pending',
      is_verified: false,
      credits: 0,
    });
    // The welcome credits wait for a verified email.
    const welcomeRows = () =>
      t.ctx.db.select().from(creditTransactions).where(eq(creditTransactions.userId, reg.data.user.id));
    expect(await welcomeRows()).toEqual([]);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toContain('genpro_session=');
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toMatch(/Secure/i);

    // The mail is in the outbox table, sent through the outbox transport, the code in the text only.
    const [mail] = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'flow.user@example.com'));
    expect(mail.transport).toBe('outbox');
    expect(mail.sentAt).not.toBeNull();
    expect(mail.subject).not.toMatch(/\d{6}/);
    const code = await latestCode(t.app, 'flow.user@example.com');
    expect(mail.text).toContain(code);

    // The code is stored hashed.
    const [stored] = await t.ctx.db
      .select()
      .from(emailVerificationCodes)
      .where(eq(emailVerificationCodes.userId, reg.data.user.id));
    expect(stored.codeHash).not.toContain(code);
    expect(stored.expiresAt.getTime() - clock.now().getTime()).toBe(EMAIL_CODE.expiresInSeconds * 1000);

    const verified = await post('/api/auth/verify-code', { code }, bearer(reg.data.token));
    expect(verified.statusCode).toBe(200);
    const v = verified.json() as VerifyCodeReply;
    expect(v.success).toBe(true);
    expect(v.message).toBe(MESSAGES.verification.verified);
    expect(v.user.is_verified).toBe(true);
    expect(v.token).not.toBe(reg.data.token);

    // Rotation: the registration token is dead, the new one works.
    const old = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(reg.data.token) });
    expect(old.statusCode).toBe(401);
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

    const ledger = await welcomeRows();
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      type: 'addition',
      amount: WELCOME_CREDITS,
      balanceAfter: WELCOME_CREDITS,
      source: 'welcome',
    });

    // The code is consumed: using it again does not verify anything new.
    const again = await post('/api/auth/verify-code', { code }, bearer(v.token));
    expect(again.statusCode).toBe(200);
    expect((again.json() as VerifyCodeReply).message).toBe(MESSAGES.verification.alreadyVerified);
    expect(await welcomeRows()).toHaveLength(1);
  });

  it('grants the welcome credits once, however often and however concurrently the email is verified', async () => {
    const reg = await register(t.app);
    const unverified = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(reg.token) });
    expect((unverified.json() as MeReply).data.credits).toBe(0);
    const second = (
      (await post('/api/auth/login', { email: reg.email, password: reg.password })).json() as SessionReply
    ).data.token;
    const code = await latestCode(t.app, reg.email);
    const both = await Promise.all([
      post('/api/auth/verify-code', { code }, bearer(reg.token)),
      post('/api/auth/verify-code', { code }, bearer(second)),
    ]);
    const winner = both.find((r) => r.statusCode === 200);
    if (!winner) throw new Error(`no verification succeeded: ${both.map((r) => r.body).join(' ')}`);
    const token = (winner.json() as VerifyCodeReply).token;
    const credits = async () =>
      ((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })).json() as MeReply).data
        .credits;
    expect(await credits()).toBe(WELCOME_CREDITS);

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
    const res = await post('/api/auth/register', registrationBody({ role: 'brand' }));
    expect(res.statusCode).toBe(201);
    expect((res.json() as SessionReply).data.user).toMatchObject({ role: 'brand', user_status: null });
  });

  it('the trial stops counting as active after TRIAL_DAYS', async () => {
    const local = new ManualClock(new Date('2030-01-01T00:00:00Z'));
    const other = await createTestApp({ clock: local });
    try {
      const reg = await register(other.app);
      local.advance(TRIAL_DAYS * 86_400_000 + 1000);
      const me = await other.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(reg.token) });
      expect((me.json() as MeReply).data.user.subscription).toMatchObject({ status: 'trialing', isActive: false });
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
  it('a duplicate email answers 409, whatever its case', async () => {
    const reg = await register(t.app);
    const res = await post('/api/auth/register', registrationBody({ email: reg.email.toUpperCase() }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ success: false, error: MESSAGES.auth.emailTaken });
    const count = await t.ctx.db.select().from(users).where(eq(users.email, reg.email));
    expect(count).toHaveLength(1);
  });

  it('parallel sign-ups with one email create one account', async () => {
    const body = registrationBody();
    const replies = await Promise.all([post('/api/auth/register', body), post('/api/auth/register', body)]);
    expect(replies.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('log-in works unverified, case-insensitively, and sets the cookie', async () => {
    const reg = await register(t.app);
    const res = await post('/api/auth/login', { email: `  ${reg.email.toUpperCase()} `, password: reg.password });
    expect(res.statusCode).toBe(200);
    const body = res.json() as SessionReply;
    expect(body.data.user).toMatchObject({ email: reg.email, is_verified: false });
    expect(body.data.token).not.toBe(reg.token);
    expect(String(res.headers['set-cookie'])).toContain(`genpro_session=${body.data.token}`);
  });

  it('a wrong password and an unknown email get the same 401', async () => {
    const reg = await register(t.app);
    const wrong = await post('/api/auth/login', { email: reg.email, password: 'not the password' });
    const unknown = await post('/api/auth/login', { email: 'nobody@example.com', password: 'whatever123' });
    for (const res of [wrong, unknown]) {
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
    const reg = await register(t.app);
    const code = await latestCode(t.app, reg.email);
    const res = await post('/api/auth/verify-code', { code: wrongCode(code) }, bearer(reg.token));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      error: MESSAGES.verification.invalidCode,
      code: 'invalid_code',
    });
    // The right code still works after one miss.
    const ok = await post('/api/auth/verify-code', { code }, bearer(reg.token));
    expect(ok.statusCode).toBe(200);
  });

  it(`${EMAIL_CODE.maxWrongTries} wrong tries kill the code`, async () => {
    const reg = await register(t.app);
    const code = await latestCode(t.app, reg.email);
    const errors: string[] = [];
    for (let i = 0; i < EMAIL_CODE.maxWrongTries; i++) {
      const res = await post('/api/auth/verify-code', { code: wrongCode(code) }, bearer(reg.token));
      expect(res.statusCode).toBe(400);
      errors.push((res.json() as { error: string }).error);
    }
    expect(errors.slice(0, -1).every((e) => e === MESSAGES.verification.invalidCode)).toBe(true);
    expect(errors.at(-1)).toBe(MESSAGES.verification.tooManyWrong);
    const right = await post('/api/auth/verify-code', { code }, bearer(reg.token));
    expect(right.statusCode).toBe(400);
    expect((right.json() as { error: string }).error).toBe(MESSAGES.verification.tooManyWrong);

    // A new code brings the account back.
    clock.advance(EMAIL_CODE.resendCooldownSeconds * 1000);
    expect((await post('/api/auth/resend-verification', { email: reg.email })).statusCode).toBe(200);
    const fresh = await latestCode(t.app, reg.email);
    expect((await post('/api/auth/verify-code', { code: fresh }, bearer(reg.token))).statusCode).toBe(200);
  });

  it(`codes expire after ${EMAIL_CODE.expiresInSeconds} s`, async () => {
    const reg = await register(t.app);
    const code = await latestCode(t.app, reg.email);
    clock.advance(EMAIL_CODE.expiresInSeconds * 1000);
    const res = await post('/api/auth/verify-code', { code }, bearer(reg.token));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: MESSAGES.verification.expired, code: 'code_expired' });
  });

  it('a code just before expiry still works', async () => {
    const reg = await register(t.app);
    const code = await latestCode(t.app, reg.email);
    clock.advance(EMAIL_CODE.expiresInSeconds * 1000 - 1000);
    expect((await post('/api/auth/verify-code', { code }, bearer(reg.token))).statusCode).toBe(200);
  });

  it('resend has a cooldown, then sends a code that replaces the old one', async () => {
    const reg = await register(t.app);
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
      const old = await post('/api/auth/verify-code', { code: first }, bearer(reg.token));
      expect(old.statusCode).toBe(400);
      expect((old.json() as { error: string }).error).toBe(MESSAGES.verification.invalidCode);
    }
    const [row] = await t.ctx.db
      .select()
      .from(emailVerificationCodes)
      .where(eq(emailVerificationCodes.userId, reg.userId));
    expect(row).toBeDefined();
    const good = await post('/api/auth/verify-code', { code: second }, bearer(reg.token));
    expect(good.statusCode).toBe(200);
  });

  it('resend answers the same for unknown and verified emails and sends nothing', async () => {
    const before = await t.ctx.db.select().from(mailOutbox);
    const unknown = await post('/api/auth/resend-verification', { email: 'ghost@example.com' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toMatchObject({ success: true, message: MESSAGES.verification.sent });

    const reg = await register(t.app);
    const code = await latestCode(t.app, reg.email);
    await post('/api/auth/verify-code', { code }, bearer(reg.token));
    const mailsBefore = (await t.ctx.db.select().from(mailOutbox)).length;
    const verified = await post('/api/auth/resend-verification', { email: reg.email });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual(unknown.json());
    expect((await t.ctx.db.select().from(mailOutbox)).length).toBe(mailsBefore);
    expect(before.some((m) => m.to === 'ghost@example.com')).toBe(false);
  });

  it('resend answers an unknown and an unverified email alike, cooldown included; only the account gets a code (issue 21)', async () => {
    const reg = await register(t.app);
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

  it('verify-code needs a session', async () => {
    const res = await post('/api/auth/verify-code', { code: '123456' });
    expect(res.statusCode).toBe(401);
  });
});
