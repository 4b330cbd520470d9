import type { Journey, Step, StepType } from '@svc/journey';
import { createStep, normalizeJourney, stepExits, stepTypes, withExitTarget } from '@svc/journey';
import { describe, expect, it } from 'vitest';
import { realisticJourney } from '../../demo/realisticJourney';
import { flowToJourney, isStepNode, journeyToFlow } from './flow';
import { createLayoutCache, layoutFlow } from './layout';

function counter(prefix: string) {
  let n = 0;
  return () => `${prefix}${++n}`;
}

/** A one-stage journey: the given step first, each of its paths leading to its own End. */
function journeyWith(type: StepType): Journey {
  let step: Step = createStep(type, counter(`${type}-x`));
  const steps: Record<string, Step> = {};
  steps.first = step;
  stepExits(step).forEach((exit, i) => {
    steps[`end${i}`] = { type: 'End' };
    step = withExitTarget(step, exit.slot, `end${i}`);
  });
  steps.first = step;
  return normalizeJourney({
    name: type,
    journeyStages: [{ name: 'Only', entryCriteria: { name: 'All', segmentId: '1' }, steps, rootStep: 'first' }],
  });
}

describe('journey ⇄ canvas conversion', () => {
  it.each(stepTypes)('round-trips a %s step', (type) => {
    const journey = journeyWith(type);
    const flow = journeyToFlow(journey);
    const node = flow.nodes.find((n) => n.id === 'first');
    expect(node?.type).toBe(type);
    expect(flowToJourney(journey, flow)).toEqual(journey);
  });

  it.each(stepTypes)('round-trips a %s step whose paths are still open', (type) => {
    const step = createStep(type, counter('open'));
    const journey = normalizeJourney({
      name: 'Open',
      journeyStages: [{ name: 'Only', steps: { first: step }, rootStep: 'first' }],
    });
    const flow = journeyToFlow(journey);
    expect(flow.nodes.filter((n) => n.type === 'open')).toHaveLength(stepExits(step).length);
    expect(flowToJourney(journey, flow)).toEqual(journey);
  });

  it('round-trips a realistic multi-stage journey, and an empty stage', () => {
    const journey = realisticJourney();
    const withEmpty = {
      ...journey,
      journeyStages: [...journey.journeyStages, { ...journey.journeyStages[0]!, steps: null, rootStep: null }],
    };
    expect(flowToJourney(withEmpty, journeyToFlow(withEmpty))).toEqual(withEmpty);
  });

  it('gives a split node one output per path, in path order, labelled', () => {
    const flow = journeyToFlow(realisticJourney());
    const split = flow.nodes.find((n) => isStepNode(n) && n.data.step.type === 'DecisionPoint');
    expect(split && isStepNode(split) && split.data.exits.map((e) => e.label)).toEqual([
      'Bought in a store',
      'Opened the app',
      'Everyone else',
    ]);
  });
});

describe('layout', () => {
  it('keeps path order top to bottom and does not move anything when a setting changes', async () => {
    const journey = realisticJourney();
    const cache = createLayoutCache();
    const laid = layoutFlow(journeyToFlow(journey), cache);
    const split = laid.nodes.find((n) => isStepNode(n) && n.data.step.type === 'DecisionPoint');
    if (!split || !isStepNode(split)) throw new Error('no decision point');
    const stage = journey.journeyStages[split.data.stageIndex]!;
    const step = stage.steps?.[split.id];
    const targets = step ? stepExits(step).map((e) => e.target) : [];
    const ys = targets.map((t) => laid.nodes.find((n) => n.id === t)?.position.y ?? Number.NaN);
    expect([...ys].sort((a, b) => a - b)).toEqual(ys);

    const renamed = {
      ...journey,
      name: 'Other',
      journeyStages: journey.journeyStages.map((s) => ({ ...s, name: `${s.name}!` })),
    };
    const again = layoutFlow(journeyToFlow(renamed), cache);
    expect(again.nodes.map((n) => [n.id, n.position])).toEqual(laid.nodes.map((n) => [n.id, n.position]));
  });
});
