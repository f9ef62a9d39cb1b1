import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import {
  DEVICE_TYPES,
  EMAIL_CODE,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_RESET,
  ROLES,
  SELF_SERVICE_ROLES,
  SUBSCRIPTION_STATUSES,
  USER_STATUSES,
} from './auth.constants.ts';
import { ok } from './envelope.ts';

const v = MESSAGES.validation;

export const emailField = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: v.emailInvalid }).max(254));
export const passwordField = z
  .string({ message: v.passwordRequired })
  .min(PASSWORD_MIN_LENGTH, v.passwordTooShort(PASSWORD_MIN_LENGTH))
  .max(PASSWORD_MAX_LENGTH, v.passwordTooLong(PASSWORD_MAX_LENGTH));

export const registerBody = z.object({
  first_name: z.string({ message: v.firstNameRequired }).trim().min(1, v.firstNameRequired).max(NAME_MAX_LENGTH),
  last_name: z.string({ message: v.lastNameRequired }).trim().min(1, v.lastNameRequired).max(NAME_MAX_LENGTH),
  email: emailField,
  password: passwordField,
  role: z.enum(SELF_SERVICE_ROLES, { message: v.roleInvalid }),
});
export type RegisterBody = z.infer<typeof registerBody>;

/**
 * POST /api/auth/register: the same answer (202) for a new and a taken email, so it does not tell who has an
 * account; the code (or, for a taken email, a notice to its owner) goes by mail.
 */
export const registerReply = z.object({
  success: z.literal(true),
  message: z.string(),
  email: z.string(),
  cooldownSeconds: z.number().int(),
});
export type RegisterReply = z.infer<typeof registerReply>;

export const loginBody = z.object({
  email: emailField,
  password: z.string({ message: v.passwordRequired }).min(1, v.passwordRequired).max(PASSWORD_MAX_LENGTH),
});
export type LoginBody = z.infer<typeof loginBody>;

export const resendVerificationBody = z.object({ email: emailField });
/**
 * The code, and with it the email of a pending registration (signs in the new account); without `email` the
 * signed-in user's own (unverified) email is verified.
 */
export const verifyCodeBody = z.object({
  email: emailField.optional(),
  code: z
    .string()
    .trim()
    .regex(new RegExp(`^\\d{${EMAIL_CODE.length}}$`), MESSAGES.verification.codeFormat),
});

const subscriptionSummary = z.object({
  status: z.enum(SUBSCRIPTION_STATUSES),
  planType: z.string(),
  isActive: z.boolean(),
  trialEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
});

/** The spec's User entity plus credits and the subscription summary the dashboard gate reads. */
export const userSchema = z.object({
  id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  bio: z.string().nullable(),
  location: z.string().nullable(),
  website: z.string().nullable(),
  timezone: z.string(),
  role: z.enum(ROLES),
  user_status: z.enum(USER_STATUSES).nullable(),
  is_verified: z.boolean(),
  credits: z.number().int(),
  avatar_url: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  created_at: z.string(),
  subscription: subscriptionSummary.nullable(),
});
export type User = z.infer<typeof userSchema>;

export const sessionReply = ok(z.object({ token: z.string(), user: userSchema }));
export type SessionReply = z.infer<typeof sessionReply>;

export const meReply = ok(z.object({ user: userSchema, credits: z.number().int() }));
export type MeReply = z.infer<typeof meReply>;

/** Spec: verify-code returns message, token, user. */
export const verifyCodeReply = z.object({
  success: z.literal(true),
  message: z.string(),
  token: z.string(),
  user: userSchema,
});
export type VerifyCodeReply = z.infer<typeof verifyCodeReply>;

export const resendVerificationReply = z.object({
  success: z.literal(true),
  message: z.string(),
  cooldownSeconds: z.number().int(),
});

/** One signed-in device (spec: Security.recentSessions — location, deviceType, timestamp, isActive). */
export const sessionInfo = z.object({
  id: z.string(),
  location: z.string(),
  deviceType: z.enum(DEVICE_TYPES),
  /** Last seen (ISO 8601). */
  timestamp: z.string(),
  isActive: z.boolean(),
  /** True for the session making this request. */
  current: z.boolean(),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
});
export type SessionInfo = z.infer<typeof sessionInfo>;

/** GET /api/auth/sessions: the account's active sessions, most recently seen first. */
export const sessionsReply = ok(z.array(sessionInfo));
export type SessionsReply = z.infer<typeof sessionsReply>;

export const sessionIdParams = z.object({ id: z.string().max(64) });

/** POST /api/auth/password-reset/request: the same 202 answer whether or not an account has the email. */
export const passwordResetRequestBody = z.object({ email: emailField });
export type PasswordResetRequestBody = z.infer<typeof passwordResetRequestBody>;
export const passwordResetRequestReply = z.object({
  success: z.literal(true),
  message: z.string(),
  /** Minutes the mailed code stays valid. */
  expiresInMinutes: z.number().int(),
});
export type PasswordResetRequestReply = z.infer<typeof passwordResetRequestReply>;

/**
 * POST /api/auth/password-reset/confirm: the mailed code (single use, PASSWORD_RESET.expiresInSeconds,
 * maxWrongTries) and the new password (length here, strength on the server: weak_password).
 */
export const passwordResetConfirmBody = z.object({
  email: emailField,
  code: z
    .string({ message: MESSAGES.passwordReset.codeFormat })
    .trim()
    .regex(new RegExp(`^\\d{${PASSWORD_RESET.codeLength}}$`), MESSAGES.passwordReset.codeFormat),
  newPassword: passwordField,
});
export type PasswordResetConfirmBody = z.infer<typeof passwordResetConfirmBody>;
