import { chmodSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { duckSandboxSettings } from '../platform/duckSettings';
import { FILE_MODE, makeDir } from '../platform/fileModes';

/**
 * The DuckDB files of customer databases (decision 0031): one file per database,
 * `<dataDir>/databases/<accountId>/<databaseId>.duckdb`, with its tables in the default schema and their
 * figures in `"_svc$tables"`. A DuckDB file admits one opener per process, and two instances of one file in
 * a process are unsafe, so this registry is the file's only owner in its thread: one `DuckDBInstance` per
 * file, opened on first use, its writes taken one at a time (`exclusive`), its reads on connections of
 * their own. At most `duckLimits.openFiles` files stay open per thread; the least recently used idle one
 * is closed (checkpointed) to make room.
 */

export const duckLimits = {
  /** Files kept open per owning thread before the least recently used idle one is closed. */
  openFiles: 64,
  /** DuckDB's own memory limit per open file (its buffer pool spills to disk beyond it), a query job's too. */
  memoryLimitBytes: 1024 * 1048576,
  /** DuckDB's native threads per open file. */
  threads: 2,
};

export const DUCK_META_TABLE = '"_svc$tables"';

/** The figures table (the columns of plane.ts `Meta`); tiny, so without an index. */
export const META_DDL = `CREATE TABLE IF NOT EXISTS ${DUCK_META_TABLE} (
  name VARCHAR NOT NULL,
  schema_json VARCHAR NOT NULL,
  row_count BIGINT NOT NULL,
  bytes BIGINT NOT NULL,
  max_time BIGINT,
  updated_at BIGINT
)`;

export function duckFile(dataDir: string, accountId: number, databaseId: number): string {
  return join(dataDir, 'databases', String(accountId), `${databaseId}.duckdb`);
}

export interface DuckFile {
  readonly path: string;
  readonly instance: DuckDBInstance;
  /** Tasks using the file right now (a busy file is never closed to make room). */
  users: number;
  /** The tail of the file's write queue: one write transaction at a time. */
  writes: Promise<unknown>;
  /** The connection writes run on, kept between them (writes are one at a time); none until the first. */
  writer: DuckDBConnection | null;
  lastUsed: number;
}

/** Open files of this thread, by path: module state, because ownership is per thread, not per app. */
const files = new Map<string, Promise<DuckFile>>();

async function openFile(path: string): Promise<DuckFile> {
  makeDir(dirname(path));
  // Data written by the plane only: no file or network access for anything that runs in it, configuration
  // locked, and the value rules query jobs answer by (the one rule, platform/duckSettings.ts).
  const instance = await DuckDBInstance.create(path, {
    ...duckSandboxSettings(duckLimits.memoryLimitBytes),
    threads: String(duckLimits.threads),
  });
  // The engine makes the file by the process's umask: this file is the service's own (platform/fileModes.ts).
  // Its write-ahead log, which the engine makes and removes itself, takes the server's umask of 077.
  chmodSync(path, FILE_MODE);
  const conn = await instance.connect();
  try {
    await conn.run(META_DDL);
  } finally {
    conn.closeSync();
  }
  return { path, instance, users: 0, writes: Promise.resolve(), writer: null, lastUsed: Date.now() };
}

/** Closes idle files beyond the limit, least recently used first. */
async function makeRoom(): Promise<void> {
  if (files.size < duckLimits.openFiles) return;
  const open: DuckFile[] = [];
  for (const p of files.values()) open.push(await p);
  const idle = open.filter((f) => f.users === 0).sort((a, b) => a.lastUsed - b.lastUsed);
  for (const f of idle.slice(0, files.size - duckLimits.openFiles + 1)) closeOpen(f.path, f);
}

function closeOpen(path: string, f: DuckFile): void {
  files.delete(path);
  f.writer?.closeSync();
  f.writer = null;
  f.instance.closeSync();
}

/** How many files this thread has open (tests: the request loop opens none). */
export function openDuckFileCount(): number {
  return files.size;
}

/** Runs `fn` with the file, opened if needed, and never closed while `fn` runs. */
async function useFile<T>(path: string, fn: (f: DuckFile) => Promise<T>): Promise<T> {
  let p = files.get(path);
  if (!p) {
    await makeRoom();
    p = files.get(path);
    if (!p) {
      p = openFile(path);
      files.set(path, p);
      p.catch(() => files.delete(path));
    }
  }
  const f = await p;
  f.users++;
  f.lastUsed = Date.now();
  try {
    return await fn(f);
  } finally {
    f.users--;
  }
}

/** Runs `fn` with a new connection to the file (opened if needed); the connection closes afterwards. */
export function withDuck<T>(path: string, fn: (conn: DuckDBConnection, f: DuckFile) => Promise<T>): Promise<T> {
  return useFile(path, async (f) => {
    const conn = await f.instance.connect();
    try {
      return await fn(conn, f);
    } finally {
      conn.closeSync();
    }
  });
}

/**
 * Runs `fn` on the file's write connection after every write of this thread to the file queued before it: one
 * writer at a time. The connection is kept for the next write (connecting is a call to DuckDB of its own); one that
 * saw an error is closed, so no write inherits what a failed one left.
 */
export function exclusive<T>(path: string, fn: (conn: DuckDBConnection, f: DuckFile) => Promise<T>): Promise<T> {
  return useFile(path, (f) => {
    const run = f.writes.then(async () => {
      f.writer ??= await f.instance.connect();
      const conn = f.writer;
      try {
        return await fn(conn, f);
      } catch (err) {
        if (f.writer === conn) f.writer = null;
        conn.closeSync();
        throw err;
      }
    });
    f.writes = run.catch(() => undefined);
    return run;
  });
}

/** Closes a file (before it is deleted, on shutdown). Waits for its queued writes. */
async function closeDuckFile(path: string): Promise<void> {
  const p = files.get(path);
  if (!p) return;
  const f = await p.catch(() => null);
  if (!f) return;
  await f.writes;
  if (files.get(path) === p) closeOpen(path, f);
}

/** Closes every file this thread owns: on shutdown, and after each test. */
export async function closeDuckFiles(): Promise<void> {
  for (const path of [...files.keys()]) await closeDuckFile(path);
}

/** Closes and deletes a database's file and its write-ahead log. */
export async function deleteDuckFile(path: string): Promise<void> {
  await closeDuckFile(path);
  for (const suffix of ['', '.wal']) rmSync(`${path}${suffix}`, { force: true });
}

export function duckFileExists(path: string): boolean {
  return existsSync(path);
}

/** Runs `fn` in one DuckDB transaction on the file's write connection. */
export function inDuckTransaction<T>(path: string, fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
  return exclusive(path, async (conn) => {
    await conn.run('BEGIN TRANSACTION');
    try {
      const value = await fn(conn);
      await conn.run('COMMIT');
      return value;
    } catch (err) {
      await conn.run('ROLLBACK').catch(() => undefined);
      throw err;
    }
  });
}

export interface PrivateFile {
  conn: DuckDBConnection;
  close(): void;
}

/**
 * Opens a file on an instance of its own, with the sandbox settings of the plane's files, outside this thread's
 * registry: a derived set build's file belongs to one build and a set's current file is only read
 * (duckDerived.ts); a move's staging file belongs to one move (duckMove.ts).
 */
export async function openPrivate(path: string, readOnly: boolean): Promise<PrivateFile> {
  const instance = await DuckDBInstance.create(path, {
    ...duckSandboxSettings(duckLimits.memoryLimitBytes),
    threads: String(duckLimits.threads),
    // A build's tables have no order of their own: DuckDB may write them in parallel without keeping one.
    ...(readOnly ? { access_mode: 'READ_ONLY' } : { preserve_insertion_order: 'false' }),
  });
  if (!readOnly) chmodSync(path, FILE_MODE);
  const conn = await instance.connect().catch((err: unknown) => {
    instance.closeSync();
    throw err;
  });
  return {
    conn,
    close() {
      conn.closeSync();
      instance.closeSync();
    },
  };
}
