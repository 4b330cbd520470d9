// `npm test`: install everything (Chromium included when missing) and run every test: format and lint,
// type checks, unit and API tests (vitest, in-process on real SQLite files), then the browser tests
// (Playwright driving Debian's Chromium against the built console and the real server).
import { main, run, setup } from './setup.mjs';

main(() => {
  const pnpm = setup({ browser: true });
  const steps = [
    ['lint and format', ['run', 'lint']],
    ['type checks', ['run', 'typecheck']],
    ['unit and API tests', ['run', 'unit']],
    ['console build', ['run', 'build']],
    ['browser tests', ['run', 'e2e']],
  ];
  const started = Date.now();
  for (const [name, args] of steps) {
    process.stdout.write(`\n\x1b[36m[test]\x1b[0m ${name}\n`);
    run(pnpm, args);
  }
  process.stdout.write(`\n[test] every step passed in ${Math.round((Date.now() - started) / 1000)} s\n`);
});
