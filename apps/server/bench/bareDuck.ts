import { join } from 'node:path';
import { type DuckDBAppender, DuckDBInstance } from '@duckdb/node-api';
import { seconds } from './common';

/**
 * The bare DuckDB loop the data plane's writes are measured against: `append` fills one appender, in one
 * transaction, of a table of the benches' typed columns (time, user, action, amount, count, page) in a file of
 * its own under `dir`; answers rows/s for `rows` rows.
 */
export async function bareAppenderLoop(
  dir: string,
  rows: number,
  append: (appender: DuckDBAppender) => void,
): Promise<number> {
  const instance = await DuckDBInstance.create(join(dir, 'bare.duckdb'));
  const conn = await instance.connect();
  await conn.run(
    'CREATE TABLE bare (time BIGINT NOT NULL, "user" VARCHAR, action VARCHAR, amount DOUBLE, count BIGINT, page VARCHAR)',
  );
  const started = process.hrtime.bigint();
  await conn.run('BEGIN TRANSACTION');
  const appender = await conn.createAppender('bare');
  append(appender);
  appender.closeSync();
  await conn.run('COMMIT');
  const elapsed = seconds(started);
  conn.closeSync();
  instance.closeSync();
  return rows / elapsed;
}
