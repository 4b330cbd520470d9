import type { Journey, Stage, WireJourney } from './journey';
import { journeySchema } from './journey';
import { shapeViolations } from './shape-issues';
import { isRecord, spellJourney, spellStep } from './spelling';
import { withEvenSplit } from './steps/ab-test';
import type { Step } from './steps/registry';
import { stepSchema } from './steps/registry';
import type { Violation } from './violations';

export type ParseResult<T> = { ok: true; value: T } | { ok: false; violations: Violation[] };

/** Thrown by the `normalize*` functions; carries every shape violation found. */
export class JourneyShapeError extends Error {
  override readonly name = 'JourneyShapeError';
  constructor(readonly violations: Violation[]) {
    super(violations.map((v) => v.message).join(' '));
  }
}

export function stageIdsOf(candidate: unknown): Array<string | undefined> {
  if (!isRecord(candidate) || !Array.isArray(candidate.journeyStages)) return [];
  return candidate.journeyStages.map((stage) =>
    isRecord(stage) && typeof stage.id === 'string' ? stage.id : undefined,
  );
}

/** Reads journey attributes in snake_case or camelCase; yields the one camelCase form or every shape problem. */
export function parseJourney(input: unknown): ParseResult<Journey> {
  const candidate = spellJourney(input);
  const parsed = journeySchema.safeParse(candidate);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, violations: shapeViolations(parsed.error.issues, stageIdsOf(candidate)) };
}

export function normalizeJourney(input: unknown): Journey {
  const result = parseJourney(input);
  if (!result.ok) throw new JourneyShapeError(result.violations);
  return result.value;
}

/** Reads one step body (e.g. the A/B test of an A/B creation request) in either spelling. */
export function parseStep(input: unknown): ParseResult<Step> {
  const parsed = stepSchema.safeParse(spellStep(input));
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, violations: shapeViolations(parsed.error.issues) };
}

/** Drops undefined members so the wire form carries only what is set. */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * The wire form of a journey's attributes (a plain JSON copy, keys in schema order): camelCase, except the
 * goal's `segment_id`, which the spec's resource table spells that way.
 */
export function serializeJourney(journey: Journey): WireJourney {
  const { goal, ...rest } = plain(journey);
  const wireGoal = goal ? { name: goal.name, description: goal.description, segment_id: goal.segmentId } : null;
  const out = {} as WireJourney;
  for (const key of Object.keys(journey) as Array<keyof Journey>) {
    if (key === 'goal') out.goal = wireGoal;
    else if (key in rest) Object.assign(out, { [key]: rest[key as keyof typeof rest] });
  }
  return out;
}

function mapStageSteps(stage: Stage, map: (step: Step) => Step): Stage {
  if (!stage.steps) return stage;
  const steps: Record<string, Step> = {};
  for (const [id, step] of Object.entries(stage.steps)) steps[id] = map(step);
  return { ...stage, steps };
}

/**
 * The journey with every A/B test whose split is not customized given even percentages
 * (see `evenSplit`). The server applies this to what it stores, so responses show the real split.
 */
export function applyEvenSplits(journey: Journey): Journey {
  return {
    ...journey,
    journeyStages: journey.journeyStages.map((stage) =>
      mapStageSteps(stage, (step) => (step.type === 'ABTest' && !step.customizedSplit ? withEvenSplit(step) : step)),
    ),
  };
}
