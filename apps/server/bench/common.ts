import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { encodePart } from '@svc/bulk-format';
import { createAccountWithAdmin, type NewAccount } from '../src/accounts/seed';
import { createApp } from '../src/app';
import { systemClock } from '../src/platform/clock';
import type { Config } from '../src/platform/config';
import type { AppDeps } from '../src/platform/context';
import { createLogger } from '../src/platform/logger';
import { type OpenedStorage, openStorage } from '../src/platform/storage';
import { freshTestDatabase } from '../src/testing/storage';

/** Pieces every bench uses: a real app on a temporary data directory, a load generator, a timer. */

export interface BenchApp {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  account: NewAccount;
  dataDir: string;
  call(
    method: string,
    path: string,
    init?: { body?: RequestInit['body']; headers?: Record<string, string> },
  ): Promise<Response>;
  close(): void;
}

/**
 * Uploads `total` rows made by `rows` into the bulk import session `name` (already created) in parts of 100,000
 * rows, then performs it and waits for the perform job to succeed.
 */
export async function uploadAndPerform(
  bench: BenchApp,
  name: string,
  total: number,
  rows: (from: number, count: number) => Record<string, string | number>[],
): Promise<void> {
  const partRows = 100_000;
  for (let at = 0, n = 0; at < total; at += partRows, n++) {
    const part = await encodePart(rows(at, Math.min(partRows, total - at)));
    await expectOk(
      bench.call('PUT', `/v3/bulk_import/upload_part/${name}/p${n}`, {
        body: part,
        headers: { 'content-type': 'application/octet-stream' },
      }),
    );
  }
  const { job_id: jobId } = await expectOk(bench.call('POST', `/v3/bulk_import/perform/${name}`));
  const status = await bench.app.services.jobs.whenSettled(jobId as number);
  if (status !== 'success') throw new Error(`The perform of ${name} ended ${status}.`);
}

/** Which backend this bench process measures (`scripts/bench.mjs` runs every bench once on each). */
export function benchBackend(): 'sqlite' | 'postgres' {
  return process.env.SVC_BENCH_BACKEND === 'postgres' ? 'postgres' : 'sqlite';
}

/**
 * The bench's storage: a SQLite file in its data directory, or a fresh database on the PostgreSQL server of
 * `SVC_TEST_PG_URL` (the bench command starts one), dropped when the bench ends.
 */
export async function benchStorage(dataDir: string): Promise<OpenedStorage> {
  if (benchBackend() === 'sqlite') return openStorage({ backend: 'sqlite', file: join(dataDir, 'control.sqlite') });
  const database = await freshTestDatabase();
  const storage = await openStorage({ backend: 'postgres', url: database.url });
  const close = storage.close;
  return Object.assign(storage, { close: () => close().then(() => database.drop()) });
}

/** The whole app, as `npm start` builds it, on a fresh data directory; request logs go nowhere. */
export async function benchApp(): Promise<BenchApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const config: Config = {
    port: 0,
    dataDir,
    secret: 'bench-secret-0123456789',
    consoleDir: null,
    seed: {},
    sessionIdleMs: 60 * 60 * 1000,
  };
  const storage = await benchStorage(dataDir);
  const deps: AppDeps = { storage, config, clock: systemClock, logger: createLogger(() => {}) };
  const account = await createAccountWithAdmin(deps, {
    accountName: 'Bench',
    email: 'bench@bench.local',
    password: 'bench password 123',
  });
  // As `npm start` builds it: background workers start with the app. Journeys run only when a bench asks: the
  // schedule's own run of a launched journey would land in whatever the bench times a minute later.
  const app = createApp(deps, { workers: { prewarm: true }, journeyEngine: { intervalMs: 0 } });
  return {
    app,
    deps,
    account,
    dataDir,
    call: async (method, path, init = {}) =>
      app.request(path, {
        method,
        headers: { authorization: `SVC1 ${account.masterKey}`, ...init.headers },
        ...(init.body !== undefined ? { body: init.body } : {}),
      }),
    close: () => {
      app.stop();
      void storage.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function expectOk(res: Response | Promise<Response>): Promise<Record<string, unknown>> {
  const r = await res;
  const text = await r.text();
  if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

export function seconds(since: bigint): number {
  return Number(process.hrtime.bigint() - since) / 1e9;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

export interface LoadResult {
  ok: number;
  failed: number;
  seconds: number;
  perSecond: number;
}

/**
 * Keeps `concurrency` keep-alive connections busy against 127.0.0.1:`port` for `durationMs`, each sending
 * its next request as soon as the previous answer has arrived. Counts 200 answers.
 */
export async function load(opts: {
  port: number;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  concurrency: number;
  durationMs: number;
}): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.concurrency });
  const body = opts.body === undefined ? undefined : Buffer.from(opts.body);
  const headers = { ...opts.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
  let ok = 0;
  let failed = 0;
  const started = process.hrtime.bigint();
  const deadline = Date.now() + opts.durationMs;
  const once = () =>
    new Promise<void>((resolve) => {
      const req = request(
        { host: '127.0.0.1', port: opts.port, method: opts.method, path: opts.path, headers, agent },
        (res) => {
          res.on('data', () => {});
          res.on('end', () => {
            if (res.statusCode === 200) ok++;
            else failed++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        failed++;
        resolve();
      });
      req.end(body);
    });
  const worker = async () => {
    while (Date.now() < deadline) await once();
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  const elapsed = seconds(started);
  agent.destroy();
  return { ok, failed, seconds: elapsed, perSecond: ok / elapsed };
}

/**
 * Every bench ends by printing one line the runner reads: its figures as JSON. The process then ends within
 * seconds even if something still holds it open (a PostgreSQL pool waiting for a cancelled query's connection).
 */
export function report(result: Record<string, unknown>): void {
  process.stdout.write(`BENCH_RESULT ${JSON.stringify(result)}\n`);
  setTimeout(() => process.exit(0), 5000).unref();
}

/**
 * Serves a bench app on 127.0.0.1 and an ephemeral port, prints `describe(port)` as one JSON line for the
 * parent process, and stops on SIGTERM or when the parent closes stdin (after `onStop`).
 */
export function serveBench(bench: BenchApp, describe: (port: number) => object, onStop?: () => void): void {
  const server = serve({ fetch: bench.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
    process.stdout.write(`${JSON.stringify(describe(info.port))}\n`);
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    onStop?.();
    server.close();
    bench.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop);
  process.stdin.resume();
}

/**
 * Starts a server script of this folder in its own process (with extra Node flags, e.g. --cpu-prof) and
 * resolves once it prints its first line: the JSON of what the bench needs to reach it.
 */
export async function startServerProcess<T>(
  script: string,
  nodeFlags: string[] = [],
): Promise<{ child: ChildProcess; info: T }> {
  const here = dirname(fileURLToPath(import.meta.url));
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', join(here, script)], {
    cwd: join(here, '..'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout as NodeJS.ReadableStream }), 'line')) as [string];
  return { child, info: JSON.parse(line) as T };
}
