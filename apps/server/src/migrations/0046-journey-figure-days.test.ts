import type { EngineEvent } from '@svc/journey-engine';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../platform/db';
import { postgresBefore } from './testing/postgresBefore';
import { sqliteBefore } from './testing/sqliteBefore';

const DAY = 86_400_000;

// p1 enters twice (days 1 and 3), reaching the same step each time; p2 leaves by an exit; journey 6 apart.
const events: Array<EngineEvent & { journeyId: number }> = [
  { journeyId: 5, at: DAY + 5, profileKey: 'p1', type: 'journey_entered' },
  { journeyId: 5, at: DAY + 5, profileKey: 'p1', type: 'stage_entered', stageId: 's1' },
  { journeyId: 5, at: DAY + 5, profileKey: 'p1', type: 'step_entered', stageId: 's1', stepId: 'w' },
  { journeyId: 5, at: 2 * DAY, profileKey: 'p1', type: 'goal_reached', stageId: 's1' },
  { journeyId: 5, at: 2 * DAY, profileKey: 'p1', type: 'stage_left', stageId: 's1', reason: 'goal' },
  { journeyId: 5, at: 2 * DAY, profileKey: 'p1', type: 'journey_left', stageId: 's1', reason: 'goal' },
  { journeyId: 5, at: 3 * DAY + 9, profileKey: 'p1', type: 'journey_entered' },
  { journeyId: 5, at: 3 * DAY + 9, profileKey: 'p1', type: 'step_entered', stageId: 's1', stepId: 'w' },
  { journeyId: 5, at: DAY + 7, profileKey: 'p2', type: 'journey_entered' },
  { journeyId: 5, at: 4 * DAY, profileKey: 'p2', type: 'exit_matched', stageId: 's1', criterionIndex: 0 },
  { journeyId: 5, at: 4 * DAY, profileKey: 'p2', type: 'stage_left', stageId: 's1', reason: 'exit_segment' },
  { journeyId: 5, at: 4 * DAY, profileKey: 'p2', type: 'branch_taken', stageId: 's1', branchId: 'b' },
  { journeyId: 5, at: 4 * DAY, profileKey: 'p2', type: 'step_left', stageId: 's1', stepId: 'w' },
  { journeyId: 5, at: 2 * DAY, profileKey: 'p3', type: 'journey_entered' },
  { journeyId: 5, at: 2 * DAY, profileKey: 'p3', type: 'variant_assigned', stepId: 'ab', variantId: 'A' },
  { journeyId: 5, at: 5 * DAY, profileKey: 'p3', type: 'goal_reached', stageId: 's1' },
  { journeyId: 5, at: 6 * DAY, profileKey: 'p3', type: 'journey_entered' },
  {
    journeyId: 5,
    at: 6 * DAY,
    profileKey: 'p3',
    type: 'variant_assigned',
    stepId: 'ab',
    variantId: 'A',
    kept: true,
  },
  { journeyId: 5, at: 2 * DAY + 1, profileKey: 'p4', type: 'journey_entered' },
  { journeyId: 5, at: 2 * DAY + 1, profileKey: 'p4', type: 'variant_assigned', stepId: 'ab', variantId: 'B' },
  { journeyId: 6, at: DAY, profileKey: 'p1', type: 'journey_entered' },
];

/** An event's values after account_id, in the INSERT's order. */
const valuesOf = (e: (typeof events)[number]) => [
  e.journeyId,
  e.at,
  e.profileKey,
  e.type,
  e.stageId ?? null,
  e.stepId ?? null,
  e.branchId ?? null,
  e.reason ?? null,
  e.criterionIndex ?? null,
  e.variantId ?? null,
  e.kept === undefined ? null : e.kept ? 1 : 0,
];

const FIGURE_ROWS =
  'SELECT journey_id, kind, fid, sub, day, prev_day, n FROM journey_figure_days ORDER BY journey_id, kind, fid, sub, day, prev_day';
const AB_ROWS =
  'SELECT journey_id, step_id, variant_id, day, goal_day, n FROM journey_ab_days ORDER BY journey_id, variant_id';
/** Rows with their numbers as numbers (PostgreSQL's bigints come as text). */
const numbers = (rows: Array<Record<string, unknown>>) =>
  rows.map((r) =>
    Object.fromEntries(
      Object.entries(r).map(([k, v]) => [k, /^-?\d+$/.test(String(v)) && k !== 'fid' && k !== 'sub' ? Number(v) : v]),
    ),
  );

describe('migration 46 (journey figures per day) on SQLite', () => {
  let remove = () => {};
  afterEach(() => remove());

  it('counts the logged events per figure, day and previous day, as the runs count them', () => {
    const before = sqliteBefore(46);
    remove = before.remove;
    const { db } = before;
    db.exec(`
      INSERT INTO accounts (id, name, created_at) VALUES (1, 'a', 0);
      INSERT INTO journeys (id, account_id, parent_segment_id, folder_id, name, state, paused, document, created_at,
        updated_at)
        VALUES (5, 1, '1', '1', 'one', 'launched', 0, '{}', 0, 0), (6, 1, '1', '1', 'two', 'launched', 0, '{}', 0, 0);
    `);
    const insert = db.prepare(
      `INSERT INTO journey_profile_events (account_id, journey_id, run_id, at, profile_key, type, stage_id, step_id,
         branch_id, reason, criterion_index, variant_id, kept)
       VALUES (1, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const e of events) insert.run(...valuesOf(e));
    expect(migrate(db)[0]).toBe(46);
    const stored = (journeyId: number) =>
      db
        .prepare(
          `SELECT kind, fid, sub, day, prev_day, n FROM journey_figure_days WHERE journey_id = ?
           ORDER BY kind, fid, sub, day, prev_day`,
        )
        .all(journeyId);
    // Every figure per day with the day it was reached before (-1: never); re-entries' events counted per day.
    expect(stored(5)).toEqual([
      { kind: 'branch', fid: 'b', sub: '', day: 4, prev_day: -1, n: 1 },
      { kind: 'entered', fid: '', sub: '', day: 1, prev_day: -1, n: 2 },
      { kind: 'entered', fid: '', sub: '', day: 2, prev_day: -1, n: 2 },
      { kind: 'entered', fid: '', sub: '', day: 3, prev_day: 1, n: 1 },
      { kind: 'entered', fid: '', sub: '', day: 6, prev_day: 2, n: 1 },
      { kind: 'exit', fid: 's1', sub: '0', day: 4, prev_day: -1, n: 1 },
      { kind: 'goal', fid: '', sub: '', day: 2, prev_day: -1, n: 1 },
      { kind: 'goal', fid: '', sub: '', day: 5, prev_day: -1, n: 1 },
      { kind: 'later', fid: '', sub: '', day: 3, prev_day: -1, n: 2 },
      { kind: 'later', fid: '', sub: '', day: 6, prev_day: -1, n: 2 },
      { kind: 'left', fid: 'goal', sub: '', day: 2, prev_day: -1, n: 1 },
      { kind: 'stage', fid: 's1', sub: '', day: 1, prev_day: -1, n: 1 },
      { kind: 'step', fid: 'w', sub: '', day: 1, prev_day: -1, n: 1 },
      { kind: 'step', fid: 'w', sub: '', day: 3, prev_day: 1, n: 1 },
      { kind: 'toExit', fid: 's1', sub: '', day: 4, prev_day: -1, n: 1 },
      { kind: 'toGoal', fid: 's1', sub: '', day: 2, prev_day: -1, n: 1 },
    ]);
    expect(stored(6)).toEqual([{ kind: 'entered', fid: '', sub: '', day: 1, prev_day: -1, n: 1 }]);
    // The A/B tallies: p3 assigned A on day 2 and converted on day 5 (its re-entry's kept assignment is not
    // counted again); p4 assigned B on day 2, not converted.
    const abStored = db
      .prepare(
        'SELECT step_id, variant_id, day, goal_day, n FROM journey_ab_days WHERE journey_id = 5 ORDER BY variant_id',
      )
      .all();
    expect(abStored).toEqual([
      { step_id: 'ab', variant_id: 'A', day: 2, goal_day: 5, n: 1 },
      { step_id: 'ab', variant_id: 'B', day: 2, goal_day: -1, n: 1 },
    ]);
    // The counts go with their journey.
    db.exec('DELETE FROM journeys WHERE id = 5');
    expect(db.prepare('SELECT COUNT(*) AS n FROM journey_figure_days').get()).toEqual({ n: 1 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM journey_ab_days').get()).toEqual({ n: 0 });
  });
});

describe('migration 46 on PostgreSQL', () => {
  it('fills the same rows as on SQLite from the same log', async () => {
    const before = sqliteBefore(46);
    const { db } = before;
    const postgres = await postgresBefore(46);
    const { client } = postgres;
    try {
      const setup = `INSERT INTO accounts (id, name, created_at) VALUES (1, 'a', 0);
        INSERT INTO journeys (id, account_id, parent_segment_id, folder_id, name, state, paused, document, created_at,
          updated_at)
          VALUES (5, 1, '1', '1', 'one', 'launched', 0, '{}', 0, 0), (6, 1, '1', '1', 'two', 'launched', 0, '{}', 0, 0);`;
      db.exec(setup);
      await client.query(setup);
      const insert = db.prepare(
        `INSERT INTO journey_profile_events (account_id, journey_id, run_id, at, profile_key, type, stage_id, step_id,
           branch_id, reason, criterion_index, variant_id, kept)
         VALUES (1, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const e of events) {
        insert.run(...valuesOf(e));
        await client.query(
          `INSERT INTO journey_profile_events (account_id, journey_id, run_id, at, profile_key, type, stage_id,
             step_id, branch_id, reason, criterion_index, variant_id, kept)
           VALUES (1, $1, 1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
          valuesOf(e),
        );
      }
      migrate(db);
      await postgres.apply();
      const lite = numbers(db.prepare(FIGURE_ROWS).all() as Array<Record<string, unknown>>);
      expect(lite.length).toBeGreaterThan(10);
      expect(numbers((await client.query(FIGURE_ROWS)).rows)).toEqual(lite);
      const liteAb = numbers(db.prepare(AB_ROWS).all() as Array<Record<string, unknown>>);
      expect(liteAb).toHaveLength(2);
      expect(numbers((await client.query(AB_ROWS)).rows)).toEqual(liteAb);
    } finally {
      await postgres.remove();
      before.remove();
    }
  }, 120_000);
});
