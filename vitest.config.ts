import { configDefaults, defineConfig } from 'vitest/config';

const postgres = Boolean(process.env.DATABASE_URL);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'pglite',
          include: ['server/**/*.test.ts', 'common/**/*.test.ts', 'scripts/**/*.test.ts', 'web/**/*.test.ts'],
          // The cluster test has its own run (vitest.cluster.config.ts, a step of npm test).
          exclude: [...configDefaults.exclude, 'server/test/cluster/**'],
          env: { TEST_DB: 'pglite' },
          globalSetup: ['server/test/global-setup.ts'],
        },
      },
      ...(postgres
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: ['server/**/*.int.test.ts'],
                env: { TEST_DB: 'postgres' },
                globalSetup: ['server/test/global-setup.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
