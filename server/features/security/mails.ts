import { SUPPORT_EMAIL } from '../../../common/api/auth.constants.ts';
import { escapeHtml } from '../../platform/mail/templates.ts';
import type { MailMessage } from '../../platform/mail/types.ts';

const PRODUCT = 'GenPro Studio';

interface SignInDetails {
  deviceType: string;
  location: string;
  ip: string;
  userAgent: string | null;
  at: Date;
}

function detailLines(d: SignInDetails): string[] {
  return [
    `Time: ${d.at.toUTCString()}`,
    `Device: ${d.deviceType}${d.userAgent ? ` (${d.userAgent})` : ''}`,
    `Location: ${d.location} (IP ${d.ip})`,
  ];
}

function render(to: string, subject: string, firstName: string, paragraphs: string[][]): MailMessage {
  const text = [`Hi ${firstName},`, '', ...paragraphs.flatMap((p) => [...p, ''])].join('\n').trimEnd();
  const html = [
    `<p>Hi ${escapeHtml(firstName)},</p>`,
    ...paragraphs.map((p) => `<p>${p.map(escapeHtml).join('<br>')}</p>`),
  ].join('\n');
  return { to, subject, text, html };
}

const notYou = `If this was not you, change your password now and revoke your other sessions in Account > Security, or contact ${SUPPORT_EMAIL}.`;

export function newDeviceLoginMail(to: string, firstName: string, d: SignInDetails): MailMessage {
  return render(to, `New sign-in to your ${PRODUCT} account`, firstName, [
    [`Your ${PRODUCT} account was just signed in to from a device we have not seen before.`],
    detailLines(d),
    [notYou],
  ]);
}

export function suspiciousLoginMail(
  to: string,
  firstName: string,
  failedAttempts: number,
  d: SignInDetails,
): MailMessage {
  return render(to, `Suspicious sign-in activity on your ${PRODUCT} account`, firstName, [
    [`Your ${PRODUCT} account was signed in to after ${failedAttempts} failed attempts with a wrong password.`],
    detailLines(d),
    [notYou],
  ]);
}

export function passwordChangedMail(to: string, firstName: string, d: SignInDetails): MailMessage {
  return render(to, `Your ${PRODUCT} password was changed`, firstName, [
    [`The password of your ${PRODUCT} account was changed. Your other sessions were signed out.`],
    detailLines(d),
    [`If you did not do this, contact ${SUPPORT_EMAIL} at once.`],
  ]);
}

export function passwordResetMail(to: string, firstName: string, d: SignInDetails): MailMessage {
  return render(to, `Your ${PRODUCT} password was reset`, firstName, [
    [
      `The password of your ${PRODUCT} account was reset with a code mailed to this address. All your sessions were signed out.`,
    ],
    detailLines(d),
    [`If you did not do this, reset your password again at once and contact ${SUPPORT_EMAIL}.`],
  ]);
}
