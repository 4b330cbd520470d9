import { describe, expect, it } from 'vitest';
import type { Journey } from '../journey';
import type { Step } from '../steps/registry';
import { abTest, codes, context, decision, deepFreeze, end, journey, merge, stage, wait } from '../testing/builders';
import { validateJourney } from '../validate/validate-journey';
import { addBranch, addVariant, moveBranch, removeBranch, removeVariant, setCustomSplit, setEvenSplit } from './splits';

const ref = { stageIndex: 0, stepId: 's' };
const stepOf = (j: Journey): Step | undefined => j.journeyStages[0]?.steps?.s;
const branchIds = (j: Journey) => {
  const step = stepOf(j);
  return step?.type === 'DecisionPoint' ? step.branches.map((b) => b.id) : [];
};
const variants = (j: Journey) => {
  const step = stepOf(j);
  return step?.type === 'ABTest' ? step.variants.map((v) => [v.id, v.percentage]) : [];
};
const newBranch = (id: string) => ({
  id,
  name: id,
  description: null,
  excludedPath: false,
  segmentId: '307',
  next: null,
});

describe('decision point paths', () => {
  const point = () =>
    deepFreeze(
      journey(
        stage('s', {
          s: decision(['b1', '305', 'x'], ['b2', '306', 'm'], ['ex', null, 'm']),
          x: wait('m'),
          m: merge('e'),
          e: end(),
        }),
      ),
    );

  it('adds a path before a trailing excluded path, or where asked', () => {
    expect(branchIds(addBranch(point(), { ...ref, branch: newBranch('n') }))).toEqual(['b1', 'b2', 'n', 'ex']);
    expect(branchIds(addBranch(point(), { ...ref, branch: newBranch('n'), index: 0 }))).toEqual([
      'n',
      'b1',
      'b2',
      'ex',
    ]);
  });

  it('reorders paths', () => {
    expect(branchIds(moveBranch(point(), { ...ref, from: 2, to: 0 }))).toEqual(['ex', 'b1', 'b2']);
    expect(branchIds(moveBranch(point(), { ...ref, from: 0, to: 1 }))).toEqual(['b2', 'b1', 'ex']);
    expect(() => moveBranch(point(), { ...ref, from: 0, to: 3 })).toThrow(
      expect.objectContaining({ code: 'branch.unknown' }),
    );
  });

  it('removes a path with the steps only it leads to, and keeps the Merge the others use', () => {
    const j = removeBranch(point(), { ...ref, branchIndex: 0 });
    expect(branchIds(j)).toEqual(['b2', 'ex']);
    expect(Object.keys(j.journeyStages[0]?.steps ?? {})).toEqual(['s', 'm', 'e']);
    expect(validateJourney(j, context)).toEqual([]);
  });

  it('reports the path count when removal leaves a single path', () => {
    const j = removeBranch(removeBranch(point(), { ...ref, branchIndex: 0 }), { ...ref, branchIndex: 0 });
    expect(codes(validateJourney(j, context))).toEqual(['decision.branch_count']);
  });

  it('reports the path count when a seventh path is added', () => {
    let j: Journey = point();
    for (const id of ['n1', 'n2', 'n3']) j = addBranch(j, { ...ref, branch: newBranch(id) });
    expect(codes(validateJourney(j, context))).toEqual([]);
    j = addBranch(j, { ...ref, branch: newBranch('n4') });
    expect(codes(validateJourney(j, context))).toEqual(['decision.branch_count']);
  });

  it('refuses a path id already used', () => {
    expect(() => addBranch(point(), { ...ref, branch: newBranch('x') })).toThrow(
      expect.objectContaining({ code: 'step.id_taken' }),
    );
  });
});

describe('A/B test variants', () => {
  const test = () =>
    deepFreeze(
      journey(
        stage('s', {
          s: { ...abTest(['c', 50, 'e'], ['a', 50, 'w']), customizedSplit: false },
          e: end(),
          w: wait(null),
        }),
      ),
    );

  it('adds a variant and recomputes the even split', () => {
    const j = addVariant(test(), { ...ref, variant: { id: 'b', name: 'B', percentage: 0, next: null } });
    expect(variants(j)).toEqual([
      ['c', 34],
      ['a', 33],
      ['b', 33],
    ]);
  });

  it('keeps customized percentages when adding, so the sum is reported until fixed', () => {
    const custom = setCustomSplit(test(), { ...ref, percentages: [40, 60] });
    const j = addVariant(custom, { ...ref, variant: { id: 'b', name: 'B', percentage: 10, next: null } });
    expect(codes(validateJourney(j, context))).toEqual(['ab.percentage_sum']);
    expect(validateJourney(setCustomSplit(j, { ...ref, percentages: [30, 60, 10] }), context)).toEqual([]);
  });

  it('removes a test variant with the steps only it leads to', () => {
    const added = addVariant(test(), { ...ref, variant: { id: 'b', name: 'B', percentage: 0, next: null } });
    const j = removeVariant(added, { ...ref, variantIndex: 1 });
    expect(variants(j)).toEqual([
      ['c', 50],
      ['b', 50],
    ]);
    expect(Object.keys(j.journeyStages[0]?.steps ?? {})).toEqual(['s', 'e']);
  });

  it('keeps the control', () => {
    expect(() => removeVariant(test(), { ...ref, variantIndex: 0 })).toThrow(
      expect.objectContaining({ code: 'variant.control_required' }),
    );
  });

  it('reports the variant count when the last test variant is removed', () => {
    expect(codes(validateJourney(removeVariant(test(), { ...ref, variantIndex: 1 }), context))).toEqual([
      'ab.variant_count',
    ]);
  });

  it('switches a customized split back to an even one', () => {
    const custom = setCustomSplit(test(), { ...ref, percentages: [10, 90] });
    const even = setEvenSplit(custom, ref);
    expect(variants(even)).toEqual([
      ['c', 50],
      ['a', 50],
    ]);
    expect(stepOf(even)).toMatchObject({ customizedSplit: false });
  });
});
