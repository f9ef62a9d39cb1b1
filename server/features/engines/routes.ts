import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminEnginesReply, enginesReply } from '../../../common/api/engines.ts';
import { errorReplies } from '../../../common/api/envelope.ts';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../platform/auth/session.ts';
import { adminEngineCatalogue, engineCatalogue } from './service.ts';

const bearer = [{ bearer: [] }];

/** The engine catalogue (issue 19): for the web's pickers and prices, and the admin Engines view. */
export function engineRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/ai/engines',
      {
        preValidation: requireUser(),
        schema: {
          tags: ['generation'],
          summary: 'Every model with the engine serving it (local preview or vendor), availability and prices',
          security: bearer,
          response: { 200: enginesReply, ...errorReplies(401) },
        },
      },
      async (_request, reply) => reply.header('cache-control', 'no-store').send(engineCatalogue(ctx)),
    );
    app.get(
      '/api/admin/engines',
      {
        preValidation: requireUser({ roles: ['admin'] }),
        schema: {
          tags: ['admin'],
          summary: "Every model, the engine serving it and whether that engine's last call succeeded",
          security: bearer,
          response: { 200: adminEnginesReply, ...errorReplies(401, 403) },
        },
      },
      async (_request, reply) => reply.header('cache-control', 'no-store').send(await adminEngineCatalogue(ctx)),
    );
  };
}
