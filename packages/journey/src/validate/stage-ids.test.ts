import { describe, expect, it } from 'vitest';
import { codes, context, end, journey, stage } from '../testing/builders';
import { validateJourney } from './validate-journey';

describe('stage ids', () => {
  it('accepts stages without ids and stages the stored journey has', () => {
    const j = journey(stage('e', { e: end() }, { id: '7001' }), stage('f', { f: end() }));
    expect(validateJourney(j, { ...context, stageIds: ['7001', '7002'] })).toEqual([]);
  });

  it('rejects a stage id the stored journey does not have', () => {
    const j = journey(stage('e', { e: end() }, { id: '9999' }));
    const found = validateJourney(j, { ...context, stageIds: ['7001'] });
    expect(codes(found)).toEqual(['stage.id_unknown']);
    expect(found[0]?.path).toEqual({ stageIndex: 0, stageId: '9999', field: 'id', text: 'journeyStages[0].id' });
  });

  it('rejects two stages with the same id even without a stored journey', () => {
    const j = journey(stage('e', { e: end() }, { id: '7001' }), stage('f', { f: end() }, { id: '7001' }));
    const found = validateJourney(j, context);
    expect(codes(found)).toEqual(['stage.id_duplicate']);
    expect(found[0]?.path.text).toBe('journeyStages[1].id');
  });
});
