import type { Journey } from '@svc/journey';
import type { CompiledJourney } from './compile';
import { waitDueAt } from './profile';
import type { Pauses } from './time';
import { dueAfter } from './time';
import type { Instant, ProfileState } from './types';

/**
 * Which profiles a run has to look at (decision 0040). A profile the last run looked at was left where the
 * segment memberships of that instant could not move it further; between two runs it can move only if
 *
 * - one of its memberships changed (the parent segment or any segment the journey reads: entry, goal, exits,
 *   milestones, decision paths), or
 * - time made it due: its wait ends, an "exit after" of its stage fires, or it left at the last run and
 *   re-entry is allowed (a profile is never taken back at the instant it left).
 *
 * So a run over these profiles only gives exactly what a run over the whole parent segment gives, provided
 * the memberships compared are those of the last run that looked at everyone (directly or by this rule)
 * and the journey's definition is the same. Pauses only push wake times later, so a wake time computed
 * before a pause is early, never late: such a profile is looked at, does not move, and gets its wake
 * time again.
 */

/** The segment memberships a run saw: the parent segment's keys and the members of every segment read. */
export interface Membership {
  parent: ReadonlySet<string>;
  segments: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Keys whose membership of `a` and `b` differ, added to `out` (none when they are the same set). */
function addDifference(a: ReadonlySet<string>, b: ReadonlySet<string>, out: Set<string>) {
  if (a === b) return;
  for (const key of a) if (!b.has(key)) out.add(key);
  for (const key of b) if (!a.has(key)) out.add(key);
}

/**
 * Profiles of the parent segment now whose memberships changed since `before`: new in the parent segment,
 * or in or out of any segment the journey reads. Profiles that left the parent segment are not run.
 */
export function membershipMovers(before: Membership, now: Membership): Set<string> {
  const out = new Set<string>();
  if (now.parent !== before.parent) for (const key of now.parent) if (!before.parent.has(key)) out.add(key);
  const ids = new Set([...before.segments.keys(), ...now.segments.keys()]);
  const none: ReadonlySet<string> = new Set();
  for (const id of ids) addDifference(before.segments.get(id) ?? none, now.segments.get(id) ?? none, out);
  for (const key of out) if (!now.parent.has(key)) out.delete(key);
  return out;
}

/**
 * When a profile can next move without a membership change, given the pauses known now and the run
 * instant `at` the state was written or looked at; null when only a membership change can move it.
 */
export function wakeAt(journey: CompiledJourney, pauses: Pauses, s: ProfileState, at: Instant): Instant | null {
  if (s.status === 'left') {
    // Held back only by "not at the instant it left": the next run may take it back.
    return journey.allowReentry && (s.leftAt ?? 0) >= at ? (s.leftAt ?? 0) + 1 : null;
  }
  const stage = journey.stageById.get(s.stageId);
  if (!stage) return at; // its stage is gone (another version): the next run closes its path
  let wake = Number.POSITIVE_INFINITY;
  const step = s.stepId === null || s.held ? undefined : stage.steps[s.stepId];
  if (step) wake = Math.min(wake, waitDueAt(pauses, step, s.stepEnteredAt) ?? wake);
  for (const exit of stage.exits) {
    if (exit.afterMs !== null) wake = Math.min(wake, dueAfter(pauses, s.stageEnteredAt, exit.afterMs));
  }
  return Number.isFinite(wake) ? wake : null;
}

/**
 * The wake time of every profile a run looked at that has a state: `looked` are their states before the
 * run, `changed` those the run wrote. A profile the run skipped because an earlier run at the same instant
 * or later had moved it (`lastRunAt >= at`) was not checked against today's memberships: it is due at the
 * first run after that instant.
 */
export function wakesAfterRun(
  journey: CompiledJourney,
  pauses: Pauses,
  at: Instant,
  looked: Iterable<ProfileState>,
  changed: ReadonlyMap<string, ProfileState>,
): Map<string, Instant | null> {
  const out = new Map<string, Instant | null>();
  for (const prior of looked) {
    const now = changed.get(prior.profileKey);
    if (now) out.set(now.profileKey, wakeAt(journey, pauses, now, at));
    else if (prior.lastRunAt >= at) out.set(prior.profileKey, prior.lastRunAt + 1);
    else out.set(prior.profileKey, wakeAt(journey, pauses, prior, at));
  }
  for (const [key, now] of changed) if (!out.has(key)) out.set(key, wakeAt(journey, pauses, now, at));
  return out;
}

/**
 * What decides whether the memberships of an earlier run can be compared with today's: the journey's
 * definition, without what pausing and saving change (a pause only delays wake times, see above).
 */
export function definitionKey(journey: Journey): string {
  const { paused: _paused, pausedAt: _pausedAt, updatedAt: _updatedAt, ...rest } = journey;
  return JSON.stringify(rest);
}
