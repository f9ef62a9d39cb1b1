import type { Readable } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { AVATAR } from '../../../common/api/account.constants.ts';
import type { User } from '../../../common/api/auth.ts';
import { UPLOAD_STORAGE_CEILINGS_MB } from '../../../common/api/generation.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { users } from '../../db/schema/index.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { AppError, badRequest, tooLarge } from '../../platform/errors.ts';
import { storedKeyOf } from '../../platform/media/inputs.ts';
import { assertCleanMedia } from '../../platform/media/integrity.ts';
import { storageLimitBytes } from '../../platform/media/quota.ts';
import { MediaStore } from '../../platform/media/store.ts';
import { loadUserDto } from '../auth/users.ts';
import { MB, sniffBuffer } from '../uploads/sniff.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'storage' | 'config' | 'log'>;
const m = MESSAGES.account;
/** Marks stored avatars (the `Source` tag), so replacing one never deletes an ordinary upload. */
const AVATAR_SOURCE = 'avatar';
const FILE_FIELDS = new Set(['file', 'avatar']);

async function readCapped(stream: Readable, maxBytes: number, message: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > maxBytes) {
      stream.resume();
      throw tooLarge(message);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The one image of a multipart avatar upload (field `file` or `avatar`), read into memory and capped
 * at AVATAR.maxMb: 413 'File size exceeds 5MB limit'. Two files or none answer 400.
 */
export async function receiveAvatar(parts: AsyncIterable<Multipart>): Promise<Buffer> {
  let image: Buffer | null = null;
  try {
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      if (!FILE_FIELDS.has(part.fieldname)) {
        part.file.resume();
        continue;
      }
      if (image) {
        part.file.resume();
        throw badRequest(m.avatarOneFile);
      }
      image = await readCapped(part.file, AVATAR.maxMb * MB, MESSAGES.upload.tooLarge(AVATAR.maxMb));
      if (part.file.truncated) throw tooLarge(MESSAGES.upload.tooLarge(AVATAR.maxMb));
    }
  } catch (error) {
    const code = (error as { code?: string } | null)?.code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(MESSAGES.upload.tooLarge(AVATAR.maxMb));
    if (code === 'FST_FILES_LIMIT') throw badRequest(m.avatarOneFile);
    throw error;
  }
  if (!image || image.length === 0) throw badRequest(MESSAGES.upload.noFile);
  return image;
}

/**
 * The bytes of one of the user's own stored images (JSON {avatarUrl}, or a brand's {logoUrl}): the
 * studio's media URL of an object the user owns. Anything else — another user's file (public or not),
 * an external or metadata address, a data: or javascript: URL — answers 400 'notYourMedia'.
 */
export async function readOwnImage(
  deps: Deps,
  userId: string,
  avatarUrl: string,
  notImage: string = m.avatarNotImage,
): Promise<Buffer> {
  const key = storedKeyOf(deps.config, avatarUrl);
  const store = new MediaStore(deps);
  const object = key ? await store.get(key) : null;
  const expired = object?.expiresAt && object.expiresAt.getTime() < deps.clock.now().getTime();
  if (!object || object.userId !== userId || expired) throw badRequest(MESSAGES.assets.notYourMedia);
  if (!object.contentType.startsWith('image/')) throw badRequest(notImage);
  return readCapped(
    await deps.storage.read(object.key),
    UPLOAD_STORAGE_CEILINGS_MB.image * MB,
    MESSAGES.upload.tooLarge(UPLOAD_STORAGE_CEILINGS_MB.image),
  );
}

/**
 * A WebP of a byte-sniffed image of one of `types`, checked for hidden payloads, turned upright and resized (the
 * avatar and the brand logo). A file that is not such an image answers 400 `notImage`; one that looks like an image
 * by its header but does not decode answers 400 with `failed`.
 */
export async function reencodeAsWebp(
  image: Buffer,
  o: {
    types: readonly string[];
    size: number;
    fit: 'cover' | 'inside';
    quality: number;
    notImage: string;
    failed: { code: string; message: string };
  },
): Promise<Buffer> {
  const sniffed = await sniffBuffer(image);
  if (!sniffed || !o.types.includes(sniffed.ext)) throw badRequest(o.notImage);
  await assertCleanMedia(image, sniffed);
  try {
    return await sharp(image, { animated: false, limitInputPixels: 100_000_000 })
      .rotate()
      .resize(
        o.size,
        o.size,
        o.fit === 'cover' ? { fit: 'cover', position: 'centre' } : { fit: 'inside', withoutEnlargement: true },
      )
      .webp({ quality: o.quality })
      .toBuffer();
  } catch {
    throw new AppError(400, o.failed.code, o.failed.message);
  }
}

/** A square AVATAR.sizePx WebP of the (byte-sniffed) JPEG, PNG, GIF or WebP image. */
const toAvatarWebp = (image: Buffer) =>
  reencodeAsWebp(image, {
    types: AVATAR.types,
    size: AVATAR.sizePx,
    fit: 'cover',
    quality: 85,
    notImage: m.avatarNotImage,
    failed: { code: 'avatar_failed', message: m.avatarFailed },
  });

/**
 * Re-encodes the image, stores it as a public object (avatars appear on cards other users see),
 * points users.avatar_url at it and deletes the previous stored avatar. Unexpected failures answer
 * 500 'Failed to update avatar'.
 */
export async function setAvatar(deps: Deps, user: UserRow, image: Buffer): Promise<User> {
  try {
    const stored = await storePublicImage(deps, user.id, await toAvatarWebp(image), AVATAR_SOURCE);
    const now = deps.clock.now();
    const [before] = await deps.db.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, user.id));
    await deps.db.update(users).set({ avatarUrl: stored.url, updatedAt: now }).where(eq(users.id, user.id));
    await deleteReplacedImage(deps, user.id, before?.avatarUrl ?? null, AVATAR_SOURCE);
    return await loadUserDto(deps.db, user.id, now);
  } catch (error) {
    if (error instanceof AppError) throw error;
    deps.log.error({ err: error, userId: user.id }, 'avatar update failed');
    throw new AppError(500, 'avatar_failed', m.avatarFailed);
  }
}

/**
 * Stores a re-encoded profile picture (avatar, brand logo) as a public WebP object of the user, tagged with its
 * source so that only pictures of that kind are ever deleted when replaced.
 */
export function storePublicImage(deps: Deps, userId: string, webp: Buffer, source: string) {
  return new MediaStore(deps).put({
    body: webp,
    contentType: 'image/webp',
    storageClass: 'upload',
    ext: 'webp',
    userId,
    isPublic: true,
    source,
    quotaBytes: storageLimitBytes(deps.config),
  });
}

/**
 * Deletes the stored picture a new one replaced: only the user's own object stored with that source (a URL
 * typed by hand or another kind of file is left alone). A failed delete is logged, never fatal.
 */
export async function deleteReplacedImage(
  deps: Deps,
  userId: string,
  url: string | null,
  source: string,
): Promise<void> {
  if (!url) return;
  const key = storedKeyOf(deps.config, url);
  if (!key) return;
  const store = new MediaStore(deps);
  const object = await store.get(key);
  if (object?.userId !== userId || object.tags.Source !== source) return;
  try {
    await store.delete(key);
  } catch (error) {
    deps.log.warn({ err: error, userId, key, source }, 'replaced picture could not be deleted');
  }
}
