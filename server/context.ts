import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { Config } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { createEngineRegistry, type EngineRegistry } from './engines/registry.ts';
import { vendorOverrides } from './engines/vendor/index.ts';
import { type Clock, systemClock } from './platform/clock.ts';
import { JobQueue } from './platform/jobs/queue.ts';
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
  jobs: JobQueue;
  engines: EngineRegistry;
  mail: Mailer;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** Paths of secrets the logger must never print. */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.code',
];

function createLogger(config: Config): FastifyBaseLogger {
  return pino({ level: config.LOG_LEVEL, redact: LOG_REDACT_PATHS }) as FastifyBaseLogger;
}

export interface ContextOverrides {
  database?: Database;
  storage?: ObjectStorage;
  clock?: Clock;
  log?: FastifyBaseLogger;
  engines?: EngineRegistry;
}

/** Opens the database (migrating it), storage, mail and the job queue; workers start only when asked. */
export async function createContext(config: Config, overrides: ContextOverrides = {}): Promise<AppContext> {
  const log = overrides.log ?? createLogger(config);
  const database = overrides.database ?? (await openDatabase(config));
  await database.migrate();
  const clock = overrides.clock ?? systemClock;
  const storage = overrides.storage ?? createStorage(config);
  const mail = createMailer({ config, db: database.db, log, clock });
  const jobs = new JobQueue({ database, log, clock });
  const engines = overrides.engines ?? createEngineRegistry(config, { overrides: vendorOverrides(config) });
  const ctx: AppContext = { config, database, db: database.db, storage, jobs, engines, mail, clock, log };
  jobs.attach(ctx);
  await jobs.start();
  return ctx;
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.jobs.stop();
  await ctx.database.close();
}
