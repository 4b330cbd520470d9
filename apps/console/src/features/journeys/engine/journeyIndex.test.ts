import { normalizeJourney } from '@svc/journey';
import { describe, expect, it } from 'vitest';
import { journeyIndex } from './journeyIndex';

const journey = normalizeJourney({
  name: 'J',
  journeyStages: [
    {
      id: 's1',
      name: 'Welcome',
      entryCriteria: { name: 'All', segmentId: '1' },
      rootStep: 'w',
      steps: {
        w: { type: 'WaitStep', waitStep: 3, waitStepUnit: 'day', next: 'dp' },
        dp: {
          type: 'DecisionPoint',
          branches: [
            { id: 'b1', name: '', segmentId: '2', excludedPath: false, next: 'e' },
            { id: 'b2', name: '', segmentId: null, excludedPath: true, next: 'e' },
          ],
        },
        e: { type: 'End' },
      },
    },
    { name: '', entryCriteria: { name: 'All', segmentId: '1' }, rootStep: null, steps: null },
  ],
});

describe('names for engine ids', () => {
  const index = journeyIndex(journey);

  it('labels stages by position and name, unstored stages by their position id', () => {
    expect(index.stages).toEqual([
      { id: 's1', index: 0, label: 'Stage 1 · Welcome' },
      { id: 'stage-2', index: 1, label: 'Stage 2' },
    ]);
    expect(index.stageLabel('stage-2')).toBe('Stage 2');
  });

  it('labels steps as the canvas does, and paths by their names or defaults', () => {
    expect(index.stepLabel('w')).toBe('Wait 3 days');
    expect(index.steps.map((s) => [s.id, s.stageId, s.kind])).toEqual([
      ['w', 's1', 'Wait'],
      ['dp', 's1', 'Decision point'],
      ['e', 's1', 'End'],
    ]);
    expect(index.pathLabel('b1')).toBe('Path 1');
    expect(index.pathLabel('b2')).toBe('Excluded profiles');
  });

  it('falls back to the id for what it does not know', () => {
    expect(index.stepLabel('gone')).toBe('Step gone');
    expect(index.stepLabel(null)).toBe('—');
  });
});
