// Generation (issue 3): models, defaults, prices, local preview prices, text agents. Named by the spec; server and web import them.

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

/** An upscale whose webhook has not come after 30 minutes has timed out (the page stops waiting). */
export const UPSCALE_TIMEOUT_MS = 1_800_000;

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
  /** Calls one client address may make a minute over all its accounts (RATE_LIMIT_TEXT_AGENTS_PER_ADDRESS_PER_MINUTE). */
  perAddressPerMinute: 60,
  /** Request bodies, in bytes. */
  bodyLimitBytes: { movieAgent: 1_048_576, filmAgent: 1_048_576, imageAgent: 65_536, campaignPlan: 65_536 },
  movieScriptMaxChars: 50_000,
  movieAgentMaxImages: 100,
  /** The most an answer may hold, in bytes of its JSON: a longer one is refused (422 answer_too_long). */
  maxAnswerBytes: 524_288,
  /** The movie agent reads an image's URL only to check it is the user's own: stored media URLs, not data. */
  imageUrlMaxChars: 2048,
} as const;
