import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DuckTestDatabase, startDuckTestDatabase } from '../../testing/duckDatabase';
import { caseQuery, DIALECT_CASES, DIALECT_NOW } from '../dialectCases';

/** Every case of dialectCases.ts on DuckDB, through the job runner: the value SQLite and PostgreSQL give. */

let duck: DuckTestDatabase;
beforeAll(async () => {
  duck = await startDuckTestDatabase();
});
afterAll(() => duck?.close());

for (const [family, cases] of Object.entries(DIALECT_CASES)) {
  describe(family, () => {
    for (const c of cases) {
      it(`${c.expr}`, async () => {
        const got = await duck.query(caseQuery(c), { nowMs: DIALECT_NOW }).then(
          (r) => {
            expect(r.rows).toHaveLength(1);
            return { value: r.rows[0]?.[0] };
          },
          (e: Error) => ({ error: e.message }),
        );
        if (c.expected instanceof RegExp) expect(got).toEqual({ error: expect.stringMatching(c.expected) });
        else expect(got).toEqual({ value: c.expected });
      });
    }
  });
}
