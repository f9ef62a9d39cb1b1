import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { Config } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { engineCallLog, flushEngineCalls } from './engines/calls.ts';
import { createEngineRegistry, type EngineRegistry } from './engines/registry.ts';
import { vendorEnablers, vendorOverrides } from './engines/vendor/index.ts';
import { type Clock, systemClock } from './platform/clock.ts';
import { createProxyHeaderWatch, type ProxyHeaderWatch } from './platform/http/proxy-headers.ts';
import type { ProcessRole } from './platform/jobs/heartbeat.ts';
import { JobQueue } from './platform/jobs/queue.ts';
import type { JobKinds, Jobs } from './platform/jobs/types.ts';
import { createLifecycle, type Lifecycle } from './platform/lifecycle.ts';
import { createMailer } from './platform/mail/index.ts';
import type { Mailer } from './platform/mail/types.ts';
import { Metrics } from './platform/metrics/index.ts';
import { prepareDatabase } from './platform/startup.ts';
import { createStorage } from './platform/storage/index.ts';
import type { ObjectStorage } from './platform/storage/types.ts';

/** Everything a feature needs, built once per process and handed to routes, services and workers. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Database['db'];
  storage: ObjectStorage;
  jobs: Jobs;
  engines: EngineRegistry;
  mail: Mailer;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Whether the process is draining (asked to stop); see platform/lifecycle.ts. */
  lifecycle: Lifecycle;
  /** Prometheus metrics of this studio (platform/metrics). */
  metrics: Metrics;
  /** Forwarded headers seen while TRUST_PROXY is unset (platform/http/proxy-headers.ts, /healthz `proxy`). */
  proxyHeaders: ProxyHeaderWatch;
}

declare module './platform/jobs/types.ts' {
  /** Task handlers and scheduled jobs receive the whole AppContext. */
  interface JobContext extends AppContext {}
}

/** Paths of secrets the logger must never print. */
const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.code',
];

/** Query parameters that are credentials (OAuth codes and states, signed-media signatures, tokens): logged as [Redacted]. */
const SECRET_QUERY_PARAMS = new Set([
  'code',
  'state',
  'nonce',
  'sig',
  'signature',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'key',
  'api_key',
  'apikey',
  'secret',
  'password',
]);

function urlForLog(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const params = url
    .slice(query + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0];
      return SECRET_QUERY_PARAMS.has(name.toLowerCase()) ? `${name}=[Redacted]` : pair;
    });
  return `${url.slice(0, query)}?${params.join('&')}`;
}

/**
 * How requests are logged (replaces Fastify's own `req` serializer, which pino instance serializers
 * override): the URL with credential query parameters redacted, never headers or body.
 */
const LOG_SERIALIZERS = {
  req: (request: { method?: string; url?: string; host?: string; ip?: string }) => ({
    method: request.method,
    url: request.url === undefined ? undefined : urlForLog(request.url),
    host: request.host,
    remoteAddress: request.ip,
  }),
};

/** The studio's logger: production redaction and request serializer, to stdout or to `destination`. */
export function createLogger(level: Config['LOG_LEVEL'], destination?: pino.DestinationStream): FastifyBaseLogger {
  const options = { level, redact: LOG_REDACT_PATHS, serializers: LOG_SERIALIZERS };
  return (destination ? pino(options, destination) : pino(options)) as FastifyBaseLogger;
}

export interface ContextOverrides {
  database?: Database;
  storage?: ObjectStorage;
  clock?: Clock;
  log?: FastifyBaseLogger;
  engines?: EngineRegistry;
  /**
   * 'worker' for `npm run worker`, 'api' (the default) for the HTTP process: written in its heartbeat row, and
   * naming its PostgreSQL connections (application_name `genpro-worker`, `genpro-api` or `genpro-api+worker`).
   */
  role?: ProcessRole;
}

/** The process role as PostgreSQL sees it (application_name). */
function connectionName(role: ProcessRole | undefined, config: Config): string {
  if (role === 'worker') return 'genpro-worker';
  return config.RUN_WORKERS ? 'genpro-api+worker' : 'genpro-api';
}

/**
 * Opens the database (migrating it), storage, mail and the job queue with the app's task kinds and scheduled
 * jobs (server/jobs.ts); workers start only when asked.
 */
export async function createContext(
  baseConfig: Config,
  kinds: JobKinds,
  overrides: ContextOverrides = {},
): Promise<AppContext> {
  const log = overrides.log ?? createLogger(baseConfig.LOG_LEVEL);
  const database = overrides.database ?? (await openDatabase(baseConfig, connectionName(overrides.role, baseConfig)));
  // Migrations (or the wait for them), pg-boss's schema and the generated secrets: see platform/startup.ts.
  const config: Config = { ...baseConfig, storedSecrets: await prepareDatabase(database, baseConfig, kinds, log) };
  const clock = overrides.clock ?? systemClock;
  const storage = overrides.storage ?? createStorage(config);
  const metrics = new Metrics(database);
  const mail = createMailer({ config, db: database.db, log, clock, metrics });
  const jobs = new JobQueue({ database, log, clock, kinds, role: overrides.role });
  const engines =
    overrides.engines ??
    createEngineRegistry(config, {
      overrides: vendorOverrides(config),
      enablers: vendorEnablers(config),
    });
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    storage,
    jobs,
    engines,
    mail,
    clock,
    log,
    lifecycle: createLifecycle(),
    metrics,
    proxyHeaders: createProxyHeaderWatch(),
  };
  const calls = engineCallLog(database, log);
  engines.onCall((call) => {
    metrics.engineCalls.inc({ kind: call.kind, engine: call.engine, outcome: call.outcome });
    calls.record(call);
  });
  jobs.attach(ctx);
  await jobs.start();
  return ctx;
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.jobs.stop();
  await flushEngineCalls(ctx.database);
  await ctx.database.close();
}
