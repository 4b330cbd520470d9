import type { Journey, Stage } from '../journey';
import { EXIT_AFTER_UNITS } from '../journey';
import type { RuleContext } from '../steps/kind';
import { checkSegment } from '../steps/segments';
import type { PathParts, Violation } from '../violations';
import { violation } from '../violations';

function stageParts(stage: Stage, stageIndex: number, extra: PathParts = {}): PathParts {
  return stage.id === undefined ? { stageIndex, ...extra } : { stageIndex, stageId: stage.id, ...extra };
}

/** Segments of entry criteria, milestone and exit criteria exist; exit criteria are complete. */
export function checkStageCriteria(stage: Stage, stageIndex: number, context: RuleContext): Violation[] {
  const found: Violation[] = [];
  const at = (extra: PathParts) => stageParts(stage, stageIndex, extra);
  found.push(
    ...checkSegment(
      stage.entryCriteria?.segmentId,
      context,
      at({ field: 'entryCriteria.segmentId' }),
      'The entry criteria',
    ),
    ...checkSegment(stage.milestone?.segmentId, context, at({ field: 'milestone.segmentId' }), 'The milestone'),
  );
  (stage.exitCriterias ?? []).forEach((exit, exitCriterionIndex) => {
    const label = exit.name ? `Exit criterion "${exit.name}"` : `Exit criterion ${exitCriterionIndex + 1}`;
    const hasAfter = exit.exitAfter !== undefined && exit.exitAfter !== null;
    if (!exit.segmentId && !hasAfter) {
      found.push(
        violation(
          'exit.incomplete',
          `${label} says neither which segment nor after how many days profiles leave; set one of them.`,
          at({ exitCriterionIndex }),
        ),
      );
    }
    found.push(...checkSegment(exit.segmentId, context, at({ exitCriterionIndex, field: 'segmentId' }), label));
    if (hasAfter && (!Number.isInteger(exit.exitAfter) || (exit.exitAfter as number) < 1)) {
      found.push(
        violation(
          'exit.after',
          `${label} lets profiles leave after ${exit.exitAfter} days; use a whole number of days, 1 or more.`,
          at({ exitCriterionIndex, field: 'exitAfter' }),
        ),
      );
    }
    if (hasAfter && !(EXIT_AFTER_UNITS as ReadonlyArray<unknown>).includes(exit.unit ?? 'days')) {
      found.push(
        violation(
          'exit.unit',
          `${label} counts in "${exit.unit}"; exit criteria count in days, so set the unit to "days".`,
          at({ exitCriterionIndex, field: 'unit' }),
        ),
      );
    }
  });
  return found;
}

export function checkGoal(journey: Journey, context: RuleContext): Violation[] {
  return checkSegment(journey.goal?.segmentId, context, { field: 'goal.segmentId' }, 'The goal');
}

/** Launch-only: stages are named, have entry criteria, and every stage but the last has a milestone. */
export function checkStageCompleteForLaunch(stage: Stage, stageIndex: number, isLast: boolean): Violation[] {
  const found: Violation[] = [];
  const title = stage.name ? `Stage "${stage.name}"` : `Stage ${stageIndex + 1}`;
  if (!stage.name.trim()) {
    found.push(
      violation(
        'stage.name_missing',
        `${title} has no name; name it.`,
        stageParts(stage, stageIndex, { field: 'name' }),
      ),
    );
  }
  if (!stage.entryCriteria?.segmentId) {
    found.push(
      violation(
        'stage.entry_missing',
        `${title} has no entry segment; choose the segment whose profiles enter it.`,
        stageParts(stage, stageIndex, { field: 'entryCriteria.segmentId' }),
      ),
    );
  }
  if (!isLast && !stage.milestone?.segmentId) {
    found.push(
      violation(
        'stage.milestone_missing',
        `${title} has no milestone; choose the segment that moves profiles on to the next stage.`,
        stageParts(stage, stageIndex, { field: 'milestone.segmentId' }),
      ),
    );
  }
  return found;
}

export function checkGoalForLaunch(journey: Journey): Violation[] {
  if (!journey.goal || journey.goal.segmentId) return [];
  return [
    violation(
      'goal.segment_missing',
      'The goal has no segment; choose the segment that tells when a profile reached the goal, or remove the goal.',
      { field: 'goal.segmentId' },
    ),
  ];
}
