import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { MESSAGES } from '../../../common/messages.ts';
import { storageFullMessage } from '../../../common/rules/storage.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { mediaObjects } from '../../db/schema/index.ts';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import { LocalStorage } from '../storage/local.ts';
import type { ObjectStorage } from '../storage/types.ts';

// The per-user storage quota (issue 17): STORAGE_QUOTA_MB over every object the user owns in
// media_objects — uploads, avatars, generated media, thumbnails, and temporary copies until they expire.

interface QuotaDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'STORAGE_QUOTA_MB'> & StudioStorageConfig;
  /** The studio's storage, for the free-disk reserve of local storage; without it that check is skipped. */
  storage?: ObjectStorage;
}

/** The overall limits (issue 27); absent fields mean no such limit. */
type StudioStorageConfig = Partial<Pick<Config, 'STORAGE_BUDGET_GB' | 'STORAGE_DISK_RESERVE_MB'>>;

export interface StudioStorageDeps {
  db: Db;
  clock: Clock;
  config?: StudioStorageConfig;
  storage?: ObjectStorage;
}

export interface StorageUsage {
  usedBytes: number;
  limitBytes: number;
}

/** Bytes of the user's stored objects that have not expired. */
export async function storageUsedBytes(deps: Pick<QuotaDeps, 'db' | 'clock'>, userId: string): Promise<number> {
  const [row] = await deps.db
    .select({ used: sql<string>`coalesce(sum(${mediaObjects.size}), 0)` })
    .from(mediaObjects)
    .where(
      and(
        eq(mediaObjects.userId, userId),
        or(isNull(mediaObjects.expiresAt), gt(mediaObjects.expiresAt, deps.clock.now())),
      ),
    );
  return Number(row?.used ?? 0);
}

export function storageLimitBytes(config: Pick<Config, 'STORAGE_QUOTA_MB'>): number {
  return config.STORAGE_QUOTA_MB * 1024 * 1024;
}

export async function storageUsage(deps: QuotaDeps, userId: string): Promise<StorageUsage> {
  return { usedBytes: await storageUsedBytes(deps, userId), limitBytes: storageLimitBytes(deps.config) };
}

export function storageFull(usage: StorageUsage): AppError {
  return new AppError(413, 'storage_full', storageFullMessage(usage.usedBytes, usage.limitBytes), usage);
}

/**
 * Refuses (413 'Storage full: …') storing `incomingBytes` more when that would pass the user's quota;
 * with 0 (a generation whose output size is not known yet), when the user is already at it.
 */
export async function assertStorageRoom(deps: QuotaDeps, userId: string, incomingBytes: number): Promise<void> {
  const usage = await storageUsage(deps, userId);
  if (usage.usedBytes >= usage.limitBytes || usage.usedBytes + incomingBytes > usage.limitBytes) {
    throw storageFull(usage);
  }
  await assertStudioStorageRoom(deps, incomingBytes);
}

// ---- The studio's overall storage (issue 27): STORAGE_BUDGET_GB over everyone, and free local disk ----

const GB = 1024 * 1024 * 1024;
const MB = 1024 * 1024;

/** Bytes of every stored object that has not expired, whoever owns it. */
export async function studioStorageUsedBytes(deps: Pick<StudioStorageDeps, 'db' | 'clock'>): Promise<number> {
  const [row] = await deps.db
    .select({ used: sql<string>`coalesce(sum(${mediaObjects.size}), 0)` })
    .from(mediaObjects)
    .where(or(isNull(mediaObjects.expiresAt), gt(mediaObjects.expiresAt, deps.clock.now())));
  return Number(row?.used ?? 0);
}

/** STORAGE_BUDGET_GB in bytes; null when no overall budget is set. */
export function storageBudgetBytes(config: StudioStorageConfig | undefined): number | null {
  return config?.STORAGE_BUDGET_GB ? Math.floor(config.STORAGE_BUDGET_GB * GB) : null;
}

/** STORAGE_DISK_RESERVE_MB in bytes (0 when unset). */
export function diskReserveBytes(config: StudioStorageConfig | undefined): number {
  return (config?.STORAGE_DISK_RESERVE_MB ?? 0) * MB;
}

export interface DiskSpace {
  freeBytes: number;
  totalBytes: number;
}

/** Free and total space of the disk local storage writes to; null for S3 (no disk of ours to fill). */
export async function localDiskSpace(storage: ObjectStorage | undefined): Promise<DiskSpace | null> {
  if (!(storage instanceof LocalStorage)) return null;
  // The media folder is made at the first write: until then, the nearest folder that exists.
  for (let dir = storage.root; ; dir = path.dirname(dir)) {
    try {
      const stats = await statfs(dir);
      return { freeBytes: stats.bavail * stats.bsize, totalBytes: stats.blocks * stats.bsize };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || path.dirname(dir) === dir) return null;
    }
  }
}

/** 413 `storage_budget_reached`: the studio as a whole has no room; the user's own quota is not the reason. */
function studioStorageFull(reason: 'budget' | 'disk'): AppError {
  return new AppError(413, 'storage_budget_reached', MESSAGES.upload.studioStorageFull, { reason });
}

/**
 * Refuses (413 `storage_budget_reached`, MESSAGES.upload.studioStorageFull) storing `incomingBytes` more
 * when the studio's stored bytes would pass STORAGE_BUDGET_GB, or — on local storage — when the disk would
 * keep less than STORAGE_DISK_RESERVE_MB free. With 0 (a generation whose size is not known yet), when
 * either is already reached.
 */
export async function assertStudioStorageRoom(deps: StudioStorageDeps, incomingBytes: number): Promise<void> {
  const budget = storageBudgetBytes(deps.config);
  if (budget !== null) {
    const used = await studioStorageUsedBytes(deps);
    if (used >= budget || used + incomingBytes > budget) throw studioStorageFull('budget');
  }
  const reserve = diskReserveBytes(deps.config);
  if (reserve > 0) {
    const disk = await localDiskSpace(deps.storage);
    if (disk && (disk.freeBytes <= reserve || disk.freeBytes - incomingBytes < reserve))
      throw studioStorageFull('disk');
  }
}
