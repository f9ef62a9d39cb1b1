import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorReply } from '../../../common/api/envelope.ts';
import { ACCOUNT_CHANGED_EVENT, TASK_EVENTS_PATH } from '../../../common/api/tasks.constants.ts';
import {
  listTasksQuery,
  listTasksReply,
  type TaskView,
  taskEventsQuery,
  taskParams,
  taskStatusReply,
} from '../../../common/api/tasks.ts';
import type { AppContext } from '../../context.ts';
import { currentUser, requireUser } from '../../platform/auth/session.ts';
import { toTaskView } from '../../platform/jobs/task-view.ts';
import { drainingEvent, type TaskSubscriber, taskEventHubOf } from './events.ts';
import { listRunningTasks } from './service.ts';

/** How long a browser waits before reconnecting a dropped stream. */
const RETRY_MS = 2_000;

/** The event id of a task's state: its update time in ms (Last-Event-ID resumes from it). */
const eventId = (task: TaskView): number => Date.parse(task.updatedAt);

/**
 * GET /api/tasks?status=running: the user's running tasks; GET /api/tasks/{id}: status, progress, estimate,
 * result or error of one of the user's tasks; GET /api/tasks/events: the same states pushed as they change.
 */
export function taskRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const hub = taskEventHubOf(ctx);
  ctx.metrics.countEventStreams(() => hub.subscribers);
  return async (app) => {
    // Before the server closes: open streams would otherwise keep it waiting.
    app.addHook('preClose', () => hub.close());

    app.get(
      TASK_EVENTS_PATH,
      {
        preValidation: requireUser(),
        schema: {
          tags: ['tasks'],
          summary:
            "Server-Sent Events of the signed-in user's tasks: event `task` (a task's state, as GET /api/tasks/{id}) " +
            'for each running task on connect (and each changed since Last-Event-ID), then on every change; without ' +
            "`ids`, also event `account` when something of the user's own account changed (read it again)",
          querystring: taskEventsQuery,
          response: { 400: errorReply, 401: errorReply },
        },
      },
      async (request, reply) => {
        const userId = currentUser(request).id;
        const ids = request.query.ids ? new Set(request.query.ids) : null;
        const lastEventId = Number(request.headers['last-event-id']);
        const since = Number.isFinite(lastEventId) && lastEventId > 0 ? lastEventId : null;

        const stream = new PassThrough();
        let latest = since ?? 0;
        // Changes heard before the snapshot is written wait here, so the stream never goes back in time.
        let pending: TaskView[] | null = [];
        const write = (task: TaskView) => {
          latest = Math.max(latest, eventId(task));
          stream.write(`id: ${latest}\nevent: task\ndata: ${JSON.stringify(task)}\n\n`);
        };
        let stop: (() => Promise<void>) | null = null;
        let closed = false;
        const close = (reason?: 'draining') => {
          if (closed) return;
          closed = true;
          if (reason === 'draining') stream.write(drainingEvent());
          stream.end();
          void stop?.();
        };
        const subscriber: TaskSubscriber = {
          userId,
          ids,
          send: (task) => {
            if (closed) return;
            if (pending) pending.push(task);
            else write(task);
          },
          // No id: the stream's Last-Event-ID stays that of the newest task sent.
          accountChanged: () => {
            if (!closed) stream.write(`event: ${ACCOUNT_CHANGED_EVENT}\ndata: {}\n\n`);
          },
          ping: () => {
            if (!closed) stream.write(': ping\n\n');
          },
          end: close,
        };
        stop = await hub.subscribe(subscriber);
        // The response closes only when the connection does (the browser left, or the stream was ended).
        reply.raw.once('close', () => close());
        if (request.raw.socket?.destroyed) close();

        reply
          .header('content-type', 'text/event-stream; charset=utf-8')
          .header('cache-control', 'no-cache, no-transform')
          .header('x-accel-buffering', 'no')
          // The connection ends with the stream: a long-lived socket is not worth keeping for another request.
          .header('connection', 'close');
        // The first bytes make Node send the headers now: the browser's `open` means the stream is live.
        if (!closed) stream.write(`retry: ${RETRY_MS}\n\n`);
        void hub.snapshot(userId, ids, since).then(
          (tasks) => {
            if (closed) return;
            for (const task of tasks) write(task);
            const heard = pending ?? [];
            pending = null;
            for (const task of heard) write(task);
            stream.write('event: ready\ndata: {}\n\n');
          },
          (error: unknown) => {
            request.log.warn({ err: error }, 'task events: snapshot failed');
            close();
          },
        );
        // A stream is piped as it is (no serializer); the response schemas describe only the JSON errors.
        return reply.send(stream as never);
      },
    );
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
