// Attack class: cookies without Secure (issue 27, finding 5). In production the session cookie went out without
// Secure when PUBLIC_URL was left at its http:// default, so a browser would send it over plain HTTP. Production now
// refuses an http:// PUBLIC_URL (config.test.ts, production-start.test.ts), and every cookie the studio sets in
// production carries Secure: the session cookie (registration, verification, log-in, the two-factor step) and its
// clearing (log-out, revoking sessions, deleting the account), and the social connect cookie and its clearing.
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TwoFactorRequiredReply, TwoFactorSetupReply } from '../../../common/api/account.ts';
import { type SmtpSink, startSmtpSink } from '../../platform/mail/smtp-sink.ts';
import { authHeader } from '../fixtures.ts';
import { createTestApp, type TestApp } from '../harness.ts';

let sink: SmtpSink;
let t: TestApp;
beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp({
    env: {
      NODE_ENV: 'production',
      SMTP_URL: sink.url,
      TRUST_PROXY: 'false',
      PUBLIC_URL: 'https://studio.example',
      RATE_LIMIT_AUTH_PER_MINUTE: '1000',
      // The sandbox network, so the connect flow (which sets its own cookie) runs without a real provider.
      SANDBOX_NETWORKS: 'true',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

/** The newest six-digit code mailed to `to`. */
function mailedCode(to: string): string {
  const mail = [...sink.received].reverse().find((m) => m.to.some((r) => r.includes(to)));
  const code = mail?.data.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code mailed to ${to}`);
  return code;
}

function setCookies(res: { headers: Record<string, unknown> }): string[] {
  const value = res.headers['set-cookie'];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

describe('production cookies', () => {
  it('every Set-Cookie the studio sends carries Secure (and HttpOnly)', { timeout: 60_000 }, async () => {
    const seen: Array<{ route: string; cookie: string }> = [];
    const record = (route: string, res: { headers: Record<string, unknown> }) => {
      const cookies = setCookies(res);
      expect(cookies.length, route).toBeGreaterThan(0);
      for (const cookie of cookies) seen.push({ route, cookie });
    };
    const email = `secure-${Date.now()}@example.com`;
    const password = 'violet harbor quill 83';

    // Registration sets no cookie (its answer is alike for new and taken emails); the mailed code signs in.
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { first_name: 'Sec', last_name: 'Ure', email, password, role: 'creator' },
    });
    expect(reg.statusCode).toBe(202);
    expect(setCookies(reg)).toEqual([]);

    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify-code',
      payload: { email, code: mailedCode(email) },
    });
    expect(verified.statusCode).toBe(200);
    record('verify-code', verified);
    const token = verified.json().token as string;

    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    expect(login.statusCode).toBe(200);
    record('login', login);
    const loginToken = login.json().data.token as string;

    // The social connect cookie, set on connect and cleared by the callback.
    const connect = await t.app.inject({
      method: 'POST',
      url: '/api/social/connect/instagram',
      headers: authHeader(token),
    });
    expect(connect.statusCode).toBe(200);
    record('social connect', connect);
    const state = new URL(connect.json().authUrl).searchParams.get('state') ?? '';
    const callback = await t.app.inject({
      method: 'GET',
      url: `/api/social/oauth/instagram?state=${state}&error=denied`,
    });
    record('social callback', callback);

    // Two-factor: the session cookie of the second step.
    const setup = await t.app.inject({
      method: 'POST',
      url: '/api/users/two-factor/setup',
      payload: {},
      headers: authHeader(token),
    });
    expect(setup.statusCode).toBe(200);
    const secret = (setup.json() as TwoFactorSetupReply).data.secret;
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
    const enable = await t.app.inject({
      method: 'POST',
      url: '/api/users/two-factor/enable',
      payload: { code: totp.generate({ timestamp: Date.now() - 30_000 }) },
      headers: authHeader(token),
    });
    expect(enable.statusCode).toBe(200);
    const challenge = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    const challengeToken = (challenge.json() as TwoFactorRequiredReply).challengeToken;
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/two-factor',
      payload: { challengeToken, code: totp.generate() },
    });
    expect(second.statusCode).toBe(200);
    record('login/two-factor', second);
    const twoFactorToken = second.json().data.token as string;

    // Clearing cookies: log-out, revoking this session, revoking all, deleting the account.
    const logout = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: authHeader(loginToken) });
    expect(logout.statusCode).toBe(200);
    record('logout', logout);
    const revokeAll = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/sessions/revoke-all',
      headers: authHeader(twoFactorToken),
    });
    expect(revokeAll.statusCode).toBe(200);
    record('sessions/revoke-all', revokeAll);

    const again = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    const next = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/two-factor',
      payload: {
        challengeToken: (again.json() as TwoFactorRequiredReply).challengeToken,
        code: totp.generate({ timestamp: Date.now() + 30_000 }),
      },
    });
    expect(next.statusCode).toBe(200);
    const last = next.json().data.token as string;
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/delete-account',
      payload: { password, confirmDelete: 'DELETE MY ACCOUNT' },
      headers: authHeader(last),
    });
    expect(deleted.statusCode).toBe(200);
    record('delete-account', deleted);

    expect(seen.map((s) => s.route)).toEqual(
      expect.arrayContaining([
        'verify-code',
        'login',
        'login/two-factor',
        'logout',
        'social connect',
        'delete-account',
      ]),
    );
    for (const { route, cookie } of seen) {
      expect(cookie, route).toMatch(/;\s*Secure(;|$)/i);
      expect(cookie, route).toMatch(/;\s*HttpOnly(;|$)/i);
    }
  });
});
