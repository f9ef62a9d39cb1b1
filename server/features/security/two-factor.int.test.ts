import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TWO_FACTOR } from '../../../common/api/account.constants.ts';
import type {
  LoginReply,
  SecurityReply,
  TwoFactorEnableReply,
  TwoFactorRequiredReply,
  TwoFactorSetupReply,
  UserSettingsReply,
} from '../../../common/api/account.ts';
import { ACCOUNT_GUARD } from '../../../common/api/auth.constants.ts';
import type { SessionReply } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { userTwoFactor } from '../../db/schema/index.ts';
import { ManualClock } from '../../platform/clock.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { bearer, type Registered, register } from '../auth/testing.ts';

let t: TestApp;
// 10 s into a 30 s step, so ±1 step arithmetic below is unambiguous.
const clock = new ManualClock(new Date('2030-06-01T12:00:10Z'));
const STEP = TWO_FACTOR.periodSeconds * 1000;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000', APP_SECRET: 'x'.repeat(40) } });
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: object, token?: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: token ? bearer(token) : {} });
const codeAt = (secret: string, offsetMs = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: clock.now().getTime() + offsetMs,
  });

/** A user with two-factor on: their secret and recovery codes. Leaves the clock one step later. */
async function enrolled(): Promise<{ reg: Registered; secret: string; recoveryCodes: string[] }> {
  const reg = await register(t.app);
  const setup = (await post('/api/users/two-factor/setup', {}, reg.token)).json() as TwoFactorSetupReply;
  const enable = await post('/api/users/two-factor/enable', { code: codeAt(setup.data.secret) }, reg.token);
  expect(enable.statusCode).toBe(200);
  clock.advance(STEP);
  return { reg, secret: setup.data.secret, recoveryCodes: (enable.json() as TwoFactorEnableReply).data.recoveryCodes };
}

async function challenge(reg: Registered): Promise<string> {
  const res = await post('/api/auth/login', { email: reg.email, password: reg.password });
  expect(res.statusCode).toBe(200);
  const body = res.json() as TwoFactorRequiredReply;
  expect(body.requiresTwoFactor).toBe(true);
  return body.challengeToken;
}

describe('enrolment', () => {
  it('sets up a secret with otpauth URL and QR code, enables with a code and returns 10 recovery codes', async () => {
    expect((await post('/api/users/two-factor/setup', {})).statusCode).toBe(401);
    const reg = await register(t.app);
    const early = await post('/api/users/two-factor/enable', { code: '123456' }, reg.token);
    expect(early.json()).toMatchObject({ error: MESSAGES.account.twoFactorNotStarted });

    const setup = await post('/api/users/two-factor/setup', {}, reg.token);
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl, qrCodeDataUrl } = (setup.json() as TwoFactorSetupReply).data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toContain('otpauth://totp/');
    expect(otpauthUrl).toContain(`secret=${secret}`);
    expect(otpauthUrl).toContain('issuer=GenPro%20Studio');
    expect(qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);

    const [row] = await t.ctx.db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, reg.userId));
    expect(row.secretEncrypted).not.toContain(secret);
    expect(row.enabledAt).toBeNull();

    const current = codeAt(secret);
    const wrong = await post(
      '/api/users/two-factor/enable',
      { code: current === '000000' ? '111111' : '000000' },
      reg.token,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: MESSAGES.account.twoFactorInvalidCode });
    expect((await post('/api/users/two-factor/enable', { code: 'abc' }, reg.token)).statusCode).toBe(400);

    const enable = await post('/api/users/two-factor/enable', { code: current }, reg.token);
    expect(enable.statusCode).toBe(200);
    const codes = (enable.json() as TwoFactorEnableReply).data.recoveryCodes;
    expect(codes).toHaveLength(TWO_FACTOR.recoveryCodes);
    expect(new Set(codes).size).toBe(codes.length);
    codes.forEach((code) => {
      expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    });

    expect((await post('/api/users/two-factor/setup', {}, reg.token)).statusCode).toBe(409);
    const settings = await t.app.inject({ method: 'GET', url: '/api/users/settings', headers: bearer(reg.token) });
    expect((settings.json() as UserSettingsReply).data.twoFactorAuth).toBe(true);
    const sec = await t.app.inject({ method: 'GET', url: '/api/users/security', headers: bearer(reg.token) });
    expect((sec.json() as SecurityReply).data).toMatchObject({ twoFactorEnabled: true, recoveryCodesLeft: 10 });
  });

  it("signs out the user's other sessions when it is turned on; this one stays", async () => {
    const reg = await register(t.app);
    const other = await register(t.app);
    const login = await post('/api/auth/login', { email: reg.email, password: reg.password });
    const elsewhere = (login.json() as SessionReply).data.token;
    const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
    expect((await me(elsewhere)).statusCode).toBe(200);

    const setup = (await post('/api/users/two-factor/setup', {}, reg.token)).json() as TwoFactorSetupReply;
    const enable = await post('/api/users/two-factor/enable', { code: codeAt(setup.data.secret) }, reg.token);
    expect(enable.statusCode).toBe(200);
    clock.advance(STEP);

    expect((await me(elsewhere)).statusCode).toBe(401);
    expect((await me(reg.token)).statusCode).toBe(200);
    expect((await me(other.token)).statusCode).toBe(200);
    const sec = await t.app.inject({ method: 'GET', url: '/api/users/security', headers: bearer(reg.token) });
    expect((sec.json() as SecurityReply).data.recentSessions.map((s) => s.current)).toEqual([true]);
  });
});

describe('log-in with two-factor', () => {
  it('gives no session for the password alone and signs in with a fresh code; a replayed code is refused', async () => {
    const reg = await register(t.app);
    const setup = (await post('/api/users/two-factor/setup', {}, reg.token)).json() as TwoFactorSetupReply;
    const enrolCode = codeAt(setup.data.secret);
    await post('/api/users/two-factor/enable', { code: enrolCode }, reg.token);

    const res = await post('/api/auth/login', { email: reg.email, password: reg.password });
    expect(res.statusCode).toBe(200);
    const body = res.json() as LoginReply;
    expect(body).toMatchObject({ success: true, requiresTwoFactor: true, expiresInSeconds: 300 });
    expect('data' in body).toBe(false);
    expect(res.headers['set-cookie']).toBeUndefined();
    const token = (body as TwoFactorRequiredReply).challengeToken;

    // The code used to enable is from the same time step: never accepted twice.
    const replay = await post('/api/auth/login/two-factor', { challengeToken: token, code: enrolCode });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ error: MESSAGES.account.twoFactorInvalidCode });

    clock.advance(STEP);
    const code = codeAt(setup.data.secret);
    const ok = await post('/api/auth/login/two-factor', { challengeToken: token, code });
    expect(ok.statusCode).toBe(200);
    const session = ok.json() as SessionReply;
    expect(session.data.user.email).toBe(reg.email);
    expect(String(ok.headers['set-cookie'])).toMatch(/genpro_session=/);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(session.data.token) });
    expect(me.statusCode).toBe(200);

    // The challenge is used up, and the same code on a new challenge is a replay.
    expect((await post('/api/auth/login/two-factor', { challengeToken: token, code })).json()).toMatchObject({
      error: MESSAGES.account.challengeExpired,
    });
    const again = await challenge(reg);
    expect((await post('/api/auth/login/two-factor', { challengeToken: again, code })).statusCode).toBe(400);
    // Without the second step there is no way in: a wrong password still answers 401.
    expect((await post('/api/auth/login', { email: reg.email, password: 'wrong password' })).statusCode).toBe(401);
  });

  it('accepts the previous step (±1 window) but not two steps back', async () => {
    const { reg, secret } = await enrolled();
    clock.advance(3 * STEP);
    const token = await challenge(reg);
    const tooOld = await post('/api/auth/login/two-factor', { challengeToken: token, code: codeAt(secret, -2 * STEP) });
    expect(tooOld.statusCode).toBe(400);
    const previous = await post('/api/auth/login/two-factor', { challengeToken: token, code: codeAt(secret, -STEP) });
    expect(previous.statusCode).toBe(200);
  });

  it('accepts each recovery code once', async () => {
    const { reg, recoveryCodes } = await enrolled();
    const first = await post('/api/auth/login/two-factor', {
      challengeToken: await challenge(reg),
      code: recoveryCodes[0].toUpperCase(),
    });
    expect(first.statusCode).toBe(200);
    const token = (first.json() as SessionReply).data.token;
    const second = await post('/api/auth/login/two-factor', {
      challengeToken: await challenge(reg),
      code: recoveryCodes[0],
    });
    expect(second.statusCode).toBe(400);
    const sec = await t.app.inject({ method: 'GET', url: '/api/users/security', headers: bearer(token) });
    expect((sec.json() as SecurityReply).data.recoveryCodesLeft).toBe(TWO_FACTOR.recoveryCodes - 1);
    const other = await post('/api/auth/login/two-factor', {
      challengeToken: await challenge(reg),
      code: recoveryCodes[1].replace('-', ''),
    });
    expect(other.statusCode).toBe(200);
  });

  it('kills the challenge after 5 wrong codes and after 5 minutes', async () => {
    const { reg, secret } = await enrolled();
    const token = await challenge(reg);
    const wrong = codeAt(secret) === '000000' ? '111111' : '000000';
    for (let i = 1; i <= TWO_FACTOR.maxWrongTries; i++) {
      const res = await post('/api/auth/login/two-factor', { challengeToken: token, code: wrong });
      expect(res.json().error).toBe(
        i < TWO_FACTOR.maxWrongTries ? MESSAGES.account.twoFactorInvalidCode : MESSAGES.account.challengeTooManyTries,
      );
    }
    const dead = await post('/api/auth/login/two-factor', { challengeToken: token, code: codeAt(secret) });
    expect(dead.statusCode).toBe(400);
    expect(dead.json()).toMatchObject({ error: MESSAGES.account.challengeTooManyTries });

    const late = await challenge(reg);
    clock.advance(TWO_FACTOR.challengeTtlSeconds * 1000 + 1000);
    const expired = await post('/api/auth/login/two-factor', { challengeToken: late, code: codeAt(secret) });
    expect(expired.json()).toMatchObject({ error: MESSAGES.account.challengeExpired });
    expect((await post('/api/auth/login/two-factor', { challengeToken: 'made-up', code: '123456' })).statusCode).toBe(
      400,
    );
  });

  it("stops guessing across fresh challenges from one address, never the owner's right code from another", async () => {
    const { reg, secret } = await enrolled();
    const wrong = codeAt(secret) === '000000' ? '111111' : '000000';
    // Someone with the password opens challenge after challenge and guesses (40 tries, as the audit did).
    const answers: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await post('/api/auth/login/two-factor', { challengeToken: await challenge(reg), code: wrong });
      answers.push(res.statusCode);
      if (res.statusCode === 429) {
        expect((res.json() as { details: { retryAfterSeconds: number } }).details.retryAfterSeconds).toBeGreaterThan(0);
      }
    }
    // Checked until the account has ACCOUNT_GUARD.guardAfterFailures wrong codes; then this address waits.
    expect(answers.slice(0, ACCOUNT_GUARD.guardAfterFailures).every((s) => s === 400)).toBe(true);
    expect(answers.slice(ACCOUNT_GUARD.guardAfterFailures).every((s) => s === 429)).toBe(true);
    // Its right code waits too…
    const guesser = await post('/api/auth/login/two-factor', {
      challengeToken: await challenge(reg),
      code: codeAt(secret),
    });
    expect(guesser.statusCode).toBe(429);
    // …but the owner, from an address that has not failed, gets in with theirs.
    const owner = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/two-factor',
      payload: { challengeToken: await challenge(reg), code: codeAt(secret) },
      remoteAddress: '198.51.100.20',
    });
    expect(owner.statusCode).toBe(200);
    clock.advance(STEP);
  });
});

describe('disable', () => {
  it('needs the password and a code; afterwards the password alone signs in', async () => {
    const { reg, secret } = await enrolled();
    const signIn = await post('/api/auth/login/two-factor', {
      challengeToken: await challenge(reg),
      code: codeAt(secret),
    });
    const token = (signIn.json() as SessionReply).data.token;
    clock.advance(STEP);

    const badPassword = await post(
      '/api/users/two-factor/disable',
      { password: 'nope nope', code: codeAt(secret) },
      token,
    );
    expect(badPassword.json()).toMatchObject({ error: MESSAGES.account.passwordWrong });
    const badCode = await post('/api/users/two-factor/disable', { password: reg.password, code: '00000000' }, token);
    expect(badCode.json()).toMatchObject({ error: MESSAGES.account.twoFactorInvalidCode });
    const ok = await post('/api/users/two-factor/disable', { password: reg.password, code: codeAt(secret) }, token);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ message: MESSAGES.account.twoFactorDisabled });

    const login = await post('/api/auth/login', { email: reg.email, password: reg.password });
    expect((login.json() as SessionReply).data.token).toBeTruthy();
    const again = await post('/api/users/two-factor/disable', { password: reg.password, code: codeAt(secret) }, token);
    expect(again.json()).toMatchObject({ error: MESSAGES.account.twoFactorNotEnabled });
  });
});
