import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_TTL_DAYS } from '../../../common/api/auth.constants.ts';
import type { SessionReply, SessionsReply, VerifyCodeReply } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { sessions } from '../../db/schema/index.ts';
import { ManualClock } from '../../platform/clock.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { bearer, latestCode, register, registerUnverified } from './testing.ts';

let t: TestApp;
const clock = new ManualClock(new Date('2030-03-01T08:00:00Z'));
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';

beforeAll(async () => {
  t = await createTestApp({ clock, env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' } });
});
afterAll(async () => {
  await t?.close();
});

const me = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers });
const login = (
  email: string,
  password: string,
  extra: { headers?: Record<string, string>; remoteAddress?: string } = {},
) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, ...extra });
const cookieOf = (setCookie: string | string[] | number | undefined) => String(setCookie).split(';')[0];

describe('sessions', () => {
  it('records device, location and expiry for each log-in and lists them newest first', async () => {
    const reg = await register(t.app);
    clock.advance(1000);
    const phone = await login(reg.email, reg.password, { headers: { 'user-agent': IPHONE } });
    clock.advance(1000);
    const tablet = await login(reg.email, reg.password, {
      headers: { 'user-agent': IPAD },
      remoteAddress: '203.0.113.9',
    });
    const tabletToken = (tablet.json() as SessionReply).data.token;
    expect(phone.statusCode).toBe(200);

    const res = await t.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: bearer(tabletToken) });
    expect(res.statusCode).toBe(200);
    const list = (res.json() as SessionsReply).data;
    expect(list).toHaveLength(3);
    expect(list.map((s) => s.deviceType)).toEqual(['tablet', 'mobile', 'desktop']);
    expect(list.map((s) => s.location)).toEqual(['Unknown location', 'Local network', 'Local network']);
    expect(list.map((s) => s.current)).toEqual([true, false, false]);
    expect(list.every((s) => s.isActive)).toBe(true);
    expect(list[0].timestamp).toBe(clock.now().toISOString());

    const [row] = await t.ctx.db.select().from(sessions).where(eq(sessions.id, list[0].id));
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(SESSION_TTL_DAYS * 86_400_000);
    expect(row.tokenHash).not.toBe(tabletToken);
    expect(row.ip).toBe('203.0.113.9');
  });

  it('sessions expire after SESSION_TTL_DAYS', async () => {
    const local = new ManualClock(new Date('2030-01-01T00:00:00Z'));
    const other = await createTestApp({ clock: local });
    try {
      const reg = await register(other.app);
      local.advance(SESSION_TTL_DAYS * 86_400_000 + 1);
      const res = await other.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(reg.token) });
      expect(res.statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('logout revokes the token and clears the cookie', async () => {
    const reg = await register(t.app);
    expect((await me(bearer(reg.token))).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(reg.token) });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ success: true, message: MESSAGES.auth.loggedOut });
    expect(String(out.headers['set-cookie'])).toMatch(/genpro_session=;/);
    expect((await me(bearer(reg.token))).statusCode).toBe(401);
    // Logging out again (or without a session) is harmless.
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(200);
  });

  it('revokes one session by id; another user’s session is 404', async () => {
    const a = await register(t.app);
    const a2 = (await login(a.email, a.password)).json() as SessionReply;
    const b = await register(t.app);
    const list = (
      (
        await t.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: bearer(a.token) })
      ).json() as SessionsReply
    ).data;
    const other = list.find((s) => !s.current);
    expect(other).toBeDefined();

    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${other?.id}`,
      headers: bearer(b.token),
    });
    expect(foreign.statusCode).toBe(404);
    expect((foreign.json() as { error: string }).error).toBe(MESSAGES.auth.sessionNotFound);
    const garbage = await t.app.inject({
      method: 'DELETE',
      url: '/api/auth/sessions/not-a-uuid',
      headers: bearer(a.token),
    });
    expect(garbage.statusCode).toBe(404);

    const ok = await t.app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${other?.id}`,
      headers: bearer(a.token),
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true, message: MESSAGES.auth.sessionRevoked });
    expect((await me(bearer(a2.data.token))).statusCode).toBe(401);
    expect((await me(bearer(a.token))).statusCode).toBe(200);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${other?.id}`,
      headers: bearer(a.token),
    });
    expect(again.statusCode).toBe(404);
  });

  it('revoke-all ends every session of the user, the current one included, and no one else’s', async () => {
    const a = await register(t.app);
    const a2 = ((await login(a.email, a.password)).json() as SessionReply).data.token;
    const b = await register(t.app);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/sessions/revoke-all',
      headers: bearer(a.token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: MESSAGES.auth.sessionsRevoked });
    expect((await me(bearer(a.token))).statusCode).toBe(401);
    expect((await me(bearer(a2))).statusCode).toBe(401);
    expect((await me(bearer(b.token))).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/users/sessions/revoke-all' })).statusCode).toBe(401);
  });
});

describe('cookie sessions', () => {
  it('the cookie authenticates reads; cookie-only writes need X-Requested-With', async () => {
    const reg = await registerUnverified(t);
    await t.app.inject({ method: 'POST', url: '/api/auth/resend-verification', payload: { email: reg.email } });
    const res = await login(reg.email, reg.password);
    const cookie = cookieOf(res.headers['set-cookie']);
    expect(cookie).toMatch(/^genpro_session=/);

    const read = await me({ cookie });
    expect(read.statusCode).toBe(200);

    const csrf = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify-code',
      payload: { code: '123456' },
      headers: { cookie },
    });
    expect(csrf.statusCode).toBe(403);
    expect((csrf.json() as { error: string }).error).toBe(MESSAGES.auth.csrf);
    const logoutCsrf = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(logoutCsrf.statusCode).toBe(403);

    const code = await latestCode(t.app, reg.email);
    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify-code',
      payload: { code },
      headers: { cookie, 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(verified.statusCode).toBe(200);
    // The rotated token comes back in the body and in a new cookie.
    const rotated = (verified.json() as VerifyCodeReply).token;
    expect(cookieOf(verified.headers['set-cookie'])).toBe(`genpro_session=${rotated}`);
    expect((await me({ cookie })).statusCode).toBe(401);
    expect((await me({ cookie: `genpro_session=${rotated}` })).statusCode).toBe(200);
  });

  it('cookies are Secure when PUBLIC_URL is https or SECURE_COOKIES is set', async () => {
    const other = await createTestApp({ env: { PUBLIC_URL: 'https://studio.example.com' } });
    try {
      const res = await other.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: {
          first_name: 'S',
          last_name: 'C',
          email: 'secure@example.com',
          password: 'long enough pw',
          role: 'brand',
        },
      });
      expect(res.statusCode).toBe(202);
      const verified = await other.app.inject({
        method: 'POST',
        url: '/api/auth/verify-code',
        payload: { email: 'secure@example.com', code: await latestCode(other.app, 'secure@example.com') },
      });
      expect(verified.statusCode).toBe(200);
      expect(String(verified.headers['set-cookie'])).toMatch(/; Secure/);
    } finally {
      await other.close();
    }
  });
});

// Failed log-ins and wrong codes counted in auth_attempts: attempts.int.test.ts.
describe('rate limits', () => {
  it('limits log-in and code checks per IP', async () => {
    const other = await createTestApp({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '3' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await other.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: `x${i}@example.com`, password: 'whatever123' },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
      const limited = await other.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'y@example.com', password: 'whatever123' },
      });
      expect(limited.json()).toMatchObject({ success: false, error: MESSAGES.generic.rateLimited });
      // Another IP is not limited.
      const elsewhere = await other.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'z@example.com', password: 'whatever123' },
        remoteAddress: '192.0.2.50',
      });
      expect(elsewhere.statusCode).toBe(401);
      for (let i = 0; i < 3; i++) {
        await other.app.inject({ method: 'POST', url: '/api/auth/verify-code', payload: { code: '123456' } });
      }
      const verify = await other.app.inject({
        method: 'POST',
        url: '/api/auth/verify-code',
        payload: { code: '123456' },
      });
      expect(verify.statusCode).toBe(429);
    } finally {
      await other.close();
    }
  });
});
