import type { PriceTable } from '../api/generation.constants.ts';

// AI personas (accounts spec 2.4, 3, 4, 5, 9): the option lists of the Build Your Persona dialog,
// the persona video and image limits, and the pure helpers both sides use.

/** Spec 9: the personality options; default Professional. */
export const PERSONALITY_OPTIONS = [
  'Professional',
  'Friendly & Approachable',
  'Witty & Sarcastic',
  'Inspirational & Motivational',
] as const;
export type Personality = (typeof PERSONALITY_OPTIONS)[number];
export const DEFAULT_PERSONALITY: Personality = 'Professional';

/** Spec 9: about 64 nationalities are offered. */
export const NATIONALITIES = [
  'American',
  'Argentinian',
  'Australian',
  'Austrian',
  'Bangladeshi',
  'Belgian',
  'Brazilian',
  'British',
  'Canadian',
  'Chilean',
  'Chinese',
  'Colombian',
  'Croatian',
  'Czech',
  'Danish',
  'Dutch',
  'Egyptian',
  'Emirati',
  'Ethiopian',
  'Filipino',
  'Finnish',
  'French',
  'German',
  'Ghanaian',
  'Greek',
  'Hungarian',
  'Indian',
  'Indonesian',
  'Iranian',
  'Iraqi',
  'Irish',
  'Israeli',
  'Italian',
  'Jamaican',
  'Japanese',
  'Jordanian',
  'Kenyan',
  'Korean',
  'Kuwaiti',
  'Lebanese',
  'Malaysian',
  'Mexican',
  'Moroccan',
  'New Zealander',
  'Nigerian',
  'Norwegian',
  'Pakistani',
  'Peruvian',
  'Polish',
  'Portuguese',
  'Qatari',
  'Romanian',
  'Russian',
  'Saudi',
  'Singaporean',
  'South African',
  'Spanish',
  'Swedish',
  'Swiss',
  'Thai',
  'Tunisian',
  'Turkish',
  'Ukrainian',
  'Vietnamese',
] as const;

/** Spec 9: about 53 languages are offered; default English. */
export const LANGUAGES = [
  'English',
  'Arabic',
  'Bengali',
  'Bulgarian',
  'Catalan',
  'Chinese (Mandarin)',
  'Chinese (Cantonese)',
  'Croatian',
  'Czech',
  'Danish',
  'Dutch',
  'Estonian',
  'Finnish',
  'French',
  'German',
  'Greek',
  'Gujarati',
  'Hebrew',
  'Hindi',
  'Hungarian',
  'Icelandic',
  'Indonesian',
  'Irish',
  'Italian',
  'Japanese',
  'Kannada',
  'Korean',
  'Latvian',
  'Lithuanian',
  'Malay',
  'Malayalam',
  'Marathi',
  'Norwegian',
  'Persian',
  'Polish',
  'Portuguese',
  'Punjabi',
  'Romanian',
  'Russian',
  'Serbian',
  'Slovak',
  'Slovenian',
  'Spanish',
  'Swahili',
  'Swedish',
  'Tagalog',
  'Tamil',
  'Telugu',
  'Thai',
  'Turkish',
  'Ukrainian',
  'Urdu',
  'Vietnamese',
] as const;
export const DEFAULT_LANGUAGE = 'English';

/** Spec 3: license_type. The price (license_price) is in euros. */
export const LICENSE_TYPES = ['free', 'premium', 'exclusive'] as const;
export type LicenseType = (typeof LICENSE_TYPES)[number];
export const DEFAULT_LICENSE_TYPE: LicenseType = 'free';
export const MAX_LICENSE_PRICE_EUROS = 100_000;

/**
 * Spec 3 and 9: the five persona image types, in the order they are generated: face_only first (the
 * base every other image is conditioned on), then the rest.
 */
export const PERSONA_IMAGE_TYPES = ['face_only', 'portrait', 'full_body', 'action_shot', 'environment'] as const;
export type PersonaImageType = (typeof PERSONA_IMAGE_TYPES)[number];
export const BASE_IMAGE_TYPE: PersonaImageType = 'face_only';

/** Spec 4: a persona is generating until its images are made, then ready (or failed when none could be). */
export const PERSONA_STATUSES = ['generating', 'ready', 'failed'] as const;
export type PersonaStatus = (typeof PERSONA_STATUSES)[number];

/**
 * State of one persona image. `placeholder` is the explicit marker for an image that could not be
 * generated (no file behind it); it can be regenerated later.
 */
export const PERSONA_IMAGE_STATES = ['pending', 'ready', 'placeholder'] as const;
export type PersonaImageState = (typeof PERSONA_IMAGE_STATES)[number];

/** Spec 5 and 9: persona limits. */
export const PERSONA_LIMITS = {
  maxCharacterImages: 4,
  maxProductImages: 2,
  videoPromptMax: 500,
  productPromptMax: 300,
  imagePromptMax: 2000,
  nameMax: 100,
  descriptionMax: 2000,
  targetAudienceMax: 500,
  basedOnMax: 200,
  maxTags: 20,
  tagMax: 40,
  ugcScriptMax: 300,
} as const;

/** Spec 9: the persona video's fixed parameters. */
export const PERSONA_VIDEO = {
  model: 'veo-3.0-generate-001',
  durations: [5, 8],
  defaultDuration: 8,
  aspectRatios: ['16:9', '9:16'],
  defaultAspectRatio: '16:9',
  /** UGC videos are vertical by default. */
  ugcAspectRatio: '9:16',
  resolution: '1080p',
  creativity: 0.6,
  styleStrength: 0.85,
  motionIntensity: 0.5,
  generateAudio: true,
  personGeneration: 'allow_adult',
  credits: 21,
} as const;
export type PersonaVideoDuration = (typeof PERSONA_VIDEO.durations)[number];
export type PersonaVideoAspectRatio = (typeof PERSONA_VIDEO.aspectRatios)[number];

/** Spec 9: persona image defaults (the prompt image of a persona). */
export const PERSONA_IMAGE = {
  model: 'nanobana-gemini-2.5-flash-image-preview',
  size: '1024x1024',
  quality: 'hd',
} as const;

/** Spec 5: tags are trimmed and de-duplicated (case-insensitively; the first spelling is kept). */
export function normaliseTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    const folded = tag.toLocaleLowerCase();
    if (!tag || seen.has(folded)) continue;
    seen.add(folded);
    out.push(tag);
  }
  return out;
}

/** Adds one typed tag (the Enter key): trimmed, ignored when empty or already there. */
export function addTag(tags: readonly string[], typed: string): string[] {
  return normaliseTags([...tags, typed]);
}

/** Spec 9: counts abbreviated with k for thousands (1500 → '1.5k', 12000 → '12k', 950 → '950'). */
export function abbreviateCount(value: number): string {
  if (!Number.isFinite(value)) return '0';
  const n = Math.trunc(value);
  if (Math.abs(n) < 1000) return String(n);
  const thousands = n / 1000;
  const rounded = Math.abs(thousands) >= 100 ? Math.round(thousands) : Math.round(thousands * 10) / 10;
  return `${String(rounded).replace(/\.0$/, '')}k`;
}

/**
 * Credits an image-set task reserves: `personaImage` per image (vendor list: 20 for the five at
 * creation) from the price list of the engine serving the persona image model.
 * Images that end as placeholders are refunded when the task finishes.
 */
export function personaImageSetPrice(imageCount: number, prices: PriceTable): number {
  return prices.personaImage * Math.max(0, Math.floor(imageCount));
}

/** generation_progress after `done` of `total` images: 20, 40, … 100 for the five images. */
export function personaProgress(done: number, total: number): number {
  if (total <= 0) return 100;
  return Math.min(100, Math.max(0, Math.round((done / total) * 100)));
}

/** Euros with 2 decimals for the license price label (12.5 → '€12.50'). */
export function formatLicensePrice(euros: number): string {
  return `€${(Math.round(euros * 100) / 100).toFixed(2)}`;
}
