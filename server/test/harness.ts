import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { inject } from 'vitest';
import { type App, buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { type AppContext, closeContext, createContext, createLogger } from '../context.ts';
import type { EngineRegistry } from '../engines/registry.ts';
import { STUDIO_JOBS } from '../jobs.ts';
import type { Clock } from '../platform/clock.ts';
import type { ObjectStorage } from '../platform/storage/types.ts';
import { openTestDatabase } from './databases.ts';
import { TEST_LOG_DIR } from './security/log-secrets.ts';

export interface TestApp {
  app: App;
  ctx: AppContext;
  config: Config;
  close(): Promise<void>;
}

let testLog: FastifyBaseLogger | undefined;

/**
 * One logger per test process, writing info and above (asynchronously) to .tmp/test-logs/vitest-<pid>.log
 * with the production redaction, so `npm test` can check the whole suite's logs for secrets.
 */
function testLogger(): FastifyBaseLogger {
  if (!testLog) {
    const destination = pino.destination({
      dest: path.join(TEST_LOG_DIR, `vitest-${process.pid}.log`),
      sync: false,
      mkdir: true,
    });
    process.once('exit', () => {
      try {
        destination.flushSync();
      } catch {
        // Not open yet, or already closed: nothing buffered to lose.
      }
    });
    testLog = createLogger('info', destination);
  }
  return testLog;
}

/**
 * The whole studio on a fresh database (PGlite in memory, or a new PostgreSQL database when the
 * postgres project runs), local storage in a temp folder, workers running in-process.
 */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    clock?: Clock;
    engines?: (config: Config) => EngineRegistry;
    /** Wraps or replaces the storage the studio would make from its config (e.g. to inject faults). */
    storage?: (config: Config) => ObjectStorage;
    /** Every log line at LOG_LEVEL (production redaction) goes here instead. */
    logTo?: Writable;
  } = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    // A test that closes its app with an attempt still running waits this long, not the production default (120).
    WORKER_SHUTDOWN_GRACE_S: '10',
    ...options.env,
  });
  const database = await openTestDatabase(inject('dbTemplate'));
  const ctx = await createContext(config, STUDIO_JOBS, {
    database,
    // A test that sets LOG_LEVEL itself gets the ordinary logger.
    log: options.logTo
      ? createLogger(config.LOG_LEVEL, options.logTo)
      : options.env?.LOG_LEVEL
        ? undefined
        : testLogger(),
    clock: options.clock,
    engines: options.engines?.(config),
    storage: options.storage?.(config),
  });
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    // The context's config: it carries the generated secrets the context loaded (config.storedSecrets).
    config: ctx.config,
    close: async () => {
      await app.close();
      await closeContext(ctx);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
