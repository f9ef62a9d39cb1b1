import { createHmac, timingSafeEqual } from 'node:crypto';
import { SIGNED_MEDIA_URL_TTL_SECONDS } from '../../../common/api/media.constants.ts';
import type { Config } from '../../config.ts';
import { serverSecret } from '../secrets.ts';

/**
 * Signed, expiring media URLs: `<path>?expires=<unix seconds>&sig=<base64url HMAC-SHA256>` over
 * `<path>\n<expires>`. The secret is MEDIA_URL_SECRET, or the one generated once into the database
 * (server_secrets) and loaded at start, so every process of a database signs alike.
 */
export type SigningConfig = Pick<Config, 'MEDIA_URL_SECRET' | 'storedSecrets'>;

function secretFor(config: SigningConfig): Buffer {
  return serverSecret('MEDIA_URL_SECRET', config);
}

function signature(secret: Buffer, urlPath: string, expires: number): string {
  return createHmac('sha256', secret).update(`${urlPath}\n${expires}`).digest('base64url');
}

/** Appends `expires` and `sig` to a media path (e.g. `/api/images/upload/2025/01/<uuid>.png`). */
export function signMediaUrl(
  config: SigningConfig,
  urlPath: string,
  ttlSeconds: number = SIGNED_MEDIA_URL_TTL_SECONDS,
  now: Date = new Date(),
): string {
  const expires = Math.floor(now.getTime() / 1000) + Math.max(1, Math.floor(ttlSeconds));
  const sig = signature(secretFor(config), urlPath, expires);
  return `${urlPath}?expires=${expires}&sig=${sig}`;
}

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

/** Checks the `expires`/`sig` pair of a request for `urlPath` (the path without its query). */
export function verifyMediaSignature(
  config: SigningConfig,
  urlPath: string,
  expires: string,
  sig: string,
  now: Date = new Date(),
): SignatureCheck {
  if (!/^\d{1,12}$/.test(expires) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return 'invalid';
  const expected = Buffer.from(signature(secretFor(config), urlPath, Number(expires)), 'base64url');
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return Number(expires) * 1000 < now.getTime() ? 'expired' : 'valid';
}

/**
 * A media URL bound to a published post: `<path>?post=<post id>&sig=<base64url HMAC-SHA256>` over
 * `post\n<path>\n<post id>`. It has no expiry of its own: the media route serves it while that post is
 * live (server/features/social/published.ts), so it works for as long as the post is public and stops
 * working when the post is gone.
 */
export function signPostMediaUrl(config: SigningConfig, urlPath: string, postId: string): string {
  const sig = createHmac('sha256', secretFor(config)).update(`post\n${urlPath}\n${postId}`).digest('base64url');
  return `${urlPath}?post=${postId}&sig=${sig}`;
}

/** Checks the `post`/`sig` pair of a request for `urlPath` (the path without its query). */
export function verifyPostMediaSignature(config: SigningConfig, urlPath: string, postId: string, sig: string): boolean {
  if (!/^[0-9a-f-]{36}$/i.test(postId) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return false;
  const expected = Buffer.from(signPostMediaUrl(config, urlPath, postId).split('&sig=')[1] ?? '', 'base64url');
  const given = Buffer.from(sig, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
