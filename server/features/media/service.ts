import { createHash } from 'node:crypto';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { CACHE_SECONDS } from '../../../common/api/media.constants.ts';
import type { MediaQuery } from '../../../common/api/media.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { AppError, notFound, unauthorized } from '../../platform/errors.ts';
import { verifyMediaSignature, verifyPostMediaSignature } from '../../platform/media/signing.ts';
import { type MediaObjectRow, MediaStore } from '../../platform/media/store.ts';
import { isStorageClass, isTemporaryClass, isValidKey } from '../../platform/storage/keys.ts';
import { isLivePost } from '../published-posts/published.ts';

/**
 * Who may read a stored object: anyone when it is public, anyone holding a valid signed URL, and its
 * owner (admins too only through the audited GET /api/admin/media/{key}). Everyone else learns nothing: 401 without a session, 404 with one (the same
 * answer as for a key that does not exist). A signed URL that is expired or altered answers 403
 * whether or not the key exists. A post's media URL (`post` + `sig`) is as good as a signed URL while
 * that post is live; once it is not, the URL answers 404 (a signed-in owner still reads their file).
 */
export async function authorizeMedia(
  ctx: AppContext,
  request: FastifyRequest,
  key: string,
  query: MediaQuery,
): Promise<MediaObjectRow> {
  if (!isValidKey(key)) throw notFound();
  let signed = false;
  const urlPath = () => request.url.split('?')[0] ?? '';
  if (query.post !== undefined) {
    const valid = verifyPostMediaSignature(ctx.config, urlPath(), query.post, query.sig ?? '');
    if (valid && (await isLivePost(ctx, query.post))) signed = true;
    else if (!request.auth) {
      if (valid) throw notFound();
      throw new AppError(403, 'link_invalid', MESSAGES.media.linkInvalid);
    }
  } else if (query.sig !== undefined || query.expires !== undefined) {
    const check = verifyMediaSignature(ctx.config, urlPath(), query.expires ?? '', query.sig ?? '', ctx.clock.now());
    if (check === 'valid') signed = true;
    else if (!request.auth) {
      throw new AppError(
        403,
        check === 'expired' ? 'link_expired' : 'link_invalid',
        check === 'expired' ? MESSAGES.media.linkExpired : MESSAGES.media.linkInvalid,
      );
    }
  }
  const user = request.auth?.user ?? null;
  const denied = () => (user || signed ? notFound() : unauthorized(MESSAGES.auth.required));
  const row = await new MediaStore(ctx).get(key);
  if (!row) throw denied();
  // Admins read other users' private files only through GET /api/admin/media/{key}, which audits each read
  // (docs/admin.md): here they are like any other user.
  const allowed = row.isPublic || signed || (user !== null && row.userId === user.id);
  if (!allowed) throw denied();
  if (row.expiresAt && row.expiresAt.getTime() < ctx.clock.now().getTime()) throw notFound();
  return row;
}

export type RangeResult =
  | { kind: 'full' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

/**
 * One `bytes=` range (first-last, first-, -suffix). Several ranges or a malformed header are
 * ignored (the whole object is sent, as RFC 9110 allows); a range past the end is unsatisfiable.
 */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return { kind: 'full' };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return { kind: 'full' };
  const [, first, last] = match;
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (start >= size) return { kind: 'unsatisfiable' };
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return { kind: 'full' };
  return { kind: 'partial', start, end };
}

export function cacheControl(row: MediaObjectRow): string {
  const scope = row.isPublic ? 'public' : 'private';
  const temporary = isStorageClass(row.storageClass) && isTemporaryClass(row.storageClass);
  return temporary
    ? `${scope}, max-age=${CACHE_SECONDS.temporary}`
    : `${scope}, max-age=${CACHE_SECONDS.permanent}, immutable`;
}

/** Keys are never rewritten, so key and size identify the bytes. */
export function etagOf(row: MediaObjectRow): string {
  return `"${createHash('sha256').update(`${row.key}:${row.size}`).digest('base64url').slice(0, 27)}"`;
}

/** `attachment` with a name made from the key only (no user-supplied text reaches the header). */
export function attachmentDisposition(key: string): string {
  const name = `genpro-${path.posix.basename(key).replace(/[^A-Za-z0-9._-]/g, '_')}`;
  return `attachment; filename="${name}"`;
}
