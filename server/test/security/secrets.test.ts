// No secret ever leaves the server in a response: password hashes, TOTP secrets (once enrolled),
// session token hashes, OAuth tokens of connected accounts, app keys.
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, socialAccounts, users, userTwoFactor } from '../../db/schema/index.ts';
import { bearer, register } from '../../features/auth/testing.ts';
import { unseal } from '../../features/security/secret-box.ts';
import { ManualClock } from '../../platform/clock.ts';
import { createTestApp, type TestApp } from '../harness.ts';

const APP_SECRET = 'app-secret-for-the-secrets-test-0123456789';
const MEDIA_URL_SECRET = 'media-url-secret-for-the-secrets-test-0123';
let t: TestApp;
const clock = new ManualClock(new Date('2030-06-01T12:00:10Z'));
/** Every response of the walk, as `METHOD url → status` with its headers and body. */
const seen: { label: string; text: string }[] = [];

async function call(
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  token?: string | null,
  payload?: object,
  cookie?: string,
) {
  const res: LightMyRequestResponse = await t.app.inject({
    method,
    url,
    payload,
    headers: { ...(token ? bearer(token) : {}), ...(cookie ? { cookie } : {}) },
  });
  const { 'set-cookie': _cookie, ...headers } = res.headers;
  seen.push({ label: `${method} ${url} → ${res.statusCode}`, text: `${JSON.stringify(headers)}\n${res.body}` });
  return res;
}

function totp(secret: string) {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: clock.now().getTime(),
  });
}

/** Connects the sandbox Instagram account through its consent page, as a browser does. */
async function connectSandbox(token: string) {
  const started = await call('POST', '/api/social/connect/instagram', token);
  expect(started.statusCode, started.body).toBe(200);
  const authUrl = new URL((started.json() as { authUrl: string }).authUrl);
  const cookie = `genpro_session=${token}`;
  const consent = await t.app.inject({
    method: 'GET',
    url: `${authUrl.pathname}${authUrl.search}`,
    headers: { cookie },
  });
  const fields = Object.fromEntries(
    [...consent.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1],
      (m[2] as string).replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c))),
    ]),
  );
  const approved = await t.app.inject({
    method: 'POST',
    url: '/social/sandbox/instagram/authorize',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ ...fields, decision: 'approve' }).toString(),
  });
  expect(approved.statusCode, approved.body).toBe(303);
  const callback = new URL(String(approved.headers.location));
  // The browser that started the flow carries its connect cookie to the callback.
  const connectCookie = String(started.headers['set-cookie']).split(';')[0];
  const done = await call(
    'GET',
    `${callback.pathname}${callback.search}`,
    null,
    undefined,
    `${cookie}; ${connectCookie}`,
  );
  expect(done.statusCode, done.body).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp({
    clock,
    env: {
      APP_SECRET,
      MEDIA_URL_SECRET,
      RATE_LIMIT_AUTH_PER_MINUTE: '1000',
      SOCIAL_SCHEDULER_INTERVAL_SECONDS: '3600',
    },
  });
});
afterAll(async () => {
  await t?.close();
});

describe('responses of the sensitive routes', () => {
  it('never carry password hashes, TOTP secrets, token hashes, OAuth tokens or app keys', async () => {
    const reg = await register(t.app);
    const sensitiveReads = async (token: string) => {
      for (const url of [
        '/api/auth/me',
        '/api/auth/sessions',
        '/api/users/profile',
        '/api/users/settings',
        '/api/users/security',
        '/api/social/accounts',
        '/api/payment/packages',
        '/api/payment/subscription/status',
        '/api/credits/history',
      ]) {
        const res = await call('GET', url, token);
        expect(res.statusCode, `GET ${url}`).toBeLessThan(500);
      }
    };

    // Two-factor: the secret is shown once, at setup; after the first code confirms it, never again.
    const setup = await call('POST', '/api/users/two-factor/setup', reg.token, {});
    const secret = (setup.json() as { data: { secret: string } }).data.secret;
    seen.length = 0;
    expect((await call('POST', '/api/users/two-factor/enable', reg.token, { code: totp(secret) })).statusCode).toBe(
      200,
    );
    clock.advance(30_000);

    const login = await call('POST', '/api/auth/login', null, { email: reg.email, password: reg.password });
    expect(login.statusCode).toBe(200);
    const challengeToken = (login.json() as { challengeToken: string }).challengeToken;
    const second = await call('POST', '/api/auth/login/two-factor', null, { challengeToken, code: totp(secret) });
    expect(second.statusCode, second.body).toBe(200);
    const token = (second.json() as { data: { token: string } }).data.token;
    await call('POST', '/api/auth/login', null, { email: reg.email, password: 'wrong password here' });

    await connectSandbox(token);
    const topup = await call('POST', '/api/payment/topup', token, {
      topupId: 'creator',
      successUrl: '/dashboard?topup=success',
      cancelUrl: '/dashboard?topup=cancelled',
    });
    expect(topup.statusCode, topup.body).toBe(200);
    await sensitiveReads(token);

    // The secrets as stored, and their plaintext where the server can recover it.
    const [user] = await t.ctx.db.select().from(users).where(eq(users.id, reg.userId));
    const [twoFactor] = await t.ctx.db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, reg.userId));
    const tokenHashes = (await t.ctx.db.select().from(sessions).where(eq(sessions.userId, reg.userId))).map(
      (s) => s.tokenHash,
    );
    const [account] = await t.ctx.db.select().from(socialAccounts).where(eq(socialAccounts.userId, reg.userId));
    expect(account, 'the sandbox account is connected').toBeDefined();
    const forbidden: Record<string, string> = {
      'password hash': user.passwordHash,
      password: reg.password,
      'TOTP secret': unseal(t.config, 'totp-secret', twoFactor.secretEncrypted),
      'sealed TOTP secret': twoFactor.secretEncrypted,
      'OAuth access token': unseal(t.config, 'social-token', account.accessTokenSealed),
      'sealed access token': account.accessTokenSealed,
      APP_SECRET,
      MEDIA_URL_SECRET,
    };
    if (account.refreshTokenSealed) {
      forbidden['OAuth refresh token'] = unseal(t.config, 'social-token', account.refreshTokenSealed);
    }
    for (const [i, hash] of tokenHashes.entries()) forbidden[`session token hash ${i}`] = hash;
    for (const [i, hash] of twoFactor.recoveryCodeHashes.entries()) forbidden[`recovery code hash ${i}`] = hash;
    expect(Object.values(forbidden).every((v) => typeof v === 'string' && v.length >= 8)).toBe(true);
    expect(tokenHashes.length).toBeGreaterThanOrEqual(2);
    expect(seen.length).toBeGreaterThan(12);

    const leaks: string[] = [];
    for (const response of seen) {
      for (const [name, value] of Object.entries(forbidden)) {
        if (response.text.includes(value)) leaks.push(`${name} in ${response.label}`);
      }
      if (/scrypt\$\d+\$|\$argon2|\$2[aby]\$\d\d\$/.test(response.text))
        leaks.push(`a password hash in ${response.label}`);
      if (/otpauth:\/\//.test(response.text)) leaks.push(`an otpauth URL in ${response.label}`);
    }
    expect(leaks).toEqual([]);
  });
});
