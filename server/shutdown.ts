import type { App } from './app.ts';
import { type AppContext, closeContext } from './context.ts';
import { taskEventHubOf } from './features/tasks/events.ts';
import { closeServer, InFlightRequests } from './platform/http/graceful-close.ts';

/** Past the graces, this much more for closing the job queue and the database before the process exits anyway. */
const CLOSE_MARGIN_MS = 30_000;

/**
 * How an API process stops on SIGTERM / SIGINT. It drains: /readyz answers 503 so load balancers stop sending it
 * work, every event stream ends with a reconnect hint (the browsers reconnect to another process), no connection is
 * accepted, and the requests in flight get SHUTDOWN_GRACE_SECONDS to finish before the connections left are cut.
 * Then the job queue (its running tasks get their own grace) and the database close, and the process exits 0.
 * A second signal exits at once; so does a shutdown still unfinished well past its graces.
 */
export function stopOnSignals(
  app: App,
  ctx: AppContext,
  options: { closeLast?: () => Promise<void> | undefined } = {},
): void {
  const requests = new InFlightRequests(app.server);
  let stopping = false;

  const stop = async (signal: NodeJS.Signals) => {
    const { config, log } = ctx;
    const graceMs = config.SHUTDOWN_GRACE_SECONDS * 1000;
    const workersMs = config.RUN_WORKERS ? config.WORKER_SHUTDOWN_GRACE_S * 1000 : 0;
    const deadline = setTimeout(
      () => {
        log.error({ signal }, 'shutdown did not finish in time: exiting now');
        process.exit(1);
      },
      graceMs + workersMs + CLOSE_MARGIN_MS,
    );

    const streams = taskEventHubOf(ctx).subscribers;
    const inFlight = Math.max(0, requests.count - streams);
    log.info(
      { signal, requests: inFlight, streams, graceSeconds: config.SHUTDOWN_GRACE_SECONDS },
      `draining: ${inFlight} requests in flight, ${streams} event streams`,
    );
    ctx.lifecycle.startDrain();
    requests.drain();
    const cut = await closeServer(app, requests, graceMs);
    if (cut > 0) log.warn({ cut }, `grace over: ${cut} requests cut`);
    await closeContext(ctx);
    await options.closeLast?.();
    clearTimeout(deadline);
    log.info('stopped');
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      ctx.log.warn({ signal }, 'second signal: stopping now, without waiting for requests or tasks');
      process.exit(1);
    }
    stopping = true;
    stop(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        ctx.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
