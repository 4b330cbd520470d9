import { type JourneyViolation, journeyDuplicateRequest } from '@svc/contracts';
import { activationReferences, type Journey, mapActivationIds } from '@svc/journey';
import { about, auditAction } from '../audit';
import { requireFullControl } from '../folder-permissions';
import type { Principal } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { ApiError, badRequest, conflict } from '../platform/errors';
import { describeIssues } from '../platform/params';
import { transaction } from '../platform/storage';
import { isoSeconds } from '../platform/time';
import { folderForJourney, parentSegmentFor, requireJourneyControl } from './access';
import { checkParams } from './activationParams';
import { type ActivationRow, activationsOf, insertActivationRow, paramsOf } from './activationStore';
import { activationContextFor } from './activations';
import {
  assignStageIds,
  getJourneyRow,
  insertEvent,
  insertJourneyRow,
  type JourneyRow,
  setJourneyBody,
  setPaused,
} from './store';
import { bodyOfRow } from './wire';

/** Pause, resume and duplicate (spec, Journey state table). */

export const PAUSE_PERIOD = 'pause_period';

/** Launched and running → paused (sets pausedAt). A draft or an already paused journey answers 409. */
export async function pauseJourney(deps: AppDeps, principal: Principal, journeyId: string): Promise<JourneyRow> {
  const row = await getJourneyRow(deps.storage.db, principal.accountId, journeyId);
  await requireJourneyControl(deps, principal, row, 'pause journeys in this folder');
  if (row.state !== 'launched') {
    throw conflict('This journey is a draft and is not running, so there is nothing to pause; launch it first.');
  }
  if (row.paused === 1) {
    const since = row.paused_at === null ? '' : ` since ${isoSeconds(new Date(row.paused_at))}`;
    throw conflict(`This journey is already paused${since}; resume it to let profiles move on again.`);
  }
  const now = deps.clock.now().getTime();
  await transaction(deps.storage, async (tx) => {
    await setPaused(tx, row, true, principal.userId, now);
    await insertEvent(tx, {
      accountId: row.account_id,
      journeyId: row.id,
      kind: 'paused',
      at: now,
      userId: principal.userId,
    });
    // The audit entry is written with the change it records: both happen, or neither.
    await auditAction(deps, principal, 'journey.pause', about('journey', row.id, row.name), tx);
  });
  return getJourneyRow(deps.storage.db, principal.accountId, row.id);
}

/** Paused → running; the pause period is recorded as a `pause_period` event (spec, Events 1). */
export async function resumeJourney(deps: AppDeps, principal: Principal, journeyId: string): Promise<JourneyRow> {
  const row = await getJourneyRow(deps.storage.db, principal.accountId, journeyId);
  await requireJourneyControl(deps, principal, row, 'resume journeys in this folder');
  if (row.state !== 'launched') {
    throw conflict('This journey is a draft and has never run, so it cannot be resumed; launch it instead.');
  }
  if (row.paused !== 1) throw conflict('This journey is running, not paused; there is nothing to resume.');
  if (row.replaced_by !== null) {
    throw conflict(
      `This journey was replaced by journey ${row.replaced_by}, which took over its profiles; it cannot run again. Open journey ${row.replaced_by} instead.`,
    );
  }
  const now = deps.clock.now().getTime();
  await transaction(deps.storage, async (tx) => {
    await setPaused(tx, row, false, principal.userId, now);
    await insertEvent(tx, {
      accountId: row.account_id,
      journeyId: row.id,
      kind: PAUSE_PERIOD,
      at: now,
      userId: principal.userId,
      startedAt: row.paused_at ?? now,
      endedAt: now,
    });
    await auditAction(deps, principal, 'journey.resume', about('journey', row.id, row.name), tx);
  });
  return getJourneyRow(deps.storage.db, principal.accountId, row.id);
}

/** A copied journey and the source activations that were not copied (as launch notes for its answer). */
export interface Duplicate {
  row: JourneyRow;
  notCopied: JourneyViolation[];
}

/** The source activation's settings checked again as if created now; null when they still hold. */
async function recheck(
  deps: AppDeps,
  source: JourneyRow,
  activation: ActivationRow,
): Promise<JourneyViolation[] | null> {
  try {
    checkParams({ ...paramsOf(activation) }, null, await activationContextFor(deps, source));
    return null;
  } catch (err) {
    if (!(err instanceof ApiError) || !Array.isArray(err.details?.violations)) throw err;
    return err.details.violations as JourneyViolation[];
  }
}

/** Steps naming an activation that was not copied name none; each gets a note saying why. */
function withoutDropped(
  journey: Journey,
  dropped: ReadonlyMap<string, { name: string; problems: JourneyViolation[] }>,
  newId: number,
): { journey: Journey; notCopied: JourneyViolation[] } {
  const notCopied: JourneyViolation[] = [];
  const stages = journey.journeyStages.map((stage) => ({ ...stage, steps: stage.steps ? { ...stage.steps } : null }));
  for (const ref of activationReferences(journey)) {
    const gone = dropped.get(ref.activationId);
    const step = stages[ref.stageIndex]?.steps?.[ref.stepId];
    if (!gone || !step || step.type !== 'Activation') continue;
    (stages[ref.stageIndex]?.steps as Record<string, typeof step>)[ref.stepId] = {
      ...step,
      journeyActivationStepId: null,
    };
    const why = gone.problems.map((p) => p.message).join(' ');
    notCopied.push({
      code: 'activation.not_copied',
      message: `Activation ${ref.activationId} ("${gone.name}") of the source journey was not copied, because its settings no longer hold: ${why} Create an activation with POST /entities/journeys/${newId}/syndications and choose it in this step.`,
      path: {
        text: `journeyStages[${ref.stageIndex}].steps[${JSON.stringify(ref.stepId)}].journeyActivationStepId`,
        stageIndex: ref.stageIndex,
        stepId: ref.stepId,
        field: 'journeyActivationStepId',
      },
    });
  }
  return { journey: { ...journey, journeyStages: stages }, notCopied };
}

/**
 * A new draft in the same parent segment with the source's configuration (stages, steps, goal, and the
 * same segments, linked by id, not copied) and copies of its activations, which the copied steps then
 * name. Each activation's settings are checked again as if created now: one that no longer holds (its
 * connection deleted, a column gone) is not copied, and the steps that used it name no activation.
 */
export async function duplicateJourney(deps: AppDeps, principal: Principal, body: unknown): Promise<Duplicate> {
  const parsed = journeyDuplicateRequest.safeParse(
    body && typeof body === 'object' && 'data' in body ? (body as { data: unknown }).data : body,
  );
  if (!parsed.success) {
    throw badRequest(
      `Send {id: <source journey id>, type: "journey", attributes: {name}}. ${describeIssues(parsed.error)}`,
    );
  }
  const { accountId } = principal;
  const source = await getJourneyRow(deps.storage.db, accountId, String(parsed.data.id));
  const parentSegment = await parentSegmentFor(deps, accountId, source.parent_segment_id);
  const folderId = parsed.data.relationships?.parentFolder?.data.id;
  const folder = await folderForJourney(
    deps,
    accountId,
    folderId === undefined ? source.folder_id : String(folderId),
    parentSegment,
  );
  await requireFullControl(deps.storage.db, principal, folder, 'create journeys in this folder');
  const name = parsed.data.attributes?.name?.trim() || `Copy of ${source.name}`;
  const now = deps.clock.now().getTime();
  const checked: { activation: ActivationRow; problems: JourneyViolation[] | null }[] = [];
  for (const activation of await activationsOf(deps.storage.db, accountId, source.id)) {
    checked.push({ activation, problems: await recheck(deps, source, activation) });
  }
  const { id, notCopied } = await transaction(deps.storage, async (tx) => {
    const copied = bodyOfRow(source);
    const stripped = { ...copied, journeyStages: copied.journeyStages.map(({ id: _old, ...stage }) => stage) };
    const newId = await insertJourneyRow(tx, {
      accountId,
      parentSegmentId: source.parent_segment_id,
      folderId: folder.id,
      name,
      state: 'draft',
      body: stripped,
      userId: principal.userId,
      now,
    });
    const renamed = new Map<string, string>();
    const dropped = new Map<string, { name: string; problems: JourneyViolation[] }>();
    for (const { activation, problems } of checked) {
      if (problems) {
        dropped.set(String(activation.id), { name: paramsOf(activation).name, problems });
        continue;
      }
      const copy = await insertActivationRow(tx, {
        accountId,
        journeyId: newId,
        params: paramsOf(activation),
        userId: principal.userId,
        now,
      });
      renamed.set(String(activation.id), String(copy));
    }
    const remapped = mapActivationIds({ ...stripped, audienceId: null, name, state: 'draft', paused: false }, (old) =>
      renamed.get(old),
    );
    const cleared = withoutDropped(remapped, dropped, newId);
    const next = { ...stripped, journeyStages: cleared.journey.journeyStages };
    await setJourneyBody(tx, accountId, newId, await assignStageIds(tx, accountId, newId, next));
    return { id: newId, notCopied: cleared.notCopied };
  });
  return { row: await getJourneyRow(deps.storage.db, accountId, id), notCopied };
}
