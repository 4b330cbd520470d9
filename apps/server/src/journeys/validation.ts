import type { JourneyViolation } from '@svc/contracts';
import {
  type Journey,
  type JourneyRequest,
  parseJourneyRequest,
  segmentReferences,
  type ValidationContext,
  validateForLaunch,
  validateJourney,
} from '@svc/journey';
import type { AppDeps } from '../platform/context';
import { badRequest } from '../platform/errors';
import type { ParentSegmentInfo } from './audiences';
import { unknownSegments } from './audiences';

/**
 * The server's use of the journey rules: it builds the context from storage (segments of the parent
 * segment, its columns, the journey's stage ids and activations) and lets `@svc/journey` judge. Every
 * violation found is answered at once in a 400 whose `details.violations` lists code, message and path.
 */

export function invalidJourney(violations: ReadonlyArray<JourneyViolation>, launching = false) {
  const n = violations.length;
  const lead = launching
    ? `The journey cannot launch: it breaks ${n === 1 ? 'a rule' : `${n} rules`}.`
    : `The journey breaks ${n === 1 ? 'a rule' : `${n} rules`}.`;
  const listed = violations.map((v, i) => `(${i + 1}) ${v.path.text}: ${v.message}`).join(' ');
  return badRequest(`${lead} ${listed}`, { violations });
}

export function violation(code: string, message: string, text: string): JourneyViolation {
  return { code, message, path: { text } };
}

/** Reads a journey request body in either spelling; shape problems are a 400 listing each. */
export function parseRequest(body: unknown): JourneyRequest {
  const parsed = parseJourneyRequest(body);
  if (!parsed.ok) throw invalidJourney(parsed.violations);
  return parsed.value;
}

export interface CheckInput {
  parentSegment: ParentSegmentInfo;
  /** Stage ids of the stored journey (PATCH); absent on create, where every stage is new. */
  stageIds?: ReadonlyArray<string>;
  /** Activation ids of the journey; existence of activations is a launch rule. */
  activationIds: ReadonlyArray<string>;
}

export function contextFor(deps: AppDeps, accountId: number, journey: Journey, input: CheckInput): ValidationContext {
  const referenced = segmentReferences(journey);
  const missing = new Set(unknownSegments(deps, accountId, input.parentSegment.id, referenced));
  const context: ValidationContext = {
    segmentIds: referenced.filter((id) => !missing.has(id)),
    columns: input.parentSegment.columns,
    activationIds: input.activationIds,
  };
  if (input.stageIds) context.stageIds = input.stageIds;
  return context;
}

/** Throws 400 unless the journey meets the draft rules, or (when `launching`) the launch rules too. */
export function checkJourney(
  deps: AppDeps,
  accountId: number,
  journey: Journey,
  input: CheckInput & { launching: boolean },
): void {
  const context = contextFor(deps, accountId, journey, input);
  if (input.launching) {
    const found = validateForLaunch(journey, context);
    if (found.length > 0) throw invalidJourney(found, true);
    return;
  }
  // Drafts may name activations not created yet; launch checks them.
  const { activationIds: _unused, ...draftContext } = context;
  const found = validateJourney(journey, draftContext);
  if (found.length > 0) throw invalidJourney(found);
}

/** What still stops a stored draft from launching (shown in `meta.launchViolations`). */
export function launchViolations(deps: AppDeps, accountId: number, journey: Journey, input: CheckInput) {
  return validateForLaunch(journey, contextFor(deps, accountId, journey, input));
}
