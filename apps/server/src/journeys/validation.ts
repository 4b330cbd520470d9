import type { JourneyViolation } from '@svc/contracts';
import {
  blocksDraft,
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

/** The one builder of the violation shape: where it sits, as a printable path or a path object with its text. */
export function violation(code: string, message: string, where: string | JourneyViolation['path']): JourneyViolation {
  return { code, message, path: typeof where === 'string' ? { text: where } : where };
}

/** Said with shape problems: the rules have not been checked yet (see the README, "Errors"). */
const RULES_NOT_CHECKED =
  'The journey rules run once the body reads; fix these and send it again to see any rule it breaks, all at once.';

/**
 * Reads a journey request body in either spelling. Shape problems (wrong types, unknown step types) are
 * the first phase: a 400 listing every one, with `details.phase: "shape"`; the rules do not run on a body
 * that does not read, so its rule breaches come in the answer to the corrected body.
 */
export function parseRequest(body: unknown): JourneyRequest {
  const parsed = parseJourneyRequest(body);
  if (parsed.ok) return parsed.value;
  const n = parsed.violations.length;
  const listed = parsed.violations.map((v, i) => `(${i + 1}) ${v.message}`).join(' ');
  throw badRequest(
    `The journey body does not read: ${n === 1 ? 'a problem' : `${n} problems`}. ${listed} ${RULES_NOT_CHECKED}`,
    {
      violations: parsed.violations,
      phase: 'shape',
    },
  );
}

export interface CheckInput {
  parentSegment: ParentSegmentInfo;
  /** Stage ids of the stored journey (PATCH); absent on create, where every stage is new. */
  stageIds?: ReadonlyArray<string>;
  /** Activation ids of the journey; existence of activations is a launch rule. */
  activationIds: ReadonlyArray<string>;
}

/** What the rules judge a journey against, read from storage in one query for its segments. */
export async function contextFor(
  deps: AppDeps,
  accountId: number,
  journey: Journey,
  input: CheckInput,
): Promise<ValidationContext> {
  const referenced = segmentReferences(journey);
  const missing = new Set(await unknownSegments(deps, accountId, input.parentSegment.id, referenced));
  const context: ValidationContext = {
    segmentIds: referenced.filter((id) => !missing.has(id)),
    columns: input.parentSegment.columns,
    activationIds: input.activationIds,
  };
  if (input.stageIds) context.stageIds = input.stageIds;
  return context;
}

/** What a client must do to launch a journey with activation steps (docs/decisions/0014-launch-at-creation.md). */
const LAUNCH_AFTER_ACTIVATIONS =
  'Activations belong to a journey and can only be created after it, so a journey with activation steps cannot launch at creation. Create it with state "draft", add its activations with POST /entities/journeys/{journeyId}/syndications, set each activation step\'s journeyActivationStepId to the new activation id, then PATCH the journey with state "launched".';

/** At creation no activation exists yet: activation violations say how to get there instead. */
function atCreation(found: JourneyViolation[]): JourneyViolation[] {
  return found.map((v) =>
    v.code === 'activation.unknown' || v.code === 'activation.missing'
      ? { ...v, message: `${v.message} ${LAUNCH_AFTER_ACTIVATIONS}` }
      : v,
  );
}

/**
 * Throws 400 when a draft breaks a rule that stops it from being stored (`blocksDraft`: ids, connections,
 * loops, foreign segments, limits), listing every breach, or (when `launching`) when it breaks any rule. A draft's other problems are saved
 * with it and listed in `meta.launchViolations`.
 * `creating`: the journey does not exist yet, so none of its activations can.
 */
export async function checkJourney(
  deps: AppDeps,
  accountId: number,
  journey: Journey,
  input: CheckInput & { launching: boolean; creating?: boolean },
): Promise<void> {
  judgeJourney(journey, await contextFor(deps, accountId, journey, input), input);
}

/** `checkJourney` against a context already read (a PATCH reads it once for the check and the answer). */
export function judgeJourney(
  journey: Journey,
  context: ValidationContext,
  input: { launching: boolean; creating?: boolean },
): void {
  if (input.launching) {
    const found = validateForLaunch(journey, context);
    if (found.length > 0) throw invalidJourney(input.creating ? atCreation(found) : found, true);
    return;
  }
  // Drafts may name activations not created yet; launch checks them.
  const { activationIds: _unused, ...draftContext } = context;
  const found = validateJourney(journey, draftContext);
  // Refused for the rules a stored draft must meet; the answer still lists every breach at once.
  if (found.some(blocksDraft)) throw invalidJourney(found);
}

/** What still stops a stored draft from launching (shown in `meta.launchViolations`). */
export async function launchViolations(deps: AppDeps, accountId: number, journey: Journey, input: CheckInput) {
  return validateForLaunch(journey, await contextFor(deps, accountId, journey, input));
}
