import { defineConfig } from 'vitest/config';

// The cluster test (server/test/cluster): two API processes and two workers on PostgreSQL and S3 behind HAProxy,
// started once for the whole file. `npm test` runs it after the Vitest suites when DATABASE_URL is set.
export default defineConfig({
  test: {
    name: 'cluster',
    include: ['server/test/cluster/**/*.test.ts'],
    // Generous: the steps wait for real processes (a killed worker's task is taken over after its lease, ~45 s).
    testTimeout: 300_000,
    // Four processes starting at once on two cores (slow on a busy machine; each start may take up to 240 s).
    hookTimeout: 600_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
});
