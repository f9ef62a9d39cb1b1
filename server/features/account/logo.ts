import { eq } from 'drizzle-orm';
import { BRAND_LOGO } from '../../../common/api/account.constants.ts';
import { MEDIA_URL_PREFIX } from '../../../common/api/media.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { brandProfiles } from '../../db/schema/index.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { storedKeyOf } from '../../platform/media/inputs.ts';
import { isValidKey } from '../../platform/storage/keys.ts';
import { deleteReplacedImage, readOwnImage, reencodeAsWebp, storePublicImage } from './avatar.ts';

// The brand logo (issue 27 finding 7). Every creator's and admin's browser loads it, so it is never a URL the
// brand typed: it is one of the brand's own images (a multipart upload, or its media library's URL of a file
// it owns), re-encoded here and stored as a public object of the brand, exactly as the avatar is. An external
// address (a tracking pixel, http://169.254.169.254/…), a data:/javascript: URL or another user's file
// answers 400.

type Deps = Pick<AppContext, 'db' | 'clock' | 'storage' | 'config' | 'log'>;
const m = MESSAGES.account;
/** Marks stored logos (the `Source` tag), so replacing one never deletes an ordinary upload. */
const LOGO_SOURCE = 'brand_logo';
const MEDIA_PREFIXES = Object.values(MEDIA_URL_PREFIX);

/**
 * A stored logo as pages may show it: a path of the studio's own media (what setBrandLogo stores). Anything
 * else — an external URL saved before issue 27 — is not shown (null), so no page loads it.
 */
export function shownLogo(url: string | null): string | null {
  if (!url) return null;
  const prefix = MEDIA_PREFIXES.find((p) => url.startsWith(p));
  if (!prefix) return null;
  return isValidKey(url.slice(prefix.length).split('?')[0] ?? '') ? url : null;
}

/**
 * The bytes of a logo named by URL: the studio's media URL of one of the brand's own images. Anything that is
 * not the studio's media URL answers 400 'logoOwnMediaOnly'; another user's file 400 'notYourMedia'.
 */
export async function readOwnLogo(deps: Deps, userId: string, url: string): Promise<Buffer> {
  if (!storedKeyOf(deps.config, url)) throw badRequest(m.logoOwnMediaOnly);
  return readOwnImage(deps, userId, url, m.logoNotImage);
}

/** A WebP that fits in BRAND_LOGO.maxPx square (aspect kept, transparency kept) of a sniffed JPEG/PNG/GIF/WebP. */
const toLogoWebp = (image: Buffer) =>
  reencodeAsWebp(image, {
    types: BRAND_LOGO.types,
    size: BRAND_LOGO.maxPx,
    fit: 'inside',
    quality: 90,
    notImage: m.logoNotImage,
    failed: { code: 'logo_failed', message: m.logoFailed },
  });

/**
 * Re-encodes the image, stores it as a public object of the brand, points brand_profiles.logo_url at it and
 * deletes the previous stored logo. Answers the new logo URL.
 */
export async function setBrandLogo(deps: Deps, user: UserRow, image: Buffer): Promise<string> {
  try {
    const stored = await storePublicImage(deps, user.id, await toLogoWebp(image), LOGO_SOURCE);
    await replaceLogo(deps, user.id, stored.url);
    return stored.url;
  } catch (error) {
    if (error instanceof AppError) throw error;
    deps.log.error({ err: error, userId: user.id }, 'brand logo update failed');
    throw new AppError(500, 'logo_failed', m.logoFailed);
  }
}

/** Sets (or with null removes) the logo URL and deletes the stored logo it replaces. */
export async function replaceLogo(deps: Deps, userId: string, url: string | null): Promise<void> {
  const now = deps.clock.now();
  const [before] = await deps.db
    .select({ logoUrl: brandProfiles.logoUrl })
    .from(brandProfiles)
    .where(eq(brandProfiles.userId, userId));
  await deps.db
    .insert(brandProfiles)
    .values({ userId, logoUrl: url, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: brandProfiles.userId, set: { logoUrl: url, updatedAt: now } });
  if (before?.logoUrl && before.logoUrl !== url) await deleteReplacedImage(deps, userId, before.logoUrl, LOGO_SOURCE);
}
