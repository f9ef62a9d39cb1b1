// HTTP contract of the admin section (issue 8; accounts spec 2.1 adminCreators/adminBrands, 4, 5, 7, 8, 9).
// Every route is for the admin role only (401 without a session, 403 for other roles).
import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import {
  ADMIN_CREATOR_SORTS,
  ADMIN_STATUS_FILTERS,
  ADMIN_VERIFICATION_FILTERS,
  BRAND_SORTS,
  isCreatorType,
} from '../rules/directory.ts';
import { brandCard, creatorCard, pageParams, pagination, searchParam } from './directory.ts';

const m = MESSAGES.admin;

// ---- GET /api/admin/creators: every creator (pending ones too); search also covers the email ----

export const adminCreatorsQuery = z.object({
  search: searchParam,
  sort: z.enum(ADMIN_CREATOR_SORTS).default('newest'),
  status: z.enum(ADMIN_STATUS_FILTERS).default('all'),
  ...pageParams,
});
export type AdminCreatorsQuery = z.input<typeof adminCreatorsQuery>;

export const adminCreatorsReply = z.object({
  success: z.literal(true),
  /** Cards carry email and credits. */
  data: z.array(creatorCard),
  pagination,
  /** Creators per user_status over the whole table (for the filter tabs), ignoring search and filter. */
  counts: z.object({
    all: z.number().int(),
    pending: z.number().int(),
    approved_creator: z.number().int(),
    regular_user: z.number().int(),
  }),
});
export type AdminCreatorsReply = z.infer<typeof adminCreatorsReply>;

// ---- GET /api/admin/brands: every brand with its verification status ----

export const adminBrandsQuery = z.object({
  search: searchParam,
  sort: z.enum(BRAND_SORTS).default('newest'),
  status: z.enum(ADMIN_VERIFICATION_FILTERS).default('all'),
  ...pageParams,
});
export type AdminBrandsQuery = z.input<typeof adminBrandsQuery>;

export const adminBrandsReply = z.object({
  success: z.literal(true),
  data: z.array(brandCard),
  pagination,
  counts: z.object({
    all: z.number().int(),
    pending: z.number().int(),
    verified: z.number().int(),
    rejected: z.number().int(),
  }),
});
export type AdminBrandsReply = z.infer<typeof adminBrandsReply>;

// ---- POST /api/admin/users/approve {userId, action, creatorType} ----

/**
 * approve needs one of CREATOR_TYPES ('Please select a creator type before approving'); reject ignores
 * creatorType. Only a pending creator can be decided (409 otherwise).
 */
export const approveUserBody = z
  .object({
    userId: z.string().uuid(),
    action: z.enum(['approve', 'reject']),
    creatorType: z.string().trim().nullable().optional(),
  })
  .superRefine((body, issue) => {
    if (body.action !== 'approve') return;
    if (!body.creatorType) {
      issue.addIssue({ code: 'custom', path: ['creatorType'], message: m.creatorTypeRequired });
    } else if (!isCreatorType(body.creatorType)) {
      issue.addIssue({ code: 'custom', path: ['creatorType'], message: m.creatorTypeUnknown });
    }
  });
export type ApproveUserBody = z.input<typeof approveUserBody>;

export const approveUserReply = z.object({ success: z.literal(true), message: z.string(), data: creatorCard });
export type ApproveUserReply = z.infer<typeof approveUserReply>;

// ---- POST /api/admin/brands/approve {brandId, action}: pending → verified | rejected ----

export const approveBrandBody = z.object({
  /** The brand's user id (brand card id / brand_id). */
  brandId: z.string().uuid(),
  action: z.enum(['approve', 'reject']),
});
export type ApproveBrandBody = z.input<typeof approveBrandBody>;

export const approveBrandReply = z.object({ success: z.literal(true), message: z.string(), data: brandCard });
export type ApproveBrandReply = z.infer<typeof approveBrandReply>;

// ---- DELETE /api/admin/users/delete {userId}: permanent (rows and stored files) ----

export const deleteUserBody = z.object({ userId: z.string().uuid() });
export type DeleteUserBody = z.input<typeof deleteUserBody>;

export const deleteUserReply = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ userId: z.string(), filesDeleted: z.number().int() }),
});
export type DeleteUserReply = z.infer<typeof deleteUserReply>;

// ---- GET /api/admin/audit-log (newest first) ----

export const auditLogQuery = z.object({ ...pageParams });
export type AuditLogQuery = z.input<typeof auditLogQuery>;

/** Actions written to the log. */
const ADMIN_ACTIONS = [
  'creator.approve',
  'creator.reject',
  'brand.verify',
  'brand.reject',
  'user.delete',
  'payout.mark_paid',
  'payout.mark_failed',
  'payout.retry_transfer',
  'payout.stripe_account',
  'media.read',
] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

const auditEntry = z.object({
  id: z.string(),
  /** Null once that admin account has been deleted; admin_email keeps who it was. */
  admin_user_id: z.string().nullable(),
  admin_email: z.string(),
  action: z.string(),
  /** 'user', 'brand', 'payout' or 'media' (a stored file's key). */
  target_type: z.string(),
  target_id: z.string(),
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditLogReply = z.object({ success: z.literal(true), data: z.array(auditEntry), pagination });
export type AuditLogReply = z.infer<typeof auditLogReply>;

// ---- GET /api/admin/media/{key}: an admin reads any stored file, each read audited (docs/admin.md) ----

export const adminMediaParams = z.object({ '*': z.string().max(600) });
export const adminMediaQuery = z.object({
  download: z.enum(['1', 'true', '0', 'false']).optional(),
  /** Why the admin opens the file (a support ticket, a report); kept in the audit row. */
  reason: z.string().trim().max(500).optional(),
});

// ---- GET /api/admin/storage (issue 27) ----

export const ADMIN_STORAGE_TOP_USERS = 10;

const storageTopUser = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.string(),
  isVerified: z.boolean(),
  usedBytes: z.number().int().nonnegative(),
  objects: z.number().int().nonnegative(),
});
export type StorageTopUser = z.infer<typeof storageTopUser>;

export const adminStorageReply = z.object({
  success: z.literal(true),
  data: z.object({
    /** Bytes of every stored object that has not expired (uploads, avatars, generated media, thumbnails). */
    usedBytes: z.number().int().nonnegative(),
    objects: z.number().int().nonnegative(),
    /** STORAGE_BUDGET_GB in bytes; null when no overall budget is set. */
    budgetBytes: z.number().int().positive().nullable(),
    /** Each user's quota (STORAGE_QUOTA_MB) in bytes. */
    userQuotaBytes: z.number().int().positive(),
    /** The disk local storage writes to; null with S3 storage. */
    disk: z
      .object({
        freeBytes: z.number().int().nonnegative(),
        totalBytes: z.number().int().nonnegative(),
        /** STORAGE_DISK_RESERVE_MB in bytes: writes are refused when less is free. */
        reserveBytes: z.number().int().nonnegative(),
      })
      .nullable(),
    /** Whether new writes are refused now (budget or disk reserve reached). */
    full: z.boolean(),
    topUsers: z.array(storageTopUser).max(ADMIN_STORAGE_TOP_USERS),
  }),
});
export type AdminStorageReply = z.infer<typeof adminStorageReply>;
export type AdminStorage = AdminStorageReply['data'];
