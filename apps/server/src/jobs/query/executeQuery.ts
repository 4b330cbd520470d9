import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { readAs, readMetaSchema } from '../../data';
import { type Db, openSqlite } from '../../platform/db';
import { checkPrepared } from './guard';
import { ResultWriter } from './resultWriter';
import { registerFunctions } from './sqlFunctions';

/**
 * Runs one query on a read-only connection and writes its rows to a file as concatenated msgpack arrays,
 * then the gzip of that file (the `msgpack.gz` format, whose size is the job's `result_size`). Runs in
 * the query process (queryWorker.ts); tests call it directly.
 */

export interface QueryTask {
  /** The database's file; null when it has no tables yet (the query runs on an empty database). */
  file: string | null;
  /** Already translated to SQLite (dialect.ts). */
  sql: string;
  msgpackPath: string;
  gzipPath: string;
  /** The job's "now", for TD_SCHEDULED_TIME, TD_INTERVAL and now(). */
  nowMs: number;
  maxResultBytes: number;
}

export interface QueryOutcome {
  /** `[name, presto type]` per column: the job's `hive_result_schema`. */
  schema: [string, string][];
  numRecords: number;
  bytes: number;
  gzipBytes: number;
}

/** The figures table of a SQLite customer file (`_svc$tables`). */
const META_TABLE = '"_svc$tables"';

/** Opens a database file read-only with the query functions registered (an empty database if none). */
export function openForQuery(file: string | null, nowMs: number): Db {
  const db = file && existsSync(file) ? openSqlite(file, { readonly: true }) : new Database(':memory:');
  registerFunctions(db, nowMs);
  return db;
}

export function prestoType(schemaType: string): string {
  const t = schemaType.trim().toLowerCase();
  const nested = /^(array|map)<(.+)>$/.exec(t);
  if (nested) {
    const inner = (nested[2] as string).split(',').map((part) => prestoType(part));
    return `${nested[1]}(${inner.join(', ')})`;
  }
  const scalar: Record<string, string> = {
    int: 'bigint',
    long: 'bigint',
    integer: 'bigint',
    double: 'double',
    float: 'double',
    real: 'double',
    string: 'varchar',
    text: 'varchar',
    boolean: 'boolean',
    binary: 'varbinary',
    blob: 'varbinary',
  };
  return scalar[t] ?? 'varchar';
}

/** Each table's column types as its catalog records them (`_svc$tables`), for typed results. */
function tableSchemas(db: Db): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  try {
    const rows = db.prepare(`SELECT name, schema_json FROM ${META_TABLE}`).all() as {
      name: string;
      schema_json: string;
    }[];
    for (const row of rows) {
      const columns = new Map<string, string>([['time', 'long']]);
      for (const [name, type] of readMetaSchema(row.schema_json)) columns.set(name, type);
      out.set(row.name, columns);
    }
  } catch {
    // A database without the figures table (no table written yet) has no typed columns.
  }
  return out;
}

type Observed = { ints: boolean; floats: boolean; strings: boolean; blobs: boolean };

function observedType(o: Observed): string {
  if (o.strings || (o.blobs && (o.ints || o.floats))) return 'varchar';
  if (o.blobs) return 'varbinary';
  if (o.floats) return 'double';
  return o.ints ? 'bigint' : 'varchar';
}

export async function executeQuery(task: QueryTask): Promise<QueryOutcome> {
  const db = openForQuery(task.file, task.nowMs);
  let writer: ResultWriter | null = null;
  try {
    const stmt = db.prepare(task.sql);
    checkPrepared(stmt);
    stmt.raw(true).safeIntegers(true);
    const schemas = tableSchemas(db);
    const columns = stmt.columns();
    // A column read straight from a table keeps that column's type; booleans and nested values are decoded.
    const declared = columns.map((c) => (c.table && c.column ? (schemas.get(c.table)?.get(c.column) ?? null) : null));
    const fallback = columns.map((c) => (c.column && c.type ? prestoType(c.type) : null));
    const decoders = declared.map((type) =>
      type === 'boolean' || type?.startsWith('array<') || type?.startsWith('map<') ? type : null,
    );
    const observed: Observed[] = columns.map(() => ({ ints: false, floats: false, strings: false, blobs: false }));

    writer = new ResultWriter(task.msgpackPath, task.maxResultBytes);
    for (const raw of stmt.iterate() as Iterable<unknown[]>) {
      for (let i = 0; i < raw.length; i++) {
        let v = raw[i];
        if (typeof v === 'bigint' && Number.isSafeInteger(Number(v))) v = Number(v);
        const o = observed[i] as Observed;
        if (typeof v === 'number') {
          if (Number.isInteger(v)) o.ints = true;
          else o.floats = true;
        } else if (typeof v === 'bigint') o.ints = true;
        else if (typeof v === 'string') o.strings = true;
        else if (v instanceof Uint8Array) o.blobs = true;
        const decoder = decoders[i];
        raw[i] = decoder ? readAs(decoder, v) : v;
      }
      writer.write(raw);
    }
    const gzipBytes = await writer.finish(task.gzipPath);
    const schema = columns.map((c, i): [string, string] => {
      const type = declared[i];
      return [c.name, type ? prestoType(type) : (fallback[i] ?? observedType(observed[i] as Observed))];
    });
    return { schema, numRecords: writer.rows, bytes: writer.bytes, gzipBytes };
  } finally {
    writer?.close();
    db.close();
  }
}
