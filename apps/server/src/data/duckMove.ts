import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { AppDeps } from '../platform/context';
import { workIfAny } from '../platform/work';
import type { DatabaseRow, TableRow } from './catalog';
import { DUCK_META_TABLE, duckFile, inDuckTransaction, openPrivate, withDuck } from './duckFiles';
import { duckRows } from './duckKysely';
import { dq, dropDuckTable, ensureDuckTable } from './duckTables';
import type { Meta } from './plane';

/**
 * Creates `as` in the file of `to` with the columns of `name` in the file of `from` (same types, `time` not
 * null; only `time` and the columns of `pick` when given) and copies its rows (`order`: an ORDER BY, or empty)
 * as DuckDB's own data chunks, read by `from` and handed to `to`'s appender: no ATTACH, no values converted
 * in JavaScript.
 */
export async function copyDuckTable(
  from: DuckDBConnection,
  to: DuckDBConnection,
  name: string,
  as: string,
  order: string,
  pick?: string[],
): Promise<void> {
  const all = await duckRows<{ name: string; type: string }>(
    from,
    'SELECT column_name AS name, data_type AS type FROM duckdb_columns() WHERE table_name = $1 ORDER BY column_index',
    [name],
  );
  const columns = pick ? all.filter((c) => c.name === 'time' || pick.includes(c.name)) : all;
  const ddl = columns.map((c) => `${dq(c.name)} ${c.type}${c.name === 'time' ? ' NOT NULL' : ''}`).join(', ');
  await to.run(`CREATE TABLE ${dq(as)} (${ddl})`);
  const result = await from.stream(`SELECT ${columns.map((c) => dq(c.name)).join(', ')} FROM ${dq(name)} ${order}`);
  const appender = await to.createAppender(as);
  try {
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk())
      appender.appendDataChunk(chunk);
  } finally {
    appender.closeSync();
  }
}

/*
 * A table's move between two databases' files (decision 0045). Each file is opened by one thread only, its
 * owner (decision 0031), and the two files usually have different owners, so the rows are handed over through
 * a staging file of the move's own: the source's owner copies the table into it (`stageMove`), the
 * destination's owner copies it from there into its file in one transaction (`landMove`), then the catalog
 * moves and the source's owner drops its copy. From the server each step is a task sent to the owner; inside
 * a worker (no pool) every step runs in place. The caller keeps both databases' writes out meanwhile
 * (tableChanges.ts holds both lanes), so the staged rows are the table's rows until the drop.
 */

/** Copies the table (rows in insertion order) into the new file `staged`; returns its figures. */
async function stageMove(source: string, staged: string, table: TableRow): Promise<Meta> {
  const created = await inDuckTransaction(source, (conn) => ensureDuckTable(conn, table));
  return withDuck(source, async (from) => {
    const [figures] = await duckRows<Meta>(from, `SELECT * FROM ${DUCK_META_TABLE} WHERE name = $1`, [table.name]);
    const out = await openPrivate(staged, false);
    try {
      await copyDuckTable(from, out.conn, table.name, table.name, 'ORDER BY rowid');
      await out.conn.run('CHECKPOINT');
    } finally {
      out.close();
    }
    return figures ?? created;
  });
}

/** Replaces the table of `figures.name` in the file `dest` with the staged one and its figures, in one transaction. */
async function landMove(dest: string, staged: string, figures: Meta): Promise<void> {
  const input = await openPrivate(staged, true);
  try {
    await inDuckTransaction(dest, async (to) => {
      await dropDuckTable(to, figures.name);
      await copyDuckTable(input.conn, to, figures.name, figures.name, 'ORDER BY rowid');
      const m = figures;
      await duckRows(
        to,
        `INSERT INTO ${DUCK_META_TABLE} (name, schema_json, row_count, bytes, max_time, updated_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [m.name, m.schema_json, m.row_count, m.bytes, m.max_time, m.updated_at],
      );
    });
  } finally {
    input.close();
  }
}

/** Drops a table and its figures from a database's file (a moved table's source copy). */
function dropMoved(source: string, name: string): Promise<void> {
  return inDuckTransaction(source, (conn) => dropDuckTable(conn, name));
}

/** The move's steps, as tasks of the owners (data/tasks.ts). */
export type MoveStep =
  | { kind: 'stage'; database: DatabaseRow; staged: string; table: TableRow }
  | { kind: 'land'; database: DatabaseRow; staged: string; figures: Meta }
  | { kind: 'drop'; database: DatabaseRow; name: string };

/** Runs one step here, in the thread owning the step's database's file. */
export function moveStepHere(dataDir: string, step: MoveStep): Promise<unknown> {
  const file = duckFile(dataDir, step.database.account_id, step.database.id);
  switch (step.kind) {
    case 'stage':
      return stageMove(file, step.staged, step.table);
    case 'land':
      return landMove(file, step.staged, step.figures);
    case 'drop':
      return dropMoved(file, step.name);
  }
}

/**
 * The data side of a move in DuckDB files: staged by the source's owner, landed by the destination's, then
 * `catalog`, then dropped from the source by its owner. A failure before the catalog step leaves the source
 * as it was (a leftover in the destination is replaced by the next move or create of the name).
 */
export async function moveDuckTable(
  deps: AppDeps,
  from: DatabaseRow,
  to: DatabaseRow,
  table: TableRow,
  catalog: () => Promise<void>,
): Promise<void> {
  const dataDir = deps.config.dataDir;
  const pool = workIfAny(deps);
  const inOwner = <T>(step: MoveStep): Promise<T> => {
    if (!pool) return moveStepHere(dataDir, step) as Promise<T>;
    const owner = duckFile(dataDir, step.database.account_id, step.database.id);
    return pool.run('data.duck-move-step', step, { owner }) as Promise<T>;
  };
  const staged = `${duckFile(dataDir, to.account_id, to.id)}.${randomBytes(4).toString('hex')}.moving`;
  try {
    const figures = await inOwner<Meta>({ kind: 'stage', database: from, staged, table });
    await inOwner({ kind: 'land', database: to, staged, figures });
  } finally {
    for (const suffix of ['', '.wal']) rmSync(`${staged}${suffix}`, { force: true });
  }
  await catalog();
  await inOwner({ kind: 'drop', database: from, name: table.name });
}
