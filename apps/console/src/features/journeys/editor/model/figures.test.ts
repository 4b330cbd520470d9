import type { JourneyStatistics } from '@svc/contracts';
import { normalizeJourney } from '@svc/journey';
import { describe, expect, it } from 'vitest';
import { canvasFigures, formatWindow, pathFigure, stageFiguresLabel, stepFiguresLabel } from './figures';

const journey = normalizeJourney({
  name: 'Welcome',
  state: 'launched',
  journeyStages: [
    {
      id: 's1',
      name: 'Welcome',
      entryCriteria: { name: 'All', segmentId: '1' },
      exitCriterias: [
        { name: '', segmentId: '9' },
        { name: '', exitAfter: 30, unit: 'days' },
      ],
      rootStep: 'dp',
      steps: {
        dp: {
          type: 'DecisionPoint',
          branches: [
            { id: 'b1', name: 'Japan', segmentId: '2', excludedPath: false, next: 'end' },
            { id: 'b2', name: '', segmentId: null, excludedPath: true, next: 'end' },
          ],
        },
        end: { type: 'End' },
      },
    },
    {
      // A stage the server never stored: the engine calls it by its position.
      name: 'Loyal',
      entryCriteria: { name: 'Buyers', segmentId: '3' },
      rootStep: 'ab',
      steps: {
        ab: {
          type: 'ABTest',
          uniqueId: 'customer_id',
          customizedSplit: false,
          variants: [
            { id: 'v0', name: 'Control', percentage: 50, next: 'end2' },
            { id: 'v1', name: 'B', percentage: 50, next: 'end2' },
          ],
        },
        end2: { type: 'End' },
      },
    },
  ],
});

const zeroFlow = { toNextStage: 0, toGoal: 0, toExit: 0 };
const variant = { goalReached: 0, conversionRate: 0, uplift: null, pValue: null, confidence: null, percentage: 50 };

const statistics: JourneyStatistics = {
  journeyId: '7',
  window: { from: '2026-10-26T00:00:00.000Z', to: '2026-11-24T07:00:00.000Z' },
  entered: 10,
  entries: 11,
  current: 9,
  goalReached: 2,
  left: { goal: 2, exit_segment: 1, exit_after: 0, milestone: 0, completed: 0 },
  stages: [
    {
      stageId: 's1',
      name: 'Welcome',
      entered: 7,
      current: 6,
      milestoneReached: 1,
      exits: [
        { criterionIndex: 0, name: '', profiles: 1 },
        { criterionIndex: 1, name: '', profiles: 0 },
      ],
      flow: { ...zeroFlow, toNextStage: 1 },
    },
    { stageId: 'stage-2', name: 'Loyal', entered: 4, current: 3, milestoneReached: 0, exits: [], flow: zeroFlow },
  ],
  steps: [
    { stageId: 's1', stepId: 'dp', type: 'DecisionPoint', entered: 7, current: 0 },
    { stageId: 's1', stepId: 'end', type: 'End', entered: 6, current: 6 },
    { stageId: 'stage-2', stepId: 'ab', type: 'ABTest', entered: 4, current: 0 },
  ],
  branches: [
    { stageId: 's1', stepId: 'dp', branchId: 'b1', name: 'Japan', profiles: 3 },
    { stageId: 's1', stepId: 'dp', branchId: 'b2', name: 'Excluded profiles', profiles: 3 },
  ],
  abTests: [
    {
      stageId: 'stage-2',
      stepId: 'ab',
      name: 'A/B test',
      variants: [
        { ...variant, variantId: 'v0', name: 'Control', control: true, profiles: 1 },
        { ...variant, variantId: 'v1', name: 'B', control: false, profiles: 3 },
      ],
    },
  ],
  lastRun: null,
};

describe('canvas figures from the statistics', () => {
  const figures = canvasFigures(journey, statistics, (id) => (id === '9' ? 'Unsubscribed' : undefined));

  it('gives each step node its profiles there now and entered in the window', () => {
    expect(figures.steps.get('dp')).toEqual({ current: 0, entered: 7 });
    expect(figures.steps.get('end')).toEqual({ current: 6, entered: 6 });
    expect(figures.steps.get('end2')).toBeUndefined();
  });

  it('counts each decision path and each A/B variant by its id', () => {
    expect(figures.paths.get('b1')).toBe(3);
    expect(figures.paths.get('b2')).toBe(3);
    expect(figures.paths.get('v0')).toBe(1);
    expect(figures.paths.get('v1')).toBe(3);
  });

  it('finds stage figures by stored id, or by position for a stage never stored', () => {
    expect(figures.stages.get(0)).toMatchObject({ entered: 7, current: 6, milestoneReached: 1 });
    expect(figures.stages.get(1)).toMatchObject({ entered: 4, current: 3, exits: [] });
  });

  it('names unnamed exit criteria after their segment, or after what they do', () => {
    expect(figures.stages.get(0)?.exits).toEqual([
      { name: 'Unsubscribed', profiles: 1 },
      { name: 'After 30 days', profiles: 0 },
    ]);
  });

  it('sums the journey totals, every leave reason included', () => {
    expect(figures.journey).toEqual({ entered: 10, current: 9, goalReached: 2, left: 3 });
  });

  it('says what the figures mean in words', () => {
    expect(stepFiguresLabel({ current: 1, entered: 12 })).toBe('1 profile here now, 12 entered');
    expect(pathFigure(3, 'took this path')).toEqual({ profiles: 3, label: '3 profiles took this path' });
    expect(pathFigure(undefined, 'took this path')).toBeUndefined();
    expect(stageFiguresLabel(0, figures.stages.get(0) as NonNullable<ReturnType<typeof figures.stages.get>>)).toBe(
      'Stage 1 figures: 7 entered, 6 in the stage now, 1 reached the milestone, 1 left by exit criteria (Unsubscribed 1, After 30 days 0)',
    );
    expect(formatWindow(statistics.window)).toBe('26 Oct 2026 – 24 Nov 2026');
    expect(formatWindow(statistics.window, true)).toBe('26 Oct – 24 Nov');
  });
});
