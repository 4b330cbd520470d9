import type { ProfileState } from '@svc/journey-engine';
import { type Executor, insertRowsInBatches, run, sql } from '../platform/storage';

/**
 * A journey's position counts (`journey_positions`, migration 45, decision 0052): how many profiles stand at each
 * status, stage and step, kept by the run in the transaction that writes their states (store.ts `saveRun`).
 */

/** Keys per statement of movePositions (bound values, within both backends' limits). */
const KEYS_PER_STATEMENT = 500;

/**
 * Takes the given profiles' current positions, as their states stand now, away from the journey's position counts:
 * called before their states change when the caller did not read them (movePositions then counts the new ones).
 */
export async function leavePositions(ex: Executor, accountId: number, journeyId: number, keys: string[]) {
  for (let at = 0; at < keys.length; at += KEYS_PER_STATEMENT) {
    const part = keys.slice(at, at + KEYS_PER_STATEMENT);
    // Keys first, each state then found by its primary key (`CROSS JOIN` keeps that order on SQLite, whose
    // planner would otherwise scan the journey's whole position index for an IN list).
    await run(
      ex,
      sql`WITH k(profile_key) AS (VALUES ${sql.join(part.map((key) => sql`(${key})`))})
          INSERT INTO journey_positions (account_id, journey_id, status, stage_id, step_id, profiles)
          SELECT s.account_id, s.journey_id, s.status, s.stage_id, COALESCE(s.step_id, ''), -COUNT(*)
          FROM k CROSS JOIN journey_profile_states s
          WHERE s.journey_id = ${journeyId} AND s.profile_key = k.profile_key AND s.account_id = ${accountId}
          GROUP BY s.account_id, s.journey_id, s.status, s.stage_id, COALESCE(s.step_id, '')
          ${sql.raw(ADD_TO_COUNT)}`,
    );
  }
}

const ADD_TO_COUNT = `ON CONFLICT (account_id, journey_id, status, stage_id, step_id)
  DO UPDATE SET profiles = journey_positions.profiles + excluded.profiles`;

/**
 * Moves the given profiles' positions in the journey's position counts to those of the states just written
 * (counted here rather than read back: they are the rows the caller wrote), taking away those of `before`, their
 * stored states as the caller read them (none: leavePositions took them away already), and drops the positions
 * left empty.
 */
export async function movePositions(
  ex: Executor,
  accountId: number,
  journeyId: number,
  states: ReadonlyMap<string, Pick<ProfileState, 'status' | 'stageId' | 'stepId'>>,
  before?: ReadonlyMap<string, Pick<ProfileState, 'status' | 'stageId' | 'stepId'>>,
) {
  const counts = new Map<string, { status: string; stageId: string; stepId: string; n: number }>();
  const count = (s: Pick<ProfileState, 'status' | 'stageId' | 'stepId'>, by: number) => {
    const stepId = s.stepId ?? '';
    const key = `${s.status}\u0000${s.stageId}\u0000${stepId}`;
    const c = counts.get(key);
    if (c) c.n += by;
    else counts.set(key, { status: s.status, stageId: s.stageId, stepId, n: by });
  };
  for (const [key, s] of states) {
    count(s, 1);
    const old = before?.get(key);
    if (old) count(old, -1);
  }
  const moves = [...counts.values()].filter((c) => c.n !== 0);
  if (moves.length > 0) {
    await insertRowsInBatches(
      ex,
      'INSERT INTO journey_positions (account_id, journey_id, status, stage_id, step_id, profiles)',
      ['integer', 'integer', 'text', 'text', 'text', 'integer'],
      moves.map((c) => [accountId, journeyId, c.status, c.stageId, c.stepId, c.n]),
      ADD_TO_COUNT,
    );
  }
  // Positions left empty go (a few rows of the journey's).
  await ex
    .deleteFrom('journey_positions')
    .where('journey_id', '=', journeyId)
    .where('account_id', '=', accountId)
    .where('profiles', '=', 0)
    .execute();
}

/**
 * Counts the journey's positions again from its states (tests that write states straight into the table; a
 * repair). Call inside a transaction.
 */
export async function recountPositions(ex: Executor, accountId: number, journeyId: number): Promise<void> {
  await ex
    .deleteFrom('journey_positions')
    .where('journey_id', '=', journeyId)
    .where('account_id', '=', accountId)
    .execute();
  await run(
    ex,
    sql`INSERT INTO journey_positions (account_id, journey_id, status, stage_id, step_id, profiles)
        SELECT account_id, journey_id, status, stage_id, COALESCE(step_id, ''), COUNT(*)
        FROM journey_profile_states WHERE journey_id = ${journeyId} AND account_id = ${accountId}
        GROUP BY account_id, journey_id, status, stage_id, COALESCE(step_id, '')`,
  );
}

/** A journey's positions with profiles: status, stage, step (null for none) and how many profiles stand there. */
export async function positionsOf(ex: Executor, accountId: number, journeyId: number) {
  const rows = await ex
    .selectFrom('journey_positions')
    .select(['status', 'stage_id', 'step_id', 'profiles'])
    .where('journey_id', '=', journeyId)
    .where('account_id', '=', accountId)
    .where('profiles', '<>', 0)
    .execute();
  return rows.map((r) => ({
    status: r.status,
    stageId: r.stage_id,
    stepId: r.step_id === '' ? null : r.step_id,
    profiles: Number(r.profiles),
  }));
}
