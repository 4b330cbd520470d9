import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../dialect';
import { caseQuery, DIALECT_CASES, DIALECT_NOW, type DialectCase } from '../dialectCases';
import { registerFunctions } from '../sqlFunctions';
import { runPostgresQuery } from './runQuery';
import { type QueryTestDatabase, startQueryTestDatabase } from './testing';

/** Every case of dialectCases.ts, on SQLite and on PostgreSQL: the same Presto SQL, the same value. */

const sqlite = new Database(':memory:');
registerFunctions(sqlite, DIALECT_NOW);
let pg: QueryTestDatabase;
let schema: string;

beforeAll(async () => {
  pg = await startQueryTestDatabase();
  schema = `${pg.prefix}_empty`;
  await pg.pool.query(`CREATE SCHEMA "${schema}"`);
}, 120_000);
afterAll(async () => {
  sqlite.close();
  await pg?.stop();
});

async function onSqlite(c: DialectCase): Promise<unknown> {
  const row = sqlite
    .prepare(translate(caseQuery(c), 'db'))
    .raw(true)
    .get() as unknown[];
  return row[0];
}

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
        for (const run of [onSqlite, onPostgres]) {
          const got = await outcome(run, c);
          if (c.expected instanceof RegExp) expect(got, run.name).toEqual({ error: expect.stringMatching(c.expected) });
          else expect(got, run.name).toEqual({ value: c.expected });
        }
      });
    }
  });
}
