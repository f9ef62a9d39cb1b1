import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';

type Limiter = ReturnType<FastifyInstance['rateLimit']>;

/**
 * A per-user limit of `max(config)` calls a minute shared by several routes, so spreading calls over them
 * gains nothing: keyed by the signed-in user (the client address before sign-in); over it, 429 with
 * `retryAfterSeconds`. The returned function gives the `onRequest` hook, made once per studio.
 */
export function sharedUserRateLimit(max: (config: Config) => number) {
  const limiters = new WeakMap<AppContext, Limiter>();
  return (ctx: AppContext, app: FastifyInstance): Limiter => {
    let limiter = limiters.get(ctx);
    if (!limiter) {
      limiter = app.rateLimit({
        max: max(ctx.config),
        timeWindow: 60_000,
        keyGenerator: (request) => (request.auth ? `user:${request.auth.user.id}` : `ip:${request.ip}`),
      });
      limiters.set(ctx, limiter);
    }
    return limiter;
  };
}
