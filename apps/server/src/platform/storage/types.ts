import type { Kysely, RawBuilder, Selectable, Transaction } from 'kysely';
import type { Database } from './controlTables/index';

/** The two backends of the storage layer (decision 0017). */
export type Backend = 'sqlite' | 'postgres';

/**
 * The control database as features see it: a Kysely instance (or an open transaction of one) typed by the
 * description of its tables (controlTables/), so the builder checks table and column names and gives row
 * types. Features write portable SQL with the builder or the `sql` tag; what differs between backends is in
 * `Storage.dialect`.
 */
export type ControlDb = Kysely<Database>;
export type Executor = Kysely<Database> | Transaction<Database>;

/** A control table's row as `SELECT *` gives it, its columns typed by the description. */
export type Row<T extends keyof Database> = Selectable<Database[T]>;

/**
 * Customer tables: made at run time from what customers send, so known by name only, with columns of any
 * type. The data plane's statements are written with the `sql` tag against them.
 */
export type DataTables = Record<string, Record<string, unknown>>;

/**
 * Where customer data is read and written: a data file's own Kysely (SQLite, DuckDB), or the control database
 * and its transactions, where PostgreSQL keeps each customer database as a schema.
 */
export type DataExecutor = Kysely<DataTables> | Transaction<DataTables> | Executor;

/** Where SQL differs between the backends; one implementation per backend (sqlite.ts, postgres.ts). */
export interface SqlDialect {
  /** A JSON text column's member `key` as text (`json_extract` / `->>`). */
  jsonText(column: string, key: string): string;
  /**
   * A FROM item of the elements of a JSON array held in the text column `column`: `${alias}.value` is each element
   * (its items read with `->> n` on both backends), `${alias}.key` orders them (from 0 on SQLite, from 1 on
   * PostgreSQL). It may refer to the FROM items before it.
   */
  jsonArrayElements(column: string, alias: string): string;
  /** Text aggregation of a group's values joined by `separator`. */
  groupConcat(expr: string, separator: string): string;
  /**
   * A statement that moves a table's id generator past its highest id, after rows were inserted with
   * explicit ids (PostgreSQL identities do not follow them; SQLite's rowid does, so null there).
   */
  syncIdentity(table: string): string | null;
  /**
   * What ends a SELECT that locks the rows it reads until the transaction ends (` FOR UPDATE`), so two
   * nodes serialise on them; empty on SQLite, whose transactions already run one at a time.
   */
  readonly forUpdate: string;
  /** As `forUpdate`, but rows another transaction holds are skipped rather than waited for. */
  readonly forUpdateSkipLocked: string;
  /**
   * A name as a quoted identifier. PostgreSQL cuts identifiers at 63 bytes, so longer names become their
   * first 50 characters and a hash there (`pgIdentifier`); SQLite keeps every name whole.
   */
  ident(name: string): string;
  /** The position (from 1) of `needle` in the text `haystack`, 0 when it is not in it (`instr` / `strpos`). */
  position(haystack: RawBuilder<unknown>, needle: RawBuilder<unknown>): RawBuilder<unknown>;
  /**
   * Whether `value`, as text, matches an RE2 pattern already checked by `compilePattern` (platform/regexp.ts):
   * RE2 itself on SQLite (`svc_regexp`, which `openSqlite` registers), the pattern translated to an ARE on
   * PostgreSQL (postgresRegexp.ts; 400 for the few constructs that have none). NULL for a NULL value.
   */
  regexpMatch(value: RawBuilder<unknown>, pattern: string): RawBuilder<unknown>;
  /** A subquery body listing the values of one bound list, as `type`: `x IN (${listValues(…)})`. */
  listValues(values: readonly (string | number)[], type: 'text' | 'bigint'): RawBuilder<unknown>;
  /** An ORDER BY term sorting text by code point, as SQLite's BINARY collation does (`COLLATE "C"`). */
  binaryOrder(expr: string): string;
  /**
   * A SELECT of the newest row by `time` of each `key` among the rows of `from` meeting `where`: the column
   * `k` (the key) and `v0`, `v1`… (the `values` of that row, in order). Ties in time pick any one row.
   */
  newestPerKey(q: { key: string; values: string[]; time: string; from: string; where: string }): string;
  /**
   * The rows part of a multi-row INSERT, every value bound: `VALUES (?, …), …` on SQLite; on PostgreSQL
   * `SELECT * FROM unnest($1::bigint[], …)`, one array per column, which it parses and plans at the same
   * cost whatever the number of rows (a VALUES list of thousands of values costs more than the insert).
   */
  insertValues(kinds: ReadonlyArray<ColumnKind>, rows: ReadonlyArray<ReadonlyArray<unknown>>): BoundText;
}

/** What a column of a bulk insert holds: whole numbers (ids, times, counts, 0/1 flags) or text. */
export type ColumnKind = 'integer' | 'text';

/** SQL text with its bound values, in the backend's placeholder style. */
export interface BoundText {
  text: string;
  parameters: unknown[];
}

/** Where the control plane lives: `SVC_DATABASE_URL` (PostgreSQL) when set, else the data folder's SQLite file. */
export type StorageTarget = { backend: 'sqlite'; file: string } | { backend: 'postgres'; url: string };

export interface Storage {
  readonly backend: Backend;
  /** The control database. */
  readonly db: ControlDb;
  readonly dialect: SqlDialect;
  /** Where the storage is, for logs: a file, or host/port/database (never a password). */
  readonly describe: string;
  /**
   * Where worker threads open connections of their own: the control database's file, or the PostgreSQL URL
   * (with its password: it goes to the threads of this process only, never to a log or an answer).
   */
  readonly target: StorageTarget;
  close(): Promise<void>;
}
