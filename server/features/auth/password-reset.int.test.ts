// Password reset by mailed code (issue 27, finding 11): POST /api/auth/password-reset/request and /confirm.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_RESET } from '../../../common/api/auth.constants.ts';
import type { SessionReply } from '../../../common/api/auth.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { ManualClock } from '../../platform/clock.ts';
import { listOutbox } from '../../platform/mail/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { bearer, type Registered, register } from './testing.ts';

let t: TestApp;
const clock = new ManualClock(new Date('2030-08-01T09:00:00Z'));
const RESET_SUBJECT = 'Reset your GenPro Studio password';
const NOTICE_SUBJECT = 'Your GenPro Studio password was reset';
const NEW_PASSWORD = 'purple walrus juggles lanterns';

beforeAll(async () => {
  t = await createTestApp({ clock, env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' } });
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers });
const request = (email: string) => post('/api/auth/password-reset/request', { email });
const confirm = (email: string, code: string, newPassword = NEW_PASSWORD) =>
  post('/api/auth/password-reset/confirm', { email, code, newPassword });
const login = (email: string, password: string) => post('/api/auth/login', { email, password });

async function mailsTo(email: string, subject: string) {
  return (await listOutbox(t.ctx.db, { to: email })).filter((mail) => mail.subject === subject);
}

/** The reset mail is handed to the mailer after the answer: wait for it to be stored. */
async function resetCode(email: string, count = 1): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const mails = await mailsTo(email, RESET_SUBJECT);
    if (mails.length >= count) {
      const code = mails[0].text.match(/\b(\d{6})\b/)?.[1];
      if (code) return code;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no reset code mailed to ${email}`);
}

const other = (code: string) => (code === '000000' ? '111111' : '000000');

async function requested(): Promise<{ owner: Registered; code: string }> {
  const owner = await register(t.app);
  expect((await request(owner.email)).statusCode).toBe(202);
  return { owner, code: await resetCode(owner.email) };
}

describe('request', () => {
  it('answers a known and an unknown email alike, and mails only the account', async () => {
    const owner = await register(t.app);
    const known = await request(owner.email);
    const unknown = await request('nobody.here@example.com');
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(unknown.body).toBe(known.body);
    expect(known.json()).toEqual({
      success: true,
      message: MESSAGES.passwordReset.requested,
      expiresInMinutes: PASSWORD_RESET.expiresInSeconds / 60,
    });
    const headersOf = (res: typeof known) =>
      Object.keys(res.headers)
        .filter((name) => !['date', 'x-request-id'].includes(name) && !name.startsWith('x-ratelimit'))
        .sort();
    expect(headersOf(unknown)).toEqual(headersOf(known));
    expect(unknown.headers['set-cookie']).toBeUndefined();

    const code = await resetCode(owner.email);
    expect(code).toMatch(/^\d{6}$/);
    expect(await listOutbox(t.ctx.db, { to: 'nobody.here@example.com' })).toEqual([]);
  });

  it(`mails an address at most ${PASSWORD_RESET.maxRequestsPerEmail} times an hour, with the same answer after`, async () => {
    const owner = await register(t.app);
    const bodies = new Set<string>();
    for (let i = 0; i < PASSWORD_RESET.maxRequestsPerEmail + 2; i++) {
      const res = await request(owner.email);
      expect(res.statusCode).toBe(202);
      bodies.add(res.body);
    }
    expect(bodies.size).toBe(1);
    await resetCode(owner.email, PASSWORD_RESET.maxRequestsPerEmail);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await mailsTo(owner.email, RESET_SUBJECT)).toHaveLength(PASSWORD_RESET.maxRequestsPerEmail);
    clock.advance(PASSWORD_RESET.requestWindowMinutes * 60_000 + 1000);
    await request(owner.email);
    await resetCode(owner.email, PASSWORD_RESET.maxRequestsPerEmail + 1);
  });
});

describe('confirm', () => {
  it('sets the new password, signs out every session, and mails the owner a notice', async () => {
    const { owner, code } = await requested();
    const second = (await login(owner.email, owner.password).then((res) => res.json())) as SessionReply;
    const res = await confirm(owner.email, code);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: MESSAGES.passwordReset.done });

    for (const token of [owner.token, second.data.token]) {
      const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
      expect(me.statusCode).toBe(401);
    }
    expect((await login(owner.email, owner.password)).statusCode).toBe(401);
    const signedIn = await login(owner.email, NEW_PASSWORD);
    expect((signedIn.json() as SessionReply).data.user.email).toBe(owner.email);

    const [notice] = await mailsTo(owner.email, NOTICE_SUBJECT);
    expect(notice.text).toContain('All your sessions were signed out');
    // The mail never carries the new password.
    expect(notice.text).not.toContain(NEW_PASSWORD);
  });

  it('takes a code once', async () => {
    const { owner, code } = await requested();
    expect((await confirm(owner.email, code)).statusCode).toBe(200);
    const again = await confirm(owner.email, code, 'another fine passphrase here');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'invalid_code', error: MESSAGES.passwordReset.invalidCode });
    expect((await login(owner.email, 'another fine passphrase here')).statusCode).toBe(401);
  });

  it('refuses an expired code and keeps the password', async () => {
    const { owner, code } = await requested();
    clock.advance(PASSWORD_RESET.expiresInSeconds * 1000 + 1000);
    const res = await confirm(owner.email, code);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'code_expired', error: MESSAGES.passwordReset.expired });
    expect((await login(owner.email, owner.password)).statusCode).toBe(200);
    expect(await mailsTo(owner.email, NOTICE_SUBJECT)).toEqual([]);
  });

  it('refuses a weak new password with the reason, and the code still works for a strong one', async () => {
    const { owner, code } = await requested();
    for (const weak of ['Password1', '12345678']) {
      const res = await confirm(owner.email, code, weak);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'weak_password', error: MESSAGES.validation.passwordTooCommon });
    }
    const short = await confirm(owner.email, code, 'short');
    expect(short.statusCode).toBe(400);
    expect((await login(owner.email, owner.password)).statusCode).toBe(200);
    expect((await confirm(owner.email, code)).statusCode).toBe(200);
  });

  it(`kills a code after ${PASSWORD_RESET.maxWrongTries} wrong tries; unknown emails get the same refusal`, async () => {
    const { owner, code } = await requested();
    const answers = [];
    for (let i = 0; i < PASSWORD_RESET.maxWrongTries; i++)
      answers.push((await confirm(owner.email, other(code))).json());
    expect(answers.slice(0, -1)).toEqual(
      Array(PASSWORD_RESET.maxWrongTries - 1).fill(expect.objectContaining({ code: 'invalid_code' })),
    );
    expect(answers.at(-1)).toMatchObject({ code: 'code_dead', error: MESSAGES.passwordReset.tooManyWrong });
    expect((await confirm(owner.email, code)).json()).toMatchObject({ code: 'code_dead' });

    const unknown = await confirm('nobody.else@example.com', '123456');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'invalid_code', error: MESSAGES.passwordReset.invalidCode });
  });

  it('refuses further checks for an email after many wrong codes, whatever the codes', async () => {
    const email = 'guessed.target@example.com';
    let last = 0;
    for (let i = 0; i < 11; i++) last = (await confirm(email, String(100000 + i))).statusCode;
    expect(last).toBe(429);
    clock.advance(16 * 60_000);
  });

  it('validates the body', async () => {
    const res = await post('/api/auth/password-reset/confirm', {
      email: 'x@example.com',
      code: 'abc',
      newPassword: '',
    });
    expect(res.statusCode).toBe(400);
    expect((await post('/api/auth/password-reset/request', { email: 'not an email' })).statusCode).toBe(400);
  });
});
