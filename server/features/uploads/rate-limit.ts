import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

type Limiter = ReturnType<FastifyInstance['rateLimit']>;
const limiters = new WeakMap<AppContext, Limiter>();

/**
 * The one per-user upload limit (RATE_LIMIT_UPLOADS_PER_MINUTE) shared by every upload route —
 * multipart, base64, remote URL and avatar — so that spreading uploads over several routes gains
 * nothing. Keyed by the signed-in user (the client address before sign-in); over it, 429 with
 * `retryAfterSeconds`. Add it as a route's `onRequest`.
 */
export function uploadRateLimit(ctx: AppContext, app: FastifyInstance): Limiter {
  let limiter = limiters.get(ctx);
  if (!limiter) {
    limiter = app.rateLimit({
      max: ctx.config.RATE_LIMIT_UPLOADS_PER_MINUTE,
      timeWindow: 60_000,
      keyGenerator: (request) => (request.auth ? `user:${request.auth.user.id}` : `ip:${request.ip}`),
    });
    limiters.set(ctx, limiter);
  }
  return limiter;
}
