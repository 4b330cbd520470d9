import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files that open PostgreSQL themselves whatever the backend under test (two nodes on one database,
 * database faults, the dialect and migration texts, the query translator): they run once, in the first pass.
 */
const postgresAlways = [
  'src/twoNodes.test.ts',
  'src/databaseFaults.test.ts',
  'src/platform/storage/dialect.test.ts',
  'src/platform/storage/storage.test.ts',
  'src/platform/storage/postgresRegexp.test.ts',
  'src/migrations/postgres.test.ts',
  'src/jobs/query/postgres/**',
];

/**
 * Every API test runs on both backends: on real SQLite files, and, when a PostgreSQL server is given
 * (`SVC_TEST_PG_URL`, which `npm test` starts), again with each test on a fresh PostgreSQL database of its own.
 * The two passes share the machine's cores, so they run side by side as two projects of one run.
 */
const pg = process.env.SVC_TEST_PG_URL;

// Test files run in forked processes, which take this environment: their libuv thread pool is sized for the
// DuckDB data plane's calls, as `npm start` sizes the server's (data/duckThreads.ts).
process.env.UV_THREADPOOL_SIZE ??= '16';

export default defineConfig({
  test: {
    // Each test file builds its own app on its own storage.
    pool: 'forks',
    // Much of a test's time is spent waiting (child processes of query jobs, PostgreSQL, timers), so every
    // core runs a test file, not every core but one.
    maxWorkers: availableParallelism(),
    testTimeout: 20_000,
    // A hook that builds an app and fills its tables opens DuckDB files; on two busy cores that can pass 10 s.
    hookTimeout: 30_000,
    setupFiles: ['src/testing/setup.ts'],
    globalSetup: ['src/testing/workerBundles.ts'],
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['src/**/*.test.ts'] } },
      ...(pg
        ? [
            {
              extends: true,
              test: {
                name: 'postgres',
                include: ['src/**/*.test.ts'],
                exclude: postgresAlways,
                env: { SVC_TEST_BACKEND: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
