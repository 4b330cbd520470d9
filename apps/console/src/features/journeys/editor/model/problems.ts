import type { Journey, ValidationContext, Violation } from '@svc/journey';
import { blocksDraft, validateForLaunch } from '@svc/journey';

/** A violation and whether it blocks saving the draft (otherwise the draft saves with it, and it blocks launch). */
export interface Problem extends Violation {
  blocksSave: boolean;
}

export interface ProblemIndex {
  all: Problem[];
  byStep: ReadonlyMap<string, Problem[]>;
  /** Problems of a stage itself (criteria, emptiness), not of its steps. */
  byStage: ReadonlyMap<number, Problem[]>;
  /** Problems of the journey as a whole (name, goal). */
  journey: Problem[];
  saveBlocked: boolean;
  launchBlocked: boolean;
}

const keyOf = (v: Violation) => `${v.code}@${v.path.text}`;

/** The server's own rules, run in the browser: what blocks saving and what blocks launch. */
export function findProblems(journey: Journey, context: ValidationContext): ProblemIndex {
  const all = validateForLaunch(journey, context).map((v) => ({ ...v, blocksSave: blocksDraft(v) }));
  const byStep = new Map<string, Problem[]>();
  const byStage = new Map<number, Problem[]>();
  const whole: Problem[] = [];
  for (const problem of all) {
    const { stepId, stageIndex } = problem.path;
    if (stepId !== undefined) byStep.set(stepId, [...(byStep.get(stepId) ?? []), problem]);
    else if (stageIndex !== undefined) byStage.set(stageIndex, [...(byStage.get(stageIndex) ?? []), problem]);
    else whole.push(problem);
  }
  return {
    all,
    byStep,
    byStage,
    journey: whole,
    saveBlocked: all.some((p) => p.blocksSave),
    launchBlocked: all.length > 0,
  };
}

/** Whether two indexes hold the same findings (so subscribers keep their lists and need not re-render). */
export function sameProblems(a: ProblemIndex, b: ProblemIndex): boolean {
  return (
    a.all.length === b.all.length &&
    a.all.every((p, i) => {
      const q = b.all[i] as Problem;
      return keyOf(p) === keyOf(q) && p.message === q.message && p.blocksSave === q.blocksSave;
    })
  );
}
