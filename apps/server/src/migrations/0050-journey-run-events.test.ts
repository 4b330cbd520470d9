import { afterEach, describe, expect, it } from 'vitest';
import { eventsOfRows, type LoggedEvent as Logged, type RunEventRow } from '../journey-engine/testing/loggedEvents';
import { migrate } from '../platform/db';
import { postgresBefore } from './testing/postgresBefore';
import { sqliteBefore } from './testing/sqliteBefore';

// Run 1 of journey 5 logs p1 and p2 with their events interleaved; run 2 logs p1 again; journey 6 apart.
const events: Logged[] = [
  { journeyId: 5, runId: 1, at: 10, profileKey: 'p1', type: 'journey_entered', stageId: 's1', segmentId: 'seg' },
  { journeyId: 5, runId: 1, at: 10, profileKey: 'p2', type: 'journey_entered', stageId: 's1' },
  { journeyId: 5, runId: 1, at: 10, profileKey: 'p1', type: 'step_entered', stageId: 's1', stepId: 'w', dueAt: 99 },
  {
    journeyId: 5,
    runId: 1,
    at: 10,
    profileKey: 'p2',
    type: 'variant_assigned',
    stepId: 'ab',
    variantId: 'A',
    bucket: 1234,
    kept: false,
  },
  { journeyId: 5, runId: 1, at: 10, profileKey: 'p1', type: 'activation_queued', stepId: 'x', activationId: 'a1' },
  { journeyId: 5, runId: 2, at: 20, profileKey: 'p1', type: 'exit_matched', stageId: 's1', criterionIndex: 0 },
  { journeyId: 5, runId: 2, at: 20, profileKey: 'p1', type: 'stage_left', stageId: 's1', reason: 'exit_segment' },
  { journeyId: 5, runId: 2, at: 20, profileKey: 'p1', type: 'branch_taken', stageId: 's1', branchId: 'b' },
  { journeyId: 6, runId: 3, at: 30, profileKey: 'p1', type: 'journey_entered', stageId: 't1' },
];

/** The old log's columns after account_id, each with the field of a logged event it holds. */
const FIELDS: [keyof Logged, string][] = [
  ['journeyId', 'journey_id'],
  ['runId', 'run_id'],
  ['at', 'at'],
  ['profileKey', 'profile_key'],
  ['type', 'type'],
  ['stageId', 'stage_id'],
  ['stepId', 'step_id'],
  ['branchId', 'branch_id'],
  ['variantId', 'variant_id'],
  ['activationId', 'activation_id'],
  ['segmentId', 'segment_id'],
  ['reason', 'reason'],
  ['criterionIndex', 'criterion_index'],
  ['bucket', 'bucket'],
  ['kept', 'kept'],
  ['dueAt', 'due_at'],
];
const COLUMNS = `account_id, ${FIELDS.map(([, column]) => column).join(', ')}`;
const valuesOf = (e: Logged) =>
  FIELDS.map(([field]) => {
    const v = e[field];
    return v === undefined ? null : typeof v === 'boolean' ? Number(v) : v;
  });
const SETUP = `INSERT INTO accounts (id, name, created_at) VALUES (1, 'a', 0);
  INSERT INTO journeys (id, account_id, parent_segment_id, folder_id, name, state, paused, document, created_at,
    updated_at)
    VALUES (5, 1, '1', '1', 'one', 'launched', 0, '{}', 0, 0), (6, 1, '1', '1', 'two', 'launched', 0, '{}', 0, 0);`;
const ROWS = 'SELECT journey_id, run_id, at, profile_key, events FROM journey_run_events ORDER BY id';

/** The events in log order once each profile's events of a run are kept together. */
const EXPECTED = [0, 2, 4, 1, 3, 5, 6, 7, 8].map((i) => events[i]);

describe('migration 50 (journey events: a row per run and profile) on SQLite', () => {
  let remove = () => {};
  afterEach(() => remove());

  it("keeps every logged event, each profile's events of a run in one row, in their order", () => {
    const before = sqliteBefore(50);
    remove = before.remove;
    const { db } = before;
    db.exec(SETUP);
    const insert = db.prepare(
      `INSERT INTO journey_profile_events (${COLUMNS}) VALUES (1, ${new Array(16).fill('?').join(', ')})`,
    );
    for (const e of events) insert.run(...valuesOf(e));
    expect(migrate(db)[0]).toBe(50);
    const rows = db.prepare(ROWS).all() as RunEventRow[];
    expect(rows.map((r) => [r.journey_id, r.run_id, r.profile_key])).toEqual([
      [5, 1, 'p1'],
      [5, 1, 'p2'],
      [5, 2, 'p1'],
      [6, 3, 'p1'],
    ]);
    expect(eventsOfRows(rows)).toEqual(EXPECTED);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'journey_profile_events'").all()).toEqual([]);
    // The rows go with their journey.
    db.exec('DELETE FROM journeys WHERE id = 5');
    expect(db.prepare('SELECT COUNT(*) AS n FROM journey_run_events').get()).toEqual({ n: 1 });
  });
});

describe('migration 50 on PostgreSQL', () => {
  it('moves the same events as on SQLite, and its rows go with their journey', async () => {
    const postgres = await postgresBefore(50);
    const { client } = postgres;
    try {
      await client.query(SETUP);
      for (const e of events) {
        const marks = valuesOf(e).map((_, i) => `$${i + 1}`);
        await client.query(`INSERT INTO journey_profile_events (${COLUMNS}) VALUES (1, ${marks.join(', ')})`, [
          ...valuesOf(e),
        ]);
      }
      await postgres.apply();
      expect(eventsOfRows((await client.query<RunEventRow>(ROWS)).rows)).toEqual(EXPECTED);
      await client.query('DELETE FROM journeys WHERE id = 5');
      expect((await client.query(ROWS)).rows).toHaveLength(1);
    } finally {
      await postgres.remove();
    }
  }, 120_000);
});
