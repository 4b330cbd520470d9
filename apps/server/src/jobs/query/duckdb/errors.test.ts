import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DuckTestDatabase, startDuckTestDatabase } from '../../testing/duckDatabase';
import { readableDuckError } from './errors';

/**
 * A failed query job on DuckDB ends with an error its user can read: run through the real runner on a real file,
 * each message is the engine's first sentence in the words the other engines use, without the translated SQL,
 * the engine's catalog or the service's tables.
 */

let duck: DuckTestDatabase;
beforeAll(async () => {
  duck = await startDuckTestDatabase(128 * 1048576);
  await duck.createTable(
    'events',
    [
      ['action', 'string'],
      ['amount', 'long'],
    ],
    [[1700000000, 'buy', 3]],
  );
  await duck.createTable('pageviews', [['path', 'string']], [[1700000000, '/']]);
}, 60_000);
afterAll(() => duck?.close());

const errorOf = async (sql: string) => ((await duck.query(sql).catch((e: Error) => e)) as Error).message;

describe('the errors of query jobs on DuckDB', () => {
  it.each([
    ['SELECT nope FROM events', 'no such column: nope'],
    ['SELECT actoin FROM events', 'no such column: actoin (did you mean "action"?)'],
    ['SELECT * FROM nope', 'no such table: nope'],
    ['SELECT * FROM event', 'no such table: event (did you mean "events"?)'],
    ['SELECT path FROM pageviews\nWHERE path > 1 ORDR BY path', 'near "ORDR": syntax error'],
    ['SELECT time FROM events e, events f', 'ambiguous column name: time (qualify it: "e.time" or "f.time")'],
    ['SELECT x.action FROM events', "no table or alias named x in the query's FROM clause"],
    [
      'SELECT action, count(*) FROM events',
      'column "action" must appear in the GROUP BY clause or must be part of an aggregate function.',
    ],
  ])('%s', async (sql, expected) => {
    const message = await errorOf(sql);
    expect(message).toBe(expected);
  });

  it('never shows the translated SQL, the engine class, nor the engine catalog or service tables', async () => {
    for (const sql of ['SELECT * FROM tables_x', 'SELECT "time" + FROM events', 'SELECT (action FROM events']) {
      const message = await errorOf(sql);
      expect(message).not.toMatch(/LINE \d|\^|Error: |pg_|duckdb_|information_schema|_svc\$/);
      expect(message.length).toBeGreaterThan(5);
    }
  });
});

describe('readableDuckError', () => {
  it('drops suggestions of the catalog and of the service, and keeps at most three of the rest', () => {
    expect(
      readableDuckError('Catalog Error: Table with name x does not exist!\nDid you mean "pg_enum"?\n\nLINE 1: …'),
    ).toBe('no such table: x');
    expect(readableDuckError('Catalog Error: Table with name x does not exist!\nDid you mean "_svc$tables"?')).toBe(
      'no such table: x',
    );
    expect(
      readableDuckError(
        'Binder Error: Referenced column "x" not found in FROM clause!\nCandidate bindings: "a", "b", "c", "d"\n\nLINE 1: SELECT "x"',
      ),
    ).toBe('no such column: x (did you mean "a", "b" or "c"?)');
  });

  it('words the end of input and keeps other first lines, with a full stop for "!"', () => {
    expect(readableDuckError('Parser Error: syntax error at end of input\n\nLINE 1: SELECT\n ^')).toBe(
      'incomplete input',
    );
    expect(readableDuckError('Invalid Input Error: Something odd!\nmore')).toBe('Something odd.');
  });
});
