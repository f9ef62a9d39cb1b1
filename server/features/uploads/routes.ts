import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorReply } from '../../../common/api/envelope.ts';
import { UPLOAD } from '../../../common/api/media.constants.ts';
import { anyUploadReply, storageUsageReply, uploadParams, uploadStatusReply } from '../../../common/api/uploads.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { badRequest } from '../../platform/errors.ts';
import { storageUsage } from '../../platform/media/quota.ts';
import { uploadRateLimit } from './rate-limit.ts';
import { getUpload, multipartLimits, receiveUploads, storeUploads } from './service.ts';

const errors = {
  400: errorReply,
  401: errorReply,
  403: errorReply,
  404: errorReply,
  413: errorReply,
  429: errorReply,
};

/**
 * POST /api/upload (multipart `file`, up to 10, + `type`), GET /api/upload/{id} for its status and
 * thumbnail, and GET /api/account/storage for the user's storage use against the quota.
 */
export function uploadRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const signedIn = requireUser();
  // Storing files needs a verified email address (issue 27): 403 `email_not_verified`, nothing stored.
  const verifiedUploader = requireUser({ verifiedEmail: true });
  return async (app) => {
    app.post(
      '/api/upload',
      {
        onRequest: uploadRateLimit(ctx, app),
        preValidation: verifiedUploader,
        schema: {
          tags: ['uploads'],
          summary: `Upload images, videos or audio (multipart: file, repeated for up to ${UPLOAD.maxFiles} files; type)`,
          description:
            'Each file is typed by its bytes (images jpeg/png/gif/webp, videos mp4/mov/avi/webm, audio mp3/wav/m4a/ogg) ' +
            'and limited to UPLOAD_MAX_MB (default 50), never above 75 MB for an image, 750 MB for a video and ' +
            '100 MB otherwise; uploads of the canvas and its tools (`type` canvas, multi-reference, ' +
            'multi-composition, magic-selector, characters or enhancement, sent before the file) take those ' +
            'canvas-spec limits whatever UPLOAD_MAX_MB is. Files are streamed to storage, never held in memory. One file answers `data: {…}`; several answer `data: [{…}, …]` in the order sent. ' +
            'Files that would pass the storage quota (STORAGE_QUOTA_MB) or the studio’s budget (STORAGE_BUDGET_GB, ' +
            'STORAGE_DISK_RESERVE_MB) answer 413; more than RATE_LIMIT_UPLOADS_PER_MINUTE uploads a minute per user, ' +
            'or RATE_LIMIT_UPLOADS_PER_ADDRESS_PER_MINUTE per address, answer 429. Before the email is verified: 403.',
          consumes: ['multipart/form-data'],
          response: { 200: anyUploadReply, ...errors },
        },
      },
      async (request) => {
        if (!request.isMultipart()) throw badRequest(MESSAGES.upload.noFile);
        const user = currentUser(request);
        const received = await receiveUploads(ctx, request.parts({ limits: multipartLimits(ctx) }));
        try {
          const files = await storeUploads(ctx, user.id, received);
          return files.length === 1
            ? { success: true as const, data: files[0] }
            : { success: true as const, data: files };
        } finally {
          await received.cleanup();
        }
      },
    );

    app.get(
      '/api/upload/:id',
      {
        preValidation: signedIn,
        schema: {
          tags: ['uploads'],
          summary: 'An upload with its processing status, thumbnail and metadata',
          params: uploadParams,
          response: { 200: uploadStatusReply, ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        data: await getUpload(ctx, currentUser(request).id, request.params.id),
      }),
    );

    app.get(
      '/api/account/storage',
      {
        preValidation: signedIn,
        schema: {
          tags: ['uploads'],
          summary: 'Bytes the user stores (uploads, avatars, generated media, thumbnails) and the quota',
          response: { 200: storageUsageReply, 401: errorReply, 403: errorReply },
        },
      },
      async (request) => ({ success: true as const, data: await storageUsage(ctx, currentUser(request).id) }),
    );
  };
}
