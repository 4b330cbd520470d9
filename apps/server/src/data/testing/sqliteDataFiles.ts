import { join } from 'node:path';
import { openSqlite } from '../../platform/db';
import type { Meta, PreparedRecord } from '../plane';
import { grownMeta, schemaGrowth, storedRows } from '../rows';

/**
 * Customer database files as the SQLite data plane of the release before DuckDB wrote them (decision 0053), for
 * the tests of the one-time conversion (duckConvert.ts): one file per database at
 * `<dataDir>/databases/<account>/<id>.sqlite` (`databaseFile`), each table a real table (`time INTEGER
 * NOT NULL` and the schema's columns in SQLite's types) with its `<table>$time` index, rows in insertion order,
 * and the figures table `_svc$tables` that `readMetaSchema` reads. Values are stored as that plane stored them
 * (rows.ts `storedRows`), the figures counted the same way.
 */

/** The file that plane kept a database's tables in: `<dataDir>/databases/<accountId>/<databaseId>.sqlite`. */
export function databaseFile(dataDir: string, accountId: number, databaseId: number): string {
  return join(dataDir, 'databases', String(accountId), `${databaseId}.sqlite`);
}

const META_TABLE = '"_svc$tables"';

/** The declared SQLite type (and so the affinity) that plane gave a schema type. */
const SQLITE_TYPES: Record<string, string> = {
  int: 'INTEGER',
  long: 'INTEGER',
  boolean: 'INTEGER',
  double: 'REAL',
  float: 'REAL',
  binary: 'BLOB',
};
const sqliteType = (type: string) => SQLITE_TYPES[type] ?? 'TEXT';
const q = (id: string) => `"${id}"`;

export interface OldTable {
  name: string;
  records: PreparedRecord[];
  /** The figures' `updated_at` (Unix ms). */
  now: number;
}

/** Writes `tables` into the file (created if missing), each a new table, as one write of that plane did. */
export function writeSqliteDataFile(file: string, tables: OldTable[]): void {
  const db = openSqlite(file);
  try {
    db.exec(`CREATE TABLE IF NOT EXISTS ${META_TABLE} (
      name TEXT PRIMARY KEY,
      schema_json TEXT NOT NULL,
      row_count INTEGER NOT NULL,
      bytes INTEGER NOT NULL,
      max_time INTEGER,
      updated_at INTEGER
    )`);
    db.transaction(() => {
      for (const { name, records, now } of tables) {
        const schema = schemaGrowth([], records);
        const columns = schema.map(([column, type]) => `, ${q(column)} ${sqliteType(type)}`).join('');
        db.exec(`CREATE TABLE ${q(name)} (time INTEGER NOT NULL${columns})`);
        db.exec(`CREATE INDEX ${q(`${name}$time`)} ON ${q(name)} (time)`);
        const names = ['time', ...schema.map(([column]) => column)];
        const insert = db.prepare(
          `INSERT INTO ${q(name)} (${names.map(q).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
        );
        const figures = storedRows(schema, records, (row) => insert.run(...row));
        const meta = grownMeta({ row_count: 0, bytes: 0, max_time: null }, records.length, figures);
        db.prepare(
          `INSERT INTO ${META_TABLE} (name, schema_json, row_count, bytes, max_time, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
        ).run(name, JSON.stringify(schema), meta.row_count, meta.bytes, meta.max_time, now);
      }
    })();
  } finally {
    db.close();
  }
}

/** What such a file holds: each table's rows (by time, then insertion) and the figures, as that plane read them. */
export function readSqliteDataFile(file: string): { rows: Map<string, Record<string, unknown>[]>; figures: Meta[] } {
  const db = openSqlite(file, { readonly: true });
  try {
    const figures = db.prepare(`SELECT * FROM ${META_TABLE} ORDER BY name`).all() as Meta[];
    const rows = new Map(
      figures.map((m) => [
        m.name,
        db.prepare(`SELECT * FROM ${q(m.name)} ORDER BY time, rowid`).all() as Record<string, unknown>[],
      ]),
    );
    return { rows, figures };
  } finally {
    db.close();
  }
}
