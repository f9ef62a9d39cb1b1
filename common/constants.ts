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
  /** Uploads one user may send per minute (RATE_LIMIT_UPLOADS_PER_MINUTE). */
  perMinute: 60,
  imageTypes: ['jpeg', 'jpg', 'png', 'gif', 'webp'],
  videoTypes: ['mp4', 'mov', 'avi', 'webm'],
  audioTypes: ['mp3', 'wav', 'm4a', 'ogg'],
} as const;

/** Storage one user may fill with uploads and generated media (STORAGE_QUOTA_MB), issue 17. */
export const STORAGE_QUOTA = { defaultMb: 5120 } as const;

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
  'adminEngines',
  'adminPayouts',
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

/** Limits on failed attempts, kept in auth_attempts (on top of the per-IP request rate RATE_LIMIT_AUTH_PER_MINUTE). */
export const AUTH_LOCKOUT = {
  windowMinutes: 15,
  /** Failed log-ins for one email from one client address within the window before that address gets 429 for it. */
  maxFailedLogins: 10,
  /** Failed log-ins from one client address, whatever the email, before that address gets 429 for every account. */
  maxFailedLoginsPerAddress: 50,
  /** Wrong verification codes for one account within the window before further checks answer 429. */
  maxFailedCodes: 15,
} as const;

export const TRIAL_PLAN = 'trial';

/** Where the Contact Support page (/contact) sends people. */
export const SUPPORT_EMAIL = 'support@genpro.studio';

// ---- Generation (issue 3) ----

/** Reference + character images a model accepts before generating (spec 5 and 9). */
export const MODEL_IMAGE_LIMITS: Record<string, number> = { runway: 3, seedream: 10, seedreamai: 6 };
export const DEFAULT_MODEL_IMAGE_LIMIT = 3;
export const IMAGE_MODELS = ['seedream4', 'nanobana', 'nanobana-gemini-2.5-flash-image-preview', 'seedreamai'] as const;
export const VIDEO_MODELS = [
  'veo-3.0-generate-001',
  'veo-3.0-generate-preview',
  'veo-3.0-fast-generate-preview',
  'veo-3.1-generate-preview',
  'seedance',
  'runway-gen4_turbo',
  'runway-gen4_aleph',
  'runway-act_two',
] as const;
/** The spec's `{token}`: picking it switches the video form to first/last frame (FilmmakerPro). */
export const DUAL_FRAME_MODEL = 'veo-3.1-generate-preview';
export const MAGIC_MODIFY_MODEL = 'runway-gen4_aleph';
export const ACT_STUDIO_MODEL = 'runway-act_two';
export const AUDIO_MODEL = 'suno-v3.5';
export const AUDIO_DURATIONS = [15, 30, 60, 120] as const;
export const AUDIO_GENRES = ['Electronic', 'Hip Hop', 'Cinematic', 'Ambient', 'Pop', 'Rock'] as const;
export const AUDIO_MOODS = ['upbeat', 'calm', 'epic'] as const;

export const IMAGE_DEFAULTS = {
  model: 'nanobana',
  size: '1024x1024',
  variations: 2,
  numberOfImages: 1,
  sampleImageSize: '2K',
  aspectRatio: '1:1',
} as const;
export const VIDEO_DEFAULTS = {
  model: 'veo-3.0-generate-001',
  duration: 10,
  creativity: 0.66,
  aspectRatio: '16:9',
  personGeneration: 'allow_adult',
  fps: 24,
} as const;
export const MAX_IMAGES_PER_REQUEST = 4;
/** Prompts under this many words get QUALITY_SUFFIX appended (spec 5). */
export const QUALITY_SUFFIX_MIN_WORDS = 20;
export const QUALITY_SUFFIX = ', highly detailed, professional quality, sharp focus, cinematic lighting';

/** Video polling (spec 9): every 15 s, at most 40 attempts; progress starts at 5, +2 per attempt, cap 95. */
export const VIDEO_POLL = {
  intervalMs: 15_000,
  maxAttempts: 40,
  initialProgress: 5,
  initialEstimateSeconds: 180,
  progressStep: 2,
  progressCap: 95,
  minBarPercent: 5,
} as const;
export const UPSCALE_POLL = { intervalMs: 5_000, timeoutMs: 1_800_000 } as const;
export const ASSETS_PAGE_SIZE = 35;
export const ASSETS_LOAD_MORE_WITHIN_PX = 200;
export const UPLOAD_STORAGE_CEILINGS_MB = { image: 75, video: 750, other: 100 } as const;
export const UPLOAD_CONCURRENCY = 3;
export const UPSCALE_TARGET = { width: 3840, height: 2160 } as const;
export const ENHANCOR_KINDS = ['realistic-skin', 'portrait-upscaler', 'image-upscaler', 'detailed'] as const;
export type EnhancorKind = (typeof ENHANCOR_KINDS)[number];

/**
 * The one price list, in credits. Spec figures: pro video (Veo, with audio) 101, dream video
 * (Seedream/Seedance) 41, persona video 21, video enhancement 50; the rest are ours.
 */
export const PRICES = {
  /** Per image up to 2048 px on the long side. */
  image: 4,
  /** Per image larger than 2048 px on the long side (4K). */
  image4k: 8,
  videoPro: 101,
  /** Veo without audio. */
  videoStandard: 81,
  videoDream: 41,
  videoRunway: 61,
  personaVideo: 21,
  music: 10,
  voice: 3,
  imageUpscale: 10,
  videoEnhancement: 50,
  promptEnhancement: 0,
  /** Canvas quick edit of one image (NanoBana edit, up to 2K). */
  imageEdit: 4,
  /** Composing several images into one (multi-image and advanced composition). */
  composition: 6,
  /** Each region step of a multi-composition (reference chain). */
  compositionStep: 4,
  /** Each multi-reference variation (a weighted blend of up to 8 references). */
  multiReference: 6,
  /** One Magic Selector inpaint (the mask limits the change to the painted pixels). */
  inpaint: 4,
  /**
   * Each image of a persona's image set (five at creation, one per regenerated type) and each persona
   * prompt image: the price of one image up to 2K. Images that end as placeholders are refunded.
   */
  personaImage: 4,
} as const;

/** One item of the price list (PRICES / LOCAL_PREVIEW_PRICES). */
export type PriceItem = keyof typeof PRICES;
/** A full price list, in credits per item. */
export type PriceTable = { readonly [K in PriceItem]: number };
export const PRICE_ITEMS = Object.keys(PRICES) as PriceItem[];

/**
 * What an item costs when a local engine serves the model (issue 19): the embedded preview engines
 * paint, pan and synthesise on this machine, so they are charged far less than the vendor models
 * whose names they stand in for. Operators override any item with LOCAL_PREVIEW_PRICES (JSON, e.g.
 * `{"videoPro":10}`); see docs/configuration.md and docs/engines.md.
 */
export const LOCAL_PREVIEW_PRICES: PriceTable = {
  image: 1,
  image4k: 2,
  videoPro: 5,
  videoStandard: 4,
  videoDream: 3,
  videoRunway: 3,
  personaVideo: 2,
  music: 1,
  voice: 1,
  imageUpscale: 1,
  videoEnhancement: 3,
  promptEnhancement: 0,
  imageEdit: 1,
  composition: 1,
  compositionStep: 1,
  multiReference: 1,
  inpaint: 1,
  personaImage: 1,
};

/**
 * The text agents: POST /api/ai/movie-agent, /api/ai/image-agent, /api/ai/film-agent and
 * /api/campaigns/plan (issue 17). A call costs `creditsPerCall` when a vendor LLM (OpenAI-compatible or
 * Gemini) writes the answer, refunded when that call fails; the local deterministic writer is free.
 * The four share one per-user limit (RATE_LIMIT_TEXT_AGENTS_PER_MINUTE, default `perUserPerMinute`).
 */
export const TEXT_AGENTS = {
  creditsPerCall: 1,
  perUserPerMinute: 30,
  /** Request bodies, in bytes. */
  bodyLimitBytes: { movieAgent: 1_048_576, filmAgent: 1_048_576, imageAgent: 65_536, campaignPlan: 65_536 },
  movieScriptMaxChars: 50_000,
  movieAgentMaxImages: 100,
  /** The movie agent reads an image's URL only to check it is the user's own: stored media URLs, not data. */
  imageUrlMaxChars: 2048,
} as const;

// ---- Uploads and upscale (issue 3) ----

/**
 * What the JSON upload calls (POST /api/upload/base64-to-url, POST /api/temp-upload) accept,
 * checked on the sniffed bytes (canvas spec 5: jpeg, png, webp, gif; mp4, webm, quicktime; mpeg,
 * wav, ogg, m4a).
 */
export const REMOTE_UPLOAD_MIME_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'video/mp4',
  'video/webm',
  'video/quicktime',
  'audio/mpeg',
  'audio/wav',
  'audio/ogg',
  'audio/mp4',
] as const;

/** The video enhance dialog (canvas spec 9). */
export const VIDEO_ENHANCE = {
  scales: [2, 3, 4],
  fps: [24, 30, 60, 120],
  qualities: ['low', 'medium', 'high'],
  defaultQuality: 'high',
  categories: ['upscaling', 'interpolation', 'enhancement'],
  /** The upscale service every video enhancement is served by (Topaz when TOPAZ_API_KEY is set, else local). */
  service: 'topaz',
  defaultModel: 'proteus',
  defaultOption: 'prob-4',
  /** The asset card's one-click model: upscale towards 4K (UPSCALE_TARGET), at most 4x. */
  fourKModel: 'upscale_4k',
  /** Quality → denoise/sharpen/enhance (0–1): high 0.8/0.7/0.9, otherwise 0.5/0.4/0.6. */
  presets: {
    high: { denoise: 0.8, sharpen: 0.7, enhance: 0.9 },
    other: { denoise: 0.5, sharpen: 0.4, enhance: 0.6 },
  },
  estimatedSeconds: 180,
} as const;
export type VideoEnhanceQuality = (typeof VIDEO_ENHANCE.qualities)[number];
export type VideoEnhanceCategory = (typeof VIDEO_ENHANCE.categories)[number];

/** Per-service defaults of the image enhance dialog (canvas spec 9). */
export const IMAGE_ENHANCE_DEFAULTS: Readonly<Record<EnhancorKind, { mode?: string; enhancementLevel?: number }>> = {
  'realistic-skin': {},
  'portrait-upscaler': { mode: 'fast' },
  'image-upscaler': {},
  detailed: { enhancementLevel: 0.8 },
};

// ---- Multi-image canvas (canvas spec 2, 4, 9) ----

/** The multi-image canvas view: limits, placement grid, zoom range and image formats. */
export const CANVAS = {
  maxImages: 1000,
  newImage: { width: 300, height: 200 },
  /** Three columns fit the 1200 px element (50 + 2 × 350 + 300 = 1050). */
  grid: { stepX: 350, stepY: 300, offset: 50, columns: 3 },
  zoom: { min: 0.1, max: 5, wheelOut: 0.9, wheelIn: 1.1 },
  element: { width: 1200, height: 800 },
  /** An enhanced image is placed this far right of its source at this size. */
  enhanced: { offsetX: 2150, width: 1920, height: 1080 },
  formats: {
    '4K|TV': { model: 'seedream4', aspectRatio: '16:9', size: '4K', width: 3840, height: 2160 },
    '2K|Mobile': { model: 'nanobana', aspectRatio: '1:1', size: '2K', width: 2048, height: 2048 },
  },
} as const;
export type CanvasFormat = keyof typeof CANVAS.formats;

// ---- Canvas image calls (canvas spec 7, 9) ----

/** The NanoBana and multi-composition calls: input limits, steps and defaults. */
export const CANVAS_IMAGES = {
  /** Largest decoded input image, in MB (spec 5: images max 10 MB). */
  inputMaxMb: 10,
  /**
   * Largest of the user's own stored images taken by URL, in MB: the image upload ceiling, so every canvas
   * image (a 4K PNG is over 10 MB) can be edited by reference.
   */
  storedInputMaxMb: UPLOAD_STORAGE_CEILINGS_MB.image,
  /** Images one composition call may combine (spec 9: multi-composition up to 10). */
  maxComposeImages: 10,
  /** Steps one multi-composition may run (spec 7: maxSteps 10). */
  maxSteps: 10,
  consistencyStrength: 0.8,
  model: 'nanobana',
  quality: '2k',
  aspectRatio: '1:1',
} as const;

// ---- Multi-Reference (canvas spec 2, 5, 7, 9) ----

export const MULTI_REFERENCE = {
  maxFiles: 8,
  imageMaxMb: 10,
  videoMaxMb: 100,
  videoExtensions: ['mp4', 'mov', 'webm', 'avi'],
  variations: { min: 1, max: 4, default: 1 },
  /** The panel's sliders (percent); the API takes weight and strength as 0–1. */
  weight: { min: 10, max: 100, default: 50 },
  strength: { min: 10, max: 100, default: 75 },
  referenceTypes: ['style', 'composition', 'character', 'lighting', 'color'],
  blendModes: ['weighted', 'random', 'sequential', 'layered', 'advanced-composition', 'iterative-refinement'],
  compositionModes: [
    'multi-image-composition',
    'iterative-refinement',
    'advanced-composition',
    'high-fidelity-preservation',
  ],
  qualities: ['draft', 'standard', 'premium'],
  aspectRatios: ['1:1', '16:9', '9:16', '4:3', '3:4'],
  defaults: {
    blendMode: 'weighted',
    aspectRatio: '1:1',
    quality: 'standard',
    compositionMode: 'multi-image-composition',
    preserveDetails: true,
  },
  model: 'nanobana',
  /**
   * Video-to-video mode (request `type: 'video-to-video'`): the first video reference restyled by the
   * image references, with Runway gen4_aleph (local ffmpeg engine without a key). Each variation
   * costs PRICES.videoRunway.
   */
  videoToVideo: { type: 'video-to-video', model: 'runway-gen4_aleph' },
} as const;

// ---- Magic Selector (issue 5) ----

/** Magic Selector (canvas spec 2, 5, 9): modes, qualities, brush and style strength defaults. */
export const MAGIC_SELECTOR = {
  /** The six modes the panel offers; 'replace' is handled too and needs a reference. */
  modes: ['inpaint', 'style-transfer', 'add-remove', 'photorealistic', 'stylized', 'comic-panel', 'replace'],
  /** Modes that use the reference image. */
  referenceModes: ['replace', 'style-transfer'],
  qualities: ['draft', 'standard', 'premium'],
  quality: 'standard',
  /** Style strength 0–100 on the panel (sent as is; the server scales it to 0–1). */
  styleStrength: 75,
  brushWidth: 20,
  model: 'stability',
  inputMaxMb: 10,
  /** Accepted upload extensions (one file). */
  extensions: ['png', 'jpg', 'jpeg', 'webp'],
  stylePrompt: 'Apply style from reference image',
} as const;

// ---- Payments, wallet and earnings (issue 6) ----

const TOPUP_KINDS = ['credits_topup', 'wallet_topup', 'subscription'] as const;
export type TopupKind = (typeof TOPUP_KINDS)[number];
export const PAYMENT_CURRENCY = 'eur';

/** Default credit top-up packages (amounts in euro cents); TOPUP_PACKAGES in the environment replaces them. */
export const DEFAULT_TOPUP_PACKAGES = [
  {
    id: 'starter',
    amountCents: 1000,
    credits: 100,
    displayName: 'Starter',
    description: 'Try a few images and a short video',
    popular: false,
  },
  {
    id: 'creator',
    amountCents: 2500,
    credits: 300,
    displayName: 'Creator',
    description: 'Best value for regular content',
    popular: true,
  },
  {
    id: 'pro',
    amountCents: 5000,
    credits: 650,
    displayName: 'Pro',
    description: 'For weekly campaigns and pro video',
    popular: false,
  },
  {
    id: 'studio',
    amountCents: 10000,
    credits: 1400,
    displayName: 'Studio',
    description: 'For teams producing every day',
    popular: false,
  },
] as const;

/** Brand wallet top-up bounds, in euros (2 decimals). */
export const WALLET_TOPUP = { minEuros: 1, maxEuros: 10_000 } as const;

/** The paid plan the subscribe flow sells (price in euro cents per month); SUBSCRIPTION_* variables override. */
export const SUBSCRIPTION_PLAN = {
  planType: 'pro',
  amountCents: 2900,
  interval: 'month',
  displayName: 'GenPro Pro',
  /** Credits granted at each renewal (SUBSCRIPTION_MONTHLY_CREDITS overrides); the plan grants none by default. */
  monthlyCredits: 0,
} as const;

export const CREDITS_HISTORY_PAGE = { defaultLimit: 50, maxLimit: 100 } as const;
export const MONEY_HISTORY_LIMIT = 100;

/** Creator payouts (docs/payments.md): the smallest payout, in euros, and the statuses a payout goes through. */
export const PAYOUT_LIMITS = { minEuros: 10, maxEuros: 100_000, referenceMax: 200, reasonMax: 500 } as const;
export const PAYOUT_STATUSES = ['pending', 'processing', 'paid', 'failed', 'cancelled'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];
export const PAYOUT_METHODS = ['manual', 'stripe'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

/** Where the top-up, wallet and subscribe flows return to (spec 2.5: /dashboard?topup=success|cancelled). */
export const PAYMENT_RETURN_URLS = {
  topup: { success: '/dashboard?topup=success', cancel: '/dashboard?topup=cancelled' },
  wallet: { success: '/dashboard?wallet_topup=success', cancel: '/dashboard?wallet_topup=cancelled' },
  subscription: { success: '/dashboard?subscription=success', cancel: '/dashboard?subscription=cancelled' },
} as const;

// ---- Account, profiles, bank accounts, settings and security (issue 6) ----

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
  languagePreference: 'en',
  themePreference: 'dark',
  notificationFrequency: 'instant',
  loginNotifications: true,
  suspiciousActivityAlerts: true,
} as const;
export const DEFAULT_TIMEZONE = 'UTC';

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

// ---- AI personas and the campaign workspace (issue 7) ----

/** Spec 9: each persona image may take 60 s; the pipeline pauses 1 s between generations. */
export const PERSONA_GENERATION = {
  imageTimeoutMs: 60_000,
  pauseMs: 1_000,
  /** The persona image set is generated square at this size. */
  size: 1024,
} as const;

// ---- Campaign marketplace: campaigns, applications, collaborations (issue 8) ----

/** Spec 9 Campaign plan: the platforms and content types offered. */
export const CAMPAIGN_PLATFORMS = ['instagram', 'tiktok', 'youtube', 'facebook', 'twitter'] as const;
export type CampaignPlatform = (typeof CAMPAIGN_PLATFORMS)[number];
export const CAMPAIGN_CONTENT_TYPES = ['video', 'image', 'audio', 'mixed'] as const;
export type CampaignContentType = (typeof CAMPAIGN_CONTENT_TYPES)[number];
/** KPIs a brand may track (the spec names the field, not the list; ours). */
export const CAMPAIGN_KPIS = [
  'reach',
  'impressions',
  'engagement_rate',
  'video_views',
  'clicks',
  'conversions',
  'followers',
] as const;
export type CampaignKpi = (typeof CAMPAIGN_KPIS)[number];
export const CAMPAIGN_STATUSES = ['draft', 'open', 'running', 'completed'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const APPLICATION_STATUSES = ['pending', 'accepted', 'declined', 'withdrawn'] as const;
export const COLLABORATION_STATUSES = ['active', 'completed', 'cancelled'] as const;

/** Spec 5/9: the audience age slider. */
export const AUDIENCE_AGE = { min: 13, max: 70 } as const;

export const CAMPAIGN_LIMITS = {
  /** Spec 5: budget minimum 1 (euros); the maximum is the wallet balance. */
  minBudgetEuros: 1,
  maxBudgetEuros: 1_000_000,
  minDurationDays: 1,
  maxDurationDays: 365,
  titleLength: 120,
  descriptionLength: 4000,
  objectiveLength: 2000,
  audienceDescriptionLength: 500,
  /** ai_asset_ids plus sessionMaterials. */
  maxMaterials: 20,
  maxDeliverables: 20,
  maxDeliverableQuantity: 1000,
  applicationMessageLength: 2000,
  maxRateEuros: 1_000_000,
  pageSize: 50,
  maxPageSize: 100,
} as const;

export const CAMPAIGN_DEFAULTS = {
  /** Spec 9: default budget '$1K - $5K' (the label of the preset the form starts on). */
  budgetLabel: '$1K - $5K',
  budgetEuros: 1000,
  /** Spec 9: default duration '1 Week'. */
  durationDays: 7,
  category: 'PROMOTION',
  budgetType: 'fixed',
  audience: { ageMin: 18, ageMax: 35 },
} as const;

/**
 * Estimated reach: assumed cost per thousand views (CPM, euros) of creator content on each platform,
 * used to turn a platform's share of the budget into views. Planning figures, not measurements;
 * see docs/campaigns.md.
 */
export const PLATFORM_CPM_EUROS: Record<CampaignPlatform, number> = {
  instagram: 8,
  tiktok: 5,
  youtube: 12,
  facebook: 6,
  twitter: 7,
};
