import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorReplies } from '../../../common/api/envelope.ts';
import { TEXT_AGENTS } from '../../../common/api/generation.constants.ts';
import {
  compileMasterBody,
  compileMasterReply,
  generateVideoSequenceBody,
  generateVideoSequenceReply,
  movieAgentBody,
  movieAgentReply,
} from '../../../common/api/sequences.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { BODY_LIMITS } from '../../platform/http/body-limits.ts';
import { taskFailedError } from '../../platform/jobs/outcome.ts';
import { textAgentAccess, textAgentRateLimit } from '../../platform/metering/text-agents.ts';
import { STATUS_PATHS } from '../generation/status.ts';
import { runMovieAgent, startCompile, startSequenceVideo } from './service.ts';

/** How long POST /api/ai/compile-master-video waits for its task before answering with the task id. */
const COMPILE_WAIT_MS = 60_000;

const errors = errorReplies(400, 401, 402, 403, 404, 413, 422, 500, 502, 504);

const str = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** Cinema sequences: a video per item, the movie agent and the master video (canvas spec 7). */
export function sequenceRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const signedIn = requireUser();
  return async (app) => {
    app.post(
      '/api/ai/generate-video-sequence',
      {
        preValidation: signedIn,
        bodyLimit: BODY_LIMITS.inlineMedia,
        schema: {
          tags: ['sequences'],
          summary:
            'Starts a sequence item video from its image: pro (veo-3.0-generate-001, audio, 101 credits) or dream (seedance, 12 s, 41 credits)',
          body: generateVideoSequenceBody,
          response: { 200: generateVideoSequenceReply, ...errors },
        },
      },
      async (request) => startSequenceVideo(ctx, currentUser(request).id, request.body),
    );

    app.post(
      '/api/ai/movie-agent',
      {
        onRequest: textAgentRateLimit(ctx, app),
        preValidation: signedIn,
        preHandler: textAgentAccess(ctx),
        bodyLimit: TEXT_AGENTS.bodyLimitBytes.movieAgent,
        schema: {
          tags: ['sequences'],
          summary: `Analyses a movie script: contentType, sequenceCount, analysis and one video prompt per image. Free on the local writer, ${TEXT_AGENTS.creditsPerCall} credit with a vendor LLM; text agents share a per-user rate limit`,
          body: movieAgentBody,
          response: { 200: movieAgentReply, ...errors, ...errorReplies(429) },
        },
      },
      async (request) => runMovieAgent(ctx, currentUser(request).id, request.body),
    );

    app.post(
      '/api/ai/compile-master-video',
      {
        preValidation: signedIn,
        schema: {
          tags: ['sequences'],
          summary:
            'Compiles the completed sequence videos into one H.264/AAC MP4 (free); waits up to 60 s, else answers the task id',
          body: compileMasterBody,
          response: { 200: compileMasterReply, ...errors },
        },
      },
      async (request) => {
        const userId = currentUser(request).id;
        const started = await startCompile(ctx, userId, request.body);
        const task = await ctx.jobs.waitFor(userId, started.task.id, COMPILE_WAIT_MS);
        if (task.status === 'failed') throw taskFailedError(task);
        const result = task.status === 'completed' ? (task.result ?? {}) : {};
        const masterVideoUrl = str(result.masterVideoUrl);
        return {
          success: true as const,
          status: masterVideoUrl ? ('completed' as const) : ('processing' as const),
          taskId: task.id,
          statusUrl: STATUS_PATHS.ai,
          masterVideoUrl,
          duration: num(result.duration),
          videoCount: started.videoCount,
          assetId: str(result.assetId),
          streamCopy: typeof result.streamCopy === 'boolean' ? result.streamCopy : null,
        };
      },
    );
  };
}
