// The mails of notifications: one event, or a digest of several. Plain text; the mailer keeps them in the outbox.
import type { MailMessage } from '../../platform/mail/types.ts';

interface Recipient {
  email: string;
  firstName: string;
}

interface Item {
  subject: string;
  text: string;
  path: string;
  createdAt: Date;
}

const PRODUCT = 'GenPro Studio';
const link = (publicUrl: string, path: string) => `${publicUrl.replace(/\/$/, '')}${path}`;
const settingsNote = (publicUrl: string) =>
  `You get this mail because email notifications are on. Change them in Settings: ${link(publicUrl, '/dashboard?account=settings')}`;

export function notificationMail(to: Recipient, item: Item, publicUrl: string): MailMessage {
  return {
    to: to.email,
    subject: item.subject,
    text: [`Hi ${to.firstName},`, '', item.text, '', link(publicUrl, item.path), '', '—', settingsNote(publicUrl)].join(
      '\n',
    ),
  };
}

export function digestMail(to: Recipient, items: readonly Item[], frequency: string, publicUrl: string): MailMessage {
  const period = frequency === 'weekly' ? 'weekly' : frequency === 'daily' ? 'daily' : 'latest';
  const sections = items.flatMap((item) => [
    `• ${item.subject}`,
    indent(item.text),
    `  ${link(publicUrl, item.path)}`,
    '',
  ]);
  return {
    to: to.email,
    subject: `Your ${period} ${PRODUCT} digest: ${items.length} ${items.length === 1 ? 'update' : 'updates'}`,
    text: [
      `Hi ${to.firstName},`,
      '',
      `What happened since your last digest:`,
      '',
      ...sections,
      '—',
      settingsNote(publicUrl),
    ].join('\n'),
  };
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((line) => (line ? `  ${line}` : line))
    .join('\n');
