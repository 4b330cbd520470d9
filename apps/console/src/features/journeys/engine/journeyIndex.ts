import type { Journey } from '@svc/journey';
import { branchLabel, stepKinds, variantLabel } from '@svc/journey';
import { engineStageId } from '../editor/model/figures';
import { stageTitle, stepDisplayName } from '../editor/model/flow';

/**
 * Names for the ids the engine answers with (stages, steps, decision paths, A/B variants), so tables and
 * timelines say "Stage 1 · Welcome" and "Wait 3 days" rather than UUIDs.
 */
export interface JourneyIndex {
  stages: Array<{ id: string; index: number; label: string }>;
  /** Steps in stage order, each with the stage it is in. */
  steps: Array<{ id: string; stageId: string; label: string; kind: string }>;
  stageLabel(stageId: string | null | undefined): string;
  stepLabel(stepId: string | null | undefined): string;
  /** A decision path's or an A/B variant's name. */
  pathLabel(pathId: string): string;
}

export function journeyIndex(journey: Journey): JourneyIndex {
  const stages: JourneyIndex['stages'] = [];
  const steps: JourneyIndex['steps'] = [];
  const paths = new Map<string, string>();
  journey.journeyStages.forEach((stage, index) => {
    const stageId = engineStageId(stage, index);
    stages.push({ id: stageId, index, label: stageTitle(index, stage.name) });
    for (const [stepId, step] of Object.entries(stage.steps ?? {})) {
      steps.push({ id: stepId, stageId, label: stepDisplayName(step), kind: stepKinds[step.type].label });
      if (step.type === 'DecisionPoint')
        for (const [i, b] of step.branches.entries()) paths.set(b.id, branchLabel(b, i));
      if (step.type === 'ABTest') for (const [i, v] of step.variants.entries()) paths.set(v.id, variantLabel(v, i));
    }
  });
  const stageById = new Map(stages.map((s) => [s.id, s.label]));
  const stepById = new Map(steps.map((s) => [s.id, s.label]));
  return {
    stages,
    steps,
    stageLabel: (id) => (id ? (stageById.get(id) ?? `Stage ${id}`) : '—'),
    stepLabel: (id) => (id ? (stepById.get(id) ?? `Step ${id}`) : '—'),
    pathLabel: (id) => paths.get(id) ?? id,
  };
}
