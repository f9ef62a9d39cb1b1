import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { type App, buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { type AppContext, closeContext, createContext } from '../context.ts';
import type { EngineRegistry } from '../engines/registry.ts';
import type { Clock } from '../platform/clock.ts';
import { openTestDatabase } from './databases.ts';

export interface TestApp {
  app: App;
  ctx: AppContext;
  config: Config;
  close(): Promise<void>;
}

/**
 * The whole studio on a fresh database (PGlite in memory, or a new PostgreSQL database when the
 * postgres project runs), local storage in a temp folder, workers running in-process.
 */
export async function createTestApp(
  options: { env?: Record<string, string>; clock?: Clock; engines?: (config: Config) => EngineRegistry } = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    ...options.env,
  });
  const database = await openTestDatabase(inject('dbTemplate'));
  const ctx = await createContext(config, { database, clock: options.clock, engines: options.engines?.(config) });
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    config,
    close: async () => {
      await app.close();
      await closeContext(ctx);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
