import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BASE_URL, PORT } from './env';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// Playwright loads this file in its runner and again in each worker; the environment carries the one
// fresh data directory to all of them, so each run starts on an empty database.
process.env.SVC_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'svc-e2e-'));

/**
 * Browser tests against the built console and the real server. The console must be built first
 * (`pnpm build`, as `npm test` does before this step).
 */
export default defineConfig({
  testDir: './tests',
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  globalTeardown: './globalTeardown.ts',
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    trace: 'retain-on-failure',
  },
  webServer: {
    command: 'pnpm --filter @svc/server start',
    cwd: repo,
    url: `${BASE_URL}/v3/system/server_status`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    env: {
      PORT: String(PORT),
      SVC_DATA_DIR: process.env.SVC_E2E_DATA_DIR,
      SVC_SECRET: 'e2e-secret',
      SVC_ADMIN_EMAIL: ADMIN_EMAIL,
      SVC_ADMIN_PASSWORD: ADMIN_PASSWORD,
      // The specs build their own worlds on an empty account; the demo spec seeds the demo through its API.
      SVC_DEMO: '0',
      SVC_CONSOLE_DIR: process.env.SVC_E2E_CONSOLE_DIR ?? join(repo, 'apps/console/dist'),
      // No background schedule: journeys move (and send their deliveries) only on "Run now", so what a
      // test sees after it is what that run did.
      SVC_JOURNEY_ENGINE_INTERVAL_SECONDS: '0',
      // The webhook activation of journey-workspace.spec.ts is a listener on this machine's loopback.
      SVC_DELIVERY_ALLOW_PRIVATE_ADDRESSES: '1',
      // The warehouse of the sync spec (dwh-sync.spec.ts) is a PostgreSQL on this machine's loopback.
      SVC_DWH_ALLOW_LOOPBACK: '1',
    },
  },
});
