import { applyEvenSplits, isRecord, type Journey, spellJourney, validateForLaunch } from '@svc/journey';
import { about, auditAction } from '../audit';
import { requireFullControl } from '../folder-permissions';
import type { Principal } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { badRequest, conflict } from '../platform/errors';
import { transaction } from '../platform/storage';
import { activationIdsOf, folderForJourney, parentSegmentFor, requireJourneyControl } from './access';
import { parentSegmentOf } from './audiences';
import {
  assignStageIds,
  bodyOf,
  deleteJourneyRow,
  getJourneyRow,
  insertEvent,
  insertJourneyRow,
  type JourneyRow,
  pruneStageIds,
  setJourneyBody,
  stageIdsOf,
  updateJourneyRow,
} from './store';
import { checkJourney, contextFor, judgeJourney, launchViolations, parseRequest, violation } from './validation';
import { versionOfText } from './versionPlan';
import { launchedVersionName, launchVersion, versionSourceFor } from './versions';
import { type JourneyAnswer, journeyAnswer, journeyOf, journeyOfRow } from './wire';

/** Creating, reading, changing and deleting journeys; the state rules of the spec's journey table. */

export const LAUNCHED_IS_FINAL =
  'This journey is launched, so its settings, stages and steps can no longer change (its activations still can). Duplicate it to make an editable draft.';

/** The journey as answered, with what still stops a draft from launching. */
export async function answerFor(
  deps: AppDeps,
  row: JourneyRow,
  extra: { insertedStepId?: string } = {},
): Promise<JourneyAnswer> {
  const activationIds = await activationIdsOf(deps, row);
  const journey = journeyOfRow(row);
  let violations: JourneyAnswer['meta']['launchViolations'] = [];
  if (row.state === 'draft') {
    const parentSegment = await parentSegmentOf(deps, row.account_id, row.parent_segment_id);
    violations = parentSegment
      ? await launchViolations(deps, row.account_id, journey, {
          parentSegment,
          stageIds: await stageIdsOf(deps.storage.db, row.account_id, row.id),
          activationIds: activationIds.map(String),
        })
      : [
          violation(
            'journey.audience_unknown',
            `Parent segment ${row.parent_segment_id} no longer exists; this journey can only be read or deleted.`,
            'audienceId',
          ),
        ];
  }
  return journeyAnswer(row, activationIds, { launchViolations: violations, ...wireLinks(row), ...extra });
}

/** The version links of `meta`: the launched journey a draft replaces, the version that replaced this one. */
function wireLinks(row: JourneyRow) {
  return {
    versionOf: versionOfText(row.version_of)?.journeyId ?? null,
    replacedBy: row.replaced_by === null ? null : String(row.replaced_by),
  };
}

/** The body of a request as an object, unwrapping `data` (both forms are accepted). */
export function requestObject(body: unknown): Record<string, unknown> {
  if (!isRecord(body)) throw badRequest('Send the journey as a JSON object: {type, attributes, relationships}.');
  return isRecord(body.data) ? body.data : body;
}

export async function createJourney(deps: AppDeps, principal: Principal, body: unknown): Promise<JourneyRow> {
  const request = parseRequest(body);
  const { accountId } = principal;
  const journey = request.attributes;
  const parentSegment = await parentSegmentFor(deps, accountId, journey.audienceId);
  const folderId = request.relationships.parentFolder.data?.id ?? parentSegment.rootFolderId;
  const folder = await folderForJourney(deps, accountId, folderId, parentSegment);
  await requireFullControl(deps.storage.db, principal, folder, 'create journeys in this folder');
  const fresh: Journey = {
    ...journey,
    journeyStages: journey.journeyStages.map(({ id: _given, ...stage }) => stage),
  };
  const launching = journey.state === 'launched';
  await checkJourney(deps, accountId, fresh, { parentSegment, activationIds: [], launching, creating: true });
  const now = deps.clock.now().getTime();
  const stored = bodyOf(applyEvenSplits(fresh));
  const id = await transaction(deps.storage, async (tx) => {
    const newId = await insertJourneyRow(tx, {
      accountId,
      parentSegmentId: parentSegment.id,
      folderId: folder.id,
      name: journey.name.trim(),
      state: journey.state,
      body: stored,
      userId: principal.userId,
      now,
    });
    await setJourneyBody(tx, accountId, newId, await assignStageIds(tx, accountId, newId, stored));
    if (launching) {
      await insertEvent(tx, { accountId, journeyId: newId, kind: 'launched', at: now, userId: principal.userId });
      // The audit entry is written with the change it records: both happen, or neither.
      await auditAction(deps, principal, 'journey.launch', about('journey', newId, journey.name.trim()), tx);
    }
    return newId;
  });
  return getJourneyRow(deps.storage.db, accountId, id);
}

/**
 * PATCH of a draft. Attributes left out keep their stored values (JSON:API); `journeyStages`, when given,
 * is the whole new list. `state: launched` launches it. A launched journey answers 409.
 *
 * Computed once: the stored document is read once, the journey's segments are looked up in one query, and the
 * answer (with `meta.launchViolations`) is made from the context the check read, not read again.
 */
export async function updateJourney(
  deps: AppDeps,
  principal: Principal,
  journeyId: string,
  body: unknown,
  extra: { insertedStepId?: string } = {},
): Promise<JourneyAnswer> {
  const { accountId } = principal;
  const row = await getJourneyRow(deps.storage.db, accountId, journeyId);
  await requireJourneyControl(deps, principal, row, 'change journeys in this folder');
  if (row.state === 'launched') throw conflict(LAUNCHED_IS_FINAL);
  const raw = requestObject(body);
  if (raw.id !== undefined && String(raw.id) !== String(row.id)) {
    throw badRequest(
      `The body is for journey ${String(raw.id)} but the path names journey ${row.id}; make them match.`,
    );
  }
  const stored = journeyOfRow(row);
  const given = spellJourney(isRecord(raw.attributes) ? raw.attributes : {});
  const request = parseRequest({ ...raw, attributes: { ...stored, ...(isRecord(given) ? given : {}) } });
  const journey = request.attributes;
  if (journey.audienceId !== row.parent_segment_id) {
    throw badRequest(
      `A journey stays in the parent segment it was made in (${row.parent_segment_id}); leave audienceId as it is, or duplicate the journey.`,
    );
  }
  const parentSegment = await parentSegmentFor(deps, accountId, row.parent_segment_id);
  let folderId = row.folder_id;
  const wantedFolder = request.relationships.parentFolder.data?.id;
  if (wantedFolder !== undefined && wantedFolder !== row.folder_id) {
    const folder = await folderForJourney(deps, accountId, wantedFolder, parentSegment);
    await requireFullControl(deps.storage.db, principal, folder, 'move journeys into this folder');
    folderId = folder.id;
  }
  const launching = journey.state === 'launched';
  const activations = await activationIdsOf(deps, row);
  const activationIds = activations.map(String);
  const stageIds = await stageIdsOf(deps.storage.db, accountId, row.id);
  const context = await contextFor(deps, accountId, journey, { parentSegment, stageIds, activationIds });
  judgeJourney(journey, context, { launching });
  const now = deps.clock.now().getTime();
  const replacing = launching ? await versionSourceFor(deps, row) : null;
  const name = replacing ? launchedVersionName(journey.name.trim(), replacing.source.name) : journey.name.trim();
  const next = await transaction(deps.storage, async (tx) => {
    const next = await assignStageIds(tx, accountId, row.id, bodyOf(applyEvenSplits(journey)));
    await pruneStageIds(tx, accountId, row.id, next);
    await updateJourneyRow(tx, row, {
      folderId,
      name,
      state: journey.state,
      body: next,
      userId: principal.userId,
      now,
      launchedAt: launching ? now : null,
    });
    if (launching) {
      await insertEvent(tx, { accountId, journeyId: row.id, kind: 'launched', at: now, userId: principal.userId });
      await auditAction(deps, principal, 'journey.launch', about('journey', row.id, name), tx);
    }
    if (replacing) {
      const version = { ...journey, name, journeyStages: next.journeyStages };
      await launchVersion(deps, tx, { ...replacing, version, versionId: row.id, at: now, userId: principal.userId });
    }
    return next;
  });
  const saved = await getJourneyRow(deps.storage.db, accountId, row.id);
  const attributes = journeyOf(saved, next);
  // The stage ids the journey has now are those of the saved stages (pruneStageIds forgot the others).
  const savedStageIds = next.journeyStages.flatMap((s) => (s.id === undefined ? [] : [s.id]));
  const violations =
    saved.state === 'draft'
      ? validateForLaunch(attributes, { ...context, stageIds: savedStageIds.sort((a, b) => Number(a) - Number(b)) })
      : [];
  const meta = { launchViolations: violations, ...wireLinks(saved), ...extra };
  return journeyAnswer(saved, activations, meta, attributes);
}

/**
 * Deletes a draft, or a launched journey once it is paused (docs/decisions/0008-journey-deletion.md).
 * Its activations, stage ids and events go with it.
 */
export async function deleteJourney(deps: AppDeps, principal: Principal, journeyId: string): Promise<JourneyRow> {
  const row = await getJourneyRow(deps.storage.db, principal.accountId, journeyId);
  await requireJourneyControl(deps, principal, row, 'delete journeys in this folder');
  if (row.state === 'launched' && row.paused !== 1) {
    throw conflict(
      'This journey is launched and running; pause it first, then delete it, so no profile is moved through a journey mid-way without a record of when it stopped.',
    );
  }
  await transaction(deps.storage, async (tx) => {
    await deleteJourneyRow(tx, row);
    await auditAction(deps, principal, 'journey.delete', about('journey', row.id, row.name), tx);
  });
  return row;
}
