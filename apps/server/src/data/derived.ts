import type { AppDeps } from '../platform/context';
import type { DataExecutor, Executor, SqlDialect } from '../platform/storage';
import type { DatabaseRow } from './catalog';
import { dataPlane } from './dataPlane';
import { duckDerived } from './duckDerived';
import { postgresDerived } from './postgresDerived';

/**
 * Data sets derived from customers' tables (a parent segment's profiles, decision 0020), kept where the
 * data plane keeps rows, so every node of a PostgreSQL deployment reads the same one:
 *
 * - DuckDB: a file of its own, `<dataDir>/<kind>s/<accountId>/<id>.duckdb` (decision 0039), built in a new file
 *   into which each source database's owner first copies the source tables, then renamed over the old one;
 * - PostgreSQL: a schema of its own, `<kind>_<id>`, built with SQL over the customer schemas in one
 *   transaction, in a new schema that replaces the old one by rename.
 *
 * Either way a build is a whole new version beside the current one, swapped in together with the caller's
 * `publish` on the control database: readers always see one whole version, and the one `publish` describes.
 * The set's own tables have unqualified names: the build creates them, `read` finds them.
 */

export interface DerivedSetRef {
  kind: 'audience';
  accountId: number;
  id: number;
}

export interface DerivedSource {
  database: DatabaseRow;
  table: string;
  /**
   * The columns the build reads besides `time`; every column when absent. An engine that copies the sources
   * first (DuckDB) copies only these, so a wide customer table costs what the build reads of it.
   */
  columns?: string[];
}

/**
 * The SQL forms a set's statements differ by, for the engine it runs on: the storage dialect's (types.ts
 * `SqlDialect`) that builds and rules use, and two of the set's own.
 */
export interface DerivedDialect
  extends Pick<SqlDialect, 'ident' | 'position' | 'regexpMatch' | 'listValues' | 'binaryOrder' | 'newestPerKey'> {
  /** The type rules bind numbers as, comparing with integer and floating columns alike. */
  readonly numberType: string;
  /** Whether the set's tables get indexes (a columnar engine scans with zone maps instead). */
  readonly indexes: boolean;
  /**
   * An aggregate over the rows' `key` (text) that tells one set of keys from another: their count and two 64-bit
   * hash aggregates, as text. Equal for equal sets whatever their order; stable within the engine's process.
   */
  fingerprint(key: string): string;
}

export interface DerivedBuild {
  /** Runs the build's statements; the tables it creates make the new version. */
  readonly ex: DataExecutor;
  /** A source table (one of the build's `sources`) as SQL to read from. */
  source(database: DatabaseRow, table: string): string;
}

export interface DerivedSets {
  /** The SQL forms of the engine the set's statements run on (builds, and reads through `read`). */
  readonly dialect: DerivedDialect;
  /**
   * Whether `build` must be called where the background work can be sent to the files' owners (the server
   * thread, decision 0039) rather than inside a worker: DuckDB, whose files each belong to one thread.
   */
  readonly buildsFromServer: boolean;
  /**
   * Builds a new version with `fn` from `sources` (each table must exist: an Error says to import data
   * first), then swaps it in and runs `publish` on the control database together. When anything throws,
   * `publish` included, the new version is discarded and the current one stays. On SQLite the build runs
   * in a worker with its own control connection: `publish` must write before it reads (a transaction
   * that reads, then writes after the server wrote, fails), so make it one conditional UPDATE.
   */
  build<T>(
    set: DerivedSetRef,
    sources: DerivedSource[],
    fn: (b: DerivedBuild) => Promise<T>,
    publish: (control: Executor, result: T) => Promise<void>,
  ): Promise<T>;
  /** Runs `fn` on the current version, read-only; null when the set was never built. */
  read<T>(set: DerivedSetRef, fn: (ex: DataExecutor) => Promise<T>): Promise<{ value: T } | null>;
  /** Deletes the set (nothing when there is none). */
  remove(set: DerivedSetRef): Promise<void>;
}

/** The derived sets of the app's data plane: they live where its rows do. */
export function derivedSets(deps: AppDeps): DerivedSets {
  return dataPlane(deps).engine === 'duckdb' ? duckDerived(deps) : postgresDerived(deps);
}
