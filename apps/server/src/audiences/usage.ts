import type { RuleCondition, SegmentRule } from '@svc/contracts';
import type { AppDeps } from '../platform/context';
import { readRule } from './rules/parse';
import { listSegments, type ParentSegmentRow } from './store';

/**
 * Who uses a segment: other segments' rules, and the providers the composition root hands over (journeys name segments in
 * entry, exit, milestone, decision and goal criteria). Deleting a used segment is refused.
 */

/** Describes the users of a segment, e.g. `journey 12 ("Welcome")`; empty when none. */
export type SegmentUsageProvider = (
  accountId: number,
  parentSegmentId: number,
  segmentId: number,
) => string[] | Promise<string[]>;

declare module '../platform/context' {
  interface Services {
    /** What other features say uses a segment (wired by compose.ts). */
    segmentUsage: SegmentUsageProvider[];
  }
}

/** Ids of the segments a rule includes or excludes, at any depth. */
function referencedSegments(rule: SegmentRule): number[] {
  const out = new Set<number>();
  const walk = (c: RuleCondition) => {
    if (c.type === 'Segment') out.add(Number(c.segmentId));
    if (c.type === 'And' || c.type === 'Or') c.conditions.forEach(walk);
  };
  walk(rule);
  return [...out];
}

export async function segmentUsers(deps: AppDeps, parent: ParentSegmentRow, segmentId: number): Promise<string[]> {
  const users = (await listSegments(deps.storage.db, parent.account_id, parent.id))
    .filter((s) => s.id !== segmentId && referencedSegments(readRule(s.rule_json)).includes(segmentId))
    .map((s) => `segment ${s.id} ("${s.name}")`);
  for (const provider of deps.services?.segmentUsage ?? []) {
    users.push(...(await provider(parent.account_id, parent.id, segmentId)));
  }
  return users;
}
