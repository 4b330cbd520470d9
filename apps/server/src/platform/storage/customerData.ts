/**
 * Where a customer database's tables live on PostgreSQL: one schema per database, named from its id
 * (names of customers' databases can be renamed and are not valid identifiers everywhere; ids never change).
 * On the embedded mode each database is its own DuckDB file (data/duckFiles.ts `duckFile`).
 */
export function customerSchema(databaseId: number): string {
  if (!Number.isSafeInteger(databaseId) || databaseId <= 0) throw new Error(`Not a database id: ${databaseId}`);
  return `cdb_${databaseId}`;
}
