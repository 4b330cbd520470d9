import { describe, expect, it } from 'vitest';
import { journeyDocument, journeyDocumentSchema, parseJourneyRequest } from './document';
import { snakeCaseCreationBody } from './fixtures/spec-examples';
import { normalizeJourney } from './normalize';

describe('journey request bodies', () => {
  it('reads the creation body with type "journeys" and numeric relationship ids', () => {
    const parsed = parseJourneyRequest(snakeCaseCreationBody);
    expect(parsed.ok).toBe(true);
    expect(parsed.ok && parsed.value.type).toBe('journey');
    expect(parsed.ok && parsed.value.relationships.parentFolder).toEqual({
      data: { id: '3456', type: 'folder-segment' },
    });
    expect(parsed.ok && parsed.value.relationships.createdBy).toEqual({ data: { id: '65', type: 'user' } });
    expect(parsed.ok && parsed.value.relationships.journeyActivationSteps).toEqual({ data: [] });
  });

  it('reads the same body wrapped in data', () => {
    const direct = parseJourneyRequest(snakeCaseCreationBody);
    const wrapped = parseJourneyRequest({ data: snakeCaseCreationBody });
    expect(wrapped).toEqual(direct);
  });

  it('implies the relationship type when it is left out', () => {
    const parsed = parseJourneyRequest({
      type: 'journey',
      attributes: { name: 'J' },
      relationships: { parentFolder: { data: { id: 12 } } },
    });
    expect(parsed.ok && parsed.value.relationships.parentFolder.data).toEqual({ id: '12', type: 'folder-segment' });
  });

  it('reports problems in attributes with journey paths and problems elsewhere with body paths', () => {
    const parsed = parseJourneyRequest({
      data: {
        type: 'segment',
        attributes: { name: 'J', journeyStages: [{ steps: { a: { type: 'Merge', next: 5 }, b: { type: 'Nope' } } }] },
      },
    });
    expect(!parsed.ok && parsed.violations.map((v) => [v.code, v.path.text])).toEqual([
      ['step.type_unknown', 'journeyStages[0].steps["b"].type'],
      ['shape.invalid', 'data.type'],
    ]);
  });

  it('refuses a body that is not an object', () => {
    const parsed = parseJourneyRequest('journey');
    expect(!parsed.ok && parsed.violations[0]?.code).toBe('shape.invalid');
  });
});

describe('journey documents', () => {
  it('answers {data: {id, type, attributes, relationships}} with every relationship present', () => {
    const document = journeyDocument({ id: '1', attributes: normalizeJourney({ name: 'J' }) });
    expect(document.data.type).toBe('journey');
    expect(document.data.relationships).toEqual({
      parentFolder: { data: null },
      createdBy: { data: null },
      updatedBy: { data: null },
      activations: { data: [] },
      journeyActivationSteps: { data: [] },
      jumpFrom: { data: [] },
      jumpTo: { data: [] },
    });
    expect(journeyDocumentSchema.parse(document)).toEqual(document);
  });
});
