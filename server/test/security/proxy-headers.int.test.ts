// Attack class: proxy headers (issue 27, finding 1). Behind a reverse proxy every connection comes from the proxy;
// only TRUST_PROXY tells the studio which X-Forwarded-For hop is the client. Unset, every client is the proxy and
// one attacker's wrong log-ins lock every user out; set to the proxy's address, the attacker locks out only
// itself, and a client that is not the proxy cannot pick its address by sending the header itself.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_LOCKOUT } from '../../../common/api/auth.constants.ts';
import type { HealthReply } from '../../../common/api/health.ts';
import { register } from '../../features/auth/testing.ts';
import { PROXY_HEADERS_WARNING } from '../../platform/http/proxy-headers.ts';
import { createTestApp, type TestApp } from '../harness.ts';

const PROXY = '10.0.0.2';
const ATTACKER = '203.0.113.66';
const VICTIM = '198.51.100.7';
/** More wrong log-ins than the per-address limit allows (the audit's 51). */
const ATTACK_TRIES = AUTH_LOCKOUT.maxFailedLoginsPerAddress + 1;

type Headers = Record<string, string>;
const login = (t: TestApp, email: string, password: string, via: { remoteAddress: string; headers?: Headers }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    remoteAddress: via.remoteAddress,
    headers: via.headers,
  });
const throughProxy = (client: string) => ({ remoteAddress: PROXY, headers: { 'x-forwarded-for': client } });

/** The attacker's wrong log-ins, each for another (made-up) account, as a password spray does. */
async function spray(t: TestApp, via: (i: number) => { remoteAddress: string; headers?: Headers }) {
  const answers: number[] = [];
  for (let i = 0; i < ATTACK_TRIES; i++) {
    answers.push((await login(t, `sprayed.${i}@example.com`, 'wrong password!', via(i))).statusCode);
  }
  return answers;
}

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, stream };
}

describe('behind a proxy with TRUST_PROXY set to its address', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The default per-address limits (RATE_LIMIT_AUTH_PER_MINUTE and the log-in lock-out) stay as production has them.
    t = await createTestApp({ env: { TRUST_PROXY: PROXY } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("an attacker's 51 wrong log-ins from one forwarded address do not block the victim's correct log-in from another", {
    timeout: 120_000,
  }, async () => {
    const victim = await register(t.app);
    const answers = await spray(t, () => throughProxy(ATTACKER));
    expect(answers.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    // The attacker is refused: by then it is over its address's limits.
    expect(answers.at(-1)).toBe(429);
    expect((await login(t, victim.email, victim.password, throughProxy(ATTACKER))).statusCode).toBe(429);

    const signedIn = await login(t, victim.email, victim.password, throughProxy(VICTIM));
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ success: true, data: { user: { email: victim.email } } });
    // Another client arriving through the same proxy is not locked out either.
    const other = await register(t.app);
    expect((await login(t, other.email, other.password, throughProxy('198.51.100.8'))).statusCode).toBe(200);
  });

  it('a client that is not the proxy cannot escape its limits by sending a new X-Forwarded-For each time', {
    timeout: 120_000,
  }, async () => {
    const direct = '203.0.113.90';
    const answers = await spray(t, (i) => ({
      remoteAddress: direct,
      headers: { 'x-forwarded-for': `192.0.2.${(i % 250) + 1}` },
    }));
    expect(answers.at(-1)).toBe(429);
    const victim = await register(t.app);
    // Spoofing yet another address from the same connection address changes nothing.
    const spoofed = await login(t, victim.email, victim.password, {
      remoteAddress: direct,
      headers: { 'x-forwarded-for': VICTIM, forwarded: `for=${VICTIM}` },
    });
    expect(spoofed.statusCode).toBe(429);
    expect((await login(t, victim.email, victim.password, throughProxy(VICTIM))).statusCode).toBe(200);
  });

  it('/healthz says TRUST_PROXY is set and warns about nothing', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz', ...throughProxy(VICTIM) });
    expect((res.json() as HealthReply).proxy).toEqual({
      trustProxy: 'set',
      forwardedHeadersSeenAt: null,
      warning: null,
    });
  });
});

describe('behind a proxy with TRUST_PROXY unset (outside production, which refuses to start so)', () => {
  let t: TestApp;
  const log = capture();
  beforeAll(async () => {
    t = await createTestApp({ env: { LOG_LEVEL: 'warn', RATE_LIMIT_AUTH_PER_MINUTE: '1000' }, logTo: log.stream });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('/healthz reports TRUST_PROXY unset and no forwarded headers until one arrives', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect((res.json() as HealthReply).proxy).toEqual({
      trustProxy: 'unset',
      forwardedHeadersSeenAt: null,
      warning: null,
    });
    expect(log.lines.join('')).not.toContain('TRUST_PROXY');
  });

  it('the first forwarded request logs one warning naming TRUST_PROXY, and /healthz says so from then on', {
    timeout: 120_000,
  }, async () => {
    const victim = await register(t.app);
    // What the audit did: the attacker's spray through the proxy locks everyone out, the victim included.
    const answers = await spray(t, () => throughProxy(ATTACKER));
    expect(answers.at(-1)).toBe(429);
    const locked = await login(t, victim.email, victim.password, throughProxy(VICTIM));
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ details: { retryAfterSeconds: expect.any(Number) } });
    await t.app.inject({ method: 'GET', url: '/livez', remoteAddress: PROXY, headers: { forwarded: `for=${VICTIM}` } });

    // Logged once, at the first forwarded request, with what to set.
    const warnings = log.lines.filter((line) => line.includes(PROXY_HEADERS_WARNING));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0])).toMatchObject({ level: 40, variable: 'TRUST_PROXY', remoteAddress: PROXY });
    expect(PROXY_HEADERS_WARNING).toContain("Set TRUST_PROXY to the proxy's addresses");
    expect(PROXY_HEADERS_WARNING).toContain('TRUST_PROXY=false');

    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    const proxy = (health.json() as HealthReply).proxy;
    expect(proxy).toEqual({
      trustProxy: 'unset',
      forwardedHeadersSeenAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      warning: PROXY_HEADERS_WARNING,
    });
    // Informational: the process itself is fine.
    expect((health.json() as HealthReply).status).toBe('ok');
  });
});

describe('TRUST_PROXY=false (the operator confirms there is no proxy)', () => {
  let t: TestApp;
  const log = capture();
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: 'false', LOG_LEVEL: 'warn' }, logTo: log.stream });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ignores forwarded headers without a warning', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz', ...throughProxy(VICTIM) });
    expect((res.json() as HealthReply).proxy).toEqual({
      trustProxy: 'set',
      forwardedHeadersSeenAt: null,
      warning: null,
    });
    expect(log.lines.join('')).not.toContain(PROXY_HEADERS_WARNING);
  });
});
