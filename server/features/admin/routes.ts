import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminBrandsQuery,
  adminBrandsReply,
  adminCreatorsQuery,
  adminCreatorsReply,
  adminMediaParams,
  adminMediaQuery,
  adminStorageReply,
  approveBrandBody,
  approveBrandReply,
  approveUserBody,
  approveUserReply,
  auditLogQuery,
  auditLogReply,
  deleteUserBody,
  deleteUserReply,
} from '../../../common/api/admin.ts';
import { errorReplies } from '../../../common/api/envelope.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { sendMedia } from '../media/routes.ts';
import {
  adminListBrands,
  adminListCreators,
  adminReadMedia,
  decideBrand,
  decideCreator,
  deleteUser,
  listAuditLog,
} from './service.ts';
import { adminStorage } from './storage.ts';

const errors = errorReplies(400, 401, 403, 404, 409);
const bearer = [{ bearer: [] }];

/** The admin section (spec 7 Marketplace): admin role only; 401 without a session, 403 for others. */
export function adminRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const adminOnly = requireUser({ roles: ['admin'] });
  return async (app) => {
    app.get(
      '/api/admin/creators',
      {
        preValidation: adminOnly,
        schema: {
          tags: ['admin'],
          summary: 'Every creator (pending too), with email and credits',
          security: bearer,
          querystring: adminCreatorsQuery,
          response: { 200: adminCreatorsReply, ...errors },
        },
      },
      async (request) => ({ success: true as const, ...(await adminListCreators(ctx, request.query)) }),
    );
    app.get(
      '/api/admin/brands',
      {
        preValidation: adminOnly,
        schema: {
          tags: ['admin'],
          summary: 'Every brand with its verification status',
          security: bearer,
          querystring: adminBrandsQuery,
          response: { 200: adminBrandsReply, ...errors },
        },
      },
      async (request) => ({ success: true as const, ...(await adminListBrands(ctx, request.query)) }),
    );
    app.post(
      '/api/admin/users/approve',
      {
        preValidation: adminOnly,
        schema: {
          tags: ['admin'],
          summary: 'Approve (with a creator type) or reject a pending creator',
          security: bearer,
          body: approveUserBody,
          response: { 200: approveUserReply, ...errors },
        },
      },
      async (request) => {
        const { message, card } = await decideCreator(ctx, currentUser(request), request.body);
        return { success: true as const, message, data: card };
      },
    );
    app.post(
      '/api/admin/brands/approve',
      {
        preValidation: adminOnly,
        schema: {
          tags: ['admin'],
          summary: "Verify or reject a pending brand's profile",
          security: bearer,
          body: approveBrandBody,
          response: { 200: approveBrandReply, ...errors },
        },
      },
      async (request) => {
        const { message, card } = await decideBrand(ctx, currentUser(request), request.body);
        return { success: true as const, message, data: card };
      },
    );
    app.delete(
      '/api/admin/users/delete',
      {
        preValidation: adminOnly,
        schema: {
          tags: ['admin'],
          summary: 'Permanently delete a user: rows, AI assets, campaigns, profiles and stored files',
          security: bearer,
          body: deleteUserBody,
          response: { 200: deleteUserReply, ...errors },
        },
      },
      async (request) => {
        const { userId } = request.body;
        const { filesDeleted } = await deleteUser(ctx, currentUser(request), userId);
        return { success: true as const, message: MESSAGES.admin.userDeleted, data: { userId, filesDeleted } };
      },
    );
    app.get(
      '/api/admin/audit-log',
      {
        preValidation: adminOnly,
        schema: {
          tags: ['admin'],
          summary: 'Admin actions, newest first',
          security: bearer,
          querystring: auditLogQuery,
          response: { 200: auditLogReply, ...errors },
        },
      },
      async (request) => ({ success: true as const, ...(await listAuditLog(ctx, request.query)) }),
    );
    app.get(
      '/api/admin/media/*',
      {
        preValidation: adminOnly,
        schema: {
          tags: ['admin'],
          summary: "Any user's stored file (Range, ?download=1, ?reason=…); every read writes a media.read audit row",
          description:
            "The only way an admin reads another user's private file: the media URLs, assets and editor sessions answer 404 to admins as to anyone.",
          security: bearer,
          params: adminMediaParams,
          querystring: adminMediaQuery,
        },
      },
      async (request, reply) => {
        const row = await adminReadMedia(ctx, currentUser(request), request.params['*'], request.query.reason);
        return sendMedia(ctx, request, reply, row);
      },
    );
    app.get(
      '/api/admin/storage',
      {
        preValidation: adminOnly,
        schema: {
          tags: ['admin'],
          summary:
            'Storage use: bytes stored over every user, the overall budget (STORAGE_BUDGET_GB), the free disk with its reserve (STORAGE_DISK_RESERVE_MB), and the users storing the most',
          security: bearer,
          response: { 200: adminStorageReply, ...errors },
        },
      },
      async () => ({ success: true as const, data: await adminStorage(ctx) }),
    );
  };
}
