import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_LOCKOUT } from '../../../common/api/auth.constants.ts';
import type { SessionReply } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { ManualClock } from '../../platform/clock.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { addressKey } from './attempts.ts';
import { bearer, latestCode, register, wrongCode } from './testing.ts';

let t: TestApp;
const clock = new ManualClock(new Date('2030-04-01T09:00:00Z'));
const WINDOW_MS = AUTH_LOCKOUT.windowMinutes * 60_000;
const ATTACKER = '203.0.113.66';
const OWNER = '198.51.100.7';

beforeAll(async () => {
  // Behind a proxy: the client address comes from X-Forwarded-For.
  t = await createTestApp({ clock, env: { TRUST_PROXY: 'true', RATE_LIMIT_AUTH_PER_MINUTE: '1000' } });
});
afterAll(async () => {
  await t?.close();
});

const from = (ip: string) => ({ 'x-forwarded-for': ip });
const login = (email: string, password: string, ip: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, headers: from(ip) });
const retryAfterOf = (res: { json(): unknown }) =>
  (res.json() as { details: { retryAfterSeconds: number } }).details.retryAfterSeconds;

function expectTooMany(res: Awaited<ReturnType<typeof login>>): void {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toMatchObject({ success: false, error: MESSAGES.auth.tooManyAttempts });
  expect(retryAfterOf(res)).toBeGreaterThan(0);
  expect(retryAfterOf(res)).toBeLessThanOrEqual(AUTH_LOCKOUT.windowMinutes * 60);
}

describe('failed log-ins', () => {
  it("stop the failing address, never the owner's right password from another address", async () => {
    const owner = await register(t.app);
    for (let i = 0; i < AUTH_LOCKOUT.maxFailedLogins; i++) {
      expect((await login(owner.email, 'wrong password!', ATTACKER)).statusCode).toBe(401);
    }
    expectTooMany(await login(owner.email, 'wrong password!', ATTACKER));
    // The attacking address is refused before its password is looked at, the right one included.
    expectTooMany(await login(owner.email, owner.password, ATTACKER));

    const signedIn = await login(owner.email, owner.password, OWNER);
    expect(signedIn.statusCode).toBe(200);
    expect((signedIn.json() as SessionReply).data.user.email).toBe(owner.email);
    // The owner's sign-in does not wipe the attacker's count.
    expectTooMany(await login(owner.email, 'wrong password!', ATTACKER));

    // Wrong passwords from the owner's address are still counted, up to the same limit.
    for (let i = 0; i < AUTH_LOCKOUT.maxFailedLogins; i++) {
      expect((await login(owner.email, 'wrong password!', OWNER)).statusCode).toBe(401);
    }
    expectTooMany(await login(owner.email, owner.password, OWNER));
    expect((await login(owner.email, owner.password, '198.51.100.8')).statusCode).toBe(200);

    clock.advance(WINDOW_MS + 1000);
    expect((await login(owner.email, owner.password, ATTACKER)).statusCode).toBe(200);
  });

  it('stop an address that fails across many accounts, for every account, with a higher limit', {
    timeout: 90_000,
  }, async () => {
    const spraying = '203.0.113.99';
    const victim = await register(t.app);
    const sprayed = await Promise.all(
      Array.from({ length: AUTH_LOCKOUT.maxFailedLoginsPerAddress }, (_, i) =>
        login(`sprayed.${i}@example.com`, 'guess guess', spraying),
      ),
    );
    expect(sprayed.every((res) => res.statusCode === 401)).toBe(true);
    expectTooMany(await login(victim.email, victim.password, spraying));
    expect((await login(victim.email, victim.password, '203.0.113.100')).statusCode).toBe(200);
    clock.advance(WINDOW_MS + 1000);
  });

  it('count an IPv6 /64 as one address', async () => {
    const owner = await register(t.app);
    for (let i = 0; i < AUTH_LOCKOUT.maxFailedLogins; i++) {
      expect((await login(owner.email, 'wrong password!', `2001:db8:5:6::${i + 1}`)).statusCode).toBe(401);
    }
    expectTooMany(await login(owner.email, owner.password, '2001:db8:5:6:ffff::1'));
    expect((await login(owner.email, owner.password, '2001:db8:5:7::1')).statusCode).toBe(200);
    clock.advance(WINDOW_MS + 1000);
  });

  it("of a signed-in user's password checks count for that address too", async () => {
    const owner = await register(t.app);
    const change = (ip: string, currentPassword: string, newPassword: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/users/security',
        payload: { action: 'change_password', currentPassword, newPassword },
        headers: { ...bearer(owner.token), ...from(ip) },
      });
    for (let i = 0; i < AUTH_LOCKOUT.maxFailedLogins; i++) {
      expect((await change(ATTACKER, 'not the password', 'taken over 123')).statusCode).toBe(400);
    }
    expectTooMany(await change(ATTACKER, owner.password, 'taken over 123'));
    expect((await change(OWNER, owner.password, 'the owner’s new password')).statusCode).toBe(200);
    clock.advance(WINDOW_MS + 1000);
  });
});

describe('wrong email codes', () => {
  it('are limited per account, whatever addresses they come from', async () => {
    const reg = await register(t.app);
    const wrong = wrongCode(await latestCode(t.app, reg.email));
    let last = 0;
    for (let i = 0; i < AUTH_LOCKOUT.maxFailedCodes + 1; i++) {
      if (i > 0 && i % 5 === 0) {
        // Every fifth wrong try kills the code: ask for a new one.
        clock.advance(31_000);
        await t.app.inject({ method: 'POST', url: '/api/auth/resend-verification', payload: { email: reg.email } });
      }
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/verify-code',
        payload: { code: wrong },
        headers: { ...bearer(reg.token), ...from(`192.0.2.${i + 1}`) },
      });
      last = res.statusCode;
    }
    expect(last).toBe(429);
  });
});

describe('addressKey', () => {
  it('keeps IPv4, unwraps IPv4-mapped IPv6 and cuts IPv6 to its /64', () => {
    expect(addressKey('203.0.113.5')).toBe('203.0.113.5');
    expect(addressKey('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(addressKey('2001:db8:5:6::1')).toBe('2001:db8:5:6::/64');
    expect(addressKey('2001:0db8:0005:0006:ffff:0:0:1')).toBe('2001:db8:5:6::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(addressKey('not an address')).toBe('not an address');
  });
});
