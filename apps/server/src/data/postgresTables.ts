import { type Executor, pgIdentifier, pgText, run, sql } from '../platform/storage';
import type { Stored } from './columns';

/**
 * How the PostgreSQL data plane (postgresPlane.ts) lays a customer database out in its schema: the figures
 * table, the column types, identifiers, parameter values, and renaming a table with its index and figures.
 */

export const FIGURES = '_svc$tables';

/** The PostgreSQL type of a schema type. */
export function postgresType(type: string): 'BIGINT' | 'DOUBLE PRECISION' | 'TEXT' | 'BYTEA' {
  switch (type) {
    case 'int':
    case 'long':
    case 'boolean':
      return 'BIGINT';
    case 'double':
    case 'float':
      return 'DOUBLE PRECISION';
    case 'binary':
      return 'BYTEA';
    default:
      return 'TEXT';
  }
}

export const quote = (id: string) => `"${id}"`;

/** A stored value as a pg parameter: 64-bit integers beyond doubles go as their digits, text as pgText keeps it. */
export function pgValue(v: Stored): Stored {
  if (typeof v === 'bigint') return v.toString();
  return typeof v === 'string' ? pgText(v) : v;
}

/** The figures table of a customer database's schema: one row per table, copied to the catalog. */
export function figuresDdl(schema: string): string {
  return `CREATE TABLE IF NOT EXISTS ${quote(schema)}.${quote(FIGURES)} (
    name TEXT PRIMARY KEY,
    schema_json TEXT NOT NULL,
    row_count BIGINT NOT NULL,
    bytes BIGINT NOT NULL,
    max_time BIGINT,
    updated_at BIGINT
  )`;
}

/** Renames a table's data, its `time` index and its figures row within a schema. */
export async function renameTable(schema: string, ex: Executor, from: string, to: string): Promise<void> {
  const [table, index] = [from, `${from}$time`].map((n) => `${quote(schema)}.${quote(pgIdentifier(n))}`);
  await sql.raw(`ALTER TABLE ${table} RENAME TO ${quote(pgIdentifier(to))}`).execute(ex);
  await sql.raw(`ALTER INDEX IF EXISTS ${index} RENAME TO ${quote(pgIdentifier(`${to}$time`))}`).execute(ex);
  await run(ex, sql`UPDATE ${sql.raw(`${quote(schema)}.${quote(FIGURES)}`)} SET name = ${to} WHERE name = ${from}`);
}
