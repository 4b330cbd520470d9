import type { Journey, Stage, Step } from '@svc/journey';
import { effectivePercentages } from './ab';
import { unitMs } from './time';

export interface CompiledExit {
  index: number;
  name: string;
  segmentId: string | null;
  /** exitAfter as milliseconds of unpaused time, or null. */
  afterMs: number | null;
}

export interface CompiledStage {
  id: string;
  index: number;
  name: string;
  entrySegment: string | null;
  milestoneSegment: string | null;
  exits: CompiledExit[];
  rootStep: string | null;
  steps: Readonly<Record<string, Step>>;
  stepCount: number;
}

/** A journey read once per run into the lookups the engine needs for every profile. */
export interface CompiledJourney {
  journeyId: string;
  launched: boolean;
  paused: boolean;
  allowReentry: boolean;
  goalSegment: string | null;
  stages: CompiledStage[];
  stageById: ReadonlyMap<string, CompiledStage>;
  /** The percentages each A/B test really uses, by step id. */
  splits: ReadonlyMap<string, number[]>;
}

/** Id of a stage: its stored id, or its position when it has none yet (a draft being simulated). */
export function stageKey(stage: Stage, index: number): string {
  return stage.id ?? `stage-${index + 1}`;
}

function compileStage(stage: Stage, index: number, splits: Map<string, number[]>): CompiledStage {
  const steps = stage.steps ?? {};
  for (const [id, step] of Object.entries(steps)) {
    if (step.type === 'ABTest') splits.set(id, effectivePercentages(step));
  }
  const exits: CompiledExit[] = (stage.exitCriterias ?? []).map((criterion, i) => ({
    index: i,
    name: criterion.name,
    segmentId: criterion.segmentId || null,
    afterMs:
      typeof criterion.exitAfter === 'number' && Number.isFinite(criterion.exitAfter)
        ? unitMs(criterion.exitAfter, criterion.unit)
        : null,
  }));
  return {
    id: stageKey(stage, index),
    index,
    name: stage.name,
    entrySegment: stage.entryCriteria?.segmentId || null,
    milestoneSegment: stage.milestone?.segmentId || null,
    exits,
    rootStep: stage.rootStep,
    steps,
    stepCount: Object.keys(steps).length,
  };
}

export function compileJourney(journeyId: string, journey: Journey): CompiledJourney {
  const splits = new Map<string, number[]>();
  const stages = journey.journeyStages.map((stage, index) => compileStage(stage, index, splits));
  return {
    journeyId,
    launched: journey.state === 'launched',
    paused: journey.paused,
    allowReentry: journey.allowReentry,
    goalSegment: journey.goal?.segmentId || null,
    stages,
    stageById: new Map(stages.map((s) => [s.id, s])),
    splits,
  };
}
