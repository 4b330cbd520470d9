import { describe, expect, it } from 'vitest';
import { journey, stage } from '../testing/builders';
import { validateJourney } from '../validate/validate-journey';
import { createStep, stepExits, stepKinds, stepSchema, stepTypes } from './registry';

describe('the step kind registry', () => {
  it('has one kind for each step type of the spec', () => {
    expect(stepTypes).toEqual(['Activation', 'WaitStep', 'DecisionPoint', 'Merge', 'End', 'ABTest']);
    for (const type of stepTypes) expect(stepKinds[type].type).toBe(type);
  });

  it('gives every kind a default that its schema accepts and a draft may contain', () => {
    let counter = 0;
    for (const type of stepTypes) {
      const step = createStep(type, () => `id-${++counter}`);
      expect(stepSchema.parse(step)).toEqual(step);
      expect(validateJourney(journey(stage('s', { s: step })))).toEqual([]);
    }
  });

  it('lists outgoing edges in order: none for End, one for single-exit steps, one per path or variant', () => {
    let counter = 0;
    const exitCounts = stepTypes.map((type) => [type, stepExits(createStep(type, () => `id-${++counter}`)).length]);
    expect(exitCounts).toEqual([
      ['Activation', 1],
      ['WaitStep', 1],
      ['DecisionPoint', 2],
      ['Merge', 1],
      ['End', 0],
      ['ABTest', 2],
    ]);
    const test = createStep('ABTest', () => `v-${++counter}`);
    expect(stepExits(test).map((e) => e.label)).toEqual(['Control', 'Variant A']);
  });
});
