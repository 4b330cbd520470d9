import { describe, expect, it } from 'vitest';
import { decision, end, merge, stage, wait } from '../testing/builders';
import { openEnds } from './open-ends';

describe('openEnds', () => {
  it('finds the edges of reached steps that lead nowhere, with their slot', () => {
    const s = stage('d', {
      d: decision(['b1', '305', 'w'], ['b2', null, null]),
      w: wait(null),
      lost: wait(null),
    });
    expect(openEnds(s)).toEqual([
      { stepId: 'd', slot: { kind: 'branch', index: 1 }, label: expect.any(String) },
      { stepId: 'w', slot: { kind: 'next' }, label: 'Next' },
    ]);
  });

  it('has none where every path ends in an End step, and none in an empty stage', () => {
    expect(openEnds(stage('w', { w: wait('m'), m: merge('e'), e: end() }))).toEqual([]);
    expect(openEnds(stage(null, {}))).toEqual([]);
  });
});
