/**
 * The spelling pass of normalisation: renames the spec's snake_case (and other seen) keys to the one
 * camelCase form and coerces wire variants (numeric ids, "" for "no next step", numbers sent as
 * strings). It knows the document structure, so keys inside `steps` (step UUIDs) are never touched.
 * Anything it does not recognise passes through for the schemas to judge.
 */

type Raw = Record<string, unknown>;
type Aliases = Readonly<Record<string, string>>;

const JOURNEY: Aliases = {
  audience_id: 'audienceId',
  journey_stages: 'journeyStages',
  stages: 'journeyStages',
  allow_reentry: 'allowReentry',
  created_at: 'createdAt',
  updated_at: 'updatedAt',
  launched_at: 'launchedAt',
  paused_at: 'pausedAt',
};
const STAGE: Aliases = {
  entry_criteria: 'entryCriteria',
  exit_criterias: 'exitCriterias',
  exit_criteria: 'exitCriterias',
  exitCriteria: 'exitCriterias',
  root_step: 'rootStep',
};
const SEGMENT_REF: Aliases = { segment_id: 'segmentId' };
const EXIT: Aliases = { segment_id: 'segmentId', exit_after: 'exitAfter' };
const STEP: Aliases = {
  journey_activation_step_id: 'journeyActivationStepId',
  activation_id: 'journeyActivationStepId',
  activationId: 'journeyActivationStepId',
  wait_step: 'waitStep',
  wait_step_unit: 'waitStepUnit',
  customized_split: 'customizedSplit',
  unique_id: 'uniqueId',
};
const BRANCH: Aliases = { uuid: 'id', excluded_path: 'excludedPath', segment_id: 'segmentId' };
const VARIANT: Aliases = { uuid: 'id' };

export function isRecord(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Renames aliased keys; when both spellings are present the camelCase one wins. */
function rename(raw: Raw, aliases: Aliases): Raw {
  const out: Raw = {};
  for (const [key, value] of Object.entries(raw)) {
    const canonical = Object.hasOwn(aliases, key) ? (aliases[key] as string) : key;
    if (canonical !== key && Object.hasOwn(raw, canonical)) continue;
    out[canonical] = value;
  }
  return out;
}

/** Ids may arrive as numbers (`"id": 3456`); the model keeps them as strings. */
function idText(value: unknown): unknown {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
}

/** `next` and `rootStep`: null, "" and absent all mean "no step". */
function stepRef(value: unknown): unknown {
  if (value === undefined || value === '') return null;
  return idText(value);
}

function numeric(value: unknown): unknown {
  return typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
}

function emptyToNull(value: unknown): unknown {
  return isRecord(value) && Object.keys(value).length === 0 ? null : value;
}

function setIfPresent(out: Raw, key: string, map: (value: unknown) => unknown): void {
  if (out[key] !== undefined) out[key] = map(out[key]);
}

function mapArray(value: unknown, each: (item: unknown) => unknown): unknown {
  return Array.isArray(value) ? value.map(each) : value;
}

function segmentRef(raw: unknown, aliases: Aliases = SEGMENT_REF): unknown {
  const value = emptyToNull(raw);
  if (!isRecord(value)) return value;
  const out = rename(value, aliases);
  setIfPresent(out, 'segmentId', idText);
  setIfPresent(out, 'exitAfter', numeric);
  return out;
}

function branch(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const out = rename(raw, BRANCH);
  setIfPresent(out, 'id', idText);
  setIfPresent(out, 'segmentId', idText);
  out.next = stepRef(out.next);
  return out;
}

function variant(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const out = rename(raw, VARIANT);
  setIfPresent(out, 'id', idText);
  setIfPresent(out, 'percentage', numeric);
  out.next = stepRef(out.next);
  return out;
}

export function spellStep(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const out = rename(raw, STEP);
  setIfPresent(out, 'journeyActivationStepId', idText);
  setIfPresent(out, 'waitStep', numeric);
  if (out.uniqueId === null) delete out.uniqueId;
  if (out.type !== 'End') out.next = stepRef(out.next);
  else delete out.next;
  setIfPresent(out, 'branches', (v) => mapArray(v, branch));
  setIfPresent(out, 'variants', (v) => mapArray(v, variant));
  return out;
}

function steps(raw: unknown): unknown {
  const value = emptyToNull(raw);
  if (!isRecord(value)) return value;
  const out: Raw = {};
  for (const [id, step] of Object.entries(value)) out[id] = spellStep(step);
  return out;
}

function stage(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const out = rename(raw, STAGE);
  setIfPresent(out, 'id', idText);
  setIfPresent(out, 'entryCriteria', (v) => segmentRef(v));
  setIfPresent(out, 'milestone', (v) => segmentRef(v));
  setIfPresent(out, 'exitCriterias', (v) => mapArray(v, (item) => segmentRef(item, EXIT)));
  setIfPresent(out, 'steps', steps);
  out.rootStep = stepRef(out.rootStep);
  return out;
}

/** Journey attributes in any accepted spelling → the camelCase candidate the schemas check. */
export function spellJourney(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const out = rename(raw, JOURNEY);
  setIfPresent(out, 'audienceId', idText);
  setIfPresent(out, 'goal', (v) => segmentRef(v));
  setIfPresent(out, 'journeyStages', (v) => mapArray(v, stage));
  return out;
}
