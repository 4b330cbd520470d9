// `npm test`: install everything (Chromium and PostgreSQL included when missing) and run every test: format
// and lint, the house rules (`pnpm run rules`: imports, unused code, duplication), type checks, unit and API
// tests (vitest, the real app in-process, on both backends: real SQLite files, and the private PostgreSQL
// server started here, each test on a fresh database; see apps/server/vitest.config.ts), then the browser
// tests (Playwright driving Debian's Chromium against the built console and the real server).
import { execFileSync } from 'node:child_process';
import { main, root, run, setup } from './setup.mjs';

/**
 * The private PostgreSQL server of the tests (scripts/postgres.mjs: installed from Debian when missing, a
 * cluster on a free loopback port): the second backend of the API tests, and the warehouse the sync tests
 * load from. Its URL reaches the unit and browser steps.
 */
function startWarehouse() {
  const out = execFileSync(process.execPath, ['scripts/postgres.mjs', 'start'], { cwd: root, encoding: 'utf8' });
  const pg = JSON.parse(out.trim().split('\n').pop());
  process.env.SVC_TEST_PG_URL = pg.url;
  process.env.SVC_DWH_ALLOW_LOOPBACK = '1';
  return () =>
    execFileSync(process.execPath, ['scripts/postgres.mjs', 'stop', pg.dir], { cwd: root, stdio: 'inherit' });
}

main(() => {
  const pnpm = setup({ browser: true });
  const steps = [
    ['lint and format', ['run', 'lint']],
    ['house rules: imports, unused code, duplication', ['run', 'rules']],
    ['type checks', ['run', 'typecheck']],
    ['unit and API tests', ['run', 'unit']],
    ['console build', ['run', 'build']],
    ['browser tests', ['run', 'e2e']],
  ];
  const started = Date.now();
  const stopWarehouse = startWarehouse();
  try {
    for (const [name, args] of steps) {
      process.stdout.write(`\n\x1b[36m[test]\x1b[0m ${name}\n`);
      run(pnpm, args);
    }
  } finally {
    stopWarehouse();
  }
  process.stdout.write(`\n[test] every step passed in ${Math.round((Date.now() - started) / 1000)} s\n`);
});
