import { EMAIL_CODE } from '../../../common/api/auth.constants.ts';
import type { MailMessage } from './types.ts';

const PRODUCT = 'GenPro Studio';

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The six-digit email verification code. The code is in the body only, never in the subject. */
export function verificationCodeMail(to: string, firstName: string, code: string): MailMessage {
  const minutes = Math.round(EMAIL_CODE.expiresInSeconds / 60);
  const text = [
    `Hi ${firstName},`,
    '',
    `Your ${PRODUCT} verification code is: ${code}`,
    '',
    `It expires in ${minutes} minutes. If you did not create an account, you can ignore this email.`,
  ].join('\n');
  const html = `<p>Hi ${escapeHtml(firstName)},</p>
<p>Your ${PRODUCT} verification code is:</p>
<p style="font-size:28px;font-weight:700;letter-spacing:6px">${escapeHtml(code)}</p>
<p>It expires in ${minutes} minutes. If you did not create an account, you can ignore this email.</p>`;
  return { to, subject: `Verify your ${PRODUCT} email`, text, html };
}
