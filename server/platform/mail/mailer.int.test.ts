import { Writable } from 'node:stream';
import { desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_CODE } from '../../../common/api/auth.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { mailOutbox } from '../../db/schema/index.ts';
import { bearer, registerUnverified, startRegistration } from '../../features/auth/testing.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { ManualClock } from '../clock.ts';
import { createMailer, listOutbox } from './index.ts';
import { type SmtpSink, startSmtpSink } from './smtp-sink.ts';
import { escapeHtml, verificationCodeMail } from './templates.ts';
import { MailDeliveryError } from './types.ts';

function captureLog(): { log: FastifyBaseLogger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream) as FastifyBaseLogger, lines };
}

describe('templates', () => {
  it('puts the code in the body, not the subject, and escapes the HTML', () => {
    const mail = verificationCodeMail('a@example.com', '<Ann>', '123456');
    expect(mail.subject).not.toContain('123456');
    expect(mail.text).toContain('123456');
    expect(mail.html).toContain('&lt;Ann&gt;');
    expect(mail.text).toContain(`${EMAIL_CODE.expiresInSeconds / 60} minutes`);
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});

describe('outbox mailer (embedded)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores, logs (never the text) and marks the message sent', async () => {
    const { log, lines } = captureLog();
    const mailer = createMailer({ config: t.config, db: t.ctx.db, log, clock: t.ctx.clock });
    expect(mailer.transport).toBe('outbox');
    await mailer.send({ to: 'out@example.com', subject: 'Hello', text: 'Body 654321' });
    const [row] = await listOutbox(t.ctx.db, { to: 'out@example.com' });
    expect(row).toMatchObject({
      to: 'out@example.com',
      subject: 'Hello',
      text: 'Body 654321',
      transport: 'outbox',
      error: null,
    });
    expect(row.sentAt).not.toBeNull();
    const entry = JSON.parse(lines.join('').trim().split('\n').at(-1) ?? '{}') as {
      level: number;
      mail: { to: string; subject: string; text?: string };
    };
    expect(entry.level).toBe(30);
    expect(entry.mail).toMatchObject({ to: 'out@example.com', subject: 'Hello' });
    // A verification code or a sign-in alert never reaches the log: /dev/mail shows the text.
    expect(lines.join('')).not.toContain('654321');
  });
});

describe('SMTP mailer', () => {
  let t: TestApp;
  let sink: SmtpSink;
  const clock = new ManualClock(new Date('2030-05-01T12:00:00Z'));
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp({
      clock,
      env: { SMTP_URL: sink.url, MAIL_FROM: 'Studio <studio@example.com>', RATE_LIMIT_AUTH_PER_MINUTE: '1000' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it('delivers the verification mail of a sign-up over SMTP and records it', async () => {
    expect(t.ctx.mail.transport).toBe('smtp');
    const reg = await startRegistration(t.app);
    expect(sink.received).toHaveLength(1);
    const mail = sink.received[0];
    expect(mail.from).toBe('<studio@example.com>');
    expect(mail.to).toEqual([`<${reg.email}>`]);
    expect(mail.data).toMatch(/Subject: Verify your GenPro Studio email/);
    expect(mail.data).toMatch(/verification code is: \d{6}/);
    const [row] = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, reg.email));
    expect(row).toMatchObject({ transport: 'smtp', error: null });
    expect(row.sentAt).not.toBeNull();
  });

  it('records a failed delivery; sign-up still succeeds; resend reports the failure to the signed-in owner only', async () => {
    const rejecting = await startSmtpSink({ rejectRecipients: true });
    const local = new ManualClock(new Date('2030-05-01T12:00:00Z'));
    const other = await createTestApp({ clock: local, env: { SMTP_URL: rejecting.url } });
    try {
      // Sign-up answers 202 whether or not the code went (the answer must not differ for taken emails either).
      const started = await startRegistration(other.app);
      const rowsTo = (to: string) =>
        other.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.createdAt));
      const [row] = await rowsTo(started.email);
      expect(row.sentAt).toBeNull();
      expect(row.error).toMatch(/550|mailbox unavailable/i);

      // The owner of an account left unverified, signed in on the verification page, is told the mail did not go.
      const reg = await registerUnverified(other);
      const rows = () => rowsTo(reg.email);
      local.advance(EMAIL_CODE.resendCooldownSeconds * 1000);
      const own = await other.app.inject({
        method: 'POST',
        url: '/api/auth/resend-verification',
        headers: bearer(reg.token),
        payload: { email: reg.email },
      });
      expect(own.statusCode).toBe(502);
      expect(own.json()).toMatchObject({ success: false, error: MESSAGES.verification.sendFailed });

      // Anyone else gets the answer an unknown address gets: the failure does not reveal the account.
      local.advance(EMAIL_CODE.resendCooldownSeconds * 1000);
      const unknown = await other.app.inject({
        method: 'POST',
        url: '/api/auth/resend-verification',
        payload: { email: `nobody-${Date.now()}@example.com` },
      });
      expect(unknown.statusCode, unknown.body).toBe(200);
      const stranger = await registerUnverified(other);
      for (const headers of [{}, bearer(stranger.token)]) {
        local.advance(EMAIL_CODE.resendCooldownSeconds * 1000);
        const res = await other.app.inject({
          method: 'POST',
          url: '/api/auth/resend-verification',
          headers,
          payload: { email: reg.email },
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual(unknown.json());
      }
      // The attempts were made and their failures kept: three to the owner's address.
      const after = await rows();
      expect(after).toHaveLength(3);
      expect(after.every((r) => r.sentAt === null && /550|mailbox unavailable/i.test(r.error ?? ''))).toBe(true);

      await expect(other.ctx.mail.send({ to: 'x@example.com', subject: 's', text: 't' })).rejects.toBeInstanceOf(
        MailDeliveryError,
      );
    } finally {
      await other.close();
      await rejecting.close();
    }
  });
});
