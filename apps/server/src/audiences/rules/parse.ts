import {
  COMPARISON_OPERATORS,
  CONDITION_TYPES,
  countOperator,
  OPERATOR_TYPES,
  ruleOperator,
  type SegmentRule,
  segmentRule,
  TIME_OPERATORS,
  timeWindow,
} from '@svc/contracts';
import type { z } from 'zod';
import { badRequest } from '../../platform/errors';
import { describeIssues } from '../../platform/params';
import { parseStored } from '../../platform/storedJson';

/**
 * Reads a rule sent by a client. Condition and operator types are checked first, so an unknown operator
 * gets a message naming it and the allowed ones (a union's own message would only say "invalid input");
 * then the contract's schema checks the rest.
 */

const list = (names: readonly string[]) => names.join(', ');
const COUNT_TYPES = [...COMPARISON_OPERATORS, 'Between'];

function typeOf(node: unknown): unknown {
  return node && typeof node === 'object' ? (node as { type?: unknown }).type : undefined;
}

function checkKnown(value: unknown, allowed: readonly string[], what: string, where: string): void {
  if (typeof value === 'string' && !allowed.includes(value)) {
    throw badRequest(`Unknown ${what} "${value.slice(0, 64)}" at ${where}: use one of ${list(allowed)}.`);
  }
}

type Option = z.ZodObject<{ type: z.ZodType }>;

/** Checks an operator against the one form its `type` names, so a missing value is named exactly. */
function checkForm(value: unknown, union: { options: readonly unknown[] }, where: string): void {
  const type = typeOf(value);
  const form = (union.options as Option[]).find((o) => o.shape.type.safeParse(type).success);
  const result = form?.safeParse(value);
  if (result && !result.success) {
    const issues = result.error.issues.map((i) => ({ ...i, path: [where, ...i.path] }));
    throw badRequest(describeIssues({ issues } as unknown as z.ZodError), { issues });
  }
}

function visit(node: unknown, where: string, depth: number): void {
  if (!node || typeof node !== 'object') return;
  if (depth > 20) throw badRequest('The rule nests more than 20 levels of conditions; simplify it.');
  const n = node as Record<string, unknown>;
  checkKnown(n.type, CONDITION_TYPES, 'condition type', `${where}.type`);
  if (n.type === 'Value') {
    checkKnown(typeOf(n.operator), OPERATOR_TYPES, 'operator', `${where}.operator`);
    checkForm(n.operator, ruleOperator, `${where}.operator`);
  }
  if (n.type === 'Behavior') {
    checkKnown(typeOf(n.count), COUNT_TYPES, 'count operator', `${where}.count`);
    checkForm(n.count, countOperator, `${where}.count`);
    checkKnown(typeOf(n.window), TIME_OPERATORS, 'time window', `${where}.window`);
    if (n.window) checkForm(n.window, timeWindow, `${where}.window`);
    visit(n.filter, `${where}.filter`, depth + 1);
  }
  if ((n.type === 'And' || n.type === 'Or') && Array.isArray(n.conditions)) {
    n.conditions.forEach((c, i) => {
      visit(c, `${where}.conditions[${i}]`, depth + 1);
    });
  }
}

/** A segment's rule as stored (`segments.rule_json`): written by parseRule, read back through the same schema. */
export const readRule = (text: string): SegmentRule => parseStored(segmentRule, text, 'segments.rule_json');

export function parseRule(raw: unknown, where = 'rule'): SegmentRule {
  if (typeOf(raw) !== 'And' && typeOf(raw) !== 'Or') {
    throw badRequest(`"${where}" must be an object {type: "And" | "Or", conditions: [...]}.`);
  }
  visit(raw, where, 0);
  const result = segmentRule.safeParse(raw);
  if (!result.success) {
    const issues = result.error.issues.map((i) => ({ ...i, path: [where, ...i.path] }));
    throw badRequest(describeIssues({ ...result.error, issues } as typeof result.error), { issues });
  }
  return result.data;
}
