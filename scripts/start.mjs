// `npm start`: install, build the console, migrate and seed (on first start), then serve the console and
// the API on http://localhost:8080 (PORT to change). Data lives in .data/ unless SVC_DATA_DIR says otherwise.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { main, root, run, setup } from './setup.mjs';

main(() => {
  const pnpm = setup();
  run(pnpm, ['--filter', '@svc/console', 'run', 'build']);
});

const env = {
  ...process.env,
  SVC_DATA_DIR: process.env.SVC_DATA_DIR ?? join(root, '.data'),
  SVC_CONSOLE_DIR: process.env.SVC_CONSOLE_DIR ?? join(root, 'apps', 'console', 'dist'),
  // DuckDB's calls share libuv's thread pool, sized only from the environment (decision 0038).
  UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE ?? '16',
};
// The server runs from its TypeScript sources through tsx (docs/decisions/0002-run-server-with-tsx.md).
const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: join(root, 'apps', 'server'),
  env,
  stdio: 'inherit',
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code) => process.exit(code ?? 0));
