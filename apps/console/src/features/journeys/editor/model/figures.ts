import type { JourneyStatistics } from '@svc/contracts';
import type { Journey, Stage } from '@svc/journey';

/**
 * The engine's statistics arranged the way the canvas reads them: per step node, per decision path or
 * A/B variant row, and per stage lane (by index, as lanes know their stage). Nodes look their figures up
 * here (through FiguresContext), never in node data.
 */

export interface StepFigures {
  /** Profiles at this step now. */
  current: number;
  /** Distinct profiles that entered it in the window. */
  entered: number;
}

export interface StageFigures {
  entered: number;
  current: number;
  milestoneReached: number;
  /** Profiles that left by each exit criterion, in criterion order, with the criterion's display name. */
  exits: Array<{ name: string; profiles: number }>;
}

export interface CanvasFigures {
  window: { from: string; to: string };
  steps: ReadonlyMap<string, StepFigures>;
  /** Profiles per decision path id and per A/B variant id. */
  paths: ReadonlyMap<string, number>;
  stages: ReadonlyMap<number, StageFigures>;
  journey: { entered: number; current: number; goalReached: number; left: number };
}

/** The id the engine knows a stage by: its stored id, or its 1-based position for a stage never stored. */
export function engineStageId(stage: Pick<Stage, 'id'>, index: number): string {
  return stage.id ?? `stage-${index + 1}`;
}

/** An exit criterion as people know it: its name, its segment's name, or what it does. */
export function exitCriterionName(stage: Stage, criterionIndex: number, segmentName: SegmentName): string {
  const criterion = stage.exitCriterias?.[criterionIndex];
  if (criterion?.name) return criterion.name;
  const segment = criterion?.segmentId ? segmentName(criterion.segmentId) : undefined;
  if (segment) return segment;
  if (criterion?.exitAfter) return `After ${criterion.exitAfter} days`;
  return `Exit ${criterionIndex + 1}`;
}

export type SegmentName = (segmentId: string) => string | undefined;

export function canvasFigures(
  journey: Journey,
  statistics: JourneyStatistics,
  segmentName: SegmentName = () => undefined,
): CanvasFigures {
  const steps = new Map<string, StepFigures>();
  for (const step of statistics.steps) steps.set(step.stepId, { current: step.current, entered: step.entered });

  const paths = new Map<string, number>();
  for (const branch of statistics.branches) paths.set(branch.branchId, branch.profiles);
  for (const test of statistics.abTests) {
    for (const variant of test.variants) paths.set(variant.variantId, variant.profiles);
  }

  const byId = new Map(statistics.stages.map((s) => [s.stageId, s]));
  const stages = new Map<number, StageFigures>();
  journey.journeyStages.forEach((stage, index) => {
    const figures = byId.get(engineStageId(stage, index));
    if (!figures) return;
    stages.set(index, {
      entered: figures.entered,
      current: figures.current,
      milestoneReached: figures.milestoneReached,
      exits: figures.exits.map((e) => ({
        name: exitCriterionName(stage, e.criterionIndex, segmentName),
        profiles: e.profiles,
      })),
    });
  });

  const left = Object.values(statistics.left).reduce((sum, n) => sum + n, 0);
  return {
    window: statistics.window,
    steps,
    paths,
    stages,
    journey: {
      entered: statistics.entered,
      current: statistics.current,
      goalReached: statistics.goalReached,
      left,
    },
  };
}

/** "1 profile" / "3 profiles". */
function profilesText(n: number): string {
  return `${n.toLocaleString('en')} profile${n === 1 ? '' : 's'}`;
}

/** A path row's count and what it means in words; nothing when there are no figures. */
export function pathFigure(profiles: number | undefined, what: string) {
  return profiles === undefined ? undefined : { profiles, label: `${profilesText(profiles)} ${what}` };
}

/** What a step node's figure says to assistive technology. */
export function stepFiguresLabel(figures: StepFigures): string {
  return `${profilesText(figures.current)} here now, ${figures.entered.toLocaleString('en')} entered`;
}

/** What a stage lane's figures say, in one sentence. */
export function stageFiguresLabel(stageIndex: number, figures: StageFigures): string {
  const exited = figures.exits.reduce((sum, e) => sum + e.profiles, 0);
  const byCriterion = figures.exits.map((e) => `${e.name} ${e.profiles}`).join(', ');
  return (
    `Stage ${stageIndex + 1} figures: ${figures.entered} entered, ${figures.current} in the stage now, ` +
    `${figures.milestoneReached} reached the milestone, ${exited} left by exit criteria` +
    (byCriterion ? ` (${byCriterion})` : '')
  );
}

const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const shortDay = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** A statistics window as UTC days, e.g. "24 Oct 2026 – 22 Nov 2026", or "24 Oct – 22 Nov" short. */
export function formatWindow(window: { from: string; to: string }, short = false): string {
  const format = short ? shortDay : day;
  return `${format.format(new Date(window.from))} – ${format.format(new Date(window.to))}`;
}
