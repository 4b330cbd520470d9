import { z } from 'zod';
import type { Violation } from '../violations';
import { stepPath, violation } from '../violations';
import type { StepExit, StepKind } from './kind';
import { nextSchema, slotError } from './kind';
import { checkSegment } from './segments';

export const MIN_BRANCHES = 2;
export const MAX_BRANCHES = 6;

/** One path of a decision point. The excluded path (segmentId null) catches profiles matching no other path. */
export const branchSchema = z.object({
  id: z.string().min(1),
  name: z.string().nullable().default(null),
  description: z.string().nullable().default(null),
  excludedPath: z.boolean().default(false),
  segmentId: z.string().nullable().default(null),
  next: nextSchema,
});

/** Profiles follow the first branch (top to bottom) whose segment they are in. */
export const decisionPointStepSchema = z.object({
  type: z.literal('DecisionPoint'),
  name: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  branches: z.array(branchSchema).default([]),
});

export type Branch = z.output<typeof branchSchema>;
export type DecisionPointStep = z.output<typeof decisionPointStepSchema>;

export function branchLabel(branch: Branch, index: number): string {
  if (branch.name) return branch.name;
  return branch.excludedPath ? 'Excluded profiles' : `Path ${index + 1}`;
}

function branchExits(step: DecisionPointStep): StepExit[] {
  return step.branches.map((branch, index) => ({
    slot: { kind: 'branch', index },
    handle: `branch:${branch.id}`,
    label: branchLabel(branch, index),
    target: branch.next,
  }));
}

export const decisionPointKind: StepKind<DecisionPointStep> = {
  type: 'DecisionPoint',
  label: 'Decision point',
  schema: decisionPointStepSchema,
  exits: branchExits,
  withExitTarget(step, slot, target) {
    if (slot.kind !== 'branch' || !step.branches[slot.index]) throw slotError(step.type, slot);
    return { ...step, branches: step.branches.map((b, i) => (i === slot.index ? { ...b, next: target } : b)) };
  },
  create: (newId) => ({
    type: 'DecisionPoint',
    name: 'Decision point',
    branches: [
      { id: newId(), name: 'Path 1', description: null, excludedPath: false, segmentId: null, next: null },
      { id: newId(), name: 'Excluded profiles', description: null, excludedPath: true, segmentId: null, next: null },
    ],
  }),
  check(step, at, context) {
    const found: Violation[] = [];
    const count = step.branches.length;
    if (count < MIN_BRANCHES || count > MAX_BRANCHES) {
      found.push(
        violation(
          'decision.branch_count',
          `This decision point has ${count} path${count === 1 ? '' : 's'}; use ${MIN_BRANCHES} to ${MAX_BRANCHES}.`,
          stepPath(at, { field: 'branches' }),
        ),
      );
    }
    const excluded = step.branches.filter((b) => b.excludedPath).length;
    if (excluded > 1) {
      found.push(
        violation(
          'decision.excluded_path_count',
          `This decision point has ${excluded} excluded-profile paths; keep at most one.`,
          stepPath(at, { field: 'branches' }),
        ),
      );
    }
    step.branches.forEach((branch, branchIndex) => {
      const parts = stepPath(at, { branchIndex, field: 'segmentId' });
      if (branch.excludedPath && branch.segmentId !== null) {
        found.push(
          violation(
            'decision.excluded_path_segment',
            `The excluded-profiles path "${branchLabel(branch, branchIndex)}" catches profiles matching no other path, so it cannot have a segment; clear its segment.`,
            parts,
          ),
        );
      } else {
        found.push(...checkSegment(branch.segmentId, context, parts, `Path "${branchLabel(branch, branchIndex)}"`));
      }
    });
    return found;
  },
  checkForLaunch(step, at) {
    return step.branches.flatMap((branch, branchIndex) =>
      branch.excludedPath || branch.segmentId
        ? []
        : [
            violation(
              'decision.branch_segment_missing',
              `Path "${branchLabel(branch, branchIndex)}" has no segment; choose the segment that decides who follows it.`,
              stepPath(at, { branchIndex, field: 'segmentId' }),
            ),
          ],
    );
  },
};
