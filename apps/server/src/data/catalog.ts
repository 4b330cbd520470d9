import { newDataNameProblem } from '@svc/contracts';
import type { AppDeps } from '../platform/context';
import { badRequest, conflict, notFound } from '../platform/errors';
import { type Executor, many, type Row, sql } from '../platform/storage';
import type { SchemaEntry } from './columns';

/** A customer database as the control database records it. Times are Unix milliseconds. */
export type DatabaseRow = Row<'databases'>;

/** What `tables.type` holds: the one type of table there is (its CHECK admits no other). */
type Typed = { type: 'log' };

/**
 * A table as the control database records it. `schema_json` is the wire `schema` string: a JSON array of
 * `[name, type]` (or `[name, type, alias]`) for every column but `time`. The figures are kept true on
 * every write to the table's data file: `last_log_timestamp` is the largest `time` (Unix seconds) of any
 * row, null while the table is empty; `counter_updated_at` when the figures last changed (Unix ms).
 */
export type TableRow = Omit<Row<'tables'>, 'type'> & Typed;

export async function findDatabase(ex: Executor, accountId: number, name: string): Promise<DatabaseRow | null> {
  const row = await ex
    .selectFrom('databases')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row ?? null;
}

/** The account's database of that name; anything else (missing, another account's) is the spec's 404. */
export async function requireDatabase(ex: Executor, accountId: number, name: string): Promise<DatabaseRow> {
  const row = await findDatabase(ex, accountId, name);
  if (!row) throw notFound('database');
  return row;
}

export function listDatabases(ex: Executor, accountId: number): Promise<DatabaseRow[]> {
  return ex.selectFrom('databases').selectAll().where('account_id', '=', accountId).orderBy('name').execute();
}

/** The tables of one of the account's databases, every column. */
const tablesOf = (ex: Executor, accountId: number, databaseId: number) =>
  ex
    .selectFrom('tables')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('database_id', '=', databaseId)
    .$narrowType<Typed>();

export async function findTable(
  ex: Executor,
  accountId: number,
  databaseId: number,
  name: string,
): Promise<TableRow | null> {
  const row = await tablesOf(ex, accountId, databaseId).where('name', '=', name).executeTakeFirst();
  return row ?? null;
}

export async function requireTable(
  ex: Executor,
  accountId: number,
  databaseId: number,
  name: string,
): Promise<TableRow> {
  const row = await findTable(ex, accountId, databaseId, name);
  if (!row) throw notFound('table');
  return row;
}

export function listTables(ex: Executor, accountId: number, databaseId: number): Promise<TableRow[]> {
  return tablesOf(ex, accountId, databaseId).orderBy('name').execute();
}

/**
 * The tables among `names` of a database that is still the one given (same id, account and name: a deleted
 * database's id may be reused), in one query; null when that database is gone.
 */
export async function tablesIfDatabaseCurrent(
  ex: Executor,
  database: Pick<DatabaseRow, 'id' | 'account_id' | 'name'>,
  names: readonly string[],
): Promise<Map<string, TableRow> | null> {
  const found = await many<Partial<TableRow>>(
    ex,
    sql`SELECT t.* FROM databases d
          LEFT JOIN tables t ON t.account_id = d.account_id AND t.database_id = d.id AND t.name IN (${sql.join([...names])})
         WHERE d.id = ${database.id} AND d.account_id = ${database.account_id} AND d.name = ${database.name}`,
  );
  if (found.length === 0) return null;
  const rows = new Map<string, TableRow>();
  for (const row of found) if (row.id != null) rows.set(row.name as string, row as TableRow);
  return rows;
}

/** A new table's or database's name: the identifier rule, and none the storage engines reserve (400). */
export function checkNewName(name: string, what: 'database' | 'table'): void {
  const problem = newDataNameProblem(name, what);
  if (problem) throw badRequest(problem);
}

/**
 * Before a write that creates its table on first use (postback, records API): a new name must be allowed. A name
 * that could be created needs no lookup (the table exists, or the write creates it); only a name that could not
 * is looked up, since an existing table of that name may still take writes.
 */
export async function checkWritableTable(ex: Executor, database: DatabaseRow, name: string): Promise<void> {
  const problem = newDataNameProblem(name, 'table');
  if (!problem || (await findTable(ex, database.account_id, database.id, name))) return;
  throw badRequest(`The table does not exist and cannot be created. ${problem}`);
}

/**
 * Inserts a table's catalog row (its data appears in the data plane on first write or by createDataTable).
 * `ex` is the control database or an open transaction of it. Two writers racing on one new name: the loser
 * gets the 409 (the insert does nothing on the unique conflict, rather than failing a transaction). No
 * conflict target: the unique key is (database_id, name) on SQLite, (account_id, database_id, name) on PostgreSQL.
 */
export async function createTableRow(
  deps: AppDeps,
  database: DatabaseRow,
  name: string,
  schema: SchemaEntry[],
  ex: Executor = deps.storage.db,
): Promise<TableRow> {
  checkNewName(name, 'table');
  const now = deps.clock.now().getTime();
  const row = await ex
    .insertInto('tables')
    .values({
      account_id: database.account_id,
      database_id: database.id,
      name,
      type: 'log',
      schema_json: JSON.stringify(schema),
      created_at: now,
      updated_at: now,
    })
    .onConflict((c) => c.doNothing())
    .returningAll()
    .$narrowType<Typed>()
    .executeTakeFirst();
  if (!row) throw conflict(`The table "${name}" already exists in the database "${database.name}".`);
  return row;
}
