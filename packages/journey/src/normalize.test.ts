import { describe, expect, it } from 'vitest';
import { journeyDocument, journeyRelationshipsSchema, parseJourneyRequest } from './document';
import {
  abTestCreationBody,
  abTestDeletionBody,
  abTestModificationBody,
  decisionPointPatchBody,
  ids,
  pauseResponse,
  snakeCaseCreationBody,
} from './fixtures/spec-examples';
import type { Journey } from './journey';
import { applyEvenSplits, normalizeJourney, parseJourney, parseStep, serializeJourney } from './normalize';

function attributesOf(body: unknown): Journey {
  const parsed = parseJourneyRequest(body);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.violations));
  return parsed.value.attributes;
}

/** Keys of a wire object, skipping the step-map keys (they are ids, not field names). */
function fieldNames(value: unknown, parentKey = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => fieldNames(item, parentKey));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, member]) =>
    parentKey === 'steps' ? fieldNames(member) : [key, ...fieldNames(member, key)],
  );
}

const examples = {
  'the snake_case creation body': snakeCaseCreationBody,
  'the camelCase decision point': decisionPointPatchBody,
  'the A/B test modification': abTestModificationBody,
  'the A/B test deletion': abTestDeletionBody,
  'the pause response': pauseResponse,
};

const goalFields = (goal: { name: string; description: string | null }) => ({
  name: goal.name,
  description: goal.description,
});

describe('normalisation of the spec examples', () => {
  for (const [name, body] of Object.entries(examples)) {
    it(`round-trips ${name} through the camelCase wire form`, () => {
      const journey = attributesOf(body);
      const wire = serializeJourney(journey);
      expect(normalizeJourney(JSON.parse(JSON.stringify(wire)))).toEqual(journey);
      const names = fieldNames(wire);
      // camelCase throughout, except the goal's segment_id (the spec's resource table spells it so).
      expect(names.filter((key) => key.includes('_'))).toEqual(journey.goal ? ['segment_id'] : []);
      expect(wire.goal).toEqual(
        journey.goal ? { ...goalFields(journey.goal), segment_id: journey.goal.segmentId } : null,
      );
      expect(names).not.toContain('uuid');
    });
  }

  it('reads the snake_case creation body into the camelCase model', () => {
    const journey = attributesOf(snakeCaseCreationBody);
    expect(journey.state).toBe('launched');
    expect(journey.goal).toEqual({ name: 'Second purchase', description: 'Bought twice', segmentId: '310' });
    const [welcome, nurture] = journey.journeyStages;
    expect(welcome?.entryCriteria).toEqual({ name: 'Signed up', segmentId: '301', description: null });
    expect(welcome?.exitCriterias).toEqual([
      { name: 'Unsubscribed', segmentId: '303' },
      { name: 'Two weeks passed', exitAfter: 14, unit: 'days' },
    ]);
    expect(welcome?.rootStep).toBe(ids.welcomeWait);
    expect(welcome?.steps?.[ids.welcomeWait]).toEqual({
      type: 'WaitStep',
      waitStep: 2,
      waitStepUnit: 'day',
      next: ids.welcomeActivation,
    });
    expect(welcome?.steps?.[ids.welcomeActivation]).toMatchObject({ journeyActivationStepId: '901' });
    expect(welcome?.steps?.[ids.welcomeEnd]).toEqual({ type: 'End' });
    expect(nurture?.milestone).toBeNull();
  });

  it('reads branch `uuid` as `id` and keeps the branch order as given', () => {
    const stage = attributesOf(decisionPointPatchBody).journeyStages[0];
    const point = stage?.steps?.[ids.decision];
    expect(point?.type === 'DecisionPoint' && point.branches.map((b) => b.id)).toEqual([
      ids.branchWest,
      ids.branchEast,
      ids.branchExcluded,
    ]);
  });

  it('answers the pause response with the same attributes it was given', () => {
    const journey = attributesOf(pauseResponse);
    const document = journeyDocument({
      id: '2058',
      attributes: journey,
      relationships: journeyRelationshipsSchema.parse(pauseResponse.data.relationships),
    });
    expect(document).toEqual(pauseResponse);
  });

  it('reads the A/B creation body as an ABTest step', () => {
    const parsed = parseStep(abTestCreationBody);
    expect(parsed.ok && parsed.value).toEqual(abTestCreationBody);
  });

  it('recomputes the percentages of the modified A/B test when its split is no longer customized', () => {
    const journey = applyEvenSplits(attributesOf(abTestModificationBody));
    const test = journey.journeyStages[0]?.steps?.[ids.abTest];
    expect(test?.type === 'ABTest' && test.variants.map((v) => v.percentage)).toEqual([25, 25, 25, 25]);
  });

  it('reads the deletion: the test is gone and its predecessor stops', () => {
    const stage = attributesOf(abTestDeletionBody).journeyStages[0];
    expect(Object.keys(stage?.steps ?? {})).toEqual([ids.nurtureWait]);
    expect(stage?.steps?.[ids.nurtureWait]).toMatchObject({ next: null });
  });
});

describe('normalisation rules', () => {
  const oneStep = (step: object, stageExtra: object = {}) => ({
    name: 'J',
    journeyStages: [{ name: 'S', steps: { s1: step }, rootStep: 's1', ...stageExtra }],
  });

  it('treats a next of null, "" or absent as no next step', () => {
    for (const next of [null, '', undefined]) {
      const journey = normalizeJourney(oneStep({ type: 'Merge', next }));
      expect(journey.journeyStages[0]?.steps?.s1).toEqual({ type: 'Merge', next: null });
    }
  });

  it('prefers the camelCase spelling when a body carries both', () => {
    const journey = normalizeJourney(oneStep({ type: 'WaitStep', waitStep: 3, wait_step: 9, next: null }));
    expect(journey.journeyStages[0]?.steps?.s1).toMatchObject({ waitStep: 3 });
  });

  it('accepts numbers sent as strings and ids sent as numbers', () => {
    const journey = normalizeJourney({
      name: 'J',
      audience_id: 5732,
      journey_stages: [
        {
          entry_criteria: { segment_id: 301 },
          steps: { s1: { type: 'WaitStep', wait_step: '4', next: 42 } },
          root_step: 's1',
        },
      ],
    });
    expect(journey.audienceId).toBe('5732');
    expect(journey.journeyStages[0]?.entryCriteria?.segmentId).toBe('301');
    expect(journey.journeyStages[0]?.steps?.s1).toEqual({
      type: 'WaitStep',
      waitStep: 4,
      waitStepUnit: 'day',
      next: '42',
    });
  });

  it('fills the defaults of a minimal body and keeps step ids untouched', () => {
    const journey = normalizeJourney(oneStep({ type: 'End' }, { root_step: 's1' }));
    expect(journey).toMatchObject({
      state: 'draft',
      goal: null,
      allowReentry: false,
      paused: false,
      description: null,
    });
    expect(journey.journeyStages[0]).toMatchObject({
      steps: { s1: { type: 'End' } },
      rootStep: 's1',
      exitCriterias: null,
    });
    const snakeId = normalizeJourney({ name: 'J', journeyStages: [{ steps: { step_one: { type: 'End' } } }] });
    expect(Object.keys(snakeId.journeyStages[0]?.steps ?? {})).toEqual(['step_one']);
  });

  it('treats an empty steps map, goal or milestone as none', () => {
    const journey = normalizeJourney({ name: 'J', goal: {}, journeyStages: [{ steps: {}, milestone: {} }] });
    expect(journey.goal).toBeNull();
    expect(journey.journeyStages[0]).toMatchObject({ steps: null, milestone: null, rootStep: null });
  });

  it('reports an unknown step type with its path', () => {
    const parsed = parseJourney(oneStep({ type: 'SendSms', next: null }));
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.violations).toEqual([
      expect.objectContaining({
        code: 'step.type_unknown',
        path: { stageIndex: 0, stepId: 's1', field: 'type', text: 'journeyStages[0].steps["s1"].type' },
      }),
    ]);
  });

  it('reports every shape problem at once, each with its path', () => {
    const parsed = parseJourney({
      name: 7,
      journeyStages: [
        {
          id: 'st-1',
          steps: {
            w: { type: 'WaitStep', waitStep: 'soon', next: null },
            d: { type: 'DecisionPoint', branches: [{ name: 'no id', next: null }] },
          },
        },
      ],
    });
    expect(!parsed.ok && parsed.violations.map((v) => [v.code, v.path.text])).toEqual([
      ['shape.invalid', 'name'],
      ['shape.invalid', 'journeyStages[0].steps["w"].waitStep'],
      ['shape.invalid', 'journeyStages[0].steps["d"].branches[0].id'],
    ]);
    expect(!parsed.ok && parsed.violations[1]?.path).toMatchObject({ stageId: 'st-1', stepId: 'w', field: 'waitStep' });
    expect(!parsed.ok && parsed.violations[2]?.message).toBe(
      'journeyStages[0].steps["d"].branches[0].id is missing; it must be a string.',
    );
  });
});
