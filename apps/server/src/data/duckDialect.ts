import { sql } from 'kysely';
import type { DerivedDialect } from './derived';
import { dq } from './duckTables';

/**
 * DuckDB's forms of what a derived set's SQL differs by (derived.ts `DerivedDialect`; matrix.ts and the rule
 * compiler write the SQL once for every engine).
 * - Regular expressions run on DuckDB's own RE2 (`regexp_matches` finds a match anywhere, as `svc_regexp` does on
 *   SQLite); the pattern was checked by `compilePattern` before, and goes in as a literal so DuckDB compiles it
 *   once per statement.
 * - The newest row of each key is one `arg_max` over a struct of the values: a hash aggregate, where `DISTINCT ON`
 *   sorts every row.
 * - Numbers bind as DOUBLE: DuckDB's NUMERIC is DECIMAL(18,3), which would round a rule's 2.0005.
 * - No indexes: the set's tables are scanned (zone maps), and an index only costs build time.
 * - A set of keys is told apart by `hash` (64 bits): the XOR of the keys' hashes and the sum of another hash each.
 */
export const duckDerivedDialect: DerivedDialect = {
  ident: dq,
  position: (haystack, needle) => sql`strpos(${haystack}, ${needle})`,
  regexpMatch: (value, pattern) => sql`regexp_matches(CAST(${value} AS VARCHAR), ${sql.lit(pattern)})`,
  listValues: (values, type) =>
    sql`SELECT unnest(CAST(CAST(${JSON.stringify(values)} AS JSON) AS ${sql.raw(type === 'text' ? 'VARCHAR' : 'BIGINT')}[]))`,
  binaryOrder: (expr) => expr,
  newestPerKey: ({ key, values, time, from, where }) => {
    if (values.length === 0) return `SELECT ${key} AS k FROM ${from} WHERE ${where} GROUP BY 1`;
    const struct = values.map((v, i) => `'v${i}': ${v}`).join(', ');
    return `SELECT k${values.map((_, i) => `, s.v${i} AS v${i}`).join('')} FROM (
       SELECT ${key} AS k, arg_max({${struct}}, ${time}) AS s FROM ${from} WHERE ${where} GROUP BY 1)`;
  },
  numberType: 'DOUBLE',
  indexes: false,
  fingerprint: (key) =>
    `CAST(count(*) AS VARCHAR) || ':' || CAST(COALESCE(bit_xor(hash(${key})), 0) AS VARCHAR) || ':' ||
     CAST(COALESCE(sum(hash(${key}, 1)), 0) AS VARCHAR)`,
};
