// Worker-only process (`npm run worker`): runs the job queue against the configured database, no HTTP.
// Start as many as needed on any machine that reaches the database and media storage.
import { ConfigError, loadConfig } from './config.ts';
import { closeContext, createContext } from './context.ts';
import { STUDIO_JOBS } from './jobs.ts';
import { sweepDeadWorkDirs } from './platform/media/work-dir.ts';
import { startProbesListener } from './probes-listener.ts';

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, RUN_WORKERS: 'true' });
  const ctx = await createContext(config, STUDIO_JOBS, { role: 'worker' });
  // The worker's only HTTP: metrics and probes on METRICS_PORT, for a private network.
  const metricsServer = await startProbesListener(ctx);
  const swept = await sweepDeadWorkDirs();
  if (swept > 0) ctx.log.info({ swept }, 'scratch folders of stopped processes removed');
  ctx.log.info(
    {
      kinds: ctx.jobs.kinds,
      concurrency: config.WORKER_CONCURRENCY,
      database: ctx.database.kind,
      storage: ctx.storage.kind,
    },
    'worker ready',
  );

  if (ctx.database.kind === 'pglite') {
    ctx.log.warn(
      'no DATABASE_URL: this worker uses its own embedded database; set DATABASE_URL to share the API process database',
    );
  }

  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    ctx.log.info({ signal }, 'worker stopping');
    try {
      // No new job from now on; running tasks get WORKER_SHUTDOWN_GRACE_S, then are given back to the queue.
      ctx.lifecycle.startDrain();
      await closeContext(ctx);
      await metricsServer?.close();
      ctx.log.info('worker stopped');
      process.exit(0);
    } catch (error) {
      ctx.log.error({ err: error }, 'worker did not stop cleanly');
      process.exit(1);
    }
  };
  process.once('SIGTERM', (signal) => void shutdown(signal));
  process.once('SIGINT', (signal) => void shutdown(signal));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
