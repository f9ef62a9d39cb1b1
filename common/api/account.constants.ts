// Account, profiles, bank accounts, settings and security (issue 6). Named by the spec; server and web import them.

/** Spec 3 Settings.profileVisibility (the second variant adds connections). */
export const PROFILE_VISIBILITIES = ['public', 'private', 'friends', 'connections'] as const;

/** Spec 3 Settings.notificationFrequency: the spec only shows instant being sent. */
export const NOTIFICATION_FREQUENCIES = ['instant', 'daily', 'weekly'] as const;

export const SETTINGS_DEFAULTS = {
  emailNotifications: true,
  pushNotifications: true,
  marketingEmails: false,
  weeklyReports: true,
  profileVisibility: 'public',
  autoPublish: false,
  crossPostOptimization: true,
  youtubePrivacy: 'private',
  languagePreference: 'en',
  themePreference: 'dark',
  notificationFrequency: 'instant',
  loginNotifications: true,
  suspiciousActivityAlerts: true,
} as const;

export const DEFAULT_TIMEZONE = 'UTC';

/**
 * Who may see a video the studio publishes to YouTube (status.privacyStatus). Private by default: YouTube locks
 * uploads from an API project it has not audited to private anyway, and nothing goes public until the user says so.
 */
export const YOUTUBE_PRIVACIES = ['private', 'unlisted', 'public'] as const;

/** Creator card social_links keys. */
export const SOCIAL_LINK_PLATFORMS = ['youtube', 'instagram', 'tiktok', 'twitter', 'linkedin', 'facebook'] as const;

export type SocialLinkPlatform = (typeof SOCIAL_LINK_PLATFORMS)[number];

export const BRAND_VERIFICATION_STATUSES = ['pending', 'verified', 'rejected'] as const;

export const PROFILE_LIMITS = {
  shortText: 120,
  longText: 2000,
  url: 2048,
  listItems: 20,
  listItemLength: 60,
  /** Creator starting rate, euros. */
  maxStartingRateEuros: 1_000_000,
} as const;

/** file-type extensions of the accepted avatar formats (JPEG, PNG, GIF, WebP). */
export const AVATAR = { maxMb: 5, sizePx: 512, types: ['jpg', 'png', 'gif', 'webp'] } as const;

/** Spec 5: IBAN forced to upper case, at most 34 characters. */
export const IBAN_MAX_LENGTH = 34;

export const BANK_ACCOUNT_LIMITS = { holderName: 140, bankName: 140, maxAccounts: 10 } as const;

export const DELETE_ACCOUNT_PHRASE = 'DELETE MY ACCOUNT';

/** TOTP (RFC 6238) and the log-in challenge that asks for it. */
export const TWO_FACTOR = {
  issuer: 'GenPro Studio',
  digits: 6,
  periodSeconds: 30,
  /** Steps accepted either side of now. */
  window: 1,
  recoveryCodes: 10,
  challengeTtlSeconds: 300,
  maxWrongTries: 5,
} as const;

/** A successful log-in after this many failed attempts sends the suspicious-activity mail. */
export const SUSPICIOUS_LOGIN_FAILURES = 3;

/** Security tab: sessions shown before "show all". */
export const RECENT_SESSIONS_SHOWN = 3;

/**
 * The brand logo: one of the brand's own images (an upload, or a file of its media library), re-encoded to a
 * WebP that fits in maxPx × maxPx (never cropped) and stored publicly, as the avatar is (issue 27 finding 7).
 */
export const BRAND_LOGO = { maxMb: 5, maxPx: 512, types: AVATAR.types } as const;
