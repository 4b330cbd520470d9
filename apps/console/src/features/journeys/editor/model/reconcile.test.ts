import { replaceStep } from '@svc/journey';
import { describe, expect, it } from 'vitest';
import { largeJourney } from '../../demo/realisticJourney';
import { journeyToFlow } from './flow';
import { createLayoutCache, layoutFlow } from './layout';
import { reconcileEdges, reconcileNodes } from './reconcile';

describe('keeping unchanged canvas objects between edits', () => {
  const journey = largeJourney(8, 300);
  const stage = journey.journeyStages[1];
  const [waitId, wait] = Object.entries(stage?.steps ?? {}).find(([, s]) => s.type === 'WaitStep') ?? [];
  if (!waitId || wait?.type !== 'WaitStep') throw new Error('the large journey has a wait in stage 2');
  const edited = replaceStep(journey, {
    stageIndex: 1,
    stepId: waitId,
    step: { ...wait, waitStep: wait.waitStep + 5 },
  });
  const cache = createLayoutCache();
  const before = layoutFlow(journeyToFlow(journey), cache);
  const after = layoutFlow(journeyToFlow(edited), cache);

  it('keeps every node but the edited step (and no deep comparison is needed)', () => {
    const nodes = reconcileNodes(before.nodes, after.nodes);
    const changed = nodes.filter((n, i) => n !== before.nodes[i]).map((n) => n.id);
    expect(changed).toEqual([waitId]);
    expect(nodes.find((n) => n.id === waitId)?.ariaLabel).toBe(`Wait: Wait ${wait.waitStep + 5} days`);
  });

  it('keeps every edge but the ones leaving the edited step', () => {
    const edges = reconcileEdges(before.edges, after.edges);
    const changed = edges.filter((e, i) => e !== before.edges[i]).map((e) => e.source);
    expect(new Set(changed)).toEqual(new Set([waitId]));
  });

  it('replaces a node whose stage criteria changed', () => {
    const renamed = {
      ...journey,
      journeyStages: journey.journeyStages.map((s, i) => (i === 2 ? { ...s, name: 'x' } : s)),
    };
    const nodes = reconcileNodes(before.nodes, layoutFlow(journeyToFlow(renamed), cache).nodes);
    const changed = nodes.filter((n, i) => n !== before.nodes[i]).map((n) => n.id);
    expect(changed).toEqual(['stage-2', 'start-2']);
  });
});
