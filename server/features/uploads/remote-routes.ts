import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorReplies } from '../../../common/api/envelope.ts';
import { base64ToUrlBody, remoteUploadReply, tempUploadBody } from '../../../common/api/remote-upload.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { uploadRateLimit } from './rate-limit.ts';
import { base64BodyLimit, base64ToUrl, tempUpload } from './remote.ts';

const errors = errorReplies(400, 401, 403, 413, 429, 502);

/** POST /api/upload/base64-to-url and POST /api/temp-upload: files sent as base64, data URLs or public URLs. */
export function remoteUploadRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  // Storing files needs a verified email address (issue 27): 403 `email_not_verified`, nothing stored.
  const verifiedUploader = requireUser({ verifiedEmail: true });
  const bodyLimit = base64BodyLimit(ctx);
  return async (app) => {
    app.post(
      '/api/upload/base64-to-url',
      {
        onRequest: uploadRateLimit(ctx, app),
        preValidation: verifiedUploader,
        bodyLimit,
        schema: {
          tags: ['uploads'],
          summary: 'Store a base64 file (data URI or bare base64); temporary (1 day) when forRunway',
          body: base64ToUrlBody,
          response: { 200: remoteUploadReply, ...errors },
        },
      },
      async (request) => base64ToUrl(ctx, currentUser(request).id, request.body),
    );

    app.post(
      '/api/temp-upload',
      {
        onRequest: uploadRateLimit(ctx, app),
        preValidation: verifiedUploader,
        bodyLimit,
        schema: {
          tags: ['uploads'],
          summary: 'Store media from a data URL or a public http(s) URL as a temporary file (1 day)',
          body: tempUploadBody,
          response: { 200: remoteUploadReply, ...errors },
        },
      },
      async (request) => tempUpload(ctx, currentUser(request).id, request.body),
    );
  };
}
