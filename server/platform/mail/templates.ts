import { ACCOUNT_GUARD, EMAIL_CODE, PASSWORD_RESET } from '../../../common/api/auth.constants.ts';
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

/**
 * To the owner of an address someone tried to register again (issue 27: registration answers alike for new and
 * taken emails, so the owner is told here instead): how to sign in, or reset the password.
 */
export function registrationAttemptMail(to: string, firstName: string, publicUrl: string): MailMessage {
  const base = publicUrl.replace(/\/+$/, '');
  const login = `${base}/auth/login`;
  const reset = `${base}/auth/forgot-password`;
  const text = [
    `Hi ${firstName},`,
    '',
    `Someone tried to create a ${PRODUCT} account with this email address, which already has an account.`,
    '',
    `If it was you, sign in at ${login}`,
    `Forgot your password? Reset it at ${reset}`,
    '',
    'If it was not you, you can ignore this email: nothing was changed and no new account was created.',
  ].join('\n');
  const html = `<p>Hi ${escapeHtml(firstName)},</p>
<p>Someone tried to create a ${PRODUCT} account with this email address, which already has an account.</p>
<p>If it was you, <a href="${escapeHtml(login)}">sign in</a>. Forgot your password? <a href="${escapeHtml(reset)}">Reset it</a>.</p>
<p>If it was not you, you can ignore this email: nothing was changed and no new account was created.</p>`;
  return { to, subject: `Someone tried to register with your ${PRODUCT} email`, text, html };
}

function codeMail(
  to: string,
  firstName: string,
  subject: string,
  lead: string,
  code: string,
  tail: string,
): MailMessage {
  const text = [`Hi ${firstName},`, '', `${lead} ${code}`, '', tail].join('\n');
  const html = `<p>Hi ${escapeHtml(firstName)},</p>
<p>${escapeHtml(lead)}</p>
<p style="font-size:28px;font-weight:700;letter-spacing:6px">${escapeHtml(code)}</p>
<p>${escapeHtml(tail)}</p>`;
  return { to, subject, text, html };
}

/** The password reset code (POST /api/auth/password-reset/request). The code is in the body only. */
export function passwordResetCodeMail(to: string, firstName: string, code: string): MailMessage {
  const minutes = Math.round(PASSWORD_RESET.expiresInSeconds / 60);
  return codeMail(
    to,
    firstName,
    `Reset your ${PRODUCT} password`,
    `Your ${PRODUCT} password reset code is:`,
    code,
    `It expires in ${minutes} minutes and works once. If you did not ask to reset your password, ignore this email: your password stays as it is.`,
  );
}

/** The sign-in code of a guarded log-in (many failed attempts on the account, ACCOUNT_GUARD). */
export function loginCodeMail(to: string, firstName: string, code: string): MailMessage {
  const minutes = Math.round(ACCOUNT_GUARD.loginCodeExpiresInSeconds / 60);
  return codeMail(
    to,
    firstName,
    `Your ${PRODUCT} sign-in code`,
    `There were many failed attempts to sign in to your ${PRODUCT} account, so signing in now also needs this code:`,
    code,
    `It expires in ${minutes} minutes. If you did not just sign in, someone else knows your password: reset it now.`,
  );
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
