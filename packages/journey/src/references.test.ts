import { describe, expect, it } from 'vitest';
import { ids, snakeCaseCreationBody } from './fixtures/spec-examples';
import { normalizeJourney } from './normalize';
import { activationReferences, mapActivationIds, segmentReferences } from './references';
import { activation, decision, deepFreeze, end, journey, merge, stage } from './testing/builders';

describe('journey references', () => {
  it('lists every segment the creation example names, once each', () => {
    const j = normalizeJourney(snakeCaseCreationBody.attributes);
    expect(segmentReferences(j).sort()).toEqual(['301', '302', '303', '310']);
  });

  it('includes decision paths but not the excluded path', () => {
    const j = journey(
      stage('d', {
        d: decision(['b1', '305', 'm'], ['b2', '306', 'm'], ['b3', null, 'm']),
        m: merge('e'),
        e: end(),
      }),
    );
    expect(segmentReferences(j).sort()).toEqual(['301', '305', '306']);
  });

  it('lists activation steps with their stage and step', () => {
    const j = normalizeJourney(snakeCaseCreationBody.attributes);
    expect(activationReferences(j)).toEqual([{ stageIndex: 0, stepId: ids.welcomeActivation, activationId: '901' }]);
  });

  it('rewrites activation ids without touching the input', () => {
    const j = deepFreeze(journey(stage('a', { a: activation('b', '901'), b: activation('e', '902'), e: end() })));
    const mapped = mapActivationIds(j, (id) => (id === '901' ? '1901' : undefined));
    expect(activationReferences(mapped).map((r) => r.activationId)).toEqual(['1901', '902']);
    expect(activationReferences(j).map((r) => r.activationId)).toEqual(['901', '902']);
  });
});
