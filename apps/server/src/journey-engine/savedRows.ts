import type { ProfileState } from '@svc/journey-engine';
import type { ColumnKind } from '../platform/storage';

/**
 * The rows a run saves (store.ts `saveRun`; the event log's are eventLog.ts's): their columns, their kinds and the
 * values of each row.
 */

export const n = <T>(v: T | undefined) => (v === undefined ? null : v);

const INT: ColumnKind = 'integer';
const TEXT: ColumnKind = 'text';
/** A table's column kinds, column by column: `i` integer, `t` text. */
const kindsOf = (codes: string): ColumnKind[] => [...codes].map((c) => (c === 'i' ? INT : TEXT));
export const STATE_COLUMNS =
  `account_id journey_id profile_key status stage_id step_id journey_entered_at stage_entered_at
  step_entered_at entries left_at left_reason variants branches held last_run_at wake_at`.split(/\s+/);
export const STATE_KINDS = kindsOf('iittttiiiiitttiii');

/** The rows of `journey_profile_states` for states, each with its wake time. */
export function* stateRows(
  accountId: number,
  journeyId: number,
  states: Iterable<ProfileState>,
  wakes: ReadonlyMap<string, number | null> | undefined,
): Generator<unknown[]> {
  for (const s of states) {
    yield [
      accountId,
      journeyId,
      s.profileKey,
      s.status,
      s.stageId,
      s.stepId,
      s.journeyEnteredAt,
      s.stageEnteredAt,
      s.stepEnteredAt,
      s.entries,
      s.leftAt,
      s.leftReason,
      JSON.stringify(s.variants),
      JSON.stringify(s.branches),
      s.held ? 1 : 0,
      s.lastRunAt,
      wakes?.get(s.profileKey) ?? null,
    ];
  }
}
