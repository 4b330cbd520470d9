import { describe, expect, it } from 'vitest';
import { parseJourneyRequest } from '../document';
import { decisionPointPatchBody, snakeCaseCreationBody } from '../fixtures/spec-examples';
import { stepTypes } from '../steps/registry';
import { abTest, activation, decision, end, journey, merge, stage, wait } from '../testing/builders';
import { fromGraph, toGraph } from './canvas-graph';
import { moveBranch } from './splits';

const everyKind = () =>
  journey(
    stage('w', {
      w: wait('a'),
      a: activation('d'),
      d: decision(['b1', '305', 't'], ['b2', null, 'm']),
      t: abTest(['c', 50, 'm'], ['v', 50, null]),
      m: merge('e'),
      e: end(),
    }),
  );

describe('toGraph', () => {
  it('gives a node per step in order and an edge per connected path, with stable handles', () => {
    const graph = toGraph(everyKind().journeyStages[0]!);
    expect(graph.rootStep).toBe('w');
    expect(graph.nodes.map((n) => [n.id, n.type])).toEqual([
      ['w', 'WaitStep'],
      ['a', 'Activation'],
      ['d', 'DecisionPoint'],
      ['t', 'ABTest'],
      ['m', 'Merge'],
      ['e', 'End'],
    ]);
    expect(new Set(graph.nodes.map((n) => n.type))).toEqual(new Set(stepTypes));
    expect(graph.edges).toEqual([
      { id: 'w:next', source: 'w', sourceHandle: 'next', target: 'a' },
      { id: 'a:next', source: 'a', sourceHandle: 'next', target: 'd' },
      { id: 'd:branch:b1', source: 'd', sourceHandle: 'branch:b1', target: 't' },
      { id: 'd:branch:b2', source: 'd', sourceHandle: 'branch:b2', target: 'm' },
      { id: 't:variant:c', source: 't', sourceHandle: 'variant:c', target: 'm' },
      { id: 'm:next', source: 'm', sourceHandle: 'next', target: 'e' },
    ]);
  });

  it('keeps connections out of node data, so edges are their only source', () => {
    const graph = toGraph(everyKind().journeyStages[0]!);
    const point = graph.nodes.find((n) => n.id === 'd')?.data;
    expect(point?.type === 'DecisionPoint' && point.branches.map((b) => b.next)).toEqual([null, null]);
    expect(graph.nodes.find((n) => n.id === 'w')?.data).toEqual(wait(null));
  });

  it('keeps handle ids when paths are reordered', () => {
    const reordered = moveBranch(everyKind(), { stageIndex: 0, stepId: 'd', from: 1, to: 0 });
    const handles = toGraph(reordered.journeyStages[0]!).edges.filter((e) => e.source === 'd');
    expect(handles.map((e) => [e.sourceHandle, e.target])).toEqual([
      ['branch:b2', 'm'],
      ['branch:b1', 't'],
    ]);
  });
});

describe('fromGraph', () => {
  it('round-trips every step kind', () => {
    const stage0 = everyKind().journeyStages[0]!;
    expect(fromGraph(toGraph(stage0))).toEqual({ steps: stage0.steps, rootStep: stage0.rootStep });
  });

  it('round-trips the spec examples stage by stage, keeping step order', () => {
    for (const body of [snakeCaseCreationBody, decisionPointPatchBody]) {
      const parsed = parseJourneyRequest(body);
      if (!parsed.ok) throw new Error('fixture');
      for (const s of parsed.value.attributes.journeyStages) {
        const back = fromGraph(toGraph(s));
        expect(back).toEqual({ steps: s.steps, rootStep: s.rootStep });
        expect(Object.keys(back.steps ?? {})).toEqual(Object.keys(s.steps ?? {}));
      }
    }
  });

  it('round-trips an empty stage', () => {
    expect(fromGraph(toGraph(stage(null, {})))).toEqual({ steps: null, rootStep: null });
  });

  it('takes new connections from edges', () => {
    const graph = toGraph(everyKind().journeyStages[0]!);
    graph.edges.push({ id: 't:variant:v', source: 't', sourceHandle: 'variant:v', target: 'm' });
    const test = fromGraph(graph).steps?.t;
    expect(test?.type === 'ABTest' && test.variants.map((v) => v.next)).toEqual(['m', 'm']);
  });

  it('refuses an edge from a handle no step has', () => {
    const graph = toGraph(everyKind().journeyStages[0]!);
    graph.edges.push({ id: 'x', source: 'd', sourceHandle: 'branch:zz', target: 'm' });
    expect(() => fromGraph(graph)).toThrow(expect.objectContaining({ code: 'graph.edge_unknown' }));
  });
});
