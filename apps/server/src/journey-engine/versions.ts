import type { ProfileState } from '@svc/journey-engine';
import {
  type Handover,
  type JourneyRow,
  pendingVersionPlan,
  type VersionHandover,
  type VersionPlan,
} from '../journeys';
import type { AppDeps } from '../platform/context';
import { type Executor, run, sql } from '../platform/storage';
import { positionsOf } from './positions';
import { saveRun, stateOf, stateRowPages, stateRowsOf } from './store';

/**
 * How a launched version takes over its source's profiles (journeys/versions.ts decides when; the rule is
 * journeys/versionPlan.ts). In the launch's transaction: every state of the source is written to the
 * version, a profile in the journey either where it was (stage id translated; step, times, branches and
 * A/B variants kept, so a wait goes on counting) or as left (`version_changed`); profiles who had left stay
 * left, so re-entry rules hold. A/B assignments of kept steps and the activation queue's undelivered
 * entries (to copied activations) move over too. The source's history stays with it.
 */

export const HANDOVER_RULE =
  'A profile keeps its place when this version kept its stage and the step it is at (same step, same settings; names and where it leads may change). Every other profile in the journey leaves it. The replaced journey is paused for good.';

export interface HandoverCounts {
  /** Profiles in the journey that keep their place. */
  keep: number;
  /** Profiles in the journey whose stage or step the version dropped or changed: they leave it. */
  leave: number;
  /** Profiles that had already left the source (kept as left, for re-entry rules). */
  alreadyLeft: number;
}

function placeStates(states: Iterable<ProfileState>, plan: VersionPlan, at: number) {
  const carried = new Map<string, ProfileState>();
  const counts: HandoverCounts = { keep: 0, leave: 0, alreadyLeft: 0 };
  for (const s of states) {
    const stageId = plan.stageFor(s.stageId) ?? s.stageId;
    if (s.status === 'left') {
      counts.alreadyLeft++;
      carried.set(s.profileKey, { ...s, stageId });
    } else if (plan.keeps(s.stageId, s.stepId)) {
      counts.keep++;
      carried.set(s.profileKey, { ...s, stageId });
    } else {
      counts.leave++;
      const left: ProfileState = {
        ...s,
        stageId,
        status: 'left',
        leftAt: at,
        leftReason: 'version_changed',
        held: false,
      };
      carried.set(s.profileKey, left);
    }
  }
  return { carried, counts };
}

/**
 * What launching the version now would do to the source's profiles (nothing is written): placeStates' counts,
 * read from the source's position counts (a few rows however many profiles it holds), since where a profile goes
 * depends only on its status, stage and step.
 */
export async function previewHandover(deps: AppDeps, source: JourneyRow, plan: VersionPlan): Promise<HandoverCounts> {
  const counts: HandoverCounts = { keep: 0, leave: 0, alreadyLeft: 0 };
  for (const p of await positionsOf(deps.storage.db, source.account_id, source.id)) {
    if (p.status === 'left') counts.alreadyLeft += p.profiles;
    else if (plan.keeps(p.stageId, p.stepId)) counts.keep += p.profiles;
    else counts.leave += p.profiles;
  }
  return counts;
}

/**
 * The states a draft's launch would start from, read for some profiles at a time: those a version takes over from
 * its source (read by key and placed as the launch would place them). Null when the draft is no version: its
 * launch starts from no state.
 */
export async function handedOverStates(
  deps: AppDeps,
  row: JourneyRow,
  at: number,
): Promise<((keys: string[]) => Promise<Map<string, ProfileState>>) | null> {
  const pending = await pendingVersionPlan(deps, row);
  if (!pending) return null;
  const { source, plan } = pending;
  return async (keys) =>
    placeStates((await stateRowsOf(deps.storage.db, row.account_id, source.id, keys)).map(stateOf), plan, at).carried;
}

async function handOver(_deps: AppDeps, tx: Executor, h: Handover): Promise<void> {
  const accountId = h.source.account_id;
  // A page of the source's states at a time: a launch over millions of profiles holds one page, not them all.
  for await (const rows of stateRowPages(tx, accountId, h.source.id)) {
    const { carried } = placeStates(rows.map(stateOf), h.plan, h.at);
    await saveRun(tx, accountId, h.versionId, 0, { changed: carried, events: [], queued: [] });
  }
  const keptTests: string[] = [];
  for (const stage of h.version.journeyStages) {
    const oldStage = Object.entries(h.of.stages).find(([neu]) => neu === stage.id)?.[1];
    for (const [stepId, step] of Object.entries(stage.steps ?? {})) {
      if (step.type === 'ABTest' && oldStage !== undefined && h.plan.keeps(oldStage, stepId)) keptTests.push(stepId);
    }
  }
  if (keptTests.length > 0) {
    await run(
      tx,
      sql`INSERT INTO journey_ab_assignments (account_id, journey_id, step_id, profile_key, variant_id, bucket,
            assigned_at)
          SELECT account_id, ${h.versionId}, step_id, profile_key, variant_id, bucket, assigned_at
          FROM journey_ab_assignments
          WHERE account_id = ${accountId} AND journey_id = ${h.source.id} AND step_id IN (${sql.join(keptTests)})`,
    );
  }
  for (const [oldId, newId] of Object.entries(h.of.activations)) {
    await tx
      .updateTable('journey_activation_queue')
      .set({ journey_id: h.versionId, activation_id: newId })
      .where('account_id', '=', accountId)
      .where('journey_id', '=', h.source.id)
      .where('activation_id', '=', oldId)
      .where('delivery_id', 'is', null)
      .execute();
  }
}

/** How launching a version moves profiles (journeys' launch calls it; compose.ts hands it over). */
export const versionHandover: VersionHandover = handOver;
