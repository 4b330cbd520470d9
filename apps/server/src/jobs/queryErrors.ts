import { type DatabaseRow, findTable, listDatabases } from '../data';
import type { Executor } from '../platform/storage';

/**
 * An engine's "no such table" names only the table. The job's message adds the database it looked in and,
 * when the table is in other databases of the account, which ones: "no such table: events in database
 * demo_shop (a table "events" is in shop)". SQLite says `no such table: x`, PostgreSQL `relation "x" does not exist`,
 * DuckDB `Table with name x does not exist`.
 */

const MISSING = [
  /no such table: ([\w.]+)/i,
  /relation "([^"]+)" does not exist/i,
  /Table with name ([\w.]+) does not exist/i,
];
/** Databases looked through for the table (one catalog read each). */
const MAX_LOOKED_AT = 50;

export async function withDatabaseNamed(ex: Executor, database: DatabaseRow, message: string): Promise<string> {
  const found = MISSING.map((re) => re.exec(message)).find((m) => m !== null);
  if (!found) return message;
  const table = (found[1] as string).split('.').pop() as string;
  const where = `${found[0]} in database ${database.name}`;
  const elsewhere: string[] = [];
  const others = (await listDatabases(ex, database.account_id)).filter((d) => d.id !== database.id);
  for (const other of others.slice(0, MAX_LOOKED_AT)) {
    if (await findTable(ex, database.account_id, other.id, table)) elsewhere.push(other.name);
  }
  const hint = elsewhere.length > 0 ? ` (a table "${table}" is in ${elsewhere.join(', ')})` : '';
  return message.replace(found[0], `${where}${hint}`);
}
