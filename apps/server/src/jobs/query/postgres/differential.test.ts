import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../../testing/harness';
import { issue, show, tableWithRows } from '../../testing/jobs';
import { differentialQueries, EMBEDDED_GAPS, TABLE_ROWS } from './differentialCases';

/**
 * The same rows, the same queries, both engines, through the whole product: each query is a job issued over
 * REST, and its `hive_result_schema`, rows (the JSON result) or failure must be the same on both. The embedded
 * engine is the one adapter below.
 */

/**
 * The embedded engine: its app, and whether it types a computed column by the values it holds (SQLite: all
 * NULL is varchar, whole doubles are bigint) rather than by the expression. Switching to DuckDB is this line.
 */
const EMBEDDED = { app: () => createHarness({}, { backend: 'sqlite' }), typesByValues: false };

interface Outcome {
  status: string;
  schema?: [string, string][];
  rows?: unknown[][];
}

/** Doubles computed in different orders differ in their last bits: compared to 12 significant digits. */
const normal = (v: unknown): unknown => {
  if (typeof v === 'number' && !Number.isInteger(v)) return Number(v.toPrecision(12));
  if (Array.isArray(v)) return v.map(normal);
  return v;
};

async function outcome(h: Harness, id: string): Promise<Outcome> {
  const status = await h.app.services.jobs.whenSettled(Number(id));
  if (status !== 'success') return { status };
  const job = await show(h, id);
  const text = await (await h.call('GET', `/v3/job/result/${id}?format=json`)).text();
  const rows = text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => normal(JSON.parse(line)) as unknown[]);
  return { status, schema: JSON.parse(job.hive_result_schema ?? 'null'), rows };
}

/** The type SQLite gives a computed column holding these values. */
function typeOfValues(values: unknown[]): string {
  if (values.some((v) => typeof v === 'string')) return 'varchar';
  if (values.some((v) => typeof v === 'number' && !Number.isInteger(v))) return 'double';
  return values.some((v) => typeof v === 'number') ? 'bigint' : 'varchar';
}

/**
 * PostgreSQL's outcome as the embedded engine would report it: where that engine types by values, a column
 * whose embedded type is what those values give takes that type (PostgreSQL's own type is Presto's).
 */
function comparable(postgres: Outcome, embedded: Outcome): Outcome {
  if (!EMBEDDED.typesByValues || !postgres.schema || !embedded.schema) return postgres;
  const schema = postgres.schema.map(([name, type], i): [string, string] => {
    const theirs = embedded.schema?.[i]?.[1];
    const byValues = typeOfValues((postgres.rows ?? []).map((row) => row[i]));
    return [name, theirs !== type && theirs === byValues ? byValues : type];
  });
  return { ...postgres, schema };
}

let embedded: Harness;
let postgres: Harness;

beforeAll(async () => {
  [embedded, postgres] = await Promise.all([EMBEDDED.app(), createHarness({}, { backend: 'postgres' })]);
  for (const h of [embedded, postgres]) await tableWithRows(h, 'diff', 'events', TABLE_ROWS);
  // Both apps' clocks stand at the same instant, so a job's "now" (now(), CURRENT_TIMESTAMP…) is the same on both.
  expect(postgres.clock.now()).toEqual(embedded.clock.now());
}, 120_000);

afterAll(async () => {
  await Promise.all([embedded?.close(), postgres?.close()]);
});

const QUERIES = differentialQueries();
const GROUP = 100;
const gapOf = (query: string) => EMBEDDED_GAPS.find(([pattern]) => pattern.test(query))?.[1];

describe('the embedded engine and PostgreSQL answer the same', () => {
  for (let at = 0; at < QUERIES.length; at += GROUP) {
    const group = QUERIES.slice(at, at + GROUP);
    it(`queries ${at + 1} to ${at + group.length} of ${QUERIES.length}`, async () => {
      const ids = await Promise.all(
        group.map((query) => Promise.all([issue(embedded, 'diff', query), issue(postgres, 'diff', query)])),
      );
      const differences: unknown[] = [];
      const gapsClosed: string[] = [];
      for (const [n, query] of group.entries()) {
        const [a, b] = ids[n] as [string, string];
        const ours = await outcome(embedded, a);
        const theirs = comparable(await outcome(postgres, b), ours);
        const same = JSON.stringify(theirs) === JSON.stringify(ours);
        const gap = gapOf(query);
        if (gap !== undefined && same) gapsClosed.push(`${query} (${gap})`);
        if (gap === undefined && !same) differences.push({ query, embedded: ours, postgres: theirs });
      }
      expect(differences).toEqual([]);
      // A known gap of the embedded engine that no longer shows is taken off EMBEDDED_GAPS.
      expect(gapsClosed).toEqual([]);
    }, 120_000);
  }
});
