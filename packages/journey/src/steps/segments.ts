import type { PathParts, Violation } from '../violations';
import { violation } from '../violations';
import type { RuleContext } from './kind';

/** Reports a segment id that the parent segment does not have (only when the context lists its segments). */
export function checkSegment(
  segmentId: string | null | undefined,
  context: RuleContext,
  parts: PathParts,
  what: string,
): Violation[] {
  if (!segmentId || !context.segmentIds || context.segmentIds.has(segmentId)) return [];
  return [
    violation(
      'segment.unknown',
      `${what} uses segment ${segmentId}, which does not exist in this parent segment; pick one of its segments.`,
      parts,
    ),
  ];
}
