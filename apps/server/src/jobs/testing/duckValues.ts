import { afterAll, beforeAll } from 'vitest';
import { type DuckTestDatabase, startDuckTestDatabase } from './duckDatabase';

/**
 * Presto SQL run as a query job runs it on DuckDB, the embedded engine (translation, the TD_* and Presto functions,
 * the result's values), for the dialect's unit tests: a DuckDB file of the test file's own, opened before its
 * tests and closed after them, with the job's "now" at `nowMs`.
 */
export function duckQueries(nowMs: number) {
  let duck: DuckTestDatabase | undefined;
  beforeAll(async () => {
    duck = await startDuckTestDatabase();
  });
  afterAll(() => duck?.close());

  /** The rows of a query. */
  const rows = async (sql: string): Promise<unknown[][]> => {
    if (!duck) throw new Error('The DuckDB test database is not open yet.');
    return (await duck.query(sql, { nowMs })).rows;
  };
  /** The rows of a query of `type` as records, by the result's column names. */
  const records = async (sql: string, type: 'presto' | 'hive' = 'presto'): Promise<Record<string, unknown>[]> => {
    if (!duck) throw new Error('The DuckDB test database is not open yet.');
    const result = await duck.query(sql, { nowMs, type });
    return result.rows.map((row) => Object.fromEntries(result.schema.map(([name], i) => [name, row[i]])));
  };
  /** The first value of a query's first row. */
  const first = async (sql: string): Promise<unknown> => (await rows(sql))[0]?.[0];
  return {
    rows,
    records,
    first,
    /** `SELECT <expr>`; each `?` outside quotes takes the next of `params`, written as SQL. */
    value: (expr: string, ...params: unknown[]) => first(`SELECT ${withParams(expr, params)} AS v`),
    tables: () => duck as DuckTestDatabase,
  };
}

const literal = (v: unknown) => (typeof v === 'string' ? `'${v.replaceAll("'", "''")}'` : String(v));

function withParams(expr: string, params: unknown[]): string {
  let next = 0;
  return expr
    .split(/('(?:[^']|'')*')/)
    .map((part, i) => (i % 2 === 1 ? part : part.replaceAll('?', () => literal(params[next++]))))
    .join('');
}
