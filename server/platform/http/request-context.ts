import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** What code running for a request (or a task attempt started by one) can know about it without being told. */
interface RequestScope {
  requestId?: string;
}

const scope = new AsyncLocalStorage<RequestScope>();

/** An `X-Request-Id` taken from the client or a proxy: a plain token, so it is safe in logs and headers. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's `genReqId`: the incoming `X-Request-Id` when it is a safe token (a load balancer's or the client's id,
 * so one id follows the call through every hop), else a new UUID. Answered in the `x-request-id` reply header.
 */
export function requestIdOf(request: { headers: Record<string, string | string[] | undefined> }): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** The id of the request (or of the request that created the task) this code runs for, if any. */
export function currentRequestId(): string | undefined {
  return scope.getStore()?.requestId;
}

/** Runs `fn` as part of the request `requestId` (a task attempt carries the id of the request that made it). */
export function runWithRequestId<T>(requestId: string | undefined, fn: () => T): T {
  return scope.run({ requestId }, fn);
}

/**
 * Makes the request id readable by `currentRequestId()` in everything the request runs (services, the job queue's
 * createTask). Entered in onRequest and again in preValidation: the body is read from socket events, whose async
 * context is the connection's, not the request's (the way @fastify/request-context does it).
 */
export function registerRequestContext(app: FastifyInstance): void {
  const enter = (request: FastifyRequest, _reply: unknown, done: () => void) => {
    scope.run({ requestId: request.id }, done);
  };
  app.addHook('onRequest', enter);
  app.addHook('preValidation', enter);
}
