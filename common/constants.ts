// Limits, defaults and credit costs named by the spec. Both server and web import from here.

export const ROLES = ['creator', 'brand', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const USER_STATUSES = ['pending', 'approved_creator', 'regular_user'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** Roles a visitor may pick when registering; admins come from the seed or `npm run create-admin`. */
export const SELF_SERVICE_ROLES = ['creator', 'brand'] as const;

export const EMAIL_CODE = {
  length: 6,
  expiresInSeconds: 600,
  resendCooldownSeconds: 30,
  maxWrongTries: 5,
} as const;

export const WELCOME_CREDITS = 200;
export const TRIAL_DAYS = 14;
export const SESSION_TTL_DAYS = 30;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MAX_LENGTH = 80;

export const CREDIT_BADGE = { lowAtOrBelow: 10, runningLowAtOrBelow: 25 } as const;

export const UPLOAD = {
  defaultMaxMb: 50,
  avatarMaxMb: 5,
  maxFiles: 10,
  imageTypes: ['jpeg', 'jpg', 'png', 'gif', 'webp'],
  videoTypes: ['mp4', 'mov', 'avi', 'webm'],
  audioTypes: ['mp3', 'wav', 'm4a', 'ogg'],
} as const;

export const STORAGE_CLASSES = [
  'temporary',
  'reference',
  'character_temp',
  'enhancement_source',
  'generated',
  'upload',
  'persona',
  'enhancement',
  'thumbnail',
  'master',
] as const;
export type StorageClass = (typeof STORAGE_CLASSES)[number];
/** Classes stored under temp paths, cached one day and removed by the clean-up job. */
export const TEMPORARY_STORAGE_CLASSES: readonly StorageClass[] = [
  'temporary',
  'reference',
  'character_temp',
  'enhancement_source',
];
export const CACHE_SECONDS = { temporary: 86_400, permanent: 31_536_000 } as const;
export const STORAGE_TAG_NAMES = [
  'AssetType',
  'Classification',
  'UploadDate',
  'GenerationId',
  'UserId',
  'PersonaId',
  'Source',
  'ExpiresAt',
  'OriginalAssetId',
  'IsPersonaAsset',
] as const;
export type StorageTagName = (typeof STORAGE_TAG_NAMES)[number];
export const DEFAULT_STORAGE_REGION = 'eu-north-1';

export const THUMBNAIL_WIDTH = 480;

export const DASHBOARD_VIEWS = [
  'creators',
  'aiPersonas',
  'genproStudio',
  'chatWithGenPro',
  'campaignsPool',
  'community',
  'brands',
  'myCampaigns',
  'adminCreators',
  'adminBrands',
] as const;
export type DashboardView = (typeof DASHBOARD_VIEWS)[number];
export const DEFAULT_DASHBOARD_VIEW: DashboardView = 'creators';
export const MOBILE_TAB_VIEWS: readonly DashboardView[] = [
  'creators',
  'aiPersonas',
  'brands',
  'community',
  'chatWithGenPro',
];
export const APPROVAL_GATED_VIEWS: readonly DashboardView[] = ['brands', 'campaignsPool', 'myCampaigns'];
export const DASHBOARD_RETURN_FLAGS = ['subscription', 'topup', 'wallet_topup', 'onboarding'] as const;

export const LANGUAGES = ['en', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];
export const THEMES = ['dark', 'light', 'auto'] as const;
export type Theme = (typeof THEMES)[number];

export const SUBSCRIPTION_STATUSES = [
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'incomplete',
  'incomplete_expired',
  'paused',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export const SUBSCRIPTION_ACCESS_STATUSES: readonly SubscriptionStatus[] = ['trialing', 'active'];

export const TASK_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;

/** Uploads are sniffed by their bytes; the sniffed extension must be one of these. */
export const UPLOAD_SNIFFED_TYPES: Readonly<Record<string, 'image' | 'video' | 'audio'>> = {
  jpg: 'image',
  png: 'image',
  gif: 'image',
  webp: 'image',
  mp4: 'video',
  mov: 'video',
  avi: 'video',
  webm: 'video',
  mp3: 'audio',
  wav: 'audio',
  m4a: 'audio',
  ogg: 'audio',
  opus: 'audio',
};

/** Media URL prefixes; every stored key is served under one of them. */
export const MEDIA_URL_PREFIX = {
  image: '/api/images/',
  video: '/api/videos/',
  audio: '/api/audio/',
  personaImage: '/api/personas/image/',
  personaVideo: '/api/personas/video/',
} as const;
/** Default lifetime of a signed media URL. */
export const SIGNED_MEDIA_URL_TTL_SECONDS = 3_600;
/** Temporary storage classes expire this long after they are written. */
export const TEMPORARY_MEDIA_TTL_SECONDS = 86_400;

export const DEVICE_TYPES = ['desktop', 'mobile', 'tablet'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

/** Per-account limits on failed attempts (on top of the per-IP limit RATE_LIMIT_AUTH_PER_MINUTE). */
export const AUTH_LOCKOUT = {
  windowMinutes: 15,
  /** Failed log-ins for one email within the window before further log-ins answer 429. */
  maxFailedLogins: 10,
  /** Wrong verification codes for one account within the window before further checks answer 429. */
  maxFailedCodes: 15,
} as const;

export const TRIAL_PLAN = 'trial';

/** Where the Contact Support page (/contact) sends people. */
export const SUPPORT_EMAIL = 'support@genpro.studio';
