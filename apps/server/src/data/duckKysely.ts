import { blobValue, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import type { DataTables } from '../platform/storage';

/**
 * A Kysely instance over one DuckDB connection, so callers of a DuckDB data transaction (`DataTx.ex`) write
 * their own statements (markers, incremental state) with the `sql` tag as on the other planes. DuckDB takes
 * PostgreSQL's `$n` parameters and quoting, so the PostgreSQL compiler and adapter serve; `backendOf` reports
 * such an executor as 'postgres', whose SQL forms DuckDB also speaks.
 */

/** A value as DuckDB binds it: bytes as a BLOB, the rest as they are. */
function toDuck(v: unknown): DuckDBValue {
  if (v instanceof Uint8Array) return blobValue(v);
  if (v === undefined) return null;
  return v as DuckDBValue;
}

/** A value as callers read it: integers as numbers where a double holds them exactly, bytes as a Buffer. */
function fromDuck(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v;
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  return v;
}

/**
 * A statement's values as the driver takes them; none when there are none: the driver then runs the text as it is,
 * in one call, where values (even none) make it extract, prepare, bind and run the statement, a call each (about
 * 1 ms a statement on a busy machine, what a BEGIN or a COMMIT of a small write used to cost).
 */
function bound(params: readonly unknown[]): DuckDBValue[] | undefined {
  return params.length === 0 ? undefined : params.map(toDuck);
}

function fromDuckRow(row: Record<string, unknown>): Record<string, unknown> {
  for (const k in row) row[k] = fromDuck(row[k]);
  return row;
}

/** Runs one statement and gives its rows, numbers and bytes converted. */
export async function duckRows<T = Record<string, unknown>>(
  conn: DuckDBConnection,
  text: string,
  params: readonly unknown[] = [],
): Promise<T[]> {
  const reader = await conn.runAndReadAll(text, bound(params));
  return reader.getRowObjectsJS().map((r) => fromDuckRow(r as Record<string, unknown>)) as T[];
}

class DuckConnection implements DatabaseConnection {
  constructor(
    private readonly conn: DuckDBConnection,
    private readonly before?: () => Promise<void>,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    await this.before?.();
    const reader = await this.conn.runAndReadAll(query.sql, bound(query.parameters));
    const rows = reader.getRowObjectsJS().map((r) => fromDuckRow(r as Record<string, unknown>)) as R[];
    const kind = query.sql.trimStart().slice(0, 6).toUpperCase();
    const writes = kind === 'INSERT' || kind === 'UPDATE' || kind === 'DELETE';
    return writes && !/\bRETURNING\b/i.test(query.sql)
      ? { rows: [], numAffectedRows: BigInt(reader.rowsChanged) }
      : { rows };
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered on a data transaction.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported on a DuckDB data transaction.');
  }
}

class DuckDriver implements Driver {
  private readonly connection: DuckConnection;
  constructor(conn: DuckDBConnection, before?: () => Promise<void>) {
    this.connection = new DuckConnection(conn, before);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }
  async beginTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery({ sql: 'BEGIN TRANSACTION', parameters: [] } as unknown as CompiledQuery);
  }
  async commitTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery({ sql: 'COMMIT', parameters: [] } as unknown as CompiledQuery);
  }
  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery({ sql: 'ROLLBACK', parameters: [] } as unknown as CompiledQuery);
  }
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

class DuckDialect implements Dialect {
  constructor(
    private readonly conn: DuckDBConnection,
    private readonly before?: () => Promise<void>,
  ) {}
  createDriver(): Driver {
    return new DuckDriver(this.conn, this.before);
  }
  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }
  createIntrospector(db: Kysely<DataTables>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}

/**
 * A Kysely instance whose every statement runs on `conn` (the caller owns the connection), each after `before`
 * (a data transaction writes its waiting figures first).
 */
export function duckKysely(conn: DuckDBConnection, before?: () => Promise<void>): Kysely<DataTables> {
  return new Kysely({ dialect: new DuckDialect(conn, before) });
}
