import type { SocialPlatform } from '../api/social.ts';
import { MESSAGES } from '../messages.ts';
import { POST_TEXT_LIMITS, postTextLength } from './post-text.ts';

// What each network takes in one post, from its own published documentation, so a post it would refuse is
// refused here first with a message naming the network and the limit (issue 28). The sources, per network:
//  - Instagram: Content Publishing, IG User Media reference
//    https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media
//    (images: JPEG, at most 8 MB, aspect ratio 4:5 to 1.91:1 — PNG and WebP are taken too, converted to JPEG
//    before Instagram fetches them; Reels: MOV or MP4, at most 300 MB, 3 s to 15 min,
//    aspect ratio 0.01:1 to 10:1; carousels: up to 10 images and videos, mixed; caption 2,200 characters).
//  - TikTok: Content Posting API, Media Transfer Guide and Direct Post reference
//    https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide
//    (video: MP4, WebM or MOV, at most 4 GB, at most 10 minutes, 360–4096 px a side; title 2,200 characters).
//    Photo posts go through TikTok's separate photo API (JPEG/WebP, up to 35); the studio posts TikTok videos
//    only (Direct Post of one video), so images are refused for TikTok.
//  - YouTube: Data API v3, videos.insert https://developers.google.com/youtube/v3/docs/videos/insert
//    (one video file, video/* — MOV, MP4, AVI, WMV, MPEG, FLV, 3GPP, WebM —, at most 256 GB; description 5,000
//    characters) and "Upload videos longer than 15 minutes" https://support.google.com/youtube/answer/71673
//    (at most 12 hours; accounts not yet verified are held to 15 minutes by YouTube itself).
//  - X: Media upload best practices https://docs.x.com/x-api/media/quickstart/best-practices
//    (up to 4 photos, or 1 animated GIF, or 1 video per post; images JPEG, PNG, WebP, GIF at most 5 MB, GIF
//    15 MB; video MP4 or MOV at most 512 MB, 0.5 s to 140 s; aspect ratio 1:3 to 3:1).
//  - LinkedIn: Images API, Videos API and MultiImage Post API
//    https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/images-api
//    https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/videos-api
//    https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/multiimage-post-api
//    (images JPG, PNG, GIF under 36,152,320 pixels; video MP4, 75 KB to 500 MB, 3 s to 30 min; 2 to 20 images
//    in a multi-image post; a post carries images or one video, never both; commentary 3,000 characters).
//  - Facebook Pages: Page Photos and Video API
//    https://developers.facebook.com/docs/graph-api/reference/page/photos
//    https://developers.facebook.com/docs/video-api/guides/publishing
//    (photos JPEG, PNG, GIF, TIFF, HEIF, WebP, at most 4 MB; video at most 10 GB and 240 minutes; a post is
//    photos (attached_media) or one video; a multi-photo post is capped at 10 photos here: the Graph API states
//    no number, 10 is what the Page composer keeps in one post).

type PostMediaKind = 'image' | 'video';

/** What is known of one file of a post. Unknown facts (null) are not checked. */
export interface PostMediaFacts {
  kind: PostMediaKind;
  contentType: string;
  sizeBytes: number | null;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
}

interface ImageRules {
  /** Content types the network takes. */
  formats: readonly string[];
  /**
   * Content types the studio turns into the network's format before the network gets the file (Instagram
   * fetches JPEG only; the studio's generated images are PNG or WebP). The publish converts them (a JPEG
   * rendition within the network's limits, server/features/social/renditions.ts), so their byte size is not held
   * against the post.
   */
  convertedFrom?: readonly string[];
  maxBytes: number;
  /** Per-format size limits above `maxBytes` (X takes GIFs up to 15 MB). */
  maxBytesByType?: Readonly<Record<string, number>>;
  /** Width / height bounds, as the network states them. */
  minAspect?: number;
  maxAspect?: number;
  maxPixels?: number;
}

interface VideoRules {
  formats: readonly string[];
  maxBytes: number;
  minBytes?: number;
  maxSeconds: number;
  minSeconds?: number;
  minAspect?: number;
  maxAspect?: number;
  minSide?: number;
  maxSide?: number;
}

interface NetworkMediaRules {
  /** The caption / text limit (common/rules/post-text.ts). */
  captionLimit: number;
  /** What a post must carry: nothing, an image or a video, or a video. */
  requires: 'nothing' | 'media' | 'video';
  /** Files in one post (a carousel's size). */
  maxItems: number;
  /** Videos in one post. */
  maxVideos: number;
  /** Images and videos together in one post. */
  mixed: boolean;
  /** Null: the network takes no images (through what the studio uses). */
  image: ImageRules | null;
  video: VideoRules;
  /** The documentation the numbers come from. */
  source: string;
}

const MB = 1024 * 1024;
const GB = 1024 * MB;
const JPEG = 'image/jpeg';
const PNG = 'image/png';
const GIF = 'image/gif';
const WEBP = 'image/webp';
const MP4 = 'video/mp4';
const MOV = 'video/quicktime';
const WEBM = 'video/webm';

const NETWORK_MEDIA_RULES: Readonly<Record<SocialPlatform, NetworkMediaRules>> = {
  instagram: {
    captionLimit: POST_TEXT_LIMITS.instagram,
    requires: 'media',
    maxItems: 10,
    maxVideos: 10,
    mixed: true,
    image: { formats: [JPEG], convertedFrom: [PNG, WEBP], maxBytes: 8 * MB, minAspect: 4 / 5, maxAspect: 1.91 },
    video: {
      formats: [MP4, MOV],
      maxBytes: 300 * MB,
      minSeconds: 3,
      maxSeconds: 15 * 60,
      minAspect: 0.01,
      maxAspect: 10,
    },
    source: 'https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media',
  },
  tiktok: {
    captionLimit: POST_TEXT_LIMITS.tiktok,
    requires: 'video',
    maxItems: 1,
    maxVideos: 1,
    mixed: false,
    image: null,
    video: { formats: [MP4, WEBM, MOV], maxBytes: 4 * GB, maxSeconds: 10 * 60, minSide: 360, maxSide: 4096 },
    source: 'https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide',
  },
  youtube: {
    captionLimit: POST_TEXT_LIMITS.youtube,
    requires: 'video',
    maxItems: 1,
    maxVideos: 1,
    mixed: false,
    image: null,
    video: {
      formats: [
        MP4,
        MOV,
        WEBM,
        'video/x-msvideo',
        'video/x-ms-wmv',
        'video/mpeg',
        'video/x-flv',
        'video/3gpp',
        'video/x-matroska',
      ],
      maxBytes: 256 * GB,
      maxSeconds: 12 * 3600,
    },
    source: 'https://developers.google.com/youtube/v3/docs/videos/insert',
  },
  twitter: {
    captionLimit: POST_TEXT_LIMITS.twitter,
    requires: 'nothing',
    maxItems: 4,
    maxVideos: 1,
    mixed: false,
    image: {
      formats: [JPEG, PNG, WEBP, GIF],
      maxBytes: 5 * MB,
      maxBytesByType: { [GIF]: 15 * MB },
      minAspect: 1 / 3,
      maxAspect: 3,
    },
    video: {
      formats: [MP4, MOV],
      maxBytes: 512 * MB,
      minSeconds: 0.5,
      maxSeconds: 140,
      minAspect: 1 / 3,
      maxAspect: 3,
    },
    source: 'https://docs.x.com/x-api/media/quickstart/best-practices',
  },
  linkedin: {
    captionLimit: POST_TEXT_LIMITS.linkedin,
    requires: 'nothing',
    maxItems: 20,
    maxVideos: 1,
    mixed: false,
    image: { formats: [JPEG, PNG, GIF], maxBytes: Number.POSITIVE_INFINITY, maxPixels: 36_152_320 },
    video: { formats: [MP4], maxBytes: 500 * MB, minBytes: 75 * 1024, minSeconds: 3, maxSeconds: 30 * 60 },
    source: 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/videos-api',
  },
  facebook: {
    captionLimit: POST_TEXT_LIMITS.facebook,
    requires: 'nothing',
    maxItems: 10,
    maxVideos: 1,
    mixed: false,
    image: {
      formats: [JPEG, PNG, GIF, WEBP, 'image/tiff', 'image/heif', 'image/heic', 'image/bmp'],
      maxBytes: 4 * MB,
    },
    video: { formats: [MP4, MOV, WEBM, 'video/x-msvideo', 'video/mpeg'], maxBytes: 10 * GB, maxSeconds: 240 * 60 },
    source: 'https://developers.facebook.com/docs/graph-api/reference/page/photos',
  },
};

/** The networks' display names (as the sandbox and the connect screens name them). */
export const NETWORK_NAMES: Readonly<Record<SocialPlatform, string>> = {
  instagram: 'Instagram',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  twitter: 'X (Twitter)',
  linkedin: 'LinkedIn',
  facebook: 'Facebook',
};

const FORMAT_NAMES: Record<string, string> = {
  [JPEG]: 'JPEG',
  [PNG]: 'PNG',
  [GIF]: 'GIF',
  [WEBP]: 'WebP',
  'image/tiff': 'TIFF',
  'image/heif': 'HEIF',
  'image/heic': 'HEIC',
  'image/bmp': 'BMP',
  'image/avif': 'AVIF',
  'image/svg+xml': 'SVG',
  [MP4]: 'MP4',
  [MOV]: 'MOV',
  [WEBM]: 'WebM',
  'video/x-msvideo': 'AVI',
  'video/x-ms-wmv': 'WMV',
  'video/mpeg': 'MPEG',
  'video/x-flv': 'FLV',
  'video/3gpp': '3GPP',
  'video/x-matroska': 'MKV',
};

/** A content type as people name the format (image/jpeg → JPEG). */
function formatName(contentType: string): string {
  const type = baseType(contentType);
  return FORMAT_NAMES[type] ?? (type.split('/')[1]?.toUpperCase() || type || 'unknown');
}

const baseType = (contentType: string) => {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'image/jpg' ? JPEG : type;
};

const formatList = (formats: readonly string[]) => [...new Set(formats.map(formatName))].join(', ');

/** A byte count as people read it: 8 MB, 4 GB, 75 KB, 7.6 MB. */
export function formatBytes(bytes: number): string {
  const units: [number, string][] = [
    [GB, 'GB'],
    [MB, 'MB'],
    [1024, 'KB'],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) {
      const value = bytes / size;
      return `${Number.isInteger(value) ? value : Math.round(value * 10) / 10} ${unit}`;
    }
  }
  return `${bytes} bytes`;
}

/** A duration as people read it: 17 min 3 s, 15 min, 12 h, 0.5 s. */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds * 10) / 10} s`;
  const whole = Math.round(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return [h ? `${h} h` : '', m ? `${m} min` : '', s ? `${s} s` : ''].filter(Boolean).join(' ');
}

/** An aspect ratio as the networks write it: 4:5, 1.91:1, 1:3. */
export function formatAspect(ratio: number): string {
  if (ratio < 1) {
    const inverse = 1 / ratio;
    if (Math.abs(inverse - Math.round(inverse)) < 0.01) return `1:${Math.round(inverse)}`;
    if (Math.abs(ratio - 0.8) < 0.001) return '4:5';
  }
  return `${Math.round(ratio * 100) / 100}:1`;
}

const kindOf = (m: PostMediaFacts): PostMediaKind => m.kind;

/**
 * The format `network` is sent an image of `contentType` in when the studio converts it first (Instagram: PNG
 * and WebP as JPEG); null when the image goes as it is.
 */
export function convertedImageType(network: SocialPlatform, contentType: string): string | null {
  const image = NETWORK_MEDIA_RULES[network].image;
  if (!image?.convertedFrom?.includes(baseType(contentType))) return null;
  return image.formats[0] ?? null;
}

export interface CheckOptions {
  /** The links the post's text carries where the network puts them in the text (post-text.ts). */
  mediaUrls?: readonly string[];
  /** The caption is shortened to fit when posted (Cross-post optimization): its length is not a problem. */
  shortenCaption?: boolean;
}

/**
 * What `network` would refuse in a post of `message` with `media`: one message per problem, each naming the
 * network and the limit. Empty when the network takes the post. Facts that are not known (null) are not held
 * against the post.
 */
export function checkPostMedia(
  network: SocialPlatform,
  message: string,
  media: readonly PostMediaFacts[],
  options: CheckOptions = {},
): string[] {
  const mediaUrls = options.mediaUrls ?? [];
  const rules = NETWORK_MEDIA_RULES[network];
  const name = NETWORK_NAMES[network];
  const M = MESSAGES.social;
  const problems: string[] = [];
  const length = postTextLength(network, message, mediaUrls);
  if (!options.shortenCaption && length > rules.captionLimit)
    problems.push(M.captionTooLong(name, rules.captionLimit, length));
  const images = media.filter((m) => kindOf(m) === 'image');
  const videos = media.filter((m) => kindOf(m) === 'video');
  if (rules.requires === 'media' && media.length === 0) problems.push(M.mediaRequired(name));
  if (rules.requires === 'video' && videos.length === 0) problems.push(M.videoRequired(name));
  if (!rules.image && images.length > 0) problems.push(M.imagesNotTaken(name));
  if (!rules.mixed && images.length > 0 && videos.length > 0) problems.push(M.mediaNotMixed(name));
  if (media.length > rules.maxItems) problems.push(M.tooManyMedia(name, rules.maxItems, media.length));
  else if (videos.length > rules.maxVideos) problems.push(M.tooManyVideos(name, rules.maxVideos, videos.length));
  if (rules.image) {
    images.forEach((image, i) => {
      problems.push(...checkImage(name, rules.image as ImageRules, image, i + 1, media.length > 1));
    });
  }
  videos.forEach((video, i) => {
    problems.push(...checkVideo(name, rules.video, video, i + 1, media.length > 1));
  });
  return problems;
}

/** "this one" for a single file, "image 2" in a post of several. */
const which = (kind: PostMediaKind, n: number, several: boolean) => (several ? `${kind} ${n}` : `this ${kind}`);

function checkImage(name: string, rules: ImageRules, image: PostMediaFacts, n: number, several: boolean): string[] {
  const M = MESSAGES.social;
  const it = which('image', n, several);
  const type = baseType(image.contentType);
  const accepted = [...rules.formats, ...(rules.convertedFrom ?? [])];
  if (!accepted.includes(type)) {
    return [M.imageFormatRefused(name, formatList(accepted), it, formatName(type))];
  }
  const out: string[] = [];
  const maxBytes = rules.maxBytesByType?.[type] ?? rules.maxBytes;
  const converted = rules.convertedFrom?.includes(type) ?? false;
  if (!converted && image.sizeBytes !== null && image.sizeBytes > maxBytes) {
    out.push(M.imageTooLarge(name, formatBytes(maxBytes), it, formatBytes(image.sizeBytes)));
  }
  if (image.width && image.height) {
    const ratio = image.width / image.height;
    const min = rules.minAspect ?? 0;
    const max = rules.maxAspect ?? Number.POSITIVE_INFINITY;
    // The networks round the ratio they check to two places (1080 × 566 is 1.91:1).
    const rounded = Math.round(ratio * 100) / 100;
    if (rounded < Math.round(min * 100) / 100 || rounded > Math.round(max * 100) / 100) {
      out.push(
        M.imageAspectRefused(name, formatAspect(min), formatAspect(max), it, `${image.width} × ${image.height}`),
      );
    }
    if (rules.maxPixels && image.width * image.height > rules.maxPixels) {
      out.push(
        M.imageTooManyPixels(name, rules.maxPixels.toLocaleString('en'), it, `${image.width} × ${image.height}`),
      );
    }
  }
  return out;
}

function checkVideo(name: string, rules: VideoRules, video: PostMediaFacts, n: number, several: boolean): string[] {
  const M = MESSAGES.social;
  const it = which('video', n, several);
  const type = baseType(video.contentType);
  if (!rules.formats.includes(type)) {
    return [M.videoFormatRefused(name, formatList(rules.formats), it, formatName(type))];
  }
  const out: string[] = [];
  if (video.sizeBytes !== null && video.sizeBytes > rules.maxBytes) {
    out.push(M.videoTooLarge(name, formatBytes(rules.maxBytes), it, formatBytes(video.sizeBytes)));
  }
  if (video.sizeBytes !== null && rules.minBytes && video.sizeBytes < rules.minBytes) {
    out.push(M.videoTooSmall(name, formatBytes(rules.minBytes), it, formatBytes(video.sizeBytes)));
  }
  if (video.durationSeconds !== null) {
    if (video.durationSeconds > rules.maxSeconds) {
      out.push(M.videoTooLong(name, formatDuration(rules.maxSeconds), it, formatDuration(video.durationSeconds)));
    }
    if (rules.minSeconds && video.durationSeconds < rules.minSeconds) {
      out.push(M.videoTooShort(name, formatDuration(rules.minSeconds), it, formatDuration(video.durationSeconds)));
    }
  }
  if (video.width && video.height) {
    const ratio = video.width / video.height;
    const size = `${video.width} × ${video.height}`;
    if ((rules.minAspect && ratio < rules.minAspect) || (rules.maxAspect && ratio > rules.maxAspect)) {
      out.push(
        M.videoAspectRefused(name, formatAspect(rules.minAspect ?? 0), formatAspect(rules.maxAspect ?? 0), it, size),
      );
    }
    const small = Math.min(video.width, video.height);
    const large = Math.max(video.width, video.height);
    if ((rules.minSide && small < rules.minSide) || (rules.maxSide && large > rules.maxSide)) {
      out.push(M.videoSidesRefused(name, `${rules.minSide ?? 1}–${rules.maxSide ?? '∞'} px`, it, size));
    }
  }
  return out;
}

/** A short, readable summary of what `network` takes, for the compose form. */
export interface NetworkLimitsSummary {
  network: SocialPlatform;
  name: string;
  captionLimit: number;
  requires: NetworkMediaRules['requires'];
  maxItems: number;
  mixed: boolean;
  imageFormats: string | null;
  imageMaxSize: string | null;
  imageAspect: string | null;
  videoFormats: string;
  videoMaxSize: string;
  videoDuration: string;
}

export function limitsSummary(network: SocialPlatform): NetworkLimitsSummary {
  const rules = NETWORK_MEDIA_RULES[network];
  const image = rules.image;
  const video = rules.video;
  const aspect =
    image?.minAspect !== undefined && image.maxAspect !== undefined
      ? `${formatAspect(image.minAspect)} – ${formatAspect(image.maxAspect)}`
      : null;
  return {
    network,
    name: NETWORK_NAMES[network],
    captionLimit: rules.captionLimit,
    requires: rules.requires,
    maxItems: rules.maxItems,
    mixed: rules.mixed,
    imageFormats: image ? formatList([...image.formats, ...(image.convertedFrom ?? [])]) : null,
    imageMaxSize: image && Number.isFinite(image.maxBytes) ? formatBytes(image.maxBytes) : null,
    imageAspect: aspect,
    videoFormats: formatList(video.formats),
    videoMaxSize: formatBytes(video.maxBytes),
    videoDuration: video.minSeconds
      ? `${formatDuration(video.minSeconds)} – ${formatDuration(video.maxSeconds)}`
      : `≤ ${formatDuration(video.maxSeconds)}`,
  };
}
