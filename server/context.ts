import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { Config } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { createEngineRegistry, type EngineRegistry } from './engines/registry.ts';
import { vendorEnablers, vendorOverrides } from './engines/vendor/index.ts';
import { type Clock, systemClock } from './platform/clock.ts';
import { JobQueue } from './platform/jobs/queue.ts';
import type { JobKinds, Jobs } from './platform/jobs/types.ts';
import { createMailer } from './platform/mail/index.ts';
import type { Mailer } from './platform/mail/types.ts';
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
}

/**
 * Opens the database (migrating it), storage, mail and the job queue with the app's task kinds and scheduled
 * jobs (server/jobs.ts); workers start only when asked.
 */
export async function createContext(
  config: Config,
  kinds: JobKinds,
  overrides: ContextOverrides = {},
): Promise<AppContext> {
  const log = overrides.log ?? createLogger(config.LOG_LEVEL);
  const database = overrides.database ?? (await openDatabase(config));
  await database.migrate();
  const clock = overrides.clock ?? systemClock;
  const storage = overrides.storage ?? createStorage(config);
  const mail = createMailer({ config, db: database.db, log, clock });
  const jobs = new JobQueue({ database, log, clock, kinds });
  const engines =
    overrides.engines ??
    createEngineRegistry(config, {
      overrides: vendorOverrides(config),
      enablers: vendorEnablers(config),
    });
  const ctx: AppContext = { config, database, db: database.db, storage, jobs, engines, mail, clock, log };
  jobs.attach(ctx);
  await jobs.start();
  return ctx;
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.jobs.stop();
  await ctx.database.close();
}
