import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUSPICIOUS_LOGIN_FAILURES } from '../../../common/api/account.constants.ts';
import type { SecurityActionBody, SecurityActionReply, SecurityReply } from '../../../common/api/account.ts';
import { ACCOUNT_GUARD, PASSWORD_MIN_LENGTH } from '../../../common/api/auth.constants.ts';
import type { SessionReply } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { ManualClock } from '../../platform/clock.ts';
import { listOutbox } from '../../platform/mail/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { bearer, register } from '../auth/testing.ts';

let t: TestApp;
const clock = new ManualClock(new Date('2030-05-01T10:00:00Z'));
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

beforeAll(async () => {
  t = await createTestApp({ clock, env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' } });
});
afterAll(async () => {
  await t?.close();
});

const login = (email: string, password: string, userAgent?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    headers: userAgent ? { 'user-agent': userAgent } : {},
  });
const tokenOf = (res: { json(): unknown }) => (res.json() as SessionReply).data.token;
const security = (token: string) => t.app.inject({ method: 'GET', url: '/api/users/security', headers: bearer(token) });
const act = (token: string, body: SecurityActionBody | Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/users/security', payload: body, headers: bearer(token) });
const mailSubjects = async (to: string) => (await listOutbox(t.ctx.db, { to })).map((mail) => mail.subject);

describe('GET /api/users/security', () => {
  it('needs a session and lists the security state with the sessions, current first', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/users/security' })).statusCode).toBe(401);
    const reg = await register(t.app);
    clock.advance(1000);
    const phone = tokenOf(await login(reg.email, reg.password, IPHONE));
    const res = await security(phone);
    expect(res.statusCode).toBe(200);
    const data = (res.json() as SecurityReply).data;
    expect(data).toMatchObject({
      twoFactorEnabled: false,
      recoveryCodesLeft: 0,
      loginNotifications: true,
      suspiciousActivityAlerts: true,
      lastPasswordChange: '2030-05-01T10:00:00.000Z',
    });
    expect(data.recentSessions).toHaveLength(2);
    expect(data.recentSessions[0]).toMatchObject({ current: true, deviceType: 'mobile', isActive: true });
    expect(data.recentSessions[1]).toMatchObject({ current: false, deviceType: 'desktop' });
  });
});

describe('login alerts', () => {
  it('mails a log-in from a new device once, and not when login notifications are off', async () => {
    const reg = await register(t.app, {}); // registered from the default inject user agent
    const before = await mailSubjects(reg.email);
    await login(reg.email, reg.password); // same device as the registration: no mail
    expect(await mailSubjects(reg.email)).toEqual(before);

    const phone = await login(reg.email, reg.password, IPHONE);
    expect(phone.statusCode).toBe(200);
    let subjects = await mailSubjects(reg.email);
    expect(subjects[0]).toBe('New sign-in to your GenPro Studio account');
    const [mail] = await listOutbox(t.ctx.db, { to: reg.email });
    expect(mail.text).toContain('Device: mobile');

    await login(reg.email, reg.password, IPHONE); // known now
    expect(await mailSubjects(reg.email)).toEqual(subjects);

    const off = await act(tokenOf(phone), { action: 'update_alerts', loginNotifications: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({
      message: MESSAGES.account.alertsUpdated,
      data: { loginNotifications: false, suspiciousActivityAlerts: true },
    });
    subjects = await mailSubjects(reg.email);
    await login(reg.email, reg.password, IPAD);
    expect(await mailSubjects(reg.email)).toEqual(subjects);
  });

  it(`mails suspicious activity when a log-in succeeds after ${SUSPICIOUS_LOGIN_FAILURES} failures`, async () => {
    const reg = await register(t.app);
    for (let i = 0; i < SUSPICIOUS_LOGIN_FAILURES - 1; i++) {
      expect((await login(reg.email, 'wrong password!')).statusCode).toBe(401);
    }
    await login(reg.email, reg.password);
    expect(await mailSubjects(reg.email)).not.toContain('Suspicious sign-in activity on your GenPro Studio account');

    // Each round's failures age out of the account guard (ACCOUNT_GUARD), which would ask for a mailed code.
    const nextDay = () => clock.advance(ACCOUNT_GUARD.guardWindowHours * 3_600_000 + 1000);
    nextDay();
    for (let i = 0; i < SUSPICIOUS_LOGIN_FAILURES; i++) await login(reg.email, 'wrong password!');
    const ok = await login(reg.email, reg.password);
    expect(ok.statusCode).toBe(200);
    const [mail] = await listOutbox(t.ctx.db, { to: reg.email });
    expect(mail.subject).toBe('Suspicious sign-in activity on your GenPro Studio account');
    expect(mail.text).toContain(`after ${SUSPICIOUS_LOGIN_FAILURES} failed attempts`);

    await act(tokenOf(ok), { action: 'update_alerts', suspiciousActivityAlerts: false });
    const count = (await mailSubjects(reg.email)).length;
    nextDay();
    for (let i = 0; i < SUSPICIOUS_LOGIN_FAILURES; i++) await login(reg.email, 'wrong password!');
    await login(reg.email, reg.password);
    expect((await mailSubjects(reg.email)).length).toBe(count);
  });
});

describe('change password', () => {
  it('requires all fields, matching confirmation and the right current password', async () => {
    const reg = await register(t.app);
    const cases: [Record<string, unknown>, string][] = [
      [{ action: 'change_password', newPassword: 'another secret 1' }, MESSAGES.account.currentPasswordRequired],
      [{ action: 'change_password', currentPassword: '', newPassword: 'x' }, MESSAGES.account.currentPasswordRequired],
      [{ action: 'change_password', currentPassword: reg.password }, MESSAGES.account.newPasswordRequired],
      [
        { action: 'change_password', currentPassword: reg.password, newPassword: 'short' },
        MESSAGES.validation.passwordTooShort(PASSWORD_MIN_LENGTH),
      ],
      [
        {
          action: 'change_password',
          currentPassword: reg.password,
          newPassword: 'another secret 1',
          confirmPassword: 'another secret 2',
        },
        MESSAGES.account.passwordsMismatch,
      ],
      [
        { action: 'change_password', currentPassword: 'not my password', newPassword: 'another secret 1' },
        MESSAGES.account.currentPasswordWrong,
      ],
      [
        { action: 'change_password', currentPassword: reg.password, newPassword: reg.password },
        MESSAGES.account.samePassword,
      ],
    ];
    for (const [body, error] of cases) {
      const res = await act(reg.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ success: false, error });
    }
    expect((await act(reg.token, { action: 'nope' })).statusCode).toBe(400);
    expect((await login(reg.email, reg.password)).statusCode).toBe(200);
  });

  it('changes it: the old password is refused, other sessions are revoked, this one stays, a mail goes out', async () => {
    const reg = await register(t.app);
    const other = tokenOf(await login(reg.email, reg.password, FIREFOX));
    clock.advance(60_000);
    const res = await act(reg.token, {
      action: 'change_password',
      currentPassword: reg.password,
      newPassword: 'a brand new secret',
      confirmPassword: 'a brand new secret',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as SecurityActionReply;
    expect(body.message).toBe(MESSAGES.account.passwordChanged);
    expect(body.data.lastPasswordChange).toBe(clock.now().toISOString());
    expect(body.data.recentSessions.map((s) => s.current)).toEqual([true]);

    expect((await security(other)).statusCode).toBe(401);
    expect((await security(reg.token)).statusCode).toBe(200);
    expect((await login(reg.email, reg.password)).statusCode).toBe(401);
    expect((await login(reg.email, 'a brand new secret')).statusCode).toBe(200);
    expect(await mailSubjects(reg.email)).toContain('Your GenPro Studio password was changed');
  });
});

describe('DELETE /api/users/sessions/revoke-all', () => {
  it('invalidates every token of the user, the calling one included', async () => {
    const reg = await register(t.app);
    const tokens = [reg.token, tokenOf(await login(reg.email, reg.password, IPAD))];
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/sessions/revoke-all',
      headers: bearer(tokens[1]),
    });
    expect(res.statusCode).toBe(200);
    for (const token of tokens) expect((await security(token)).statusCode).toBe(401);
    expect((await login(reg.email, reg.password)).statusCode).toBe(200);
  });
});
