import type { z } from 'zod';
import { stepTypes } from './steps/registry';
import type { PathParts, Violation } from './violations';
import { makePath } from './violations';

type IssuePath = ReadonlyArray<PropertyKey>;

/** Turns the schema's path into our path parts: stage, step, branch, variant, exit criterion, field. */
function toParts(path: IssuePath, stageIds: ReadonlyArray<string | undefined>): PathParts {
  const parts: PathParts = {};
  const rest: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const key = path[i];
    const next = path[i + 1];
    if (key === 'journeyStages' && typeof next === 'number' && rest.length === 0 && parts.stageIndex === undefined) {
      parts.stageIndex = next;
      const stageId = stageIds[next];
      if (stageId !== undefined) parts.stageId = stageId;
      i++;
    } else if (key === 'steps' && typeof next === 'string' && parts.stageIndex !== undefined && rest.length === 0) {
      parts.stepId = next;
      i++;
    } else if (key === 'branches' && typeof next === 'number' && parts.stepId !== undefined) {
      parts.branchIndex = next;
      i++;
    } else if (key === 'variants' && typeof next === 'number' && parts.stepId !== undefined) {
      parts.variantIndex = next;
      i++;
    } else if (key === 'exitCriterias' && typeof next === 'number' && parts.stageIndex !== undefined) {
      parts.exitCriterionIndex = next;
      i++;
    } else {
      rest.push(typeof key === 'number' ? `[${key}]` : String(key));
    }
  }
  if (rest.length > 0) parts.field = rest.join('.').replaceAll('.[', '[');
  return parts;
}

function describe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? `is missing; it must be ${article(issue.expected)}`
        : `must be ${article(issue.expected)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_small':
      return issue.origin === 'string' ? 'must not be empty' : issue.message;
    default:
      return issue.message;
  }
}

function article(expected: string): string {
  if (expected === 'array') return 'a list';
  if (expected === 'record' || expected === 'object') return 'an object';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/**
 * Schema issues as violations (`shape.invalid`, or `step.type_unknown` for a step whose type is not one
 * of ours). `prefix` is dropped from issue paths (e.g. `['data', 'attributes']` of a document).
 */
export function shapeViolations(
  issues: ReadonlyArray<z.core.$ZodIssue>,
  stageIds: ReadonlyArray<string | undefined> = [],
  prefix: ReadonlyArray<PropertyKey> = [],
): Violation[] {
  return issues.map((issue) => {
    const path = prefix.every((key, i) => issue.path[i] === key) ? issue.path.slice(prefix.length) : issue.path;
    const parts = toParts(path, stageIds);
    const isStepType = issue.code === 'invalid_union' && parts.stepId !== undefined && path[path.length - 1] === 'type';
    if (isStepType) {
      const { field: _field, ...stepParts } = parts;
      return {
        code: 'step.type_unknown',
        message: `This step's type is not one we know; use one of ${stepTypes.join(', ')}.`,
        path: makePath({ ...stepParts, field: 'type' }),
      };
    }
    const where = makePath(parts);
    return { code: 'shape.invalid', message: `${where.text} ${describe(issue)}.`, path: where };
  });
}
