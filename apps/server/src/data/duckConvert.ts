import { createHash, type Hash } from 'node:crypto';
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBBlobValue, type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import type { Logger } from '../platform/logger';
import type { Stored } from './columns';
import { readMetaSchema } from './columns';
import { DuckRowAppender } from './duckAppend';
import { DUCK_META_TABLE, META_DDL } from './duckFiles';
import { duckRows } from './duckKysely';
import { dq, duckType } from './duckTables';
import type { Meta } from './plane';

/**
 * The one-time upgrade of a data directory written by the SQLite data plane (decision 0031): each customer
 * database's SQLite file is read with better-sqlite3 and appended into a new DuckDB file beside it
 * (`<id>.duckdb.converting`), table by table, in rowid order. For each table the row count and a SHA-256 of
 * its rows (every value, in order) are computed from the SQLite rows as read and again from the DuckDB rows as
 * written; only when every table matches is the DuckDB file renamed into place and the SQLite file renamed to
 * `<id>.sqlite.converted` (kept until an operator deletes it). Any failure deletes the new file, leaves the
 * SQLite file as it was, and says which database and table failed and why; the server then does not start.
 */

export interface ConvertedDatabase {
  file: string;
  tables: { name: string; rows: number; sha256: string }[];
}

/** One value as the checksum sees it, whichever engine read it. */
function feed(hash: Hash, v: unknown): void {
  if (v === null || v === undefined) hash.update('\u0000n');
  else if (typeof v === 'number' || typeof v === 'bigint') hash.update(`\u0000#${v}`);
  else if (v instanceof Uint8Array || v instanceof DuckDBBlobValue) {
    hash.update('\u0000b');
    hash.update(v instanceof DuckDBBlobValue ? v.bytes : v);
  } else hash.update(`\u0000s${String(v)}`);
}

function sqliteTables(db: Database.Database): Meta[] {
  const found = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_svc$tables'").get();
  if (!found) return [];
  return db.prepare('SELECT * FROM "_svc$tables" ORDER BY name').all() as Meta[];
}

/** Copies one table; returns its row count and the checksum of the SQLite rows. */
async function copyTable(db: Database.Database, conn: DuckDBConnection, meta: Meta) {
  const schema = readMetaSchema(meta.schema_json);
  const names = ['time', ...schema.map(([name]) => name)];
  const ddl = ['time BIGINT NOT NULL', ...schema.map(([name, type]) => `${dq(name)} ${duckType(type)}`)];
  await conn.run(`CREATE TABLE ${dq(meta.name)} (${ddl.join(', ')})`);
  const out = await DuckRowAppender.open(conn, meta.name, ['long', ...schema.map(([, type]) => type)]);
  const hash = createHash('sha256');
  let rows = 0;
  try {
    const read = db
      .prepare(`SELECT ${names.map(dq).join(', ')} FROM ${dq(meta.name)} ORDER BY rowid`)
      .raw(true)
      .safeIntegers(true);
    for (const row of read.iterate() as Iterable<Stored[]>) {
      for (const v of row) feed(hash, v);
      out.add(row);
      rows++;
    }
  } finally {
    out.end();
  }
  await duckRows(
    conn,
    `INSERT INTO ${DUCK_META_TABLE} (name, schema_json, row_count, bytes, max_time, updated_at) VALUES ($1, $2, $3, $4, $5, $6)`,
    [meta.name, meta.schema_json, meta.row_count, meta.bytes, meta.max_time, meta.updated_at],
  );
  return { rows, sha256: hash.digest('hex'), names };
}

/** The row count and checksum of a table as DuckDB holds it. */
async function checkTable(conn: DuckDBConnection, table: string, names: string[]) {
  const hash = createHash('sha256');
  let rows = 0;
  const result = await conn.stream(`SELECT ${names.map(dq).join(', ')} FROM ${dq(table)} ORDER BY rowid`);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    for (const row of chunk.getRows()) for (const v of row) feed(hash, v);
    rows += chunk.rowCount;
  }
  return { rows, sha256: hash.digest('hex') };
}

/** Converts one SQLite file into `target` (a new DuckDB file); throws what failed. */
async function convertFile(source: string, target: string): Promise<ConvertedDatabase['tables']> {
  const db = new Database(source, { fileMustExist: true });
  const instance = await DuckDBInstance.create(target, { threads: '2', enable_external_access: 'false' });
  const conn = await instance.connect();
  try {
    await conn.run(META_DDL);
    const done: ConvertedDatabase['tables'] = [];
    for (const meta of sqliteTables(db)) {
      await conn.run('BEGIN TRANSACTION');
      let copied: Awaited<ReturnType<typeof copyTable>>;
      try {
        copied = await copyTable(db, conn, meta);
        await conn.run('COMMIT');
      } catch (err) {
        throw new Error(`table "${meta.name}": ${err instanceof Error ? err.message : String(err)}`);
      }
      const check = await checkTable(conn, meta.name, copied.names);
      if (check.rows !== copied.rows || check.sha256 !== copied.sha256) {
        throw new Error(
          `table "${meta.name}": ${copied.rows} rows (sha256 ${copied.sha256}) read, but ${check.rows} rows (sha256 ${check.sha256}) in DuckDB`,
        );
      }
      done.push({ name: meta.name, rows: copied.rows, sha256: copied.sha256 });
    }
    await conn.run('CHECKPOINT');
    return done;
  } finally {
    conn.closeSync();
    instance.closeSync();
    db.close();
  }
}

/**
 * Converts every customer database of `dataDir` still in SQLite (`databases/<account>/<id>.sqlite` without a
 * `.duckdb` beside it), logging a line per database. Throws after the first failure, naming it; databases
 * converted before it stay converted, the failed one and those after it stay in SQLite.
 */
export async function convertSqliteData(dataDir: string, logger: Logger): Promise<ConvertedDatabase[]> {
  const root = join(dataDir, 'databases');
  if (!existsSync(root)) return [];
  const converted: ConvertedDatabase[] = [];
  for (const account of readdirSync(root).sort()) {
    for (const name of readdirSync(join(root, account)).sort()) {
      if (!name.endsWith('.sqlite')) continue;
      const source = join(root, account, name);
      const final = source.replace(/\.sqlite$/, '.duckdb');
      if (existsSync(final)) continue;
      const target = `${final}.converting`;
      for (const leftover of [target, `${target}.wal`]) rmSync(leftover, { force: true });
      const started = Date.now();
      let tables: ConvertedDatabase['tables'];
      try {
        tables = await convertFile(source, target);
      } catch (err) {
        for (const leftover of [target, `${target}.wal`]) rmSync(leftover, { force: true });
        const why = err instanceof Error ? err.message : String(err);
        throw new Error(
          `Converting the customer database file ${source} to DuckDB failed, so it was left as it was: ${why}`,
        );
      }
      renameSync(target, final);
      renameSync(source, `${source}.converted`);
      for (const suffix of ['-wal', '-shm']) rmSync(`${source}${suffix}`, { force: true });
      const rows = tables.reduce((n, t) => n + t.rows, 0);
      logger.info('customer database converted to DuckDB', {
        file: source,
        tables: tables.length,
        rows,
        ms: Date.now() - started,
      });
      converted.push({ file: source, tables });
    }
  }
  return converted;
}
