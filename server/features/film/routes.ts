import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorReplies } from '../../../common/api/envelope.ts';
import { filmAgentBody, filmAgentReply } from '../../../common/api/film.ts';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../platform/auth/session.ts';
import { runFilmAgent } from './service.ts';

const errors = errorReplies(400, 401, 403, 422, 500, 502);

/** Film Production Studio: the screenplay agent (canvas spec 2, 5, 7). */
export function filmRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const signedIn = requireUser();
  return async (app) => {
    app.post(
      '/api/ai/film-agent',
      {
        preValidation: signedIn,
        schema: {
          tags: ['film'],
          summary:
            'Writes a three-act screenplay (free of charge): acts paged 30/60/30 scaled to the target duration, scenes with headings, elements and shots',
          body: filmAgentBody,
          response: { 200: filmAgentReply, ...errors },
        },
      },
      async (request) => runFilmAgent(ctx, request.body),
    );
  };
}
