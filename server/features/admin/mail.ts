// Mails telling a creator or brand what an admin decided (sent through the mailer, so the outbox keeps them).
import type { MailMessage } from '../../platform/mail/types.ts';

const PRODUCT = 'GenPro Studio';

export function creatorDecisionMail(
  to: string,
  firstName: string,
  decision: 'approve' | 'reject',
  creatorType: string | null,
  appUrl: string,
): MailMessage {
  const dashboard = `${appUrl.replace(/\/$/, '')}/dashboard`;
  if (decision === 'approve') {
    const type = creatorType ? creatorType.replaceAll('_', ' ') : 'creator';
    return {
      to,
      subject: `Your ${PRODUCT} creator account is approved`,
      text: [
        `Hi ${firstName},`,
        '',
        `Good news: an admin approved your creator account (${type}).`,
        'The campaigns pool, the creator and brand directories and My Campaigns are now open to you.',
        '',
        dashboard,
      ].join('\n'),
    };
  }
  return {
    to,
    subject: `Your ${PRODUCT} creator application`,
    text: [
      `Hi ${firstName},`,
      '',
      'An admin reviewed your creator account and did not approve it. You can keep using the studio.',
      `If you think this is a mistake, contact support: ${appUrl.replace(/\/$/, '')}/contact`,
    ].join('\n'),
  };
}

export function brandDecisionMail(
  to: string,
  name: string,
  decision: 'approve' | 'reject',
  appUrl: string,
): MailMessage {
  return decision === 'approve'
    ? {
        to,
        subject: `Your ${PRODUCT} brand is verified`,
        text: [
          `Hi ${name},`,
          '',
          'An admin verified your brand profile.',
          '',
          `${appUrl.replace(/\/$/, '')}/dashboard`,
        ].join('\n'),
      }
    : {
        to,
        subject: `Your ${PRODUCT} brand verification`,
        text: [
          `Hi ${name},`,
          '',
          'An admin reviewed your brand profile and did not verify it.',
          `If you think this is a mistake, contact support: ${appUrl.replace(/\/$/, '')}/contact`,
        ].join('\n'),
      };
}
