import { existsSync } from 'node:fs';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { AppDeps } from '../platform/context';
import type { DataExecutor, DataTables } from '../platform/storage';
import { type DatabaseRow, databaseFile, type TableRow } from './catalog';
import type { SchemaEntry } from './columns';
import { readMetaSchema } from './columns';
import {
  closeDataFile,
  type DataFile,
  dataFile,
  deleteDataFile,
  META_TABLE,
  privateDataFile,
  statement,
} from './dataFiles';
import {
  applySchema,
  copyDataTable,
  ensureDataTable,
  ensureKeyIndex,
  fromSafe,
  type Meta,
  q,
  readMeta,
  swapDataTables,
} from './dataTables';
import type { DataPlane, DataTx, MergeResult, PreparedRecord } from './plane';
import { blockColumns, type ColumnSummary, type RowBlock, storeColumns, summaryGrowth } from './rowBlocks';
import { grownMeta, lastPerKey, rowBytes, schemaGrowth, shrunkMeta, storedRows } from './rows';
import { RowInserter } from './sqliteInsert';

/**
 * The SQLite data plane: one file per customer database (dataFiles.ts), written only by background
 * workers in the file's lane. Rows and DDL go through better-sqlite3 synchronously (the fastest path for
 * millions of rows); a transaction is opened through a Kysely instance on the same connection, so callers
 * can add their own statements (`DataTx.ex`) in it and await between steps.
 */

/** The Kysely instance on a data file's connection, made on first use and kept with the open file. */
function kyselyOf(f: DataFile): Kysely<DataTables> {
  f.kysely ??= new Kysely({ dialect: new SqliteDialect({ database: f.db }) });
  return f.kysely;
}

/** Writes prepared records into one table inside the caller's transaction; returns the figures. */
function writeRecords(f: DataFile, meta: Meta, records: PreparedRecord[], now: number): Meta {
  let schema = readMetaSchema(meta.schema_json);
  const growth = schemaGrowth(schema, records);
  if (growth.length > 0) schema = applySchema(f, meta, growth, false);
  const insert = new RowInserter(
    f,
    meta.name,
    schema.map(([name]) => name),
  );
  const figures = storedRows(schema, records, (row) => insert.add(row));
  insert.end();
  Object.assign(meta, grownMeta(meta, records.length, figures), { updated_at: now });
  saveMeta(f, meta);
  return meta;
}

/** Writes staged blocks into one table inside the caller's transaction (plane.ts `appendBlocks`). */
function writeBlocks(f: DataFile, meta: Meta, summary: ColumnSummary, blocks: Iterable<RowBlock>, now: number): Meta {
  let schema = readMetaSchema(meta.schema_json);
  const growth = summaryGrowth(schema, summary);
  if (growth.length > 0) schema = applySchema(f, meta, growth, false);
  const figures = { rows: 0, bytes: 0, maxTime: null as number | null };
  for (const block of blocks) {
    const { columns, types, values } = blockColumns(schema, block);
    const insert = new RowInserter(f, meta.name, columns);
    const out = insert.values;
    for (let r = 0; r < block.time.length; r++) {
      let at = insert.at;
      const time = block.time[r] as number;
      out[at++] = time;
      if (figures.maxTime === null || time > figures.maxTime) figures.maxTime = time;
      figures.bytes += 8 + storeColumns(types, values, r, out, at);
      insert.push();
    }
    insert.end();
    figures.rows += block.time.length;
  }
  Object.assign(meta, grownMeta(meta, figures.rows, figures), { updated_at: now });
  saveMeta(f, meta);
  return meta;
}

function saveMeta(f: DataFile, meta: Meta): void {
  statement(
    f,
    `UPDATE ${META_TABLE} SET schema_json = ?, row_count = ?, bytes = ?, max_time = ?, updated_at = ? WHERE name = ?`,
  ).run(meta.schema_json, meta.row_count, meta.bytes, meta.max_time, meta.updated_at, meta.name);
}

/** Upserts by key (plane.ts `merge`): the rows of each key deleted through the key index, then the records written. */
function mergeRecords(
  f: DataFile,
  table: TableRow,
  records: PreparedRecord[],
  key: string[],
  now: number,
): MergeResult {
  const meta = ensureDataTable(f, table);
  let schema = readMetaSchema(meta.schema_json);
  const growth = schemaGrowth(schema, records);
  if (growth.length > 0) schema = applySchema(f, meta, growth, false);
  const keyed = lastPerKey(table.name, schema, records, key);
  ensureKeyIndex(f, meta.name, key);
  const where = key.map((k) => `${q(k)} = ?`).join(' AND ');
  const remove = statement(f, `DELETE FROM ${q(meta.name)} WHERE ${where} RETURNING *`);
  let replaced = 0;
  let bytes = 0;
  for (const k of keyed.keys) {
    for (const row of remove.all(...k) as Record<string, unknown>[]) {
      replaced++;
      bytes += rowBytes(row);
    }
  }
  writeRecords(f, meta, keyed.records, now);
  if (replaced > 0) {
    const max = f.db
      .prepare(`SELECT max(time) FROM ${q(meta.name)}`)
      .pluck()
      .get() as number | null;
    Object.assign(meta, shrunkMeta(meta, replaced, bytes, max));
    saveMeta(f, meta);
  }
  return { meta, inserted: keyed.records.length, replaced };
}

function dataTx(f: DataFile, ex: DataExecutor): DataTx {
  return {
    ex,
    table: (name) => sql.table(name),
    async hasTable(name) {
      return !!f.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name);
    },
    async ensureTable(name, columns) {
      f.db.exec(`CREATE TABLE IF NOT EXISTS ${q(name)} (${columns})`);
    },
    async append(table: TableRow, records: PreparedRecord[], now: number) {
      return writeRecords(f, ensureDataTable(f, table), records, now);
    },
    async appendBlocks(table: TableRow, summary: ColumnSummary, blocks: Iterable<RowBlock>, now: number) {
      return writeBlocks(f, ensureDataTable(f, table), summary, blocks, now);
    },
    async merge(table: TableRow, records: PreparedRecord[], key: string[], now: number) {
      return mergeRecords(f, table, records, key, now);
    },
    async changeSchema(table: TableRow, schema: SchemaEntry[], mode: 'replace' | 'append') {
      const m = ensureDataTable(f, table);
      applySchema(f, m, schema, mode === 'replace');
      statement(f, `UPDATE ${META_TABLE} SET schema_json = ? WHERE name = ?`).run(m.schema_json, m.name);
      return m;
    },
    async ensureDataTable(table: TableRow) {
      return ensureDataTable(f, table);
    },
    async dropTable(name: string) {
      f.db.exec(`DROP TABLE IF EXISTS ${q(name)}`);
      statement(f, `DELETE FROM ${META_TABLE} WHERE name = ?`).run(name);
      f.statements.clear();
    },
  };
}

export function sqlitePlane(deps: AppDeps): DataPlane {
  const fileOf = (database: DatabaseRow) => databaseFile(deps.config.dataDir, database.account_id, database.id);
  /** Runs `fn` on the file's connection in one transaction; a failure closes the connection (see below). */
  const inFile = <T>(database: DatabaseRow, fn: (f: DataFile) => T): T => {
    const f = dataFile(deps, database);
    try {
      return f.db.transaction(() => fn(f))();
    } catch (err) {
      closeDataFile(deps, database);
      throw err;
    }
  };
  return {
    engine: 'sqlite',
    async createDatabase(database) {
      dataFile(deps, database);
    },
    async deleteDatabase(database) {
      deleteDataFile(deps, database);
    },
    async transaction(database, fn) {
      const f = dataFile(deps, database);
      try {
        return await kyselyOf(f)
          .transaction()
          .execute((tx) => fn(dataTx(f, tx)));
      } catch (err) {
        // Rolled back: cached statements may name columns the rollback removed; reopening starts clean.
        closeDataFile(deps, database);
        throw err;
      }
    },
    async figures(database) {
      if (!existsSync(fileOf(database))) return [];
      const f = dataFile(deps, database);
      return f.db.prepare(`SELECT * FROM ${META_TABLE} ORDER BY name`).all() as Meta[];
    },
    async tail(database, table, count) {
      if (!existsSync(fileOf(database))) return null;
      const f = dataFile(deps, database);
      const meta = readMeta(f, table);
      if (!meta) return null;
      const schema = readMetaSchema(meta.schema_json);
      const columns = ['time', ...schema.map(([name]) => name)].map(q).join(', ');
      const rows = f.db
        .prepare(`SELECT ${columns} FROM ${q(table)} ORDER BY time DESC, rowid DESC LIMIT ?`)
        .safeIntegers(true)
        .all(count) as Record<string, unknown>[];
      // 64-bit integers stay exact; those a double holds exactly read as numbers, as on PostgreSQL.
      return { meta, rows: rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, fromSafe(v)]))) };
    },
    async rows(database, table) {
      if (!existsSync(fileOf(database))) return [];
      const f = dataFile(deps, database);
      if (!readMeta(f, table)) return [];
      return f.db.prepare(`SELECT * FROM ${q(table)} ORDER BY time, rowid`).all() as Record<string, unknown>[];
    },
    forget(database) {
      closeDataFile(deps, database);
    },
    async swapTables(database, a, b, catalog) {
      inFile(database, (f) => swapDataTables(f, a, b));
      await catalog(deps.storage.db);
    },
    async moveTable(from, to, table, catalog) {
      const source = inFile(from, (f) => {
        ensureDataTable(f, table);
        return f;
      });
      // The destination's file is another lane's: a connection of its own writes it once.
      const dest = privateDataFile(deps, to);
      try {
        copyDataTable(dest, source, table.name);
      } finally {
        dest.db.close();
      }
      await catalog(deps.storage.db);
      inFile(from, (f) => {
        f.db.exec(`DROP TABLE IF EXISTS ${q(table.name)}`);
        statement(f, `DELETE FROM ${META_TABLE} WHERE name = ?`).run(table.name);
        f.statements.clear();
      });
    },
  };
}
