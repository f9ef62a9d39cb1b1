// HTTP contract of the account feature (issue 6): role profiles, the generic profile form, avatar,
// bank accounts, settings, security (password, alerts, sessions, two-factor) and account deletion.
import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import {
  BANK_ACCOUNT_LIMITS,
  BRAND_VERIFICATION_STATUSES,
  DELETE_ACCOUNT_PHRASE,
  IBAN_MAX_LENGTH,
  NOTIFICATION_FREQUENCIES,
  PROFILE_LIMITS,
  PROFILE_VISIBILITIES,
  SOCIAL_LINK_PLATFORMS,
  TWO_FACTOR,
  YOUTUBE_PRIVACIES,
} from './account.constants.ts';
import { LANGUAGES, THEMES } from './app.constants.ts';
import { NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH } from './auth.constants.ts';
import { passwordField, sessionInfo, sessionReply, userSchema } from './auth.ts';
import { ok } from './envelope.ts';
import { euroAmount } from './money.ts';

const m = MESSAGES.account;

/** http(s) only: javascript:, data: and the like are refused. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** An IANA time zone name known to this runtime's Intl data. */
function isIanaTimezone(value: string): boolean {
  if (!value || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** Optional free text: '' (or null) clears the field, undefined leaves it unchanged. */
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();
const url = () =>
  z
    .string()
    .trim()
    .max(PROFILE_LIMITS.url)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional()
    .refine((v) => v == null || isHttpUrl(v), m.urlInvalid);
const tagList = () =>
  z
    .array(z.string().trim().min(1).max(PROFILE_LIMITS.listItemLength))
    .max(PROFILE_LIMITS.listItems)
    .transform((items) => [...new Set(items)])
    .optional();

// ---- Creator profile: GET/PATCH /api/creators/profile (creator role) ----

const socialLinkPlatform = z.enum(SOCIAL_LINK_PLATFORMS);

const creatorProfile = z.object({
  displayName: z.string().nullable(),
  bio: z.string().nullable(),
  location: z.string().nullable(),
  website: z.string().nullable(),
  primaryPlatform: socialLinkPlatform.nullable(),
  skills: z.array(z.string()),
  niches: z.array(z.string()),
  /** Set by an admin; read-only here. */
  isVerified: z.boolean(),
  /** Profile URLs by platform (creator card social_links); absent keys are not set. */
  socialLinks: z.partialRecord(socialLinkPlatform, z.string()),
  /** Creator card pricing.starting_rate, euros with two decimals; null when not given. */
  startingRate: z.number().nullable(),
  updatedAt: z.string(),
});
export type CreatorProfile = z.infer<typeof creatorProfile>;
export const creatorProfileReply = ok(creatorProfile);
export type CreatorProfileReply = z.infer<typeof creatorProfileReply>;

/** Every field optional; '' or null clears a text field. socialLinks replaces the whole map ('' drops a key). */
export const updateCreatorProfileBody = z.object({
  displayName: text(NAME_MAX_LENGTH),
  bio: text(PROFILE_LIMITS.longText),
  location: text(PROFILE_LIMITS.shortText),
  website: url(),
  primaryPlatform: socialLinkPlatform.nullable().optional(),
  skills: tagList(),
  niches: tagList(),
  socialLinks: z
    .partialRecord(
      socialLinkPlatform,
      z
        .string()
        .trim()
        .max(PROFILE_LIMITS.url)
        .refine((v) => v === '' || isHttpUrl(v), m.urlInvalid),
    )
    .optional(),
  startingRate: euroAmount(
    {
      invalid: m.startingRateInvalid(PROFILE_LIMITS.maxStartingRateEuros),
      min: m.startingRateInvalid(PROFILE_LIMITS.maxStartingRateEuros),
      max: m.startingRateInvalid(PROFILE_LIMITS.maxStartingRateEuros),
      decimals: m.startingRateInvalid(PROFILE_LIMITS.maxStartingRateEuros),
    },
    { minCents: 0, maxCents: PROFILE_LIMITS.maxStartingRateEuros * 100 },
  )
    .nullable()
    .optional(),
});
export type UpdateCreatorProfileBody = z.input<typeof updateCreatorProfileBody>;

// ---- Brand profile: GET/PATCH /api/brands/profile (brand role) ----

const brandProfile = z.object({
  companyName: z.string().nullable(),
  industry: z.string().nullable(),
  companyWebsite: z.string().nullable(),
  companyDescription: z.string().nullable(),
  targetAudience: z.string().nullable(),
  marketingObjectives: z.string().nullable(),
  budgetRange: z.string().nullable(),
  companySize: z.string().nullable(),
  headquartersLocation: z.string().nullable(),
  /** The brand's own logo image as the studio stores it (/api/images/…, public); null when none. */
  logoUrl: z.string().nullable(),
  /** Set by an admin; read-only here (default pending). */
  verificationStatus: z.enum(BRAND_VERIFICATION_STATUSES),
  updatedAt: z.string(),
});
export type BrandProfile = z.infer<typeof brandProfile>;
export const brandProfileReply = ok(brandProfile);
export type BrandProfileReply = z.infer<typeof brandProfileReply>;

export const updateBrandProfileBody = z.object({
  companyName: text(PROFILE_LIMITS.shortText),
  industry: text(PROFILE_LIMITS.shortText),
  companyWebsite: url(),
  companyDescription: text(PROFILE_LIMITS.longText),
  targetAudience: text(PROFILE_LIMITS.longText),
  marketingObjectives: text(PROFILE_LIMITS.longText),
  budgetRange: text(PROFILE_LIMITS.shortText),
  companySize: text(PROFILE_LIMITS.shortText),
  headquartersLocation: text(PROFILE_LIMITS.shortText),
  /**
   * The studio's media URL of one of the brand's own images (re-encoded and stored publicly, as POST
   * /api/brands/logo does); '' or null removes the logo. External, data: and javascript: URLs answer 400.
   */
  logoUrl: z.string().trim().max(PROFILE_LIMITS.url).nullable().optional(),
});
export type UpdateBrandProfileBody = z.input<typeof updateBrandProfileBody>;

// ---- Generic profile: PUT /api/users/profile (any role) → the User ----

export const updateUserProfileBody = z.object({
  first_name: z.string().trim().min(1, MESSAGES.validation.firstNameRequired).max(NAME_MAX_LENGTH).optional(),
  last_name: z.string().trim().min(1, MESSAGES.validation.lastNameRequired).max(NAME_MAX_LENGTH).optional(),
  phone: text(40).refine((v) => v == null || /^\+?[0-9][0-9 ().-]{2,39}$/.test(v), m.phoneInvalid),
  bio: text(PROFILE_LIMITS.longText),
  location: text(PROFILE_LIMITS.shortText),
  website: url(),
  /** IANA name (Europe/Paris); used by scheduling. */
  timezone: z.string().trim().refine(isIanaTimezone, m.timezoneInvalid).optional(),
});
export type UpdateUserProfileBody = z.input<typeof updateUserProfileBody>;
export const userProfileReply = ok(userSchema);

// ---- Avatar: POST /api/users/avatar ----
// multipart/form-data with one `file` (jpeg/png/gif/webp by content, at most 5 MB; re-encoded to a
// 512 px square WebP), or JSON {avatarUrl} naming an image already in the user's own library.

export const avatarUrlBody = z.object({
  avatarUrl: z
    .string({ message: MESSAGES.upload.noFile })
    .trim()
    .min(1, MESSAGES.upload.noFile)
    .max(PROFILE_LIMITS.url),
});
export const avatarReply = ok(z.object({ avatarUrl: z.string(), avatar_url: z.string(), user: userSchema }));
export type AvatarReply = z.infer<typeof avatarReply>;

// ---- Brand logo: POST /api/brands/logo ----
// multipart/form-data with one `file` (JPEG/PNG/GIF/WebP by content, at most BRAND_LOGO.maxMb; re-encoded to a
// WebP that fits in BRAND_LOGO.maxPx), or JSON {logoUrl} naming an image already in the brand's own library.

export const logoUrlBody = z.object({
  logoUrl: z.string({ message: MESSAGES.upload.noFile }).trim().min(1, MESSAGES.upload.noFile).max(PROFILE_LIMITS.url),
});
export const brandLogoReply = ok(z.object({ logoUrl: z.string(), profile: brandProfile }));
export type BrandLogoReply = z.infer<typeof brandLogoReply>;

// ---- Bank accounts: GET/POST/PATCH/DELETE /api/creators/bank-accounts and /api/brands/bank-accounts ----

/**
 * The IBAN is never returned whole: `iban` keeps the country code and the last four characters and
 * masks the rest in print groups of four (DE** **** **** **** **30 00); `ibanLast4` is the tail alone.
 */
const bankAccount = z.object({
  id: z.string(),
  accountHolderName: z.string(),
  account_holder_name: z.string(),
  iban: z.string(),
  ibanLast4: z.string(),
  /** ISO 3166 country of the IBAN. */
  country: z.string(),
  bicSwift: z.string().nullable(),
  bankName: z.string().nullable(),
  is_primary: z.boolean(),
  is_verified: z.boolean(),
  created_at: z.string(),
});
export type BankAccount = z.infer<typeof bankAccount>;
/** Primary first, then oldest first. */
export const bankAccountsReply = ok(z.array(bankAccount));
export type BankAccountsReply = z.infer<typeof bankAccountsReply>;

/** IBAN: spaces removed and upper-cased before the checks (country length and mod-97 check digits). */
export const createBankAccountBody = z.object({
  accountHolderName: z
    .string({ message: m.holderRequired })
    .trim()
    .min(1, m.holderRequired)
    .max(BANK_ACCOUNT_LIMITS.holderName),
  iban: z
    .string({ message: m.ibanRequired })
    .transform((v) => v.replace(/\s+/g, '').toUpperCase())
    .pipe(z.string().min(1, m.ibanRequired).max(IBAN_MAX_LENGTH, m.ibanTooLong(IBAN_MAX_LENGTH))),
  bicSwift: z
    .string()
    .transform((v) => v.replace(/\s+/g, '').toUpperCase())
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional(),
  bankName: text(BANK_ACCOUNT_LIMITS.bankName),
  /** Make this the primary account (the first account is always primary). */
  is_primary: z.boolean().optional(),
});
export type CreateBankAccountBody = z.input<typeof createBankAccountBody>;
/** 201: the new account and the whole list. */
export const createBankAccountReply = z.object({
  success: z.literal(true),
  message: z.string(),
  data: bankAccount,
  accounts: z.array(bankAccount),
});
export type CreateBankAccountReply = z.infer<typeof createBankAccountReply>;

export const bankAccountQuery = z.object({ id: z.uuid({ message: m.bankAccountNotFound }) });
/** PATCH ?id=: only is_primary: true is meaningful (there is always exactly one primary). */
export const updateBankAccountBody = z.object({ is_primary: z.literal(true) });
/** PATCH and DELETE: the list after the change (deleting the primary promotes the oldest remaining). */
export const bankAccountsChangedReply = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.array(bankAccount),
});
export type BankAccountsChangedReply = z.infer<typeof bankAccountsChangedReply>;

// ---- Settings: GET/PUT /api/users/settings ----

const userSettings = z.object({
  emailNotifications: z.boolean(),
  pushNotifications: z.boolean(),
  marketingEmails: z.boolean(),
  weeklyReports: z.boolean(),
  /** Read-only: mirrors whether TOTP two-factor is enabled. */
  twoFactorAuth: z.boolean(),
  profileVisibility: z.enum(PROFILE_VISIBILITIES),
  autoPublish: z.boolean(),
  crossPostOptimization: z.boolean(),
  /** Who may see videos published to YouTube. */
  youtubePrivacy: z.enum(YOUTUBE_PRIVACIES),
  languagePreference: z.enum(LANGUAGES),
  themePreference: z.enum(THEMES),
  /** The user's IANA time zone (users.timezone, default UTC). */
  timezone: z.string(),
  notificationFrequency: z.enum(NOTIFICATION_FREQUENCIES),
  loginNotifications: z.boolean(),
  suspiciousActivityAlerts: z.boolean(),
});
export type UserSettings = z.infer<typeof userSettings>;
export const userSettingsReply = ok(userSettings);
export type UserSettingsReply = z.infer<typeof userSettingsReply>;

/** Any subset; twoFactorAuth is ignored (use the two-factor routes). */
export const updateUserSettingsBody = z.object({
  emailNotifications: z.boolean().optional(),
  pushNotifications: z.boolean().optional(),
  marketingEmails: z.boolean().optional(),
  weeklyReports: z.boolean().optional(),
  profileVisibility: z.enum(PROFILE_VISIBILITIES).optional(),
  autoPublish: z.boolean().optional(),
  crossPostOptimization: z.boolean().optional(),
  youtubePrivacy: z.enum(YOUTUBE_PRIVACIES).optional(),
  languagePreference: z.enum(LANGUAGES).optional(),
  themePreference: z.enum(THEMES).optional(),
  timezone: z.string().trim().refine(isIanaTimezone, m.timezoneInvalid).optional(),
  notificationFrequency: z.enum(NOTIFICATION_FREQUENCIES).optional(),
  loginNotifications: z.boolean().optional(),
  suspiciousActivityAlerts: z.boolean().optional(),
});
export type UpdateUserSettingsBody = z.input<typeof updateUserSettingsBody>;

// ---- Security: GET/POST /api/users/security ----

const securityState = z.object({
  twoFactorEnabled: z.boolean(),
  /** Unused recovery codes left (0 when two-factor is off). */
  recoveryCodesLeft: z.number().int(),
  loginNotifications: z.boolean(),
  suspiciousActivityAlerts: z.boolean(),
  /** Every active session, most recently seen first (the UI shows the first RECENT_SESSIONS_SHOWN). */
  recentSessions: z.array(sessionInfo),
  lastPasswordChange: z.string().nullable(),
});
export type SecurityState = z.infer<typeof securityState>;
export const securityReply = ok(securityState);
export type SecurityReply = z.infer<typeof securityReply>;

const changePasswordAction = z.object({
  action: z.literal('change_password'),
  currentPassword: z
    .string({ message: m.currentPasswordRequired })
    .min(1, m.currentPasswordRequired)
    .max(PASSWORD_MAX_LENGTH),
  newPassword: z.string({ message: m.newPasswordRequired }).min(1, m.newPasswordRequired).pipe(passwordField),
  /** When given it must equal newPassword ('New passwords do not match'). */
  confirmPassword: z.string().max(PASSWORD_MAX_LENGTH).optional(),
});
const updateAlertsAction = z.object({
  action: z.literal('update_alerts'),
  loginNotifications: z.boolean().optional(),
  suspiciousActivityAlerts: z.boolean().optional(),
});
export const securityActionBody = z
  .discriminatedUnion('action', [changePasswordAction, updateAlertsAction])
  .superRefine((body, issue) => {
    if (
      body.action === 'change_password' &&
      body.confirmPassword !== undefined &&
      body.confirmPassword !== body.newPassword
    ) {
      issue.addIssue({ code: 'custom', path: ['confirmPassword'], message: m.passwordsMismatch });
    }
  });
export type SecurityActionBody = z.input<typeof securityActionBody>;
/** Both actions answer with a message and the security state after the change. */
export const securityActionReply = z.object({ success: z.literal(true), message: z.string(), data: securityState });
export type SecurityActionReply = z.infer<typeof securityActionReply>;

// ---- Two-factor (TOTP, RFC 6238: SHA-1, 6 digits, 30 s) ----

/** POST /api/users/two-factor/setup: a new secret (not active until enable). */
export const twoFactorSetupReply = ok(
  z.object({
    /** Base32, for manual entry. */
    secret: z.string(),
    otpauthUrl: z.string(),
    /** PNG data URL of the otpauth QR code. */
    qrCodeDataUrl: z.string(),
  }),
);
export type TwoFactorSetupReply = z.infer<typeof twoFactorSetupReply>;

const totpCode = z
  .string({ message: m.twoFactorCodeFormat })
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(new RegExp(`^\\d{${TWO_FACTOR.digits}}$`), m.twoFactorCodeFormat));
/** TOTP or a recovery code (xxxxx-xxxxx; case and dashes ignored). */
const totpOrRecoveryCode = z
  .string({ message: m.twoFactorCodeFormat })
  .trim()
  .min(TWO_FACTOR.digits, m.twoFactorCodeFormat)
  .max(32, m.twoFactorCodeFormat);

/** POST /api/users/two-factor/enable: the first code from the app turns two-factor on. */
export const twoFactorEnableBody = z.object({ code: totpCode });
/** The 10 one-time recovery codes, shown once. */
export const twoFactorEnableReply = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ recoveryCodes: z.array(z.string()) }),
});
export type TwoFactorEnableReply = z.infer<typeof twoFactorEnableReply>;

/** POST /api/users/two-factor/disable: password and a current code (or a recovery code). */
export const twoFactorDisableBody = z.object({
  password: z.string({ message: MESSAGES.validation.passwordRequired }).min(1, MESSAGES.validation.passwordRequired),
  code: totpOrRecoveryCode,
});

/**
 * POST /api/auth/login answers either the normal session reply, or — when two-factor is on — this,
 * with no session yet: send the code to /api/auth/login/two-factor within 5 minutes (5 wrong tries).
 */
const twoFactorRequiredReply = z.object({
  success: z.literal(true),
  requiresTwoFactor: z.literal(true),
  challengeToken: z.string(),
  expiresInSeconds: z.number().int(),
});
export type TwoFactorRequiredReply = z.infer<typeof twoFactorRequiredReply>;
/**
 * POST /api/auth/login of an account with many recent failed log-ins (ACCOUNT_GUARD) and no two-factor: the
 * password was right, and a code was mailed to the account; send it to /api/auth/login/two-factor with
 * this challenge within expiresInSeconds (5 wrong tries). No session yet.
 */
const emailCodeRequiredReply = z.object({
  success: z.literal(true),
  requiresEmailCode: z.literal(true),
  message: z.string(),
  challengeToken: z.string(),
  expiresInSeconds: z.number().int(),
});
export type EmailCodeRequiredReply = z.infer<typeof emailCodeRequiredReply>;
export const loginReply = z.union([sessionReply, twoFactorRequiredReply, emailCodeRequiredReply]);
export type LoginReply = z.infer<typeof loginReply>;

/** POST /api/auth/login/two-factor → the normal session reply (sessionReply). */
export const loginTwoFactorBody = z.object({
  challengeToken: z.string().min(1).max(200),
  code: totpOrRecoveryCode,
});
export type LoginTwoFactorBody = z.infer<typeof loginTwoFactorBody>;

// ---- DELETE /api/users/delete-account ----

export const deleteAccountBody = z.object({
  password: z.string({ message: MESSAGES.validation.passwordRequired }).min(1, MESSAGES.validation.passwordRequired),
  /** Exactly 'DELETE MY ACCOUNT'. */
  confirmDelete: z
    .string({ message: m.deletePhraseMismatch })
    .refine((v) => v === DELETE_ACCOUNT_PHRASE, m.deletePhraseMismatch),
});
export type DeleteAccountBody = z.infer<typeof deleteAccountBody>;
