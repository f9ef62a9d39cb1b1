import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { storageFullMessage } from '../../../common/rules/storage.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { mediaObjects } from '../../db/schema/index.ts';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';

// The per-user storage quota (issue 17): STORAGE_QUOTA_MB over every object the user owns in
// media_objects — uploads, avatars, generated media, thumbnails, and temporary copies until they expire.

interface QuotaDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'STORAGE_QUOTA_MB'>;
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
}
