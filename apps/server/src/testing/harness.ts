import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountWithAdmin, type NewAccount } from '../accounts';
import { type AppOptions, createApp } from '../app';
import { STRICT_OUTBOUND } from '../platform/addressPolicy';
import { ManualClock } from '../platform/clock';
import type { Config } from '../platform/config';
import type { AppDeps } from '../platform/context';
import { memoryLogger } from '../platform/logger';
import type { OpenedStorage } from '../platform/storage';
import { watchQueries } from './queryWatch';
import { type TestDatabase, testDatabase } from './storage';

export interface Harness {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  clock: ManualClock;
  logs: string[];
  dataDir: string;
  /** The first account, its administrator and keys. */
  admin: NewAccount;
  /** Creates another account with its own administrator and keys. */
  newAccount(name: string): Promise<NewAccount>;
  /** Calls the app in-process with an API key (or none). */
  call(method: string, path: string, opts?: CallOptions): Promise<Response>;
  /**
   * Starts a second node: another app with its own connection to the same database and data folder, the
   * same secret, clock and first account (two nodes, one database). Close it before this harness.
   */
  secondNode(): Promise<Harness>;
  /** Stops this app as a crash would (jobs left as they are) and starts a new one on the same data. */
  restart(options?: HarnessOptions): Promise<Harness>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  app?: AppOptions;
  /** The storage backend, when a test compares both (the suite's backend by default: testBackend()). */
  backend?: 'sqlite' | 'postgres';
  /**
   * Told of every statement the app runs on the control database (queryWatch.ts), with its SQL text: a test
   * counts the round trips a request makes.
   */
  onQuery?: (text: string) => void;
}

export interface CallOptions {
  key?: string | null;
  json?: unknown;
  form?: Record<string, string>;
  body?: RequestInit['body'];
  headers?: Record<string, string>;
}

/** Headers and body of a call: JSON or a form when given, with their content type, else the raw body. */
export function withBody(
  opts: Pick<CallOptions, 'json' | 'form' | 'body'>,
  headers: Record<string, string> = {},
): { headers: Record<string, string>; body?: RequestInit['body'] } {
  if (opts.json !== undefined) {
    return { headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(opts.json) };
  }
  if (opts.form) {
    return {
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(opts.form).toString(),
    };
  }
  return opts.body === undefined ? { headers } : { headers, body: opts.body };
}

let counter = 0;

/** The real app on a real SQLite file in a temporary folder, with one seeded account. */
export async function createHarness(overrides: Partial<Config> = {}, options: HarnessOptions = {}): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-test-'));
  const config: Config = {
    port: 0,
    dataDir,
    secret: 'test-secret-0123456789',
    consoleDir: null,
    seed: {},
    sessionIdleMs: 60 * 60 * 1000,
    outbound: STRICT_OUTBOUND,
    ...overrides,
  };
  return start(
    config,
    new ManualClock(Date.UTC(2026, 10, 22, 9, 0, 0)),
    options,
    null,
    await testDatabase(dataDir, options.backend),
    true,
  );
}

async function start(
  config: Config,
  clock: ManualClock,
  options: HarnessOptions,
  seeded: NewAccount | null,
  database: TestDatabase,
  /** The first node owns the data: closing it drops the database and the folder; a second node leaves them. */
  owner: boolean,
): Promise<Harness> {
  const { dataDir } = config;
  const logger = memoryLogger();
  const opened: OpenedStorage = await database.open();
  const storage = options.onQuery ? watchQueries(opened, options.onQuery) : opened;
  const deps: AppDeps = { storage, config, clock, logger };
  // The engine's and the scheduler's timers would run on the wall clock's schedule; tests tick them by hand.
  const app = createApp(deps, { journeyEngine: { intervalMs: 0 }, schedules: { intervalMs: 0 }, ...options.app });
  await app.ready;
  const newAccount = (name: string) =>
    createAccountWithAdmin(deps, {
      accountName: name,
      email: `admin${++counter}@${name.toLowerCase().replace(/[^a-z0-9]/g, '')}.test`,
      password: 'correct horse battery',
    });
  const admin = seeded ?? (await newAccount('First'));
  const call = async (method: string, path: string, opts: CallOptions = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    const key = opts.key === undefined ? admin.masterKey : opts.key;
    if (key !== null) headers.authorization = `SVC1 ${key}`;
    return app.request(path, { method, ...withBody(opts, headers) });
  };
  const stop = async () => {
    await app.stop();
    await storage.close();
  };
  return {
    app,
    deps,
    clock,
    logs: logger.lines,
    dataDir,
    admin,
    newAccount,
    call,
    secondNode: () => start(config, clock, options, admin, database, false),
    restart: async (next = options) => {
      await stop();
      return start(config, clock, next, admin, database, owner);
    },
    close: async () => {
      await stop();
      if (!owner) return;
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
