import type { SocialPlatform } from '../api/social.ts';

// How long a post's text may be on each network, as the network counts it, and how Cross-post optimization
// (a Settings toggle, on by default) fits a longer message: shortened at a word, with an ellipsis, leaving the
// media links whole. Off, a message too long for a network is refused for it (docs/publishing.md).

/** The networks' documented text limits: X post, LinkedIn commentary, Instagram/TikTok caption, YouTube description, Facebook post. */
export const POST_TEXT_LIMITS: Readonly<Record<SocialPlatform, number>> = {
  twitter: 280,
  linkedin: 3000,
  instagram: 2200,
  tiktok: 2200,
  youtube: 5000,
  facebook: 63_206,
};

/** The networks whose connectors put the media links in the post's text (one line each, after the message). */
const LINKS_IN_TEXT: ReadonlySet<SocialPlatform> = new Set(['twitter', 'linkedin']);

const ELLIPSIS = '…';

/** X counts every link as this many characters (t.co), whatever its length. */
const X_LINK_WEIGHT = 23;

/**
 * X's weighted length (twitter-text v3 configuration): code points in its light ranges count 1, all others
 * (CJK, emoji, …) count 2.
 */
function xWeight(text: string): number {
  let weight = 0;
  for (const char of text) {
    const cp = char.codePointAt(0) ?? 0;
    const light = cp <= 4351 || (cp >= 8192 && cp <= 8205) || (cp >= 8208 && cp <= 8223) || (cp >= 8242 && cp <= 8247);
    weight += light ? 1 : 2;
  }
  return weight;
}

const lengthOn = (platform: SocialPlatform, text: string) =>
  platform === 'twitter' ? xWeight(text) : [...text].length;

/** The length the network counts for a post: the message and, where the links go in the text, a line per link. */
export function postTextLength(platform: SocialPlatform, message: string, mediaUrls: readonly string[]): number {
  return lengthOn(platform, message) + linksLength(platform, mediaUrls);
}

function linksLength(platform: SocialPlatform, mediaUrls: readonly string[]): number {
  if (!LINKS_IN_TEXT.has(platform)) return 0;
  return mediaUrls.reduce((n, url) => n + 1 + (platform === 'twitter' ? X_LINK_WEIGHT : [...url].length), 0);
}

export interface FittedText {
  message: string;
  /** The message was shortened to fit. */
  shortened: boolean;
  /** The post's length as the network counts it, before fitting. */
  length: number;
  limit: number;
}

/**
 * The message as posted on `platform`: as written when it fits, else shortened at the last word boundary that
 * fits (an ellipsis added), so the links after it stay whole.
 */
export function fitPostText(platform: SocialPlatform, message: string, mediaUrls: readonly string[]): FittedText {
  const limit = POST_TEXT_LIMITS[platform];
  const length = postTextLength(platform, message, mediaUrls);
  if (length <= limit) return { message, shortened: false, length, limit };
  const budget = limit - linksLength(platform, mediaUrls) - lengthOn(platform, ELLIPSIS);
  let kept = '';
  for (const char of message) {
    if (lengthOn(platform, kept + char) > budget) break;
    kept += char;
  }
  const atWord = kept.replace(/\s+\S*$/u, '');
  // A first word longer than the budget is cut inside it rather than dropped.
  const cut = (atWord.trim() ? atWord : kept).trimEnd();
  return { message: `${cut}${ELLIPSIS}`, shortened: true, length, limit };
}
