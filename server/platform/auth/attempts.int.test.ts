import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailCodeRequiredReply } from '../../../common/api/account.ts';
import { AUTH_LOCKOUT } from '../../../common/api/auth.constants.ts';
import type { SessionReply } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import {
  bearer,
  latestCode,
  type Registered,
  register,
  registerUnverified,
  wrongCode,
} from '../../features/auth/testing.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { ManualClock } from '../clock.ts';
import { addressKey, guardDelaySeconds } from './attempts.ts';

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

/** Lets the account guard's delay after `failures` failed log-ins of the account pass (ACCOUNT_GUARD). */
const waitOutGuard = (failures: number) => clock.advance(guardDelaySeconds(failures) * 1000);

/**
 * The owner's right password from `ip` on an account with many failures: no session yet, a code is mailed
 * (ACCOUNT_GUARD); the password and that code sign in.
 */
async function signInWithMailedCode(owner: Registered, ip: string): Promise<SessionReply> {
  const first = await login(owner.email, owner.password, ip);
  expect(first.statusCode).toBe(200);
  const challenge = first.json() as EmailCodeRequiredReply;
  expect(challenge).toMatchObject({ requiresEmailCode: true, message: MESSAGES.auth.loginCodeMailed });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login/two-factor',
    payload: { challengeToken: challenge.challengeToken, code: await latestCode(t.app, owner.email) },
    headers: from(ip),
  });
  expect(res.statusCode).toBe(200);
  const session = res.json() as SessionReply;
  expect(session.data.user.email).toBe(owner.email);
  return session;
}

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
      waitOutGuard(i);
      expect((await login(owner.email, 'wrong password!', ATTACKER)).statusCode).toBe(401);
    }
    waitOutGuard(AUTH_LOCKOUT.maxFailedLogins);
    expectTooMany(await login(owner.email, 'wrong password!', ATTACKER));
    // The attacking address is refused before its password is looked at, the right one included.
    expectTooMany(await login(owner.email, owner.password, ATTACKER));

    // The owner's address has not failed: its right password is checked (and, the account having many
    // failures, a mailed code completes the sign-in).
    await signInWithMailedCode(owner, OWNER);
    // The owner's sign-in does not wipe the attacker's count.
    expectTooMany(await login(owner.email, 'wrong password!', ATTACKER));

    clock.advance(WINDOW_MS + 1000);
    await signInWithMailedCode(owner, ATTACKER);
  });

  it("count wrong passwords from the owner's address too, up to the same limit", async () => {
    const owner = await register(t.app);
    for (let i = 0; i < AUTH_LOCKOUT.maxFailedLogins; i++) {
      waitOutGuard(i);
      expect((await login(owner.email, 'wrong password!', OWNER)).statusCode).toBe(401);
    }
    waitOutGuard(AUTH_LOCKOUT.maxFailedLogins);
    expectTooMany(await login(owner.email, owner.password, OWNER));
    await signInWithMailedCode(owner, '198.51.100.8');
    clock.advance(WINDOW_MS + 1000);
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
      waitOutGuard(i);
      expect((await login(owner.email, 'wrong password!', `2001:db8:5:6::${i + 1}`)).statusCode).toBe(401);
    }
    waitOutGuard(AUTH_LOCKOUT.maxFailedLogins);
    expectTooMany(await login(owner.email, owner.password, '2001:db8:5:6:ffff::1'));
    await signInWithMailedCode(owner, '2001:db8:5:7::1');
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
      waitOutGuard(i);
      expect((await change(ATTACKER, 'not the password', 'taken over 123')).statusCode).toBe(400);
    }
    waitOutGuard(AUTH_LOCKOUT.maxFailedLogins);
    expectTooMany(await change(ATTACKER, owner.password, 'taken over 123'));
    expect((await change(OWNER, owner.password, 'the owner’s new password')).statusCode).toBe(200);
    clock.advance(WINDOW_MS + 1000);
  });
});

describe('wrong email codes', () => {
  it('are limited per account, whatever addresses they come from', async () => {
    const reg = await registerUnverified(t);
    await t.app.inject({ method: 'POST', url: '/api/auth/resend-verification', payload: { email: reg.email } });
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
