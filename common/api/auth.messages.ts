// User-facing messages of this domain, keyed as '<group>.<name>' in the one catalogue (common/messages.ts).
import { withParams } from '../message-keys.ts';

export const AUTH_MESSAGES = {
  auth: {
    pleaseLogIn: 'Please log in to access the dashboard',
    tokenNotFound: 'Authentication token not found. Please log in.',
    required: 'Authentication required',
    loginAgain: 'Authentication error. Please log in again.',
    invalidCredentials: 'Invalid email or password',
    emailTaken: 'An account with this email already exists',
    registrationCodeSent: 'We sent a 6-digit code to your email. Enter it to finish creating your account.',
    forbidden: 'You do not have permission to do this',
    csrf: 'Missing X-Requested-With header',
    tooManyAttempts: 'Too many attempts. Please wait a moment and try again.',
    loggedOut: 'Logged out',
    sessionRevoked: 'Session revoked',
    sessionsRevoked: 'All sessions have been revoked. Please log in again.',
    sessionNotFound: 'Session not found',
    loginCodeMailed:
      'There were many failed attempts to sign in to this account, so we emailed you a sign-in code. Enter it to continue.',
    accountSlowedDown: withParams(
      ['seconds'],
      (seconds: number) =>
        `Too many failed attempts on this account. Please wait ${seconds} seconds and try again, or reset your password.`,
    ),
  },
  passwordReset: {
    requested: 'If an account uses this email, we sent it a code to reset the password. It expires in 30 minutes.',
    invalidCode: 'This reset code is not valid. Check the email or request a new code.',
    expired: 'This reset code has expired. Please request a new one.',
    tooManyWrong: 'Too many wrong codes. Please request a new one.',
    done: 'Your password has been reset. Your other sessions were signed out.',
    codeFormat: 'Enter the 6-digit code from the email',
  },
  verification: {
    invalidCode: 'Invalid verification code. Please try again.',
    network: 'Network error. Please check your connection and try again.',
    emailUnavailable: 'Email address not available. Please refresh the page and try again.',
    sendFailed: 'Failed to send verification email. Please try again.',
    expired: 'This verification code has expired. Please request a new one.',
    tooManyWrong: 'Too many wrong codes. Please request a new one.',
    cooldown: withParams(
      ['seconds'],
      (seconds: number) => `Please wait ${seconds} seconds before requesting a new code.`,
    ),
    sent: 'A new verification code has been sent to your email.',
    verified: 'Email verified successfully',
    alreadyVerified: 'Your email is already verified.',
    codeFormat: 'Enter the 6-digit code',
    required: 'Please verify your email address first: enter the 6-digit code we sent you.',
  },
  validation: {
    firstNameRequired: 'First name is required',
    lastNameRequired: 'Last name is required',
    emailInvalid: 'Enter a valid email address',
    passwordTooShort: withParams(['min'], (min: number) => `Password must be at least ${min} characters`),
    passwordTooLong: withParams(['max'], (max: number) => `Password must be at most ${max} characters`),
    roleInvalid: 'Choose creator or brand',
    passwordRequired: 'Password is required',
    passwordTooCommon:
      'This password is too common or too easy to guess. Use a longer phrase, for example a few unrelated words.',
    passwordPersonal: 'This password contains your name or email address. Choose one that does not.',
  },
  approval: {
    pending: 'Your creator account is under review. We will notify you once it has been approved.',
    regularUser: 'Your account was not approved as a creator. Contact support if you think this is a mistake.',
    unknown: 'Your creator status is unknown.',
    gateTitle: 'Approval required',
    gateBody: 'This area opens once an admin approves your creator account.',
    brandRejected:
      'Your brand was not verified, so campaigns and the creator directory are closed to it. Contact support if you think this is a mistake.',
  },
  subscription: {
    required: 'An active subscription is required to use the dashboard.',
  },
} as const;
