import type { JourneyStageFigures } from '@svc/contracts';
import { describe, expect, it } from 'vitest';
import { flowChartModel, strokeWidth } from './flowChart';

const stage = (stageId: string, entered: number, current: number, flow: JourneyStageFigures['flow']) => ({
  label: `Stage ${stageId}`,
  figures: { stageId, name: stageId, entered, current, milestoneReached: flow.toNextStage, exits: [], flow },
});

describe('the stage-to-stage flow chart', () => {
  const model = flowChartModel({
    stages: [
      stage('1', 7, 6, { toNextStage: 1, toGoal: 0, toExit: 0 }),
      stage('2', 4, 3, { toNextStage: 0, toGoal: 0, toExit: 1 }),
    ],
    goal: { label: 'Second purchase', reached: 0 },
    exited: 1,
  });

  it('puts the stages left to right with one "moved on" arrow between each pair', () => {
    expect(model.boxes.map((b) => b.title)).toEqual(['Stage 1', 'Stage 2']);
    expect(model.boxes[1]?.x).toBeGreaterThan(model.boxes[0]?.x ?? 0);
    const next = model.arrows.filter((a) => a.kind === 'next');
    expect(next).toHaveLength(1);
    expect(next[0]).toMatchObject({ profiles: 1, label: '1 moved on' });
  });

  it('sends an arrow up to the goal and one down to the exits from every stage', () => {
    expect(model.arrows.filter((a) => a.kind === 'goal').map((a) => a.label)).toEqual([
      '0 to the goal',
      '0 to the goal',
    ]);
    expect(model.arrows.filter((a) => a.kind === 'exit').map((a) => a.profiles)).toEqual([0, 1]);
    expect(model.goalBar.label).toBe('Goal “Second purchase”: 0 reached');
    expect(model.exitBar.label).toBe('Left by exit criteria: 1');
  });

  it('fills each box by the share of its entrants still in it', () => {
    expect(model.boxes.map((b) => b.fill)).toEqual([6 / 7, 3 / 4]);
    expect(model.boxes[0]?.lines).toEqual(['7 entered', '6 in the stage now', '1 reached the milestone']);
  });

  it('draws no goal arrows without a goal', () => {
    const plain = flowChartModel({
      stages: [stage('1', 1, 1, { toNextStage: 0, toGoal: 0, toExit: 0 })],
      goal: null,
      exited: 0,
    });
    expect(plain.arrows.some((a) => a.kind === 'goal')).toBe(false);
    expect(plain.goalBar.label).toBe('No goal set');
  });

  it('thickens arrows with the profiles they carry, against the busiest stage', () => {
    expect(strokeWidth(0, 10)).toBe(1.5);
    expect(strokeWidth(10, 10)).toBe(10);
    expect(strokeWidth(5, 10)).toBe(6);
    expect(strokeWidth(50, 10)).toBe(10);
  });
});
