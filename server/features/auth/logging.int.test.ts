import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { DrizzleQueryError, sql } from 'drizzle-orm';
import { expect, inject, it } from 'vitest';
import { SUSPICIOUS_LOGIN_FAILURES } from '../../../common/api/account.constants.ts';
import type { SessionReply, VerifyCodeReply } from '../../../common/api/auth.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { closeContext, createContext, createLogger } from '../../context.ts';
import { STUDIO_JOBS } from '../../jobs.ts';
import type { MailMessage } from '../../platform/mail/types.ts';
import { openTestDatabase } from '../../test/databases.ts';
import { latestCode, registerUnverified } from './testing.ts';

/** The studio with every log line (level trace, production redaction) kept in `lines`. */
async function openLoggedStudio() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const log = createLogger('trace', stream);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-log-'));
  const config = loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'trace', DATA_DIR: dataDir, SEED_DEMO: 'false' });
  const database = await openTestDatabase(inject('dbTemplate'));
  const ctx = await createContext(config, STUDIO_JOBS, { database, log });
  const app = await buildApp(ctx);
  await app.ready();
  const close = async () => {
    await app.close();
    await closeContext(ctx);
    await rm(dataDir, { recursive: true, force: true });
  };
  return { app, ctx, lines, close };
}

it('never logs passwords or session tokens (request logging on, level trace)', async () => {
  const { app, lines, close } = await openLoggedStudio();
  try {
    const password = 'Very-Secret-Passw0rd!';
    const email = 'logged@example.com';
    const reg = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { first_name: 'Log', last_name: 'Check', email, password, role: 'creator' },
    });
    expect(reg.statusCode).toBe(202);

    const code = await latestCode(app, email);
    const verified = await app.inject({ method: 'POST', url: '/api/auth/verify-code', payload: { email, code } });
    expect(verified.statusCode).toBe(200);
    const verifiedToken = (verified.json() as VerifyCodeReply).token;

    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    expect(login.statusCode).toBe(200);
    const loginToken = (login.json() as SessionReply).data.token;
    const cookie = String(login.headers['set-cookie']).split(';')[0];
    await app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${loginToken}`, cookie },
    });
    await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: `${password}x` } });

    const output = lines.join('');
    expect(output.length).toBeGreaterThan(0);
    // The embedded outbox logs that a mail is there…
    expect(output).toContain('mail stored in the local outbox');
    expect(output).toContain(email);
    // …but never its code, a password or a token.
    for (const secret of [code, password, `${password}x`, verifiedToken, loginToken]) {
      expect(output).not.toContain(secret);
    }
  } finally {
    await close();
  }
});

it('never logs a verification code or a sign-in alert, even when their mail cannot be stored', async () => {
  const { app, ctx, lines, close } = await openLoggedStudio();
  const mails: MailMessage[] = [];
  // What the outbox mailer throws when its insert fails: the query's parameters carry the mail's text.
  ctx.mail = {
    transport: 'outbox',
    async send(message) {
      mails.push(message);
      throw new DrizzleQueryError('insert into "mail_outbox" ("to", "subject", "text") values ($1, $2, $3)', [
        message.to,
        message.subject,
        message.text,
      ]);
    },
  };
  try {
    const email = 'alerted@example.com';
    const password = 'Quiet-Lantern-Passw0rd!';
    const reg = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { first_name: 'Al', last_name: 'Ert', email, password, role: 'creator' },
    });
    expect(reg.statusCode).toBe(202);
    const code = mails[0]?.text.match(/\b(\d{6})\b/)?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    const verified = await app.inject({ method: 'POST', url: '/api/auth/verify-code', payload: { email, code } });
    expect(verified.statusCode).toBe(200);

    // Failures first (the suspicious-activity alert), then a new device (the new-device alert).
    for (let i = 0; i < SUSPICIOUS_LOGIN_FAILURES; i++) {
      await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'wrong password' } });
    }
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148' },
    });
    expect(login.statusCode).toBe(200);
    expect(mails.map((m) => m.subject)).toEqual([
      expect.stringMatching(/verif/i),
      'New sign-in to your GenPro Studio account',
      'Suspicious sign-in activity on your GenPro Studio account',
    ]);

    const output = lines.join('');
    // The failures are logged…
    expect(output).toContain('registration mail could not be sent');
    expect(output).toContain('security mail could not be sent');
    // …without the code, the alerts' text or a token.
    expect(output).not.toContain(code);
    for (const mail of mails) {
      for (const line of mail.text.split('\n').filter((l) => l.length > 20)) expect(output).not.toContain(line);
    }
    expect(output).not.toContain((verified.json() as VerifyCodeReply).token);
    expect(output).not.toContain((login.json() as SessionReply).data.token);
  } finally {
    await close();
  }
});

it('never logs the stored form of a verification code when storing it fails', async () => {
  const { app, ctx, lines, close } = await openLoggedStudio();
  try {
    // Every insert now fails, and the database reports the failing row, hash included.
    await ctx.db.execute(
      sql`alter table pending_registrations add constraint no_pending check (wrong_tries < 0) not valid`,
    );
    await ctx.db.execute(
      sql`alter table email_verification_codes add constraint no_codes check (wrong_tries < 0) not valid`,
    );
    const reg = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        first_name: 'No',
        last_name: 'Code',
        email: 'nocode@example.com',
        password: 'Maple-Orbit-Passw0rd',
        role: 'brand',
      },
    });
    expect(reg.statusCode).toBe(500);
    // An account left unverified asks for a new code: that insert fails too.
    const legacy = await registerUnverified({ ctx }, { email: 'legacy-nocode@example.com' });
    const resend = await app.inject({
      method: 'POST',
      url: '/api/auth/resend-verification',
      payload: { email: legacy.email },
    });
    expect(resend.statusCode).toBe(500);
    const output = lines.join('');
    // The SHA-256 of a six-digit code gives the code away.
    expect(output).not.toMatch(/[0-9a-f]{64}/);
    expect(output).toContain('the registration could not be stored (SQLSTATE 23514)');
    expect(output).toContain('the verification code could not be stored (SQLSTATE 23514)');
  } finally {
    await close();
  }
});
