import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorReplies } from '../../../common/api/envelope.ts';
import { inpaintBody, inpaintReply } from '../../../common/api/inpaint.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { BODY_LIMITS } from '../../platform/http/body-limits.ts';
import { inpaint } from './service.ts';

const errors = errorReplies(400, 401, 402, 403, 404, 413, 422, 500, 502);

/** The Magic Selector call: POST /api/ai/generate/inpaint (base, mask and reference images). */
export function inpaintRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const signedIn = requireUser();
  return async (app) => {
    app.post(
      '/api/ai/generate/inpaint',
      {
        preValidation: signedIn,
        bodyLimit: BODY_LIMITS.inpaint,
        schema: {
          tags: ['canvas'],
          summary: 'Magic Selector: changes only the painted (white) mask pixels of the base image by mode',
          body: inpaintBody,
          response: { 200: inpaintReply, ...errors },
        },
      },
      async (request) => inpaint(ctx, currentUser(request).id, request.body),
    );
  };
}
