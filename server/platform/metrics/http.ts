import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '../../../common/messages.ts';
import { notFound, unauthorized } from '../errors.ts';
import { type Metrics, UNMATCHED_ROUTE } from './index.ts';

const sha256 = (value: string) => createHash('sha256').update(value).digest();

/** Whether `Authorization: Bearer <token>` carries `token` (compared in constant time). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] !== undefined && timingSafeEqual(sha256(match[1]), sha256(token));
}

/**
 * Counts every answered request (method, Fastify's route pattern or UNMATCHED_ROUTE, status) with its duration, and
 * serves GET /metrics on the main port: only with `Authorization: Bearer <METRICS_TOKEN>` (401 without it or with
 * another); without METRICS_TOKEN it answers 404 like an unknown path. METRICS_PORT serves it without a token on a
 * separate listener (./server.ts).
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  app.addHook('onResponse', (request, reply, done) => {
    const method = request.method;
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    metrics.httpRequests.inc({ method, route, status: reply.statusCode });
    metrics.httpDuration.observe({ method, route }, reply.elapsedTime / 1000);
    done();
  });
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['operations'],
        summary:
          'Prometheus metrics of this process (text exposition format); needs `Authorization: Bearer <METRICS_TOKEN>`, ' +
          'answers 404 when METRICS_TOKEN is not set',
      },
    },
    async (request, reply) => {
      // The studio's 404 for a server path: the route does not exist as far as a caller can tell.
      if (!token) throw notFound(MESSAGES.generic.notFound);
      if (!bearerMatches(request.headers.authorization, token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw unauthorized(MESSAGES.auth.required);
      }
      const { contentType, body } = await metrics.render();
      return reply.header('cache-control', 'no-store').type(contentType).send(body);
    },
  );
}
