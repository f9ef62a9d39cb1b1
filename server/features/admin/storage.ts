import { count, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { ADMIN_STORAGE_TOP_USERS, type AdminStorage } from '../../../common/api/admin.ts';
import type { AppContext } from '../../context.ts';
import { mediaObjects, users } from '../../db/schema/index.ts';
import { diskReserveBytes, localDiskSpace, storageBudgetBytes, storageLimitBytes } from '../../platform/media/quota.ts';

// GET /api/admin/storage (issue 27): what the studio stores, against its budget and the free disk, and who
// stores the most — the same figures the upload and generation checks (assertStudioStorageRoom) read.

/** The studio's storage use: totals, budget, disk, and the users storing the most bytes. */
export async function adminStorage(ctx: AppContext): Promise<AdminStorage> {
  const live = or(isNull(mediaObjects.expiresAt), gt(mediaObjects.expiresAt, ctx.clock.now()));
  const used = sql<string>`coalesce(sum(${mediaObjects.size}), 0)`;
  const [[totals], top, disk] = await Promise.all([
    ctx.db.select({ used, objects: count() }).from(mediaObjects).where(live),
    ctx.db
      .select({
        userId: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        role: users.role,
        isVerified: users.isVerified,
        used,
        objects: count(),
      })
      .from(mediaObjects)
      .innerJoin(users, eq(users.id, mediaObjects.userId))
      .where(live)
      .groupBy(users.id)
      .orderBy(desc(used), users.id)
      .limit(ADMIN_STORAGE_TOP_USERS),
    localDiskSpace(ctx.storage),
  ]);
  const usedBytes = Number(totals?.used ?? 0);
  const budgetBytes = storageBudgetBytes(ctx.config);
  const reserveBytes = diskReserveBytes(ctx.config);
  const budgetReached = budgetBytes !== null && usedBytes >= budgetBytes;
  const diskReached = disk !== null && reserveBytes > 0 && disk.freeBytes <= reserveBytes;
  return {
    usedBytes,
    objects: totals?.objects ?? 0,
    budgetBytes,
    userQuotaBytes: storageLimitBytes(ctx.config),
    disk: disk && { freeBytes: disk.freeBytes, totalBytes: disk.totalBytes, reserveBytes },
    full: budgetReached || diskReached,
    topUsers: top.map((row) => ({
      userId: row.userId,
      name: `${row.firstName} ${row.lastName}`.trim(),
      email: row.email,
      role: row.role,
      isVerified: row.isVerified,
      usedBytes: Number(row.used),
      objects: row.objects,
    })),
  };
}
