import { type CreateRateLimitOptions, normalizeIP, type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { MESSAGES } from '../../../common/messages.ts';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../errors.ts';
import type { NamedLimit } from './rate-limit-store.ts';

type Limiter = ReturnType<FastifyInstance['rateLimit']>;

const names = new Set<string>();

/** The client address a limit counts by: IPv6 by its /64, as the rate-limit plugin does. */
const addressKey = (request: FastifyRequest) => `ip:${normalizeIP(request.ip)}`;

function sharedRateLimit(
  name: string,
  max: (config: Config) => number,
  options: Pick<RateLimitOptions, 'keyGenerator'>,
) {
  if (names.has(name)) throw new Error(`two shared rate limits are named ${name}`);
  names.add(name);
  const limiters = new WeakMap<AppContext, Limiter>();
  return (ctx: AppContext, app: FastifyInstance): Limiter => {
    let limiter = limiters.get(ctx);
    if (!limiter) {
      const limit: RateLimitOptions & NamedLimit = {
        limitName: name,
        max: max(ctx.config),
        timeWindow: 60_000,
        ...options,
      };
      limiter = app.rateLimit(limit);
      limiters.set(ctx, limiter);
    }
    return limiter;
  };
}

/**
 * A per-user limit of `max(config)` calls a minute shared by several routes, so spreading calls over them
 * gains nothing: keyed by the signed-in user (the client address, IPv6 by its /64, before sign-in); over it,
 * 429 with `retryAfterSeconds`. `name` keys its counters in the cluster's rate-limit store (one name, one
 * limit). The returned function gives the `onRequest` hook, made once per studio.
 */
export function sharedUserRateLimit(name: string, max: (config: Config) => number) {
  return sharedRateLimit(name, max, {
    keyGenerator: (request) => (request.auth ? `user:${request.auth.user.id}` : addressKey(request)),
  });
}

/**
 * A per-address limit of `max(config)` calls a minute shared by several routes, whoever is signed in: many
 * accounts from one address share it. Put it after the per-user limit of the same routes (a call the user's
 * own limit refuses does not count here), whose X-RateLimit-* headers the answers keep; over it, 429 with
 * `retryAfterSeconds` and Retry-After, as every limit. (The plugin runs one of its own hooks per request,
 * so this one counts through `createRateLimit` and answers itself.)
 */
export function sharedAddressRateLimit(name: string, max: (config: Config) => number) {
  if (names.has(name)) throw new Error(`two shared rate limits are named ${name}`);
  names.add(name);
  const hooks = new WeakMap<AppContext, onRequestAsyncHookHandler>();
  return (ctx: AppContext, app: FastifyInstance): onRequestAsyncHookHandler => {
    let hook = hooks.get(ctx);
    if (!hook) {
      const options: CreateRateLimitOptions & NamedLimit = {
        limitName: name,
        max: max(ctx.config),
        timeWindow: 60_000,
        keyGenerator: addressKey,
      };
      const count = app.createRateLimit(options);
      hook = async (request, reply) => {
        const result = await count(request);
        if (result.isAllowed || !result.isExceeded) return;
        reply.header('retry-after', result.ttlInSeconds);
        throw new AppError(429, 'rate_limited', MESSAGES.generic.rateLimited, {
          retryAfterSeconds: result.ttlInSeconds,
        });
      };
      hooks.set(ctx, hook);
    }
    return hook;
  };
}
