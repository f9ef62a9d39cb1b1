import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorReply } from '../../../common/api/envelope.ts';
import { uploadParams, uploadReply, uploadStatusReply } from '../../../common/api/uploads.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { badRequest } from '../../platform/errors.ts';
import { getUpload, receiveUpload, storeUpload } from './service.ts';

const errors = { 400: errorReply, 401: errorReply, 403: errorReply, 404: errorReply, 413: errorReply };

/** POST /api/upload (multipart `file` + `type`) and GET /api/upload/{id} for its status and thumbnail. */
export function uploadRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const signedIn = requireUser();
  return async (app) => {
    app.post(
      '/api/upload',
      {
        preHandler: signedIn,
        schema: {
          tags: ['uploads'],
          summary: `Upload an image, video or audio file (multipart: file, type); at most UPLOAD_MAX_MB`,
          consumes: ['multipart/form-data'],
          response: { 200: uploadReply, ...errors },
        },
      },
      async (request) => {
        if (!request.isMultipart()) throw badRequest(MESSAGES.upload.noFile);
        const user = currentUser(request);
        const received = await receiveUpload(ctx, request.parts());
        try {
          return { success: true as const, data: await storeUpload(ctx, user.id, received) };
        } finally {
          await received.cleanup();
        }
      },
    );

    app.get(
      '/api/upload/:id',
      {
        preHandler: signedIn,
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
  };
}
