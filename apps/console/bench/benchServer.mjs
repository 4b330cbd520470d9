// What the console's browser benches share: the built console (built when missing) served by the real server, in
// its own process on a free loopback port with its own data directory, started as `npm start` starts it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** A loopback port nobody listens on. */
export const freePort = () =>
  new Promise((done, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
  });

/** Builds the console into `consoleDir`'s place (apps/console/dist) unless it is there already. */
export function ensureConsoleBuilt(root, consoleDir, log) {
  if (existsSync(join(consoleDir, 'index.html'))) return;
  log('building the console (apps/console/dist)');
  const built = spawnSync('pnpm', ['--filter', '@svc/console', 'build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the console build failed');
}

/**
 * Starts the server on `dataDir` serving `consoleDir`, with the administrator `email`/`password` and `env` added,
 * and waits (up to 60 s) until it answers. `stop()` ends it.
 */
export async function startServer({ root, consoleDir, dataDir, secret, email, password, env = {} }) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(join(root, 'apps/server/node_modules/.bin/tsx'), ['src/main.ts'], {
    cwd: join(root, 'apps/server'),
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      SVC_DATA_DIR: dataDir,
      SVC_SECRET: secret,
      SVC_ADMIN_EMAIL: email,
      SVC_ADMIN_PASSWORD: password,
      SVC_CONSOLE_DIR: consoleDir,
      // As `npm start` sets it: the server refuses to start without threads enough for the DuckDB data plane.
      UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE ?? '16',
      ...env,
    },
  });
  const stop = async () => {
    server.kill('SIGTERM');
    await new Promise((r) => (server.exitCode === null ? server.once('exit', r) : r()));
  };
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
    if ((await fetch(`${base}/v3/system/server_status`).catch(() => null))?.ok) return { base, server, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error('the server did not start within 60 s');
}
