import type { DuckDBConnection } from '@duckdb/node-api';
import { sql } from 'kysely';
import type { AppDeps } from '../platform/context';
import { workIfAny } from '../platform/work';
import type { DatabaseRow, TableRow } from './catalog';
import { readMetaSchema, type SchemaEntry, type Stored, storeAs, storedBytes } from './columns';
import { DuckRowAppender } from './duckAppend';
import { DUCK_META_TABLE, deleteDuckFile, duckFile, exclusive, inDuckTransaction, withDuck } from './duckFiles';
import { duckKysely, duckRows } from './duckKysely';
import { moveDuckTable } from './duckMove';
import { readDuck } from './duckReads';
import {
  applyDuckSchema,
  type DuckTxState,
  dq,
  dropDuckTable,
  duckMetaSelect,
  duckMetaUpdate,
  duckType,
  ensureDuckTable,
  saveDuckMeta,
  swapDuckTables,
} from './duckTables';
import { type DataPlane, type DataTx, type MergeResult, type Meta, type PreparedRecord, tableLimits } from './plane';
import { type ColumnSummary, type RowBlock, summaryGrowth } from './rowBlocks';
import { grownMeta, lastPerKey, rowBytes, schemaGrowth, shrunkMeta, storedRows } from './rows';

/**
 * The DuckDB data plane (decision 0031): one DuckDB file per customer database (duckFiles.ts), its tables
 * columnar, written through DuckDB's appender inside one transaction per `transaction` call together with the
 * figures and the caller's own statements (`DataTx.ex`, a Kysely instance on the same connection).
 */

const typesOf = (schema: SchemaEntry[]) => ['long', ...schema.map(([, type]) => type)];

/**
 * A write's figures wait to be written with the transaction's next statement or with its COMMIT, in one call:
 * each call to DuckDB is a hop to a pool thread and back, about 1 ms on a busy machine, and a group commit of a
 * few rows used to make nine of them.
 */
async function saveFigures(tx: DuckTxState, meta: Meta): Promise<void> {
  if (duckMetaUpdate(meta) === null) {
    await flushFigures(tx);
    await saveDuckMeta(tx.conn, meta);
    return;
  }
  tx.pending.set(meta.name, meta);
}

/** The statements saving the figures that wait, and none wait afterwards ('' when none did). */
function takeFigures(tx: DuckTxState): string {
  let text = '';
  for (const meta of tx.pending.values()) text += `${duckMetaUpdate(meta)};\n`;
  tx.pending.clear();
  return text;
}

/** A table's figures in this transaction: those waiting to be written if any, else read (or known) and created. */
function figuresOf(tx: DuckTxState, table: TableRow): Promise<Meta> {
  const waiting = tx.pending.get(table.name);
  return waiting ? Promise.resolve(waiting) : ensureDuckTable(tx.conn, table, tx.known);
}

/** Writes the figures that wait: before any other statement of the transaction. */
async function flushFigures(tx: DuckTxState): Promise<void> {
  const text = takeFigures(tx);
  if (text !== '') await tx.conn.run(text);
}

async function growFor(tx: DuckTxState, meta: Meta, growth: SchemaEntry[]): Promise<SchemaEntry[]> {
  const schema = readMetaSchema(meta.schema_json);
  if (growth.length === 0) return schema;
  await flushFigures(tx);
  return applyDuckSchema(tx, meta, growth, false, tableLimits.maxColumns);
}

/** Appends prepared records to one table inside the transaction; returns the figures. */
async function writeRecords(tx: DuckTxState, meta: Meta, records: PreparedRecord[], now: number): Promise<Meta> {
  const schema = await growFor(tx, meta, schemaGrowth(readMetaSchema(meta.schema_json), records));
  const out = await DuckRowAppender.open(tx.conn, meta.name, typesOf(schema));
  let figures: { bytes: number; maxTime: number | null };
  try {
    figures = storedRows(schema, records, (row) => out.add(row));
  } finally {
    out.end();
  }
  Object.assign(meta, grownMeta(meta, records.length, figures), { updated_at: now });
  await saveFigures(tx, meta);
  return meta;
}

/** Rows appended between two turns of the owner thread's event loop (about 10 ms of appending). */
const YIELD_EVERY = 8192;

/** Appends staged blocks (plane.ts `appendBlocks`) inside the transaction; returns the figures. */
async function writeBlocks(
  tx: DuckTxState,
  meta: Meta,
  summary: ColumnSummary,
  blocks: Iterable<RowBlock>,
  now: number,
): Promise<Meta> {
  const schema = await growFor(tx, meta, summaryGrowth(readMetaSchema(meta.schema_json), summary));
  const at = new Map(schema.map(([name], i) => [name, i + 1]));
  const types = typesOf(schema);
  const figures = { rows: 0, bytes: 0, maxTime: null as number | null };
  const out = await DuckRowAppender.open(tx.conn, meta.name, types);
  let sinceYield = 0;
  try {
    const row: Stored[] = new Array(types.length);
    for (const block of blocks) {
      const cols: { pos: number; type: string; values: unknown[] }[] = [];
      block.columns.forEach((column, c) => {
        const pos = at.get(column);
        if (pos !== undefined) cols.push({ pos, type: types[pos] as string, values: block.values[c] as unknown[] });
      });
      for (let r = 0; r < block.time.length; r++) {
        row.fill(null);
        const time = block.time[r] as number;
        row[0] = time;
        if (figures.maxTime === null || time > figures.maxTime) figures.maxTime = time;
        let bytes = 8;
        for (const { pos, type, values } of cols) {
          const v = values[r];
          if (v === undefined) continue;
          const stored = storeAs(type, v);
          row[pos] = stored;
          bytes += storedBytes(stored);
        }
        figures.bytes += bytes;
        out.add(row);
        // The file's owner thread serves every file it owns: a million-row commit gives the other files' writes
        // (a postback to another database) a turn every YIELD_EVERY rows instead of holding the thread for seconds.
        if (++sinceYield === YIELD_EVERY) {
          sinceYield = 0;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      figures.rows += block.time.length;
    }
  } finally {
    out.end();
  }
  Object.assign(meta, grownMeta(meta, figures.rows, figures), { updated_at: now });
  await saveFigures(tx, meta);
  return meta;
}

/** Upserts by key (plane.ts `merge`): the rows of each key deleted by a join on the keys, then the records written. */
async function mergeRecords(
  tx: DuckTxState,
  table: TableRow,
  records: PreparedRecord[],
  key: string[],
  now: number,
): Promise<MergeResult> {
  const meta = await ensureDuckTable(tx.conn, table, tx.known);
  const schema = await growFor(tx, meta, schemaGrowth(readMetaSchema(meta.schema_json), records));
  const keyed = lastPerKey(table.name, schema, records, key);
  const types = new Map(schema.map(([name, type]) => [name, type]));
  const keyTypes = key.map((k) => types.get(k) ?? 'string');
  const helper = '_svc$mergekeys';
  const conn = tx.conn;
  await conn.run(`DROP TABLE IF EXISTS ${dq(helper)}`);
  await conn.run(
    `CREATE TABLE ${dq(helper)} (${key.map((k, i) => `${dq(k)} ${duckType(keyTypes[i] as string)}`).join(', ')})`,
  );
  const keysOut = await DuckRowAppender.open(conn, helper, keyTypes);
  for (const k of keyed.keys) keysOut.add(k);
  keysOut.end();
  const on = key.map((k) => `t.${dq(k)} = k.${dq(k)}`).join(' AND ');
  const gone = await duckRows(conn, `DELETE FROM ${dq(meta.name)} t USING ${dq(helper)} k WHERE ${on} RETURNING t.*`);
  await conn.run(`DROP TABLE ${dq(helper)}`);
  let bytes = 0;
  for (const row of gone) bytes += rowBytes(row);
  if (gone.length > 0) tx.deletedFrom.add(meta.name);
  await writeRecords(tx, meta, keyed.records, now);
  if (gone.length > 0) {
    const [max] = await duckRows<{ m: number | null }>(conn, `SELECT max(time) AS m FROM ${dq(meta.name)}`);
    Object.assign(meta, shrunkMeta(meta, gone.length, bytes, max?.m ?? null));
    await saveFigures(tx, meta);
  }
  return { meta, inserted: keyed.records.length, replaced: gone.length };
}

/** The operations of a data transaction; figures that wait are written before anything but an append reads. */
function dataTx(tx: DuckTxState, ex: DataTx['ex']): DataTx {
  const conn = tx.conn;
  return {
    ex,
    table: (name) => sql.table(name),
    async hasTable(name) {
      await flushFigures(tx);
      return (await duckRows(conn, 'SELECT 1 FROM duckdb_tables() WHERE table_name = $1', [name])).length > 0;
    },
    async ensureTable(name, columns) {
      await flushFigures(tx);
      await conn.run(`CREATE TABLE IF NOT EXISTS ${dq(name)} (${columns})`);
    },
    async append(table, records, now) {
      return writeRecords(tx, await figuresOf(tx, table), records, now);
    },
    async appendBlocks(table, summary, blocks, now) {
      return writeBlocks(tx, await figuresOf(tx, table), summary, blocks, now);
    },
    async merge(table, records, key, now) {
      await flushFigures(tx);
      return mergeRecords(tx, table, records, key, now);
    },
    async changeSchema(table, schema, mode) {
      await flushFigures(tx);
      tx.known.clear();
      const meta = await ensureDuckTable(conn, table);
      await applyDuckSchema(tx, meta, schema, mode === 'replace', tableLimits.maxColumns);
      await duckRows(conn, `UPDATE ${DUCK_META_TABLE} SET schema_json = $1 WHERE name = $2`, [
        meta.schema_json,
        meta.name,
      ]);
      return meta;
    },
    ensureDataTable: (table) => ensureDuckTable(conn, table, tx.known),
    async dropTable(name) {
      await flushFigures(tx);
      tx.known.clear();
      await dropDuckTable(conn, name);
    },
  };
}

/**
 * One write transaction on the file's write connection: its BEGIN and the figures of the tables it names
 * (`tables`) in one call, its last figures and its COMMIT in another; the caller's own statements (`ex`) run
 * after the figures that wait.
 */
async function runDuckTransaction<T>(
  conn: DuckDBConnection,
  tables: readonly string[],
  fn: (t: DataTx) => Promise<T>,
): Promise<T> {
  const tx: DuckTxState = { conn, deletedFrom: new Set(), known: new Map(), pending: new Map() };
  const select = duckMetaSelect(tables);
  try {
    if (select) {
      for (const meta of await duckRows<Meta>(conn, `BEGIN TRANSACTION;\n${select}`)) tx.known.set(meta.name, meta);
    } else {
      await conn.run('BEGIN TRANSACTION');
    }
    const value = await fn(
      dataTx(
        tx,
        duckKysely(conn, () => flushFigures(tx)),
      ),
    );
    await conn.run(`${takeFigures(tx)}COMMIT`);
    return value;
  } catch (err) {
    await conn.run('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/**
 * Lends `work` a connection to the database's DuckDB file, opened (in this thread, its owner) with the sandbox
 * settings: what query jobs run on (jobs/query/duckdb/engine.ts).
 */
export function withDuckConnection<T>(
  deps: Pick<AppDeps, 'config'>,
  database: DatabaseRow,
  work: (conn: DuckDBConnection) => Promise<T>,
): Promise<T> {
  return withDuck(duckFile(deps.config.dataDir, database.account_id, database.id), (conn) => work(conn));
}

export function duckPlane(deps: AppDeps): DataPlane {
  const fileOf = (database: DatabaseRow) => duckFile(deps.config.dataDir, database.account_id, database.id);
  return {
    engine: 'duckdb',
    async createDatabase(database) {
      await readDuck(deps, database, { kind: 'create' });
    },
    async deleteDatabase(database) {
      await deleteDuckFile(fileOf(database));
    },
    transaction(database, fn, tables = []) {
      // The request loop has a pool and never opens a DuckDB file: writes are tasks sent to the file's owner.
      if (workIfAny(deps)) {
        return Promise.reject(new Error('A DuckDB file is written only by its owner worker (data/fileWrites.ts).'));
      }
      return exclusive(fileOf(database), (conn) => runDuckTransaction(conn, tables, fn));
    },
    figures: (database) => readDuck(deps, database, { kind: 'figures' }),
    tail: (database, table, count) => readDuck(deps, database, { kind: 'tail', table, count }),
    rows: (database, table) => readDuck(deps, database, { kind: 'rows', table }),
    async swapTables(database, a, b, catalog) {
      await inDuckTransaction(fileOf(database), (conn) => swapDuckTables(conn, a, b));
      await catalog(deps.storage.db);
    },
    async moveTable(from, to, table, catalog) {
      await moveDuckTable(deps, from, to, table, () => catalog(deps.storage.db));
    },
  };
}
