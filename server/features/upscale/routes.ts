import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorReplies, errorReply } from '../../../common/api/envelope.ts';
import {
  enhanceQueuedReply,
  enhancorParams,
  enhancorQueueBody,
  topazEnhanceBody,
  topazModelsReply,
} from '../../../common/api/upscale.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { base64BodyLimit } from '../uploads/remote.ts';
import { videoModelCatalogue } from './catalogue.ts';
import { queueImageEnhancement, queueVideoEnhancement } from './service.ts';

const errors = errorReplies(400, 401, 402, 403, 404, 413, 422, 502);

/** The video model catalogue, video enhancement (Topaz-style) and image enhancement (Enhancor-style). */
export function upscaleRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const signedIn = requireUser();
  // Sources may come as data: URIs, as large as an upload.
  const bodyLimit = base64BodyLimit(ctx);
  return async (app) => {
    app.get(
      '/api/topaz/models',
      {
        preValidation: signedIn,
        schema: {
          tags: ['upscale'],
          summary: 'Video enhancement models: upscaling, interpolation and enhancement, with options',
          response: { 200: topazModelsReply, 401: errorReply },
        },
      },
      async () => ({ success: true as const, models: videoModelCatalogue() }),
    );

    app.post(
      '/api/topaz/enhance',
      {
        preValidation: signedIn,
        bodyLimit,
        schema: {
          tags: ['upscale'],
          summary: 'Enhance a video (scale, frame rate, quality); 50 credits; requestId is the task id',
          body: topazEnhanceBody,
          response: { 200: enhanceQueuedReply, ...errors },
        },
      },
      async (request) => queueVideoEnhancement(ctx, currentUser(request), request.body),
    );

    app.post(
      '/api/proxy/enhancor/:kind/queue',
      {
        preValidation: signedIn,
        bodyLimit,
        schema: {
          tags: ['upscale'],
          summary: 'Enhance an image to 4K (realistic-skin, portrait-upscaler, image-upscaler, detailed)',
          params: enhancorParams,
          body: enhancorQueueBody,
          response: { 200: enhanceQueuedReply, ...errors },
        },
      },
      async (request) => queueImageEnhancement(ctx, currentUser(request), request.params.kind, request.body),
    );
  };
}
