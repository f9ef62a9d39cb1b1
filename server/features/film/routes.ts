import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorReplies } from '../../../common/api/envelope.ts';
import { filmAgentBody, filmAgentReply } from '../../../common/api/film.ts';
import { TEXT_AGENTS } from '../../../common/api/generation.constants.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { textAgentAccess, textAgentRateLimit } from '../../platform/metering/text-agents.ts';
import { runFilmAgent } from './service.ts';

const errors = errorReplies(400, 401, 402, 403, 413, 422, 429, 500, 502);

/** Film Production Studio: the screenplay agent (canvas spec 2, 5, 7). */
export function filmRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const signedIn = requireUser();
  return async (app) => {
    app.post(
      '/api/ai/film-agent',
      {
        onRequest: textAgentRateLimit(ctx, app),
        preValidation: signedIn,
        preHandler: textAgentAccess(ctx),
        bodyLimit: TEXT_AGENTS.bodyLimitBytes.filmAgent,
        schema: {
          tags: ['film'],
          summary: `Writes a three-act screenplay: acts paged 30/60/30 scaled to the target duration, scenes with headings, elements and shots. Free on the local writer, ${TEXT_AGENTS.creditsPerCall} credit with a vendor LLM; text agents share a per-user rate limit`,
          body: filmAgentBody,
          response: { 200: filmAgentReply, ...errors },
        },
      },
      async (request) => runFilmAgent(ctx, currentUser(request).id, request.body),
    );
  };
}
