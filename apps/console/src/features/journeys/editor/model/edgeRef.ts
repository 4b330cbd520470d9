import type { EdgeRef, ExitHandle, Journey } from '@svc/journey';
import { stepExits } from '@svc/journey';

/** The graph-operation reference of a canvas edge: which step and which of its exits. */
export function edgeRefFor(
  journey: Journey,
  stageIndex: number,
  stepId: string | null,
  handle: ExitHandle | null,
): EdgeRef {
  if (stepId === null) return { stepId: null };
  const step = journey.journeyStages[stageIndex]?.steps?.[stepId];
  const exit = step ? stepExits(step).find((e) => e.handle === handle) : undefined;
  return exit ? { stepId, slot: exit.slot } : { stepId };
}

/** The data-transfer type of a palette item dragged onto an edge. */
export const STEP_DRAG_TYPE = 'application/x-svc-journey-step';
