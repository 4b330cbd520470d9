/**
 * What a query job's run gives back, whatever the engine (DuckDB, query/duckdb/; PostgreSQL, query/postgres/): the
 * result's figures, its columns' Presto types, or the failure the person who wrote the query reads.
 */

export interface QueryOutcome {
  /** `[name, presto type]` per column: the job's `hive_result_schema`. */
  schema: [string, string][];
  numRecords: number;
  bytes: number;
  gzipBytes: number;
}

/** A query that ran and failed (bad SQL, a function error): its message is for the person who wrote it. */
export class QueryFailed extends Error {
  override name = 'QueryFailed';
}

/**
 * A bigint result past the 64-bit range (a sum of large bigints): PostgreSQL's words, and what to do, on both
 * engines (DuckDB sums bigints into a 128-bit HUGEINT, which duckdb/resultValues.ts checks).
 */
export const BIGINT_OUT_OF_RANGE =
  'bigint out of range: a value passed the 64-bit integer range (-2^63 to 2^63 - 1); CAST(x AS double) computes it as a double.';

/** The Presto type of a column of a table's schema (`long`, `array<string>`, ...). */
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
