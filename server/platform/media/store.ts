import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { and, eq, inArray, isNotNull, lt } from 'drizzle-orm';
import { MEDIA_URL_PREFIX, type StorageClass } from '../../../common/api/media.constants.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { mediaObjects } from '../../db/schema/index.ts';
import type { Clock } from '../clock.ts';
import { expiryFor, isValidKey, makeKey } from '../storage/keys.ts';
import type { ObjectInfo, ObjectStorage, StorageTags } from '../storage/types.ts';
import { type MediaFacts, parseMediaFacts, probeMedia } from './probe.ts';
import { assertStudioStorageRoom, storageFull, storageUsedBytes } from './quota.ts';
import { makeWorkDir } from './work-dir.ts';

export type MediaObjectRow = typeof mediaObjects.$inferSelect;

export interface StoreMediaInput {
  body: Buffer | Readable;
  contentType: string;
  storageClass: StorageClass;
  /** File extension of the key, without the dot (`png`, `mp4`, `webp`). */
  ext: string;
  /** The owner; null only for objects that belong to nobody (e.g. shared demo media). */
  userId: string | null;
  personaId?: string | null;
  /** Byte length of a stream body, when known (S3 streams it instead of buffering). */
  contentLength?: number;
  isPublic?: boolean;
  /** The `Source` tag: 'upload', 'generation', 'enhancement', 'thumbnail', … */
  source?: string;
  /** Further tags (GenerationId, OriginalAssetId, …). Classification, UserId, PersonaId, UploadDate, ExpiresAt, AssetType and IsPersonaAsset are filled in. */
  tags?: StorageTags;
  /**
   * What ffprobe says about the bytes when the caller knows (or is finding out: a promise is awaited beside
   * the write); otherwise a video buffer is probed here.
   */
  probe?: MediaFacts | null | Promise<MediaFacts | null>;
  /**
   * The owner's storage quota in bytes (uploads pass it): the put is refused with 413 'Storage full: …'
   * when it would pass it — checked before writing, and again once recorded, so that uploads racing
   * each other cannot all land.
   */
  quotaBytes?: number;
}

export interface StoredMedia {
  key: string;
  /** The media route that serves it, e.g. `/api/images/<key>`. */
  url: string;
  size: number;
  contentType: string;
  storageClass: StorageClass;
  expiresAt: Date | null;
  tags: StorageTags;
  /** The recorded probe (videos), null when there is none. */
  probe: MediaFacts | null;
}

type MediaKind = 'image' | 'video' | 'audio' | 'other';

function mediaKindOf(contentType: string): MediaKind {
  if (contentType.startsWith('image/')) return 'image';
  if (contentType.startsWith('video/')) return 'video';
  if (contentType.startsWith('audio/')) return 'audio';
  return 'other';
}

/**
 * The route that serves a key: persona media under /api/personas/image|video, other images under
 * /api/images, video under /api/videos, audio under /api/audio. Every prefix serves every key (the
 * prefix only names the kind); authorisation is per object.
 */
export function mediaUrl(key: string, contentType: string, storageClass?: string): string {
  const kind = mediaKindOf(contentType);
  if (storageClass === 'persona') {
    return `${kind === 'video' ? MEDIA_URL_PREFIX.personaVideo : MEDIA_URL_PREFIX.personaImage}${key}`;
  }
  if (kind === 'video') return `${MEDIA_URL_PREFIX.video}${key}`;
  if (kind === 'audio') return `${MEDIA_URL_PREFIX.audio}${key}`;
  return `${MEDIA_URL_PREFIX.image}${key}`;
}

export interface MediaStoreDeps {
  db: Db;
  storage: ObjectStorage;
  clock: Clock;
  /**
   * ffprobe location (without it videos are stored unprobed: their facts are then read at first use), and
   * the studio's overall storage limits (STORAGE_BUDGET_GB, STORAGE_DISK_RESERVE_MB) every put keeps.
   */
  config?: Pick<Config, 'FFMPEG_PATH' | 'FFPROBE_PATH'> &
    Partial<Pick<Config, 'STORAGE_BUDGET_GB' | 'STORAGE_DISK_RESERVE_MB'>>;
}

/**
 * Puts bytes into storage and records their `media_objects` row (owner, persona, class, tags,
 * expiry) in one call, so no feature can store a file the media routes do not know about.
 * Build it from the context: `new MediaStore(ctx)`.
 */
export class MediaStore {
  constructor(private readonly deps: MediaStoreDeps) {}

  /** The facts to record with a stored object: the caller's, or one ffprobe run over a video buffer. */
  private async probeBody(input: StoreMediaInput): Promise<MediaFacts | null> {
    if (input.probe !== undefined) return await input.probe;
    const config = this.deps.config;
    if (!config || mediaKindOf(input.contentType) !== 'video' || !Buffer.isBuffer(input.body)) return null;
    const dir = await makeWorkDir('store-probe');
    try {
      const file = path.join(dir, `media.${input.ext}`);
      await writeFile(file, input.body);
      return await probeMedia(config, file);
    } catch {
      return null;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async put(input: StoreMediaInput): Promise<StoredMedia> {
    const quota =
      input.userId && input.quotaBytes !== undefined ? { userId: input.userId, limitBytes: input.quotaBytes } : null;
    const incoming = Buffer.isBuffer(input.body) ? input.body.length : (input.contentLength ?? 0);
    if (quota) {
      const usedBytes = await storageUsedBytes(this.deps, quota.userId);
      if (usedBytes + incoming > quota.limitBytes) throw storageFull({ usedBytes, limitBytes: quota.limitBytes });
    }
    // Every write, uploads and generated media alike, keeps the studio's overall budget and free-disk reserve.
    await assertStudioStorageRoom(this.deps, incoming);
    const now = this.deps.clock.now();
    const key = makeKey(input.storageClass, input.ext, now, input.personaId);
    const expiresAt = expiryFor(input.storageClass, now);
    const kind = mediaKindOf(input.contentType);
    const tags: StorageTags = {
      AssetType: kind,
      Classification: input.storageClass,
      UploadDate: now.toISOString(),
      ...(input.userId ? { UserId: input.userId } : {}),
      ...(input.personaId ? { PersonaId: input.personaId, IsPersonaAsset: 'true' } : { IsPersonaAsset: 'false' }),
      ...(input.source ? { Source: input.source } : {}),
      ...(expiresAt ? { ExpiresAt: expiresAt.toISOString() } : {}),
      ...input.tags,
    };
    const probing = this.probeBody(input).catch(() => null);
    let info: ObjectInfo;
    try {
      info = await this.deps.storage.put(key, input.body, {
        contentType: input.contentType,
        storageClass: input.storageClass,
        tags,
        contentLength: input.contentLength,
      });
    } catch (error) {
      // A failed write may still have landed (S3 stored it but its answer was lost): the key is known
      // only here, so remove it now or it stays an object no row points to.
      await this.deps.storage.delete(key).catch(() => undefined);
      await probing;
      throw error;
    }
    const probe = await probing;
    try {
      await this.deps.db.insert(mediaObjects).values({
        key,
        userId: input.userId,
        personaId: input.personaId ?? null,
        contentType: input.contentType,
        size: info.size,
        storageClass: input.storageClass,
        tags,
        probe,
        isPublic: input.isPublic ?? false,
        expiresAt,
        createdAt: now,
      });
    } catch (error) {
      await this.deps.storage.delete(key).catch(() => undefined);
      throw error;
    }
    if (quota) {
      const usedBytes = await storageUsedBytes(this.deps, quota.userId);
      if (usedBytes > quota.limitBytes) {
        await this.delete(key).catch(() => undefined);
        throw storageFull({ usedBytes: usedBytes - info.size, limitBytes: quota.limitBytes });
      }
    }
    return {
      key,
      url: mediaUrl(key, input.contentType, input.storageClass),
      size: info.size,
      contentType: input.contentType,
      storageClass: input.storageClass,
      expiresAt,
      tags,
      probe,
    };
  }

  /** The recorded facts of stored objects, by key (keys without usable facts are left out). */
  async factsOf(keys: readonly string[]): Promise<Map<string, MediaFacts>> {
    const found = new Map<string, MediaFacts>();
    const valid = keys.filter(isValidKey);
    if (valid.length === 0) return found;
    const rows = await this.deps.db
      .select({ key: mediaObjects.key, probe: mediaObjects.probe })
      .from(mediaObjects)
      .where(inArray(mediaObjects.key, valid));
    for (const row of rows) {
      const facts = parseMediaFacts(row.probe);
      if (facts) found.set(row.key, facts);
    }
    return found;
  }

  /** Records facts learned later (a first probe, keyframes) on an object; its bytes never change. */
  async saveFacts(key: string, facts: MediaFacts): Promise<void> {
    await this.deps.db.update(mediaObjects).set({ probe: facts }).where(eq(mediaObjects.key, key));
  }

  async get(key: string): Promise<MediaObjectRow | null> {
    if (!isValidKey(key)) return null;
    const [row] = await this.deps.db.select().from(mediaObjects).where(eq(mediaObjects.key, key)).limit(1);
    return row ?? null;
  }

  /** Removes the bytes and the row. Returns false when the key was unknown. */
  async delete(key: string): Promise<boolean> {
    const row = await this.get(key);
    if (!row) return false;
    await this.deps.storage.delete(key);
    await this.deps.db.delete(mediaObjects).where(eq(mediaObjects.key, key));
    return true;
  }

  /** Deletes temporary objects whose expiry has passed (bytes first, then the row). Returns how many. */
  async deleteExpired(batchSize = 200): Promise<number> {
    const now = this.deps.clock.now();
    let deleted = 0;
    for (;;) {
      const expired = await this.deps.db
        .select({ key: mediaObjects.key })
        .from(mediaObjects)
        .where(and(isNotNull(mediaObjects.expiresAt), lt(mediaObjects.expiresAt, now)))
        .limit(batchSize);
      for (const { key } of expired) {
        await this.deps.storage.delete(key);
        await this.deps.db.delete(mediaObjects).where(eq(mediaObjects.key, key));
        deleted++;
      }
      if (expired.length < batchSize) return deleted;
    }
  }
}
