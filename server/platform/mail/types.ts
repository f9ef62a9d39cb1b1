export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  readonly transport: 'outbox' | 'smtp';
  /**
   * Records the message in the outbox table and delivers it (SMTP) or logs it (embedded).
   * Throws a MailDeliveryError when SMTP delivery fails; the outbox row keeps the error.
   */
  send(message: MailMessage): Promise<void>;
}

/** One row of the outbox as features and the /dev/mail page read it. */
export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  transport: string;
  sentAt: Date | null;
  error: string | null;
  createdAt: Date;
}

export class MailDeliveryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MailDeliveryError';
  }
}

/**
 * What may be logged of a failed send: the error's name, and the SMTP server's reason for a
 * MailDeliveryError. Never the error itself: others (a failed outbox insert is a DrizzleQueryError with
 * the query's parameters) carry the mail's text, and with it a verification code or an alert.
 */
export function mailFailureForLog(error: unknown): { error: string } {
  if (error instanceof MailDeliveryError) return { error: error.message };
  return { error: error instanceof Error ? error.name : typeof error };
}
