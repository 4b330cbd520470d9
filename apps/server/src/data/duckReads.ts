import type { DuckDBConnection } from '@duckdb/node-api';
import type { AppDeps } from '../platform/context';
import { workIfAny } from '../platform/work';
import type { DatabaseRow } from './catalog';
import { readMetaSchema } from './columns';
import { DUCK_META_TABLE, duckFile, duckFileExists, withDuck } from './duckFiles';
import { duckRows } from './duckKysely';
import { dq, readDuckMeta } from './duckTables';
import type { Meta } from './plane';

/**
 * The DuckDB plane's reads (figures, tails, browsing) and the creation of a database's file, run by the file's
 * owner (decision 0031): from the server, as a task sent to the worker that owns the file (`RunOptions.owner`),
 * on a lane of its own so it runs beside the file's writes, on a snapshot; inside a worker (the owner), here.
 * The request loop never opens a DuckDB file.
 */

export type DuckRead =
  | { kind: 'create' }
  | { kind: 'figures' }
  | { kind: 'tail'; table: string; count: number }
  | { kind: 'rows'; table: string };

type Rows = Record<string, unknown>[];

/** Runs a read on a connection of its own, or gives `none` when the database has no file yet. */
function read<T>(path: string, none: T, fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
  return duckFileExists(path) ? withDuck(path, fn) : Promise.resolve(none);
}

/** The read itself, in the thread that owns the file. */
export async function readDuckHere(dataDir: string, database: DatabaseRow, what: DuckRead): Promise<unknown> {
  const path = duckFile(dataDir, database.account_id, database.id);
  switch (what.kind) {
    case 'create':
      return withDuck(path, async () => null);
    case 'figures':
      return read(path, [] as Meta[], (conn) => duckRows<Meta>(conn, `SELECT * FROM ${DUCK_META_TABLE} ORDER BY name`));
    case 'tail':
      return read(path, null, async (conn) => {
        const meta = await readDuckMeta(conn, what.table);
        if (!meta) return null;
        const schema = readMetaSchema(meta.schema_json);
        const columns = ['time', ...schema.map(([name]) => name)].map(dq).join(', ');
        const rows = await duckRows(
          conn,
          `SELECT ${columns} FROM ${dq(what.table)} ORDER BY time DESC, rowid DESC LIMIT $1`,
          [what.count],
        );
        return { meta, rows };
      });
    case 'rows':
      return read(path, [] as Rows, async (conn) => {
        if (!(await readDuckMeta(conn, what.table))) return [];
        return duckRows(conn, `SELECT * FROM ${dq(what.table)} ORDER BY time, rowid`);
      });
  }
}

/** Bytes come back from a worker as Uint8Array; readers of rows get Buffers, as from the other planes. */
function withBuffers(rows: Rows): Rows {
  for (const row of rows) {
    for (const k in row) {
      const v = row[k];
      if (v instanceof Uint8Array && !Buffer.isBuffer(v)) row[k] = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    }
  }
  return rows;
}

/** Runs a read where the file's owner is: the owning worker when called from the server, else this thread. */
export async function readDuck<T>(deps: AppDeps, database: DatabaseRow, what: DuckRead): Promise<T> {
  const pool = workIfAny(deps);
  if (!pool) return (await readDuckHere(deps.config.dataDir, database, what)) as T;
  const owner = duckFile(deps.config.dataDir, database.account_id, database.id);
  const value = await pool.run('data.duck-read', { database, what }, { owner });
  if (what.kind === 'rows') withBuffers(value as Rows);
  if (what.kind === 'tail' && value) withBuffers((value as { rows: Rows }).rows);
  return value as T;
}
