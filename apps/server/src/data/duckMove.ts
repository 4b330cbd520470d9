import type { DuckDBConnection } from '@duckdb/node-api';
import type { TableRow } from './catalog';
import { DUCK_META_TABLE, inDuckTransaction, withDuck } from './duckFiles';
import { duckRows } from './duckKysely';
import { dq, ensureDuckTable } from './duckTables';
import type { Meta } from './plane';

/**
 * Creates `as` in the file of `to` with the columns of `name` in the file of `from` (same types, `time` not
 * null) and copies its rows (`order`: an ORDER BY, or empty) as DuckDB's own data chunks, read by `from`
 * and handed to `to`'s appender: no ATTACH, no values converted in JavaScript.
 */
export async function copyDuckTable(
  from: DuckDBConnection,
  to: DuckDBConnection,
  name: string,
  as: string,
  order: string,
): Promise<void> {
  const columns = await duckRows<{ name: string; type: string }>(
    from,
    'SELECT column_name AS name, data_type AS type FROM duckdb_columns() WHERE table_name = $1 ORDER BY column_index',
    [name],
  );
  const ddl = columns.map((c) => `${dq(c.name)} ${c.type}${c.name === 'time' ? ' NOT NULL' : ''}`).join(', ');
  await to.run(`CREATE TABLE ${dq(as)} (${ddl})`);
  const result = await from.stream(`SELECT * FROM ${dq(name)} ${order}`);
  const appender = await to.createAppender(as);
  try {
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk())
      appender.appendDataChunk(chunk);
  } finally {
    appender.closeSync();
  }
}

/**
 * Copies a table with its columns, rows (in insertion order) and figures from the file `source` into the file
 * `dest` in one transaction of `dest`, replacing a leftover of the name there. The two files have owners of
 * their own (no ATTACH of an open file): the rows cross as DuckDB's own data chunks, read from the source and
 * handed to the destination's appender.
 */
export async function moveDuckTable(source: string, dest: string, table: TableRow): Promise<void> {
  await withDuck(source, async (from) => {
    const meta = await inDuckTransaction(source, (conn) => ensureDuckTable(conn, table));
    const [figures] = await duckRows<Meta>(from, `SELECT * FROM ${DUCK_META_TABLE} WHERE name = $1`, [table.name]);
    await inDuckTransaction(dest, async (to) => {
      await to.run(`DROP TABLE IF EXISTS ${dq(table.name)}`);
      await duckRows(to, `DELETE FROM ${DUCK_META_TABLE} WHERE name = $1`, [table.name]);
      await copyDuckTable(from, to, table.name, table.name, 'ORDER BY rowid');
      const m = figures ?? meta;
      await duckRows(
        to,
        `INSERT INTO ${DUCK_META_TABLE} (name, schema_json, row_count, bytes, max_time, updated_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [m.name, m.schema_json, m.row_count, m.bytes, m.max_time, m.updated_at],
      );
    });
  });
}
