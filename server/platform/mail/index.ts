import { desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema/index.ts';
import type { Clock } from '../clock.ts';
import type { Metrics } from '../metrics/index.ts';
import { MailDeliveryError, type Mailer, type MailMessage, type OutboxMessage } from './types.ts';

export interface MailerDeps {
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>;
  db: Db;
  log: FastifyBaseLogger;
  clock: Clock;
  /** Counts mails by transport and outcome (genpro_mails_total). */
  metrics?: Pick<Metrics, 'mails'>;
}

/** SMTP when SMTP_URL is set; otherwise the local outbox (logged, listed at /dev/mail). */
export function createMailer(deps: MailerDeps): Mailer {
  return deps.config.SMTP_URL ? smtpMailer(deps, deps.config.SMTP_URL) : outboxMailer(deps);
}

async function record(db: Db, message: MailMessage, transport: Mailer['transport']): Promise<string> {
  const [row] = await db
    .insert(mailOutbox)
    .values({ to: message.to, subject: message.subject, text: message.text, html: message.html ?? null, transport })
    .returning({ id: mailOutbox.id });
  return row.id;
}

function outboxMailer({ db, log, clock, metrics }: MailerDeps): Mailer {
  return {
    transport: 'outbox',
    async send(message) {
      const id = await record(db, message, 'outbox');
      await db.update(mailOutbox).set({ sentAt: clock.now() }).where(eq(mailOutbox.id, id));
      metrics?.mails.inc({ transport: 'outbox', outcome: 'sent' });
      // Never the text: verification codes and sign-in alerts stay out of every log. /dev/mail shows it.
      log.info(
        { mail: { id, to: message.to, subject: message.subject } },
        'mail stored in the local outbox (/dev/mail)',
      );
    },
  };
}

function smtpMailer({ db, log, clock, config, metrics }: MailerDeps, url: string): Mailer {
  // Bounded waits: sign-up and resend deliver inline, so a dead mail server must fail fast.
  const transporter = nodemailer.createTransport(
    { url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
    { from: config.MAIL_FROM },
  );
  return {
    transport: 'smtp',
    async send(message) {
      const id = await record(db, message, 'smtp');
      try {
        const info = await transporter.sendMail({
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html ? { html: message.html } : {}),
        });
        metrics?.mails.inc({ transport: 'smtp', outcome: 'sent' });
        await db.update(mailOutbox).set({ sentAt: clock.now() }).where(eq(mailOutbox.id, id));
        log.info({ mail: { id, to: message.to, subject: message.subject, messageId: info.messageId } }, 'mail sent');
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        metrics?.mails.inc({ transport: 'smtp', outcome: 'failed' });
        await db
          .update(mailOutbox)
          .set({ error: reason.slice(0, 1000) })
          .where(eq(mailOutbox.id, id));
        log.error({ mail: { id, to: message.to, subject: message.subject }, reason }, 'mail delivery failed');
        throw new MailDeliveryError(`SMTP delivery failed: ${reason}`, { cause: error });
      }
    },
  };
}

/** Outbox messages, newest first, optionally only those to one address. */
export async function listOutbox(db: Db, options: { to?: string; limit?: number } = {}): Promise<OutboxMessage[]> {
  const limit = Math.min(Math.max(options.limit ?? 100, 1), 500);
  return db
    .select()
    .from(mailOutbox)
    .where(options.to ? eq(mailOutbox.to, options.to.trim().toLowerCase()) : undefined)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(limit);
}
