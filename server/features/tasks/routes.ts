import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorReply } from '../../../common/api/envelope.ts';
import { listTasksQuery, listTasksReply } from '../../../common/api/tasks.ts';
import { taskParams, taskStatusReply } from '../../../common/api/uploads.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { toTaskView } from '../../platform/jobs/queue.ts';
import { listRunningTasks } from './service.ts';

/**
 * GET /api/tasks?status=running: the user's running tasks; GET /api/tasks/{id}: status, progress, estimate,
 * result or error of one of the user's tasks.
 */
export function taskRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/tasks',
      {
        preValidation: requireUser(),
        schema: {
          tags: ['tasks'],
          summary: "The signed-in user's queued and processing tasks, newest first, with their progress",
          querystring: listTasksQuery,
          response: { 200: listTasksReply, 400: errorReply, 401: errorReply },
        },
      },
      async (request) => ({
        success: true as const,
        data: await listRunningTasks(ctx, currentUser(request).id, request.query),
      }),
    );

    app.get(
      '/api/tasks/:id',
      {
        preValidation: requireUser(),
        schema: {
          tags: ['tasks'],
          summary: 'A long-running task of the signed-in user',
          params: taskParams,
          response: { 200: taskStatusReply, 401: errorReply, 404: errorReply },
        },
      },
      async (request) => ({
        success: true as const,
        data: toTaskView(await ctx.jobs.getTask(currentUser(request).id, request.params.id)),
      }),
    );
  };
}
