import type { RawBuilder } from 'kysely';
import type { DataExecutor, Executor } from '../platform/storage';
import type { DatabaseRow, TableRow } from './catalog';
import type { SchemaEntry } from './columns';
import type { ColumnSummary, RowBlock } from './rowBlocks';

/**
 * The data plane (decision 0018): the rows of customers' tables, behind one async interface with two
 * implementations. DuckDB (duckPlane.ts, the embedded mode, decisions 0038 and 0053): one file per customer
 * database, opened only by the worker that owns it and written in the database's lane. PostgreSQL (postgresPlane.ts): one schema per customer database
 * (`customerSchema(id)`), each table a real typed table, written by the server process itself.
 * Either way each database keeps its tables' figures (`_svc$tables`) next to the rows, written in the same
 * transaction; tableStore.ts copies them to the catalog in the control database.
 */

export const tableLimits = {
  /** Columns a table may have besides `time`. */
  maxColumns: 1000,
};

/** The name a table holds while two are swapped: `$` cannot occur in a customer table's name. */
export const SWAP_NAME = '_svc$swap';

/** A table's figures and schema as the data plane keeps them (`"_svc$tables"`). */
export interface Meta {
  name: string;
  schema_json: string;
  row_count: number;
  bytes: number;
  max_time: number | null;
  updated_at: number | null;
}

/** A record whose keys are mapped to column names and whose `time` is known. */
export interface PreparedRecord {
  time: number;
  values: [string, unknown][];
}

/** What a merge did: the figures afterwards, rows written, and rows they replaced. */
export interface MergeResult {
  meta: Meta;
  inserted: number;
  replaced: number;
}

/** One transaction on a customer database's data: everything in it lands together or not at all. */
export interface DataTx {
  /** For the caller's own statements in the same transaction (markers, incremental state). */
  readonly ex: DataExecutor;
  /**
   * `append`, `appendBlocks` and `merge` copy the figures they save to the table's catalog row in the same
   * statement, where the plane shares the control database (PostgreSQL). On SQLite the caller copies them.
   */
  readonly figuresInCatalog?: boolean;
  /**
   * Where the plane shares the control database (PostgreSQL): whether the table's catalog row is still in this
   * database, the table locked against a move until the transaction ends. Elsewhere moves wait for the lanes.
   */
  holdsTable?(name: string): Promise<boolean>;
  /** A table of this database as an identifier for the `sql` tag (schema-qualified on PostgreSQL). */
  table(name: string): RawBuilder<unknown>;
  /** Whether a table of that name exists (customer tables and helper tables alike). */
  hasTable(name: string): Promise<boolean>;
  /** Creates a helper table of ours if missing: `columns` is portable DDL (TEXT, BIGINT, PRIMARY KEY). */
  ensureTable(name: string, columns: string): Promise<void>;
  /** Appends records (adding and widening columns as they need) and updates the figures. */
  append(table: TableRow, records: PreparedRecord[], now: number): Promise<Meta>;
  /**
   * Appends rows laid out by column (bulk import's staged blocks, rowBlocks.ts): first the columns `summary`
   * says every block needs, exactly as `append` of all the rows in one call would add them, then the blocks in
   * order, then the figures. The blocks are read as they are written, so they need not all be in memory.
   */
  appendBlocks(table: TableRow, summary: ColumnSummary, blocks: Iterable<RowBlock>, now: number): Promise<Meta>;
  /**
   * Upserts by `key` (column names): each record replaces every row whose key columns hold the same
   * values, the last record of a key winning within the call; rows of other keys stay. Columns are added
   * as `append` adds them, and an index on the key is made on first use. A record with an empty key
   * column is refused (NULL is no key).
   */
  merge(table: TableRow, records: PreparedRecord[], key: string[], now: number): Promise<MergeResult>;
  /** Sets (`replace`) or extends the table's columns with real ALTERs. */
  changeSchema(table: TableRow, schema: SchemaEntry[], mode: 'replace' | 'append'): Promise<Meta>;
  /** Creates the table from its catalog row when it has no data yet (a leftover of the name is dropped). */
  ensureDataTable(table: TableRow): Promise<Meta>;
  /** Drops a table's rows and figures. */
  dropTable(name: string): Promise<void>;
}

export interface DataPlane {
  /** Which engine keeps the rows: what else reads them (derived sets, derived.ts) follows it. */
  readonly engine: 'duckdb' | 'postgres';
  /** Creates the database's place (file or schema) with its figures table. */
  createDatabase(database: DatabaseRow): Promise<void>;
  /** Deletes the database's data entirely (file, or `DROP SCHEMA … CASCADE`). */
  deleteDatabase(database: DatabaseRow): Promise<void>;
  /**
   * Runs `fn` in one transaction of the database's data. `tables`: the tables it will write, if known, whose
   * figures DuckDB then reads together with its BEGIN.
   */
  transaction<T>(database: DatabaseRow, fn: (t: DataTx) => Promise<T>, tables?: readonly string[]): Promise<T>;
  /** The figures of every table of the database (none when it has no data yet). */
  figures(database: DatabaseRow): Promise<Meta[]>;
  /** The newest `count` rows by time (stored values, nulls included), or null when the table has no data. */
  tail(
    database: DatabaseRow,
    table: string,
    count: number,
  ): Promise<{ meta: Meta; rows: Record<string, unknown>[] } | null>;
  /** Every row of a table, by time then insertion order (tests and small reads), or [] without data. */
  rows(database: DatabaseRow, table: string): Promise<Record<string, unknown>[]>;
  /**
   * Exchanges the names of two tables' data (rows, columns, figures). `catalog` makes the same change in
   * the catalog: on PostgreSQL in the same transaction, on DuckDB right after the data commits (a crash in
   * between leaves names and data together; start-up copies the figures by name).
   */
  swapTables(database: DatabaseRow, a: TableRow, b: TableRow, catalog: CatalogStep): Promise<void>;
  /**
   * Moves a table's data to another database under the same name. `catalog` moves its catalog row: on
   * PostgreSQL in the same transaction; on DuckDB after the copy is durable in the destination's file and
   * before the source's rows are dropped, so a crash never loses them (duckMove.ts).
   */
  moveTable(from: DatabaseRow, to: DatabaseRow, table: TableRow, catalog: CatalogStep): Promise<void>;
}

/** The catalog's part of a change to the data, run with the executor the data plane gives. */
export type CatalogStep = (control: Executor) => Promise<void>;

/**
 * A write reached a table whose catalog row left its database (moved by another writer's transaction meanwhile):
 * nothing was written. Writing again from the catalog lands the rows where the table's name now leads.
 */
export class TableMovedAway extends Error {
  constructor(database: string, table: string) {
    super(`The table "${database}.${table}" was moved to another database while this write waited for it.`);
    this.name = 'TableMovedAway';
  }
}
