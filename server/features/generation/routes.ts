import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorReplies, errorReply } from '../../../common/api/envelope.ts';
import { TEXT_AGENTS } from '../../../common/api/generation.constants.ts';
import {
  aiStatusReply,
  generateAudioBody,
  generateAudioReply,
  generateImageBody,
  generateImageReply,
  generateVideoBody,
  generateVideoReply,
  generationStatusReply,
  imageAgentBody,
  imageAgentReply,
  runwayTaskReply,
  taskIdBody,
} from '../../../common/api/generation.ts';
import { aiStatusOf, generationStatusOf } from '../../../common/rules/generation-status.ts';
import { withSpecImageCount } from '../../../common/rules/pricing.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { BODY_LIMITS } from '../../platform/http/body-limits.ts';
import { generatedMediaOf, QUICK_WAIT_MS, taskFailedError } from '../../platform/jobs/outcome.ts';
import { textAgentAccess, textAgentRateLimit } from '../../platform/metering/text-agents.ts';
import { visiblePersona } from '../../platform/persona-access.ts';
import { enhanceImagePrompt, startAudioGeneration, startImageGeneration, startVideoGeneration } from './service.ts';
import { runwayTaskOf, STATUS_PATHS, taskAcceptedOf } from './status.ts';

const errors = errorReplies(400, 401, 402, 403, 404, 413, 422, 500, 502);

/**
 * Generation: POST /api/ai/generate/image|video|audio, the status calls in each client's vocabulary
 * and POST /api/ai/image-agent. The work runs as tasks; image and audio wait briefly for theirs.
 */
export function generationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const signedIn = requireUser();
  return async (app) => {
    app.post(
      '/api/ai/generate/image',
      {
        preValidation: signedIn,
        bodyLimit: BODY_LIMITS.inlineMedia,
        schema: {
          tags: ['generation'],
          summary: 'Generates images (answers the finished images, or a task when it takes longer than ~20 s)',
          description:
            'How many: the larger of `variations` and `numberOfImages` (at most 4); a request naming neither makes ' +
            '`variations` = 2, the spec’s default, and is charged for both.',
          body: generateImageBody,
          response: { 200: generateImageReply, ...errors },
        },
      },
      async (request) => {
        const userId = currentUser(request).id;
        if (request.body.persona_id) await visiblePersona(ctx, userId, request.body.persona_id);
        const started = await startImageGeneration(ctx, userId, withSpecImageCount(request.body));
        const task = await ctx.jobs.waitFor(userId, started.task.id, QUICK_WAIT_MS);
        if (task.status === 'failed') throw taskFailedError(task);
        const media = task.status === 'completed' ? generatedMediaOf(task) : [];
        return {
          success: true as const,
          data: media.length > 0 ? media : taskAcceptedOf(task, started),
          creditsUsed: started.credits,
        };
      },
    );

    app.post(
      '/api/ai/generate/audio',
      {
        preValidation: signedIn,
        schema: {
          tags: ['generation'],
          summary: 'Generates music or a voice-over (model suno-v3.5); the finished file or a task',
          body: generateAudioBody,
          response: { 200: generateAudioReply, ...errors },
        },
      },
      async (request) => {
        const userId = currentUser(request).id;
        const started = await startAudioGeneration(ctx, userId, request.body);
        const task = await ctx.jobs.waitFor(userId, started.task.id, QUICK_WAIT_MS);
        if (task.status === 'failed') throw taskFailedError(task);
        const media = task.status === 'completed' ? generatedMediaOf(task)[0] : undefined;
        return {
          success: true as const,
          data: media ?? taskAcceptedOf(task, started),
          creditsUsed: started.credits,
        };
      },
    );

    app.post(
      '/api/ai/generate/video',
      {
        preValidation: signedIn,
        bodyLimit: BODY_LIMITS.inlineMedia,
        schema: {
          tags: ['generation'],
          summary: 'Starts a video generation (text, image, first+last frame, MagicModify, ActStudio); poll statusUrl',
          body: generateVideoBody,
          response: { 200: generateVideoReply, ...errors },
        },
      },
      async (request) => {
        const userId = currentUser(request).id;
        if (request.body.persona_id) await visiblePersona(ctx, userId, request.body.persona_id);
        const started = await startVideoGeneration(ctx, userId, request.body);
        return { success: true as const, data: taskAcceptedOf(started.task, started) };
      },
    );

    const statusSchema = (summary: string) => ({
      preValidation: signedIn,
      schema: {
        tags: ['generation'],
        summary,
        body: taskIdBody,
        response: { 200: generationStatusReply, 400: errorReply, 401: errorReply, 403: errorReply, 404: errorReply },
      },
    });
    for (const [path, vendor] of [
      [STATUS_PATHS.veo, 'Veo'],
      [STATUS_PATHS.video, 'video'],
      [STATUS_PATHS.seedream, 'Seedream/Seedance'],
    ] as const) {
      app.post(
        path,
        statusSchema(`Status of a ${vendor} generation task: processing | completed | failed`),
        async (request) => ({
          success: true as const,
          data: generationStatusOf(await ctx.jobs.getTask(currentUser(request).id, request.body.taskId)),
        }),
      );
    }

    app.post(
      STATUS_PATHS.ai,
      {
        preValidation: signedIn,
        schema: {
          tags: ['generation'],
          summary: 'Status of any generation task, with top-level status, url, videoUrl and error',
          body: taskIdBody,
          response: { 200: aiStatusReply, 400: errorReply, 401: errorReply, 403: errorReply, 404: errorReply },
        },
      },
      async (request) => aiStatusOf(await ctx.jobs.getTask(currentUser(request).id, request.body.taskId)),
    );

    app.get(
      '/api/proxy/runway/tasks/:taskId',
      {
        preValidation: signedIn,
        schema: {
          tags: ['generation'],
          summary: 'Status of a task in Runway’s vocabulary: PENDING, IN_PROGRESS, SUCCEEDED, FAILED',
          params: z.object({ taskId: z.string().min(1).max(64) }),
          response: { 200: runwayTaskReply, 401: errorReply, 404: errorReply },
        },
      },
      async (request) => runwayTaskOf(await ctx.jobs.getTask(currentUser(request).id, request.params.taskId)),
    );

    app.post(
      '/api/ai/image-agent',
      {
        onRequest: textAgentRateLimit(ctx, app),
        preValidation: signedIn,
        preHandler: textAgentAccess(ctx),
        bodyLimit: TEXT_AGENTS.bodyLimitBytes.imageAgent,
        schema: {
          tags: ['generation'],
          summary: `Enhances an image prompt: enhancedPrompt and an analysis. Free on the local writer, ${TEXT_AGENTS.creditsPerCall} credit with a vendor LLM; text agents share a per-user rate limit`,
          body: imageAgentBody,
          response: { 200: imageAgentReply, ...errorReplies(400, 401, 402, 403, 413, 422, 429, 500, 502) },
        },
      },
      async (request) => enhanceImagePrompt(ctx, currentUser(request).id, request.body),
    );
  };
}
