import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The real server (`npm start`'s entry, `src/main.ts`) as a child process, for tests of what only a whole
 * process shows: start-up and exit, several nodes on one database, a database going away under it.
 */
export interface ServerProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr together. */
  output(): string;
  /** Resolves with the exit code once it has exited. */
  exited: Promise<number | null>;
  /** Resolves once its output matches `pattern`; rejects with the output when it exits first. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Sends SIGTERM (if still running) and waits for the exit. */
  stop(): Promise<number | null>;
}

/** Starts the server with only `env` (and PATH and the thread pool size) in its environment. */
export function spawnServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      SVC_JOURNEY_ENGINE_INTERVAL_SECONDS: '0',
      SVC_DEMO: '0',
      // As `npm start` sizes it for DuckDB (data/duckThreads.ts).
      UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE ?? '16',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    text += chunk.toString();
    for (const l of listeners) l();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((done) =>
    child.on('exit', (code) => {
      exitCode = code;
      done(code);
      for (const l of listeners) l();
    }),
  );
  return {
    child,
    output: () => text,
    exited,
    waitFor: (pattern) =>
      new Promise((done, fail) => {
        const check = () => {
          const match = text.match(pattern);
          if (match) {
            listeners.delete(check);
            done(match);
          } else if (exitCode !== undefined) {
            listeners.delete(check);
            fail(new Error(`the server exited (${exitCode}) before printing ${pattern}:\n${text}`));
          }
        };
        listeners.add(check);
        check();
      }),
    stop: async () => {
      if (exitCode === undefined) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A started server and the address it listens on. */
export interface RunningServer extends ServerProcess {
  url: string;
  /** `fetch` on the server's address. */
  request(path: string, init?: RequestInit): Promise<Response>;
}

/** Starts the server and waits until it listens. */
export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const server = spawnServer(env);
  const [, port] = await server.waitFor(/"msg":"listening".*?localhost:(\d+)/);
  const url = `http://127.0.0.1:${port}`;
  return { ...server, url, request: (path, init) => fetch(`${url}${path}`, init) };
}
