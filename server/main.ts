import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createContext } from './context.ts';
import { formatDemoAccounts, presentDemoAccounts, seedDemoIfEmpty } from './features/auth/seed.ts';
import { STUDIO_JOBS } from './jobs.ts';
import { sweepDeadWorkDirs } from './platform/media/work-dir.ts';
import { startProbesListener } from './probes-listener.ts';
import { stopOnSignals } from './shutdown.ts';
import { isLoopbackHost, startupWarnings } from './startup.ts';

const PAYMENTS_LINE = {
  stripe: 'Stripe',
  local: 'local checkout (no money is taken)',
  off: 'off (set STRIPE_SECRET_KEY)',
} as const;

/** How the models are served: "12 on vendors, 20 on the local previews, 0 unavailable (details: admin → Engines)". */
function enginesLine(models: Array<{ engineKind: 'local' | 'vendor'; available: boolean }>): string {
  const vendor = models.filter((m) => m.available && m.engineKind === 'vendor').length;
  const local = models.filter((m) => m.available && m.engineKind === 'local').length;
  const off = models.length - vendor - local;
  const hint = off > 0 ? ' (set vendor keys or LOCAL_ENGINES=true; admin → Engines lists them)' : '';
  return `${vendor} models on vendors, ${local} on the local previews, ${off} unavailable${hint}`;
}

/** Process entry: config, database, storage, jobs, engines, then listen. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const ctx = await createContext(config, STUDIO_JOBS, {
    role: 'api',
  });
  const swept = await sweepDeadWorkDirs();
  if (swept > 0) ctx.log.info({ swept }, 'scratch folders of stopped processes removed');
  const demo = config.SEED_DEMO ? await seedDemoIfEmpty(ctx) : null;
  const warnings = startupWarnings(config, await presentDemoAccounts(ctx));
  for (const warning of warnings) ctx.log.warn(warning);
  const app = await buildApp(ctx);
  const metricsServer = await startProbesListener(ctx);

  // The metrics port keeps answering (readiness 503) while the process drains; it closes last.
  stopOnSignals(app, ctx, { closeLast: () => metricsServer?.close() });

  await app.listen({ port: config.PORT, host: config.HOST });
  const lines = [
    '',
    `  GenPro Studio is running at ${config.publicUrl}`,
    `  listening on ${config.HOST}:${config.PORT}${isLoopbackHost(config.HOST) ? ' (this machine only; set HOST to open it)' : ''}`,
    `  mode: ${config.production ? 'production' : 'demo'}`,
    `  database: ${ctx.database.kind === 'pglite' ? `PGlite (${config.dataDir}/pg)` : 'PostgreSQL (DATABASE_URL)'}`,
    `  media: ${ctx.storage.kind === 'local' ? `local disk (${config.dataDir}/media)` : `S3 bucket ${config.S3_BUCKET}`}`,
    `  workers: ${config.RUN_WORKERS ? 'in this process' : 'off (run `npm run worker`)'}`,
    `  mail: ${config.embedded.mail ? `outbox, readable at ${config.publicUrl}/dev/mail` : 'SMTP'}`,
    `  payments: ${PAYMENTS_LINE[config.PAYMENTS]}`,
    `  engines: ${enginesLine(ctx.engines.catalogue())}`,
    `  API docs: ${config.publicUrl}/api/docs`,
  ];
  if (demo && demo.length > 0) lines.push('', formatDemoAccounts(demo));
  for (const warning of warnings) lines.push('', `  Warning: ${warning}`);
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((error) => {
  // A ConfigError (e.g. MIGRATE_ON_START=false and no schema) says what to do; a stack would only bury it.
  const detail =
    error instanceof ConfigError
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  process.stderr.write(`GenPro Studio failed to start: ${detail}\n`);
  process.exit(1);
});
