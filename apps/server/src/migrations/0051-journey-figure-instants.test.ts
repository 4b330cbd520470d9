import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../platform/db';
import { postgresBefore } from './testing/postgresBefore';
import { sqliteBefore } from './testing/sqliteBefore';

const SETUP = `INSERT INTO accounts (id, name, created_at) VALUES (1, 'a', 0);
  INSERT INTO journeys (id, account_id, parent_segment_id, folder_id, name, state, paused, document, created_at,
    updated_at)
    VALUES (5, 1, '1', '1', 'one', 'launched', 0, '{}', 0, 0), (6, 1, '1', '1', 'two', 'launched', 0, '{}', 0, 0);`;

// Journey 5: p1 and p2 enter at 10 (p1 assigned arm A, p2 matching exit criterion 0); p1 reaches the goal at 20
// and enters again at 30. Journey 6: p1 enters at 40. Rows as journey_run_events holds them (migration 50).
const LOG: Array<[number, number, number, string, unknown[][]]> = [
  [
    5,
    1,
    10,
    'p1',
    [
      ['journey_entered', 's1'],
      ['stage_entered', 's1'],
      ['variant_assigned', null, 'ab', null, 'A', null, null, null, null, 4321, 0],
    ],
  ],
  [
    5,
    1,
    10,
    'p2',
    [
      ['journey_entered', 's1'],
      ['exit_matched', 's1', null, null, null, null, null, null, 0],
    ],
  ],
  [
    5,
    2,
    20,
    'p1',
    [
      ['goal_reached', 's1'],
      ['journey_left', 's1', null, null, null, null, null, 'goal'],
    ],
  ],
  [
    5,
    3,
    30,
    'p1',
    [
      ['journey_entered', 's1'],
      ['stage_entered', 's1'],
    ],
  ],
  [6, 4, 40, 'p1', [['journey_entered', 't1']]],
];
const INSERT = `INSERT INTO journey_run_events (account_id, journey_id, run_id, at, profile_key, events)
  VALUES (1, $1, $2, $3, $4, $5)`;

/** Every figure once per profile and time, each with the previous time its profile reached it (-1 never). */
const FIGURES = [
  [5, 'entered', '', '', 10, -1, 2],
  [5, 'entered', '', '', 30, 10, 1],
  [5, 'exit', 's1', '0', 10, -1, 1],
  [5, 'goal', '', '', 20, -1, 1],
  [5, 'later', '', '', 30, -1, 2],
  [5, 'left', 'goal', '', 20, -1, 1],
  [5, 'stage', 's1', '', 10, -1, 1],
  [5, 'stage', 's1', '', 30, 10, 1],
  [6, 'entered', '', '', 40, -1, 1],
];
const FIGURE_ROWS = `SELECT journey_id, kind, fid, sub, at, prev_at, n FROM journey_figure_instants
  ORDER BY journey_id, kind, fid, at`;
const AB_ROWS = 'SELECT journey_id, step_id, variant_id, at, goal_at, n FROM journey_ab_instants';
const rowsOf = (rows: Record<string, unknown>[]) => rows.map((r) => Object.values(r).map((v) => Number(v) || v));

describe('migration 51 (journey figures per run instant) on SQLite', () => {
  let remove = () => {};
  afterEach(() => remove());

  it('counts the logged figures and A/B tallies per instant, with every previous time known', () => {
    const before = sqliteBefore(51);
    remove = before.remove;
    const { db } = before;
    db.exec(SETUP);
    const insert = db.prepare(INSERT.replace(/\$\d/g, '?'));
    for (const [journey, run, at, key, events] of LOG) insert.run(journey, run, at, key, JSON.stringify(events));
    expect(migrate(db)[0]).toBe(51);
    expect(rowsOf(db.prepare(FIGURE_ROWS).all() as Record<string, unknown>[])).toEqual(FIGURES);
    expect(rowsOf(db.prepare(AB_ROWS).all() as Record<string, unknown>[])).toEqual([[5, 'ab', 'A', 10, 20, 1]]);
    // The counts go with their journey.
    db.exec('DELETE FROM journeys WHERE id = 5');
    expect(db.prepare('SELECT COUNT(*) AS n FROM journey_figure_instants').get()).toEqual({ n: 1 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM journey_ab_instants').get()).toEqual({ n: 0 });
  });
});

describe('migration 51 on PostgreSQL', () => {
  it('counts the same as on SQLite, and its rows go with their journey', async () => {
    const postgres = await postgresBefore(51);
    const { client } = postgres;
    try {
      await client.query(SETUP);
      for (const [journey, run, at, key, events] of LOG) {
        await client.query(INSERT, [journey, run, at, key, JSON.stringify(events)]);
      }
      await postgres.apply();
      expect(rowsOf((await client.query(FIGURE_ROWS)).rows)).toEqual(FIGURES);
      expect(rowsOf((await client.query(AB_ROWS)).rows)).toEqual([[5, 'ab', 'A', 10, 20, 1]]);
      await client.query('DELETE FROM journeys WHERE id = 5');
      expect((await client.query('SELECT kind FROM journey_figure_instants')).rows).toEqual([{ kind: 'entered' }]);
    } finally {
      await postgres.remove();
    }
  }, 120_000);
});
