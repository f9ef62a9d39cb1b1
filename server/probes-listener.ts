import type { AppContext } from './context.ts';
import { liveness, readiness } from './features/health/probes.ts';
import { type MetricsServer, startMetricsServer } from './platform/metrics/server.ts';

/**
 * METRICS_PORT, when set: /metrics, /livez and /readyz on a listener of their own (the only HTTP of `npm run
 * worker`), answering the health feature's probes. Null when the port is not set.
 */
export async function startProbesListener(ctx: AppContext): Promise<MetricsServer | null> {
  if (!ctx.config.METRICS_PORT) return null;
  return startMetricsServer({
    host: ctx.config.HOST,
    port: ctx.config.METRICS_PORT,
    metrics: ctx.metrics,
    live: liveness,
    ready: () => readiness(ctx),
    log: ctx.log,
  });
}
