import type { FastifyInstance } from 'fastify';
import type { HealthReply } from '../../../common/api/health.ts';
import type { Config } from '../../config.ts';
import type { Clock } from '../clock.ts';

// TRUST_PROXY unset behind a proxy (issue 27, finding 1): every request then has the proxy's address, so the
// per-address limits (log-in lock-outs among them) count everyone as one client. Production refuses to start
// without TRUST_PROXY (config.ts); elsewhere the first request carrying X-Forwarded-For or Forwarded while it is
// unset is logged once as a warning and reported in /healthz (`proxy`) from then on.

/** What the log and /healthz say once forwarded headers arrived while TRUST_PROXY is unset. */
export const PROXY_HEADERS_WARNING =
  'Requests carry X-Forwarded-For or Forwarded, but TRUST_PROXY is unset: every client counts as the proxy, so ' +
  "one client's wrong log-ins lock every user out. Set TRUST_PROXY to the proxy's addresses (e.g. " +
  'TRUST_PROXY=10.0.0.2), or TRUST_PROXY=false to confirm there is no proxy and silence this.';

/** Whether forwarded headers have reached this process while TRUST_PROXY is unset, and when first. */
export interface ProxyHeaderWatch {
  readonly forwardedSeenAt: Date | null;
  /** Records the first sighting; true that first time only. */
  noteForwarded(at: Date): boolean;
}

export function createProxyHeaderWatch(): ProxyHeaderWatch {
  let seenAt: Date | null = null;
  return {
    get forwardedSeenAt() {
      return seenAt;
    },
    noteForwarded(at) {
      if (seenAt) return false;
      seenAt = at;
      return true;
    },
  };
}

/**
 * With TRUST_PROXY unset, watches every request for X-Forwarded-For / Forwarded: the first one is logged as a
 * warning (once per process) and marks the watch. With TRUST_PROXY set (to anything, `false` included) it adds nothing.
 */
export function registerProxyHeaderWatch(
  app: FastifyInstance,
  ctx: { config: Pick<Config, 'TRUST_PROXY'>; proxyHeaders: ProxyHeaderWatch; clock: Clock },
): void {
  if (ctx.config.TRUST_PROXY !== undefined) return;
  app.addHook('onRequest', (request, _reply, done) => {
    if (ctx.proxyHeaders.forwardedSeenAt === null) {
      const headers = request.headers;
      const forwarded = headers['x-forwarded-for'] !== undefined || headers.forwarded !== undefined;
      if (forwarded && ctx.proxyHeaders.noteForwarded(ctx.clock.now())) {
        request.log.warn(
          { variable: 'TRUST_PROXY', remoteAddress: request.socket.remoteAddress },
          PROXY_HEADERS_WARNING,
        );
      }
    }
    done();
  });
}

/** The `proxy` part of /healthz. Informational: it does not change the overall status. */
export function proxyHealth(ctx: {
  config: Pick<Config, 'TRUST_PROXY'>;
  proxyHeaders: ProxyHeaderWatch;
}): HealthReply['proxy'] {
  const seenAt = ctx.proxyHeaders.forwardedSeenAt;
  const unset = ctx.config.TRUST_PROXY === undefined;
  return {
    trustProxy: unset ? 'unset' : 'set',
    forwardedHeadersSeenAt: unset && seenAt ? seenAt.toISOString() : null,
    warning: unset && seenAt ? PROXY_HEADERS_WARNING : null,
  };
}
