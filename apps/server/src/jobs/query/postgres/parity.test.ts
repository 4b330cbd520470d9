import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duckQueries } from '../../testing/duckValues';
import { type QueryTestDatabase, startQueryTestDatabase } from '../../testing/queryDatabase';
import { caseQuery, DIALECT_CASES, DIALECT_NOW, type DialectCase } from '../dialectCases';
import { runPostgresQuery } from './runQuery';

/**
 * Every case of dialectCases.ts on PostgreSQL: the value the DuckDB engine gives too (duckdb/parity.test.ts), as
 * the SQLite engine did. Whole queries run on both engines.
 */

const duck = duckQueries(DIALECT_NOW);
let pg: QueryTestDatabase;
let schema: string;

beforeAll(async () => {
  pg = await startQueryTestDatabase();
  schema = `${pg.prefix}_empty`;
  await pg.pool.query(`CREATE SCHEMA "${schema}"`);
}, 120_000);
afterAll(async () => {
  await pg?.stop();
});

async function onPostgres(c: DialectCase): Promise<unknown> {
  const result = await runPostgresQuery({
    pool: pg.pool,
    schema,
    database: 'db',
    sql: caseQuery(c),
    nowMs: DIALECT_NOW,
    timeoutMs: 10_000,
    maxRows: 10,
  });
  expect(result.rows).toHaveLength(1);
  return result.rows[0]?.[0];
}

async function outcome(run: (c: DialectCase) => Promise<unknown>, c: DialectCase) {
  try {
    return { value: await run(c) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

for (const [family, cases] of Object.entries(DIALECT_CASES)) {
  describe(family, () => {
    for (const c of cases) {
      it(`${c.expr}`, async () => {
        const want =
          c.expected instanceof RegExp ? { error: expect.stringMatching(c.expected) } : { value: c.expected };
        expect(await outcome(onPostgres, c)).toEqual(want);
      });
    }
  });
}

/** Whole queries whose rows must be the same on both backends. */
const QUERY_CASES: [string, unknown[][] | RegExp][] = [
  [
    `SELECT tag, count(*) AS n FROM (SELECT '["b","a","b"]' AS tags UNION ALL SELECT NULL) s
       CROSS JOIN UNNEST(tags) AS t(tag) GROUP BY tag ORDER BY tag`,
    [
      ['a', 1],
      ['b', 2],
    ],
  ],
  [
    `SELECT m.k, upper(v) AS u FROM (SELECT '{"x":"one","y":"two"}' AS attrs) s CROSS JOIN UNNEST(attrs) AS m(k, v) ORDER BY k`,
    [
      ['x', 'ONE'],
      ['y', 'TWO'],
    ],
  ],
  // A map's values are text on both engines (decision 0053, the third difference): CAST them for arithmetic.
  [
    `SELECT m.k, v, CAST(v AS bigint) * 10 AS v10 FROM (SELECT '{"x":1,"y":2}' AS attrs) s
       CROSS JOIN UNNEST(attrs) AS m(k, v) ORDER BY k`,
    [
      ['x', '1', 10],
      ['y', '2', 20],
    ],
  ],
  ["SELECT `e` FROM (SELECT '[\"only\"]' AS a) s CROSS JOIN UNNEST(a) u(`e`) WHERE e <> 'none'", [['only']]],
  ["SELECT e FROM (SELECT 'not json' AS a) s CROSS JOIN UNNEST(a) AS u(e)", /not an array or a map/],
];

describe('whole queries', () => {
  for (const [query, expected] of QUERY_CASES) {
    it(query, async () => {
      const duckRows = () => duck.rows(query);
      const postgresRows = async () =>
        (
          await runPostgresQuery({
            pool: pg.pool,
            schema,
            database: 'db',
            sql: query,
            nowMs: DIALECT_NOW,
            timeoutMs: 10_000,
            maxRows: 100,
          })
        ).rows;
      for (const rows of [duckRows, postgresRows]) {
        const got = await rows().then(
          (value) => ({ value }),
          (e: Error) => ({ error: e.message }),
        );
        if (expected instanceof RegExp) expect(got).toEqual({ error: expect.stringMatching(expected) });
        else expect(got).toEqual({ value: expected });
      }
    });
  }
});
