import { defineConfig } from 'vitest/config';

// Browser journeys: one studio server for the run, real Chromium per test file.
export default defineConfig({
  test: {
    name: 'browser',
    include: ['e2e/**/*.e2e.test.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
  },
});
