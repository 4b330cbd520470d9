import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../platform/db';
import { sqliteBefore } from './testing/sqliteBefore';

describe('migration 45 (journey position counts) on SQLite', () => {
  let remove = () => {};
  afterEach(() => remove());

  it('counts the states already saved, per journey, status, stage and step', () => {
    const before = sqliteBefore(45);
    remove = before.remove;
    const { db } = before;
    db.exec(`
      INSERT INTO accounts (id, name, created_at) VALUES (1, 'a', 0);
      INSERT INTO journeys (id, account_id, parent_segment_id, folder_id, name, state, paused, document, created_at,
        updated_at)
        VALUES (5, 1, '1', '1', 'one', 'launched', 0, '{}', 0, 0), (6, 1, '1', '1', 'two', 'launched', 0, '{}', 0, 0);
    `);
    const state = db.prepare(
      `INSERT INTO journey_profile_states (account_id, journey_id, profile_key, status, stage_id, step_id,
         journey_entered_at, stage_entered_at, step_entered_at, entries, variants, branches, held, last_run_at)
       VALUES (1, ?, ?, ?, ?, ?, 0, 0, 0, 1, '{}', '{}', 0, 0)`,
    );
    state.run(5, 'a', 'active', 's1', 'wait');
    state.run(5, 'b', 'active', 's1', 'wait');
    state.run(5, 'c', 'active', 's1', null);
    state.run(5, 'd', 'left', 's2', null);
    state.run(6, 'a', 'active', 's1', 'wait');
    expect(migrate(db)[0]).toBe(45);
    expect(
      db
        .prepare(
          'SELECT journey_id, status, stage_id, step_id, profiles FROM journey_positions ORDER BY journey_id, status, stage_id, step_id',
        )
        .all(),
    ).toEqual([
      { journey_id: 5, status: 'active', stage_id: 's1', step_id: '', profiles: 1 },
      { journey_id: 5, status: 'active', stage_id: 's1', step_id: 'wait', profiles: 2 },
      { journey_id: 5, status: 'left', stage_id: 's2', step_id: '', profiles: 1 },
      { journey_id: 6, status: 'active', stage_id: 's1', step_id: 'wait', profiles: 1 },
    ]);
    // The counts go with their journey.
    db.exec('DELETE FROM journeys WHERE id = 5');
    expect(db.prepare('SELECT COUNT(*) AS n FROM journey_positions').get()).toEqual({ n: 1 });
  });
});
