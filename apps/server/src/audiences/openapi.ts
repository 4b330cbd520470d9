import { z } from '@hono/zod-openapi';
import {
  attributeInput,
  behaviorInput,
  parentSegment,
  parentSegmentInput,
  population,
  profileSample,
  segment,
  segmentInput,
} from '@svc/contracts';
import { errorResponsesFrom, jsonResponse } from '../platform/openapi';

/**
 * OpenAPI pieces of the audiences and folder routes. Rules are recursive; the document shows their outer
 * shape and the description lists the condition and operator forms (packages/contracts/src/audiences.ts).
 */

const reasons: Record<number, string> = {
  400: 'Invalid input; the message names the field, database, table, column or operator',
  401: 'No valid API key or console session',
  403: 'A write-only key, or a segment write in a folder where the caller has only View (Full Control needed)',
  404: 'No such parent segment, segment or folder in the caller’s account',
  409: 'Still in use, a name taken, or the profiles are not built yet',
};

export const security = [{ SVC1: [] }];

export const errors = errorResponsesFrom(reasons);

const RULE_TEXT =
  'A rule is `{type: "And"|"Or", exclude?, conditions: [...]}`. Conditions: `{type: "Value", exclude?, leftValue: {name: <attribute>}, operator}`; ' +
  '`{type: "Behavior", exclude?, behavior: <name>, filter?: <rule over its columns>, window?: <time operator>, count: {type: Equal|…|Between, rightValue | minValue+maxValue}}`; ' +
  '`{type: "Segment", exclude?, segmentId}`; or a nested rule. Operators (each with `not?`): Equal, NotEqual, Greater, GreaterEqual, Less, LessEqual (`rightValue`), Between (`minValue`, `maxValue`), ' +
  'In (`rightValue` array), Contain, StartWith, EndWith, Regexp (`rightValue` text), IsNull; time filters on timestamp columns only: TimeWithinPast and TimeWithinNext (`value`, `unit` day|week|month), ' +
  'TimeRange (`from`, `to`, both included), TimeBefore and TimeAfter (`rightValue`); times are Unix seconds or ISO 8601. ' +
  'A date without a time (2026-01-31) means that whole UTC day: a range `to` it includes the day, TimeAfter it starts at the next midnight, TimeBefore it ends at its midnight; compared with a timestamp column, Equal a date means on that day, Greater after it, LessEqual on or before it, and Between dates includes both days. ' +
  'Months are calendar months with the day clamped to the month’s last day. Regexp uses RE2 syntax (linear time; no lookaround or backreferences).';

const ruleDoc = z
  .object({
    type: z.enum(['And', 'Or']),
    exclude: z.boolean().optional(),
    conditions: z.array(z.record(z.string(), z.unknown())),
  })
  .openapi({ description: RULE_TEXT });

export const segmentDoc = z.object({ ...segment.shape, rule: ruleDoc });
export const segmentInputDoc = z.object({ ...segmentInput.shape, rule: ruleDoc });
export const populationRequestDoc = z.object({ rule: ruleDoc });
export const parentSegmentInputDoc = z.object({
  ...parentSegmentInput.shape,
  attributes: z.array(attributeInput).optional(),
  behaviors: z.array(behaviorInput).optional(),
});
/** PUT takes the whole record: `attributes` and `behaviors` must be there (an empty list removes them all). */
export const parentSegmentEditDoc = z.object({
  ...parentSegmentInput.shape,
  attributes: z.array(attributeInput),
  behaviors: z.array(behaviorInput),
});

export const json = jsonResponse;

/** A JSON request body documented from a schema; the handler validates it with `input()`. */
export function body(schema: z.ZodType, description: string) {
  const { $schema: _, ...jsonSchema } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return {
    description,
    required: true,
    content: { 'application/json': { schema: jsonSchema as { type?: 'object' } } },
  };
}

export { parentSegment, population, profileSample };
