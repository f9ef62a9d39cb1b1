// Admin section (issue 8; accounts spec 4 Creator approval, 5 Admin, 6, 7): creator and brand lists,
// approval decisions, permanent user deletion and the audit log. Every action writes its audit row
// in the same transaction as its effect.
import { and, asc, count, desc, eq, or } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  AdminAction,
  AdminBrandsReply,
  AdminCreatorsReply,
  AuditEntry,
  adminBrandsQuery,
  adminCreatorsQuery,
  approveBrandBody,
  approveUserBody,
  auditLogQuery,
} from '../../../common/api/admin.ts';
import type { BrandCard, CreatorCard } from '../../../common/api/directory.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { adminAuditLog, brandProfiles, users } from '../../db/schema/index.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { type MediaObjectRow, MediaStore } from '../../platform/media/store.ts';
import { isValidKey } from '../../platform/storage/keys.ts';
import { purgeUser } from '../account/delete-account.ts';
import {
  brandOrder,
  brandSearch,
  countBrands,
  countCreators,
  creatorOrder,
  creatorSearch,
  page,
  selectBrands,
  selectCreators,
  toBrandCard,
  toCreatorCard,
  verificationStatus,
} from '../directory/cards.ts';
import { deliverNotifications, recordNotification } from '../notifications/service.ts';
import { brandDecisionNotice, creatorDecisionNotice } from './mail.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'log'>;
const m = MESSAGES.admin;

/** Writes one audit row; call it inside the transaction of the action it records. */
export async function audit(
  tx: Tx,
  admin: UserRow,
  entry: {
    action: AdminAction;
    targetType: 'user' | 'brand' | 'payout' | 'media';
    targetId: string;
    details: Record<string, unknown>;
  },
  now: Date,
): Promise<void> {
  await tx.insert(adminAuditLog).values({
    adminUserId: admin.id,
    adminEmail: admin.email,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    details: entry.details,
    createdAt: now,
  });
}

/** GET /api/admin/creators: every creator, pending ones too; search includes the email. */
export async function adminListCreators(
  deps: Pick<AppContext, 'db'>,
  query: z.output<typeof adminCreatorsQuery>,
): Promise<Omit<AdminCreatorsReply, 'success'>> {
  const where = and(
    query.status === 'all' ? undefined : eq(users.userStatus, query.status),
    query.search ? creatorSearch(query.search, true) : undefined,
  );
  const [rows, total, byStatus] = await Promise.all([
    selectCreators(deps.db, where)
      .orderBy(...creatorOrder(query.sort))
      .limit(query.limit)
      .offset(query.offset),
    countCreators(deps.db, where),
    deps.db
      .select({ status: users.userStatus, n: count() })
      .from(users)
      .where(eq(users.role, 'creator'))
      .groupBy(users.userStatus),
  ]);
  const counts = { all: 0, pending: 0, approved_creator: 0, regular_user: 0 };
  for (const { status, n } of byStatus) {
    counts.all += Number(n);
    if (status) counts[status] += Number(n);
  }
  return {
    data: rows.map((row) => toCreatorCard(row, true)),
    pagination: page(total, query.offset, query.limit),
    counts,
  };
}

/** GET /api/admin/brands: every brand with its verification status. */
export async function adminListBrands(
  deps: Pick<AppContext, 'db'>,
  query: z.output<typeof adminBrandsQuery>,
): Promise<Omit<AdminBrandsReply, 'success'>> {
  const where = and(
    query.status === 'all' ? undefined : eq(verificationStatus, query.status),
    query.search ? brandSearch(query.search, true) : undefined,
  );
  const [rows, total, byStatus] = await Promise.all([
    selectBrands(deps.db, where)
      .orderBy(...brandOrder(query.sort))
      .limit(query.limit)
      .offset(query.offset),
    countBrands(deps.db, where),
    deps.db
      .select({ status: verificationStatus, n: count() })
      .from(users)
      .leftJoin(brandProfiles, eq(brandProfiles.userId, users.id))
      .where(eq(users.role, 'brand'))
      .groupBy(verificationStatus),
  ]);
  const counts = { all: 0, pending: 0, verified: 0, rejected: 0 };
  for (const { status, n } of byStatus) {
    counts.all += Number(n);
    counts[status] += Number(n);
  }
  return {
    data: rows.map((row) => toBrandCard(row, true)),
    pagination: page(total, query.offset, query.limit),
    counts,
  };
}

async function creatorCardOf(db: DbOrTx, id: string): Promise<CreatorCard> {
  const [row] = await selectCreators(db, eq(users.id, id)).limit(1);
  if (!row) throw notFound(m.creatorNotFound);
  return toCreatorCard(row, true);
}

async function brandCardOf(db: DbOrTx, id: string): Promise<BrandCard> {
  const [row] = await selectBrands(db, eq(users.id, id)).limit(1);
  if (!row) throw notFound(m.brandNotFound);
  return toBrandCard(row, true);
}

/**
 * POST /api/admin/users/approve. Spec 4: pending → approved_creator (with the creator type) or
 * regular_user. Only a pending creator can be decided; anything else is 409.
 */
export async function decideCreator(
  deps: Deps & Pick<AppContext, 'mail' | 'config'>,
  admin: UserRow,
  body: z.output<typeof approveUserBody>,
): Promise<{ message: string; card: CreatorCard }> {
  const now = deps.clock.now();
  const approve = body.action === 'approve';
  const creatorType = approve ? (body.creatorType ?? null) : null;
  const target = await deps.db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, body.userId)).for('update').limit(1);
    if (user?.role !== 'creator') throw notFound(m.creatorNotFound);
    if (user.userStatus !== 'pending') throw conflict(m.notPending);
    const status = approve ? 'approved_creator' : 'regular_user';
    await tx.update(users).set({ userStatus: status, creatorType, updatedAt: now }).where(eq(users.id, user.id));
    await audit(
      tx,
      admin,
      {
        action: approve ? 'creator.approve' : 'creator.reject',
        targetType: 'user',
        targetId: user.id,
        details: { email: user.email, from: 'pending', to: status, creatorType },
      },
      now,
    );
    await recordNotification(tx, now, creatorDecisionNotice(user.id, body.action, creatorType));
    return user;
  });
  await deliverNotifications(deps, target.id);
  return { message: approve ? m.creatorApproved : m.creatorRejected, card: await creatorCardOf(deps.db, target.id) };
}

/** POST /api/admin/brands/approve: verification_status pending → verified | rejected (409 otherwise). */
export async function decideBrand(
  deps: Deps & Pick<AppContext, 'mail' | 'config'>,
  admin: UserRow,
  body: z.output<typeof approveBrandBody>,
): Promise<{ message: string; card: BrandCard }> {
  const now = deps.clock.now();
  const approve = body.action === 'approve';
  const status = approve ? 'verified' : 'rejected';
  const target = await deps.db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, body.brandId)).for('update').limit(1);
    if (user?.role !== 'brand') throw notFound(m.brandNotFound);
    // A brand that never saved its profile still gets a decision: its profile row starts here.
    await tx.insert(brandProfiles).values({ userId: user.id, createdAt: now, updatedAt: now }).onConflictDoNothing();
    const [profile] = await tx
      .select({ status: brandProfiles.verificationStatus, companyName: brandProfiles.companyName })
      .from(brandProfiles)
      .where(eq(brandProfiles.userId, user.id))
      .for('update');
    if (profile.status !== 'pending') throw conflict(m.brandNotPending);
    await tx
      .update(brandProfiles)
      .set({ verificationStatus: status, updatedAt: now })
      .where(eq(brandProfiles.userId, user.id));
    await audit(
      tx,
      admin,
      {
        action: approve ? 'brand.verify' : 'brand.reject',
        targetType: 'brand',
        targetId: user.id,
        details: { email: user.email, companyName: profile.companyName, from: 'pending', to: status },
      },
      now,
    );
    await recordNotification(tx, now, brandDecisionNotice(user.id, body.action));
    return { user, name: profile.companyName ?? user.firstName };
  });
  await deliverNotifications(deps, target.user.id);
  return { message: approve ? m.brandVerified : m.brandRejected, card: await brandCardOf(deps.db, target.user.id) };
}

/**
 * DELETE /api/admin/users/delete: the user's rows and stored files, through the account deletion
 * service. An admin cannot delete itself here (the Security tab does that, with its password) nor
 * the last admin; the admin rows are locked so two admins deleting each other cannot both succeed.
 */
export async function deleteUser(
  deps: Deps & Pick<AppContext, 'storage'>,
  admin: UserRow,
  userId: string,
): Promise<{ filesDeleted: number }> {
  if (userId === admin.id) throw badRequest(m.cannotDeleteSelf);
  const [exists] = await deps.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  if (!exists) throw notFound(m.userNotFound);
  const { files } = await purgeUser(deps, userId, async (tx, fileCount) => {
    // The target and every admin, locked in id order (one order for every deletion: no deadlock).
    const locked = await tx
      .select()
      .from(users)
      .where(or(eq(users.id, userId), eq(users.role, 'admin')))
      .orderBy(asc(users.id))
      .for('update');
    const target = locked.find((row) => row.id === userId);
    if (!target) throw notFound(m.userNotFound);
    if (target.role === 'admin' && locked.filter((row) => row.role === 'admin').length <= 1) {
      throw conflict(m.lastAdmin);
    }
    await audit(
      tx,
      admin,
      {
        action: 'user.delete',
        targetType: 'user',
        targetId: target.id,
        details: {
          email: target.email,
          name: `${target.firstName} ${target.lastName}`.trim(),
          role: target.role,
          userStatus: target.userStatus,
          files: fileCount,
        },
      },
      deps.clock.now(),
    );
  });
  return { filesDeleted: files };
}

/** GET /api/admin/audit-log, newest first. */
export async function listAuditLog(
  deps: Pick<AppContext, 'db'>,
  query: z.output<typeof auditLogQuery>,
): Promise<{ data: AuditEntry[]; pagination: ReturnType<typeof page> }> {
  const [rows, [total]] = await Promise.all([
    deps.db
      .select()
      .from(adminAuditLog)
      .orderBy(desc(adminAuditLog.createdAt), desc(adminAuditLog.id))
      .limit(query.limit)
      .offset(query.offset),
    deps.db.select({ n: count() }).from(adminAuditLog),
  ]);
  return {
    data: rows.map((row) => ({
      id: row.id,
      admin_user_id: row.adminUserId,
      admin_email: row.adminEmail,
      action: row.action,
      target_type: row.targetType,
      target_id: row.targetId,
      details: row.details,
      created_at: row.createdAt.toISOString(),
    })),
    pagination: page(Number(total?.n ?? 0), query.offset, query.limit),
  };
}

/**
 * GET /api/admin/media/{key}: the stored object behind any key, for an admin, after writing the audit row
 * (`media.read`, target the key, details: owner, type, size, reason). Admins get 404 on other users' private
 * files everywhere else (the media URLs, assets, editor sessions), so every such read leaves a trace.
 * Unknown or expired keys answer 404 and audit nothing.
 */
export async function adminReadMedia(
  deps: Pick<AppContext, 'db' | 'clock' | 'storage'>,
  admin: UserRow,
  key: string,
  reason: string | undefined,
): Promise<MediaObjectRow> {
  if (!isValidKey(key)) throw notFound();
  const row = await new MediaStore(deps).get(key);
  const now = deps.clock.now();
  if (!row || (row.expiresAt && row.expiresAt.getTime() < now.getTime())) throw notFound();
  await deps.db.transaction((tx) =>
    audit(
      tx,
      admin,
      {
        action: 'media.read',
        targetType: 'media',
        targetId: key,
        details: {
          ownerUserId: row.userId,
          contentType: row.contentType,
          size: row.size,
          public: row.isPublic,
          ...(reason ? { reason } : {}),
        },
      },
      now,
    ),
  );
  return row;
}
