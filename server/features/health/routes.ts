import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorReplies } from '../../../common/api/envelope.ts';
import { adminWorkersReply, healthReply, probeReply } from '../../../common/api/health.ts';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../platform/auth/session.ts';
import { healthHttpStatus, healthReport, liveness, probeHttpStatus, readiness } from './probes.ts';
import { adminWorkers } from './workers.ts';

/**
 * GET /livez (the process serves: an orchestrator restarts it when this fails), GET /readyz (it can do its core
 * work: the database answers and it is not draining; a load balancer routes to it only while this is 200) and
 * GET /healthz (the detailed report for monitoring). No session needed; none reveals data. And the admin view of
 * the cluster's workers (GET /api/admin/workers).
 */
export function healthRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/livez',
      { schema: { tags: ['health'], summary: 'Liveness: the process serves HTTP', response: { 200: probeReply } } },
      async (_request, reply) => reply.header('cache-control', 'no-store').send(liveness()),
    );
    app.get(
      '/readyz',
      {
        schema: {
          tags: ['health'],
          summary: 'Readiness: the database answers and the process is not draining (poll this from load balancers)',
          response: { 200: probeReply, 503: probeReply },
        },
      },
      async (_request, reply) => {
        const ready = await readiness(ctx);
        return reply.code(probeHttpStatus(ready)).header('cache-control', 'no-store').send(ready);
      },
    );
    app.get(
      '/healthz',
      {
        schema: {
          tags: ['health'],
          summary:
            'Each part (database, job queue, storage, workers) ok/degraded/down, and every model with its engine; ' +
            '503 only when the process cannot do its core work',
          response: { 200: healthReply, 503: healthReply },
        },
      },
      async (_request, reply) => {
        const health = await healthReport(ctx);
        return reply.code(healthHttpStatus(health)).header('cache-control', 'no-store').send(health);
      },
    );
    app.get(
      '/api/admin/workers',
      {
        preValidation: requireUser({ roles: ['admin'] }),
        schema: {
          tags: ['admin'],
          summary: 'Every process running workers: role, host, last beat, running tasks, last task, live or stale',
          security: [{ bearer: [] }],
          response: { 200: adminWorkersReply, ...errorReplies(401, 403) },
        },
      },
      async (_request, reply) => reply.header('cache-control', 'no-store').send(await adminWorkers(ctx)),
    );
  };
}
