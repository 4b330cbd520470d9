import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import type { Harness } from '../harness';

/**
 * td-client-node (npm `td`, unmodified) against the real app listening on a loopback port: the client
 * speaks HTTP through its own `request` library, so this checks what goes over the wire, not app.request.
 */

type Callback = (err: Error | null, body: unknown) => void;

/** The client's methods, as lib/index.js of td 0.5.0 declares them (callback last). */
export interface TDClient {
  listDatabases(cb: Callback): void;
  createDatabase(db: string, cb: Callback): void;
  deleteDatabase(db: string, cb: Callback): void;
  listTables(db: string, cb: Callback): void;
  createLogTable(db: string, table: string, cb: Callback): void;
  createItemTable(db: string, table: string, cb: Callback): void;
  createTable(db: string, table: string, type: string, cb: Callback): void;
  swapTable(db: string, table1: string, table2: string, cb: Callback): void;
  updateSchema(db: string, table: string, schema: unknown, cb: Callback): void;
  deleteTable(db: string, table: string, cb: Callback): void;
  tail(db: string, table: string, count: number, cb: Callback): void;
  listJobs(cb: Callback): void;
  listJobs(from: number, to: number, status: string, cb: Callback): void;
  showJob(id: string, cb: Callback): void;
  jobResult(id: string, format: string, cb: Callback): void;
  jobResult(id: string, cb: Callback): void;
  kill(id: string, cb: Callback): void;
  hiveQuery(db: string, query: string, cb: Callback): void;
  prestoQuery(db: string, query: string, opts: Record<string, unknown>, cb: Callback): void;
  trinoQuery(db: string, query: string, cb: Callback): void;
  export(db: string, table: string, storageType: string, opts: Record<string, unknown>, cb: Callback): void;
  createSchedule(name: string, opts: Record<string, unknown>, cb: Callback): void;
  deleteSchedule(name: string, cb: Callback): void;
  listSchedules(cb: Callback): void;
  updateSchedule(name: string, params: Record<string, unknown>, cb: Callback): void;
  history(name: string, cb: Callback): void;
  runSchedule(name: string, time: string | number, cb: Callback): void;
  import(
    db: string,
    table: string,
    format: string,
    stream: NodeJS.ReadableStream,
    size: number,
    uniqueId: string | Callback,
    cb?: Callback,
  ): void;
  listResult(cb: Callback): void;
  createResult(name: string, url: string, cb: Callback): void;
  deleteResult(name: string, url: string, cb: Callback): void;
  serverStatus(cb: Callback): void;
  createBulkImport(name: string, db: string, table: string, cb: Callback): void;
  deleteBulkImport(name: string, cb: Callback): void;
  showBulkImport(name: string, cb: Callback): void;
  listBulkImports(cb: Callback): void;
  listBulkImportParts(name: string, cb: Callback): void;
  bulkImportUploadPart(name: string, part: string, stream: NodeJS.ReadableStream, cb: Callback): void;
  bulkImportDeletePart(name: string, part: string, cb: Callback): void;
  performBulkImport(name: string, cb: Callback): void;
  commitBulkImport(name: string, cb: Callback): void;
}

const load = createRequire(import.meta.url);
const { TDClient: Client } = load('td') as { TDClient: new (key: string, options: object) => TDClient };

/** The outcome of one callback call: what the client hands its caller. */
export interface Outcome<T = Record<string, unknown>> {
  err: Error | null;
  body: T;
}

/** Calls a client method and resolves with its callback's arguments (an error is an outcome, not a throw). */
export function call<T = Record<string, unknown>>(start: (cb: Callback) => void): Promise<Outcome<T>> {
  return new Promise((resolve) => start((err, body) => resolve({ err, body: body as T })));
}

/** Like `call`, but fails with the client's error, so a test reads the body directly. */
export async function ok<T = Record<string, unknown>>(start: (cb: Callback) => void): Promise<T> {
  const { err, body } = await call<T>(start);
  if (err) throw new Error(`the client reported: ${err.message} ${JSON.stringify(body)}`);
  return body;
}

export interface Listening {
  port: number;
  /** A client with `key`, unmodified except its endpoint (host and protocol options). */
  client(key: string): TDClient;
  close(): Promise<void>;
}

/** Serves the harness's app on a free loopback port. */
export async function listen(h: Harness): Promise<Listening> {
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: h.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    client: (key) => new Client(key, { host: `127.0.0.1:${port}`, protocol: 'http' }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
