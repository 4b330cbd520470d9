import type { JourneyStageFigures } from '@svc/contracts';

/**
 * Geometry of the stage-to-stage flow chart: stage boxes left to right, arrows between them for profiles
 * that reached the milestone and moved on, arrows up into the goal bar and down into the exit bar. Pure,
 * so the drawing component only draws.
 */

export const BOX_WIDTH = 196;
export const BOX_HEIGHT = 104;
const GAP = 120;
const MARGIN = 16;
const BAR_HEIGHT = 34;
const ARROW = 54;

export interface FlowBox {
  x: number;
  y: number;
  title: string;
  lines: string[];
  /** Share of the stage's entrants still in it (0–1), drawn as a bar. */
  fill: number;
}

export interface FlowArrow {
  kind: 'next' | 'goal' | 'exit';
  profiles: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** Stroke width, by the profiles it carries against the busiest stage. */
  width: number;
  label: string;
  labelX: number;
  labelY: number;
}

export interface FlowChartModel {
  width: number;
  height: number;
  goalBar: { x: number; y: number; width: number; height: number; label: string };
  exitBar: { x: number; y: number; width: number; height: number; label: string };
  boxes: FlowBox[];
  arrows: FlowArrow[];
}

export function strokeWidth(profiles: number, busiest: number): number {
  if (profiles <= 0) return 1.5;
  return Math.round((2 + 8 * Math.min(1, profiles / Math.max(1, busiest))) * 10) / 10;
}

export interface FlowChartInput {
  stages: Array<{ label: string; figures: JourneyStageFigures }>;
  goal: { label: string; reached: number } | null;
  exited: number;
}

export function flowChartModel({ stages, goal, exited }: FlowChartInput): FlowChartModel {
  const n = Math.max(1, stages.length);
  const width = MARGIN * 2 + n * BOX_WIDTH + (n - 1) * GAP;
  const boxTop = BAR_HEIGHT + ARROW;
  const exitTop = boxTop + BOX_HEIGHT + ARROW;
  const busiest = Math.max(1, ...stages.map((s) => s.figures.entered));
  const boxes: FlowBox[] = [];
  const arrows: FlowArrow[] = [];
  stages.forEach(({ label, figures }, i) => {
    const x = MARGIN + i * (BOX_WIDTH + GAP);
    boxes.push({
      x,
      y: boxTop,
      title: label,
      lines: [
        `${figures.entered.toLocaleString('en')} entered`,
        `${figures.current.toLocaleString('en')} in the stage now`,
        `${figures.milestoneReached.toLocaleString('en')} reached the milestone`,
      ],
      fill: figures.entered > 0 ? Math.min(1, figures.current / figures.entered) : 0,
    });
    const centre = x + BOX_WIDTH / 2;
    if (i < stages.length - 1) {
      const y = boxTop + BOX_HEIGHT / 2;
      arrows.push({
        kind: 'next',
        profiles: figures.flow.toNextStage,
        x1: x + BOX_WIDTH,
        y1: y,
        x2: x + BOX_WIDTH + GAP,
        y2: y,
        width: strokeWidth(figures.flow.toNextStage, busiest),
        label: `${figures.flow.toNextStage.toLocaleString('en')} moved on`,
        labelX: x + BOX_WIDTH + GAP / 2,
        labelY: y - 10,
      });
    }
    if (goal) {
      arrows.push({
        kind: 'goal',
        profiles: figures.flow.toGoal,
        x1: centre,
        y1: boxTop,
        x2: centre,
        y2: BAR_HEIGHT,
        width: strokeWidth(figures.flow.toGoal, busiest),
        label: `${figures.flow.toGoal.toLocaleString('en')} to the goal`,
        labelX: centre + 10,
        labelY: BAR_HEIGHT + ARROW / 2 + 4,
      });
    }
    arrows.push({
      kind: 'exit',
      profiles: figures.flow.toExit,
      x1: centre,
      y1: boxTop + BOX_HEIGHT,
      x2: centre,
      y2: exitTop,
      width: strokeWidth(figures.flow.toExit, busiest),
      label: `${figures.flow.toExit.toLocaleString('en')} exited`,
      labelX: centre + 10,
      labelY: boxTop + BOX_HEIGHT + ARROW / 2 + 4,
    });
  });
  const bar = { x: MARGIN, width: width - MARGIN * 2, height: BAR_HEIGHT };
  return {
    width,
    height: exitTop + BAR_HEIGHT,
    goalBar: {
      ...bar,
      y: 0,
      label: goal ? `Goal “${goal.label}”: ${goal.reached.toLocaleString('en')} reached` : 'No goal set',
    },
    exitBar: { ...bar, y: exitTop, label: `Left by exit criteria: ${exited.toLocaleString('en')}` },
    boxes,
    arrows,
  };
}
