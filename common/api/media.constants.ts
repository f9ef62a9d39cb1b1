// Stored media: upload limits, storage classes and tags, media URLs, sniffed types. Named by the spec; server and web import them.

export const UPLOAD = {
  defaultMaxMb: 50,
  avatarMaxMb: 5,
  maxFiles: 10,
  /** Uploads one user may send per minute (RATE_LIMIT_UPLOADS_PER_MINUTE). */
  perMinute: 60,
  /** Uploads one client address may send per minute over all its accounts (RATE_LIMIT_UPLOADS_PER_ADDRESS_PER_MINUTE). */
  perAddressPerMinute: 120,
  imageTypes: ['jpeg', 'jpg', 'png', 'gif', 'webp'],
  videoTypes: ['mp4', 'mov', 'avi', 'webm'],
  audioTypes: ['mp3', 'wav', 'm4a', 'ogg'],
} as const;

/**
 * Storage one user may fill with uploads and generated media (STORAGE_QUOTA_MB), issue 17; the free disk
 * space local storage keeps (STORAGE_DISK_RESERVE_MB), issue 27.
 */
export const STORAGE_QUOTA = { defaultMb: 5120, diskReserveMb: 1024 } as const;

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

/** Inline images a page may show as they are (canvas exports, thumbnails): base64 raster images, never SVG. */
const INLINE_IMAGE = /^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/=\s]*$/i;

/**
 * True for an image reference a page may load as it is stored (issue 27): a path of the studio's own media
 * (`/api/images/…`, one of MEDIA_URL_PREFIX, no `..`, query allowed) or a base64 PNG/JPEG/WebP/GIF data URL.
 * False for any external or metadata address, javascript:, other data: types and protocol-relative URLs.
 */
export function isPageImageRef(value: string): boolean {
  const v = value.trim();
  if (INLINE_IMAGE.test(v)) return true;
  const path = v.split(/[?#]/)[0] ?? '';
  return (
    Object.values(MEDIA_URL_PREFIX).some((prefix) => path.startsWith(prefix) && path.length > prefix.length) &&
    !path.includes('..') &&
    !path.includes('//') &&
    !path.includes('\\')
  );
}
