import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorReplies } from '../../../common/api/envelope.ts';
import { multiReferenceBody, multiReferenceReply } from '../../../common/api/multi-reference.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { BODY_LIMITS } from '../../platform/http/body-limits.ts';
import { generateMultiReference } from './service.ts';

const errors = errorReplies(400, 401, 402, 403, 404, 413, 422, 500, 502);

/**
 * POST /api/ai/generate/multi-reference (canvas spec 7): one weighted blend of up to 8 references, or
 * with type 'video-to-video' a video restyled by the image references (docs/multi-reference.md).
 */
export function multiReferenceRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const signedIn = requireUser();
  return async (app) => {
    app.post(
      '/api/ai/generate/multi-reference',
      {
        preValidation: signedIn,
        bodyLimit: BODY_LIMITS.multiReference,
        schema: {
          tags: ['canvas'],
          summary:
            'Blends up to 8 weighted reference images by a prompt (an image asset); type video-to-video restyles the first video reference by the images (a video asset)',
          body: multiReferenceBody,
          response: { 200: multiReferenceReply, ...errors },
        },
      },
      async (request) => generateMultiReference(ctx, currentUser(request).id, request.body),
    );
  };
}
