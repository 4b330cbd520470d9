import { randomUUID } from 'node:crypto';
import { abTestPlacement } from '@svc/contracts';
import {
  type ABTestStep,
  type EdgeRef,
  type ExitSlot,
  GraphOperationError,
  insertStep,
  isRecord,
  type Journey,
  openEnds,
  parseStep,
  replaceStep,
} from '@svc/journey';
import type { Principal } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { badRequest, conflict } from '../platform/errors';
import { describeIssues } from '../platform/params';
import { requireJourneyControl } from './access';
import { LAUNCHED_IS_FINAL, updateJourney } from './service';
import { getJourneyRow } from './store';
import { invalidJourney, violation } from './validation';
import { type JourneyAnswer, journeyOfRow } from './wire';

/**
 * A/B test creation (spec, Rules 4): POST to the journey path with the ABTest step as the body. Where
 * it goes is named by `precedingStepId` (and `precedingPathId` when that step splits into paths or
 * variants); without a preceding step, `stageId` or `stageIndex` names the stage whose start it becomes.
 * With none of them (the spec's own body) it goes to the one open place (`impliedPlacement`).
 * The preceding edge then leads to the test, and the control variant continues where that edge led,
 * unless the body already says where the control goes. The result is saved like a PATCH of the draft.
 */

const PLACEMENT_ALIASES: Record<string, string> = {
  preceding_step_id: 'precedingStepId',
  preceding_path_id: 'precedingPathId',
  stage_id: 'stageId',
  stage_index: 'stageIndex',
  step_id: 'stepId',
};

function splitBody(raw: Record<string, unknown>) {
  const placement: Record<string, unknown> = {};
  const step: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const canonical = PLACEMENT_ALIASES[key] ?? key;
    if (['precedingStepId', 'precedingPathId', 'stageId', 'stageIndex', 'stepId'].includes(canonical)) {
      placement[canonical] = typeof value === 'number' && canonical !== 'stageIndex' ? String(value) : value;
    } else step[key] = value;
  }
  if (Array.isArray(step.variants)) {
    step.variants = step.variants.map((v) =>
      isRecord(v) && v.id === undefined && v.uuid === undefined ? { ...v, id: randomUUID() } : v,
    );
  }
  return { placement, step };
}

function slotOf(
  journey: Journey,
  stageIndex: number,
  stepId: string,
  pathId: string | undefined,
): ExitSlot | undefined {
  if (pathId === undefined) return undefined;
  const step = journey.journeyStages[stageIndex]?.steps?.[stepId];
  const index =
    step?.type === 'DecisionPoint'
      ? step.branches.findIndex((b) => b.id === pathId)
      : step?.type === 'ABTest'
        ? step.variants.findIndex((v) => v.id === pathId)
        : -1;
  if (index < 0 || !step) {
    const v = violation(
      'ab.placement_path_unknown',
      `Step ${stepId} has no path or variant ${pathId}.`,
      'precedingPathId',
    );
    throw badRequest(v.message, { violations: [v] });
  }
  return { kind: step.type === 'DecisionPoint' ? 'branch' : 'variant', index };
}

function placementOf(journey: Journey, body: Record<string, unknown>): { stageIndex: number; after: EdgeRef } {
  const parsed = abTestPlacement.safeParse(body);
  if (!parsed.success) throw badRequest(describeIssues(parsed.error));
  const p = parsed.data;
  if (p.precedingStepId !== undefined) {
    const stageIndex = journey.journeyStages.findIndex(
      (s) => s.steps && Object.hasOwn(s.steps, p.precedingStepId as string),
    );
    if (stageIndex < 0) {
      const v = violation(
        'ab.placement_step_unknown',
        `The journey has no step ${p.precedingStepId}; set precedingStepId to the step the A/B test follows.`,
        'precedingStepId',
      );
      throw badRequest(v.message, { violations: [v] });
    }
    const slot = slotOf(journey, stageIndex, p.precedingStepId, p.precedingPathId);
    return { stageIndex, after: slot ? { stepId: p.precedingStepId, slot } : { stepId: p.precedingStepId } };
  }
  if (p.stageId === undefined && p.stageIndex === undefined) return impliedPlacement(journey);
  const stageIndex =
    p.stageId !== undefined ? journey.journeyStages.findIndex((s) => s.id === p.stageId) : (p.stageIndex ?? -1);
  if (stageIndex < 0 || stageIndex >= journey.journeyStages.length) {
    const v = violation(
      'ab.placement_stage_unknown',
      p.stageId !== undefined
        ? `The journey has no stage ${p.stageId}; set stageId to one of its stage ids.`
        : `The journey has no stage at index ${p.stageIndex}; stageIndex counts from 0.`,
      p.stageId !== undefined ? 'stageId' : 'stageIndex',
    );
    throw badRequest(v.message, { violations: [v] });
  }
  return { stageIndex, after: { stepId: null } };
}

const SETTLE =
  'set precedingStepId to the step it follows (with precedingPathId when that step splits into paths or variants), or stageId to make it the first step of that stage';

/**
 * Where a test goes when the body names no place (the spec's rule 4 body has none): the one place the
 * journey leaves open. That is the end of the only open path of its stages (the preceding step then
 * points to the test), or the start of its only stage when that stage is empty. Anything else is a 400
 * naming the field that settles it.
 */
function impliedPlacement(journey: Journey): { stageIndex: number; after: EdgeRef } {
  const places: Array<{ stageIndex: number; after: EdgeRef; said: string }> = [];
  journey.journeyStages.forEach((stage, stageIndex) => {
    const name = `stage ${stage.id ?? stageIndex} ("${stage.name}")`;
    if (!stage.rootStep) {
      places.push({ stageIndex, after: { stepId: null }, said: `the start of the empty ${name}` });
      return;
    }
    for (const end of openEnds(stage)) {
      const path = end.slot.kind === 'next' ? '' : ` on its path "${end.label}"`;
      places.push({
        stageIndex,
        after: { stepId: end.stepId, slot: end.slot },
        said: `after step ${end.stepId}${path} in ${name}`,
      });
    }
  });
  const [only] = places;
  if (only && places.length === 1) return { stageIndex: only.stageIndex, after: only.after };
  const message =
    places.length === 0
      ? `The A/B test has no implied place: every path of this journey ends in an End step. To add it, ${SETTLE}.`
      : `The A/B test could go in ${places.length} places (${places
          .slice(0, 5)
          .map((x) => x.said)
          .join('; ')}${places.length > 5 ? '; …' : ''}): to choose one, ${SETTLE}.`;
  const v = violation(
    places.length === 0 ? 'ab.placement_missing' : 'ab.placement_ambiguous',
    message,
    'precedingStepId',
  );
  throw badRequest(v.message, { violations: [v] });
}

/**
 * A variant whose `next` names a step the journey does not have yet ends its path in a new End step of that
 * id: the spec's example leads its variants to End steps that only the test reaches, which no saved draft
 * can hold beforehand (an End no path reaches is refused).
 */
function withNewEnds(journey: Journey, stageIndex: number, test: ABTestStep): Journey {
  const known = new Set(journey.journeyStages.flatMap((s) => Object.keys(s.steps ?? {})));
  const ends: Record<string, { type: 'End' }> = {};
  for (const v of test.variants) if (v.next && !known.has(v.next)) ends[v.next] = { type: 'End' };
  if (Object.keys(ends).length === 0) return journey;
  return {
    ...journey,
    journeyStages: journey.journeyStages.map((s, i) =>
      i === stageIndex ? { ...s, steps: { ...s.steps, ...ends } } : s,
    ),
  };
}

export async function createAbTest(
  deps: AppDeps,
  principal: Principal,
  journeyId: string,
  raw: Record<string, unknown>,
): Promise<JourneyAnswer> {
  const row = await getJourneyRow(deps.storage.db, principal.accountId, journeyId);
  await requireJourneyControl(deps, principal, row, 'add A/B tests to journeys in this folder');
  if (row.state === 'launched') throw conflict(LAUNCHED_IS_FINAL);
  if (raw.type !== 'ABTest') {
    throw badRequest(
      'A POST to a journey adds an A/B test: send a body of type "ABTest" with name, customizedSplit, uniqueId and variants.',
    );
  }
  const { placement, step: stepBody } = splitBody(raw);
  const parsed = parseStep(stepBody);
  if (!parsed.ok) throw invalidJourney(parsed.violations);
  const test = parsed.value as ABTestStep;
  if (test.variants.length === 0) {
    const v = violation(
      'ab.variant_count',
      'This A/B test has no variants; add a control and 1 to 8 test variants.',
      'variants',
    );
    throw invalidJourney([v]);
  }
  const journey = journeyOfRow(row);
  const { stageIndex, after } = placementOf(journey, placement);
  const stepId = typeof placement.stepId === 'string' ? placement.stepId : randomUUID();
  let next: Journey;
  try {
    next = insertStep(journey, { stageIndex, after, stepId, step: test, continueOn: { kind: 'variant', index: 0 } });
    if (test.variants[0]?.next) next = replaceStep(next, { stageIndex, stepId, step: test });
    next = withNewEnds(next, stageIndex, test);
  } catch (err) {
    if (!(err instanceof GraphOperationError)) throw err;
    const v = violation(err.code, err.message, err.code === 'step.id_taken' ? 'stepId' : 'precedingStepId');
    throw badRequest(err.message, { violations: [v] });
  }
  return updateJourney(
    deps,
    principal,
    journeyId,
    { id: String(row.id), type: 'journey', attributes: next },
    { insertedStepId: stepId },
  );
}
