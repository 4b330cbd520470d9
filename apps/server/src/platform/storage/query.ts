import { CompiledQuery, PostgresAdapter, type RawBuilder, sql } from 'kysely';
import { copyRows } from './pgCopy';
import { postgresDialect } from './postgres';
import { sqliteDialect } from './sqlite';
import type { Backend, ColumnKind, DataExecutor, Executor, SqlDialect, Storage } from './types';

/**
 * Small helpers over Kysely's `sql` tag, so a feature's statement reads as one line:
 * `await many<UserRow>(deps.storage.db, sql\`SELECT … WHERE account_id = ${id}\`)`.
 * Parameters are bound (`?` on SQLite, `$n` on PostgreSQL); identifiers go through `sql.id`/`sql.ref`.
 */

export async function many<T>(ex: DataExecutor, query: RawBuilder<unknown>): Promise<T[]> {
  return (await query.execute(ex)).rows as T[];
}

export async function one<T>(ex: DataExecutor, query: RawBuilder<unknown>): Promise<T | undefined> {
  return (await query.execute(ex)).rows[0] as T | undefined;
}

/** Runs a write; returns how many rows it changed. */
export async function run(ex: DataExecutor, query: RawBuilder<unknown>): Promise<number> {
  return Number((await query.execute(ex)).numAffectedRows ?? 0n);
}

/** Runs an INSERT … RETURNING id and gives the new row's id. */
export async function insertId(ex: DataExecutor, query: RawBuilder<unknown>): Promise<number> {
  const row = (await query.execute(ex)).rows[0] as { id: number | bigint } | undefined;
  if (!row) throw new Error('INSERT … RETURNING id returned no row.');
  return Number(row.id);
}

/**
 * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. Inside an open
 * transaction it joins it. Keep other awaits (hashing, network) outside: on SQLite a transaction holds the
 * one connection until it ends.
 */
export function transaction<T>(target: Storage | Executor, fn: (tx: Executor) => Promise<T>): Promise<T> {
  const ex = 'backend' in target ? target.db : target;
  if (ex.isTransaction) return fn(ex);
  return ex.transaction().execute(fn);
}

/** Which backend an executor (the database or one of its transactions) runs on. */
export function backendOf(ex: DataExecutor): Backend {
  return ex.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** The SQL forms of an executor's backend (types.ts SqlDialect). */
export function dialectOf(ex: DataExecutor): SqlDialect {
  return backendOf(ex) === 'postgres' ? postgresDialect : sqliteDialect;
}

/** After inserting rows with explicit ids: moves the table's id generator past them (a no-op on SQLite). */
export async function syncIdentity(ex: DataExecutor, table: string): Promise<void> {
  const statement = dialectOf(ex).syncIdentity(table);
  if (statement) await sql.raw(statement).execute(ex);
}

/**
 * Inserts rows with one statement, `${head} <rows> ${tail}`, every value bound, in the backend's fastest
 * form for many rows (SqlDialect.insertValues). `head` names the table and its columns, `kinds` says what
 * each column holds; `head` and `tail` are our own SQL, never input. On SQLite keep rows × columns within
 * 30,000 values.
 */
export async function insertRows(
  ex: DataExecutor,
  head: string,
  kinds: ReadonlyArray<ColumnKind>,
  rows: ReadonlyArray<ReadonlyArray<unknown>>,
  tail = '',
): Promise<void> {
  if (rows.length === 0) return;
  const { text, parameters } = dialectOf(ex).insertValues(kinds, rows);
  await ex.executeQuery(CompiledQuery.raw(`${head} ${text} ${tail}`, parameters));
}

/**
 * As `insertRows` for any number of rows: statements of up to `perStatement` rows (500 × at most 60 columns stays
 * within SQLite's limit of bound values), one statement per batch instead of per row.
 */
export async function insertRowsInBatches(
  ex: DataExecutor,
  head: string,
  kinds: ReadonlyArray<ColumnKind>,
  rows: Iterable<ReadonlyArray<unknown>>,
  tail = '',
  perStatement = 500,
): Promise<void> {
  let batch: ReadonlyArray<unknown>[] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length === perStatement) {
      await insertRows(ex, head, kinds, batch, tail);
      batch = [];
    }
  }
  await insertRows(ex, head, kinds, batch, tail);
}

/**
 * Appends rows to `table` (our own name, never input) in the backend's fastest form: COPY on PostgreSQL (a tenth of
 * the time of bound arrays per row for the journey runs' event log), statements of 500 rows on SQLite. Rows are
 * read lazily; ids and defaults come from the table. Inside a transaction, they commit with it.
 */
export async function appendRows(
  ex: Executor,
  table: string,
  columns: ReadonlyArray<string>,
  kinds: ReadonlyArray<ColumnKind>,
  rows: Iterable<ReadonlyArray<unknown>>,
): Promise<void> {
  if (backendOf(ex) === 'postgres') return copyRows(ex, table, columns, rows);
  await insertRowsInBatches(ex, `INSERT INTO ${table} (${columns.join(', ')})`, kinds, rows);
}

/**
 * Has PostgreSQL sample the tables again for its planner (ANALYZE), after a write that changed a large part of them:
 * a table loaded faster than autovacuum looks (a minute) is planned from its old, empty statistics meanwhile (a
 * journey's first page of profiles at 1 M states: a sort of them all, 220 ms, instead of 51 rows of an index, 0.1 ms).
 * SQLite plans from its indexes alone: nothing to do there. `tables` are our own names, never input.
 */
export async function refreshPlannerStatistics(ex: Executor, tables: ReadonlyArray<string>): Promise<void> {
  if (backendOf(ex) !== 'postgres') return;
  await sql.raw(`ANALYZE ${tables.join(', ')}`).execute(ex);
}
