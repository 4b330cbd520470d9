import {
  ACTIVATION_SCHEDULE_TYPES,
  type JourneyViolation,
  SCHEDULE_OPTION,
  type SyndicationParams,
} from '@svc/contracts';
import { badRequest } from '../platform/errors';
import { canonicalTimeZone } from '../platform/timeZone';
import { violation } from './validation';
import { checkWebhookConfig } from './webhookConfig';

/**
 * `syndication_params` of an activation: read in camelCase or snake_case, merged over the stored values on
 * PATCH, and checked as a whole. Every problem is reported at once, each with a code and the field's path.
 */

const ALIASES: Record<string, keyof SyndicationParams> = {
  schedule_type: 'scheduleType',
  schedule_option: 'scheduleOption',
  connector_config: 'connectorConfig',
  connection_id: 'connectionId',
  all_columns: 'allColumns',
  email_recipients: 'emailRecipients',
  notify_on: 'notifyOn',
};

const KNOWN = new Set<string>([
  'name',
  'description',
  'scheduleType',
  'scheduleOption',
  'timezone',
  'connectorConfig',
  'connectionId',
  'columns',
  'allColumns',
  'emailRecipients',
  'notifyOn',
]);

/** Fields whose change is a schedule change (refused while the journey is paused). */
const SCHEDULE_FIELDS = ['scheduleType', 'scheduleOption', 'timezone'] as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface ActivationContext {
  /** Column names of the journey's parent segment. */
  columns: ReadonlySet<string>;
  /** Whether the account has a result connection of this name. */
  connectionExists(id: string): boolean;
  /** Seals webhook header values (platform/secretCipher.ts). */
  serverSecret: string;
}

/**
 * Fields a webhook body template may name: the parent segment's columns, what every delivery row adds,
 * and `test` (true in test sends, false in deliveries).
 */
export function templateFieldsOf(context: ActivationContext): Set<string> {
  return new Set([...context.columns, 'journey_id', 'activation_id', 'time', 'test']);
}

function spellParams(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const canonical = ALIASES[key] ?? key;
    if (canonical !== key && Object.hasOwn(raw, canonical)) continue;
    out[canonical] = value;
  }
  return out;
}

const PATH = 'attributes.syndication_params';
const problem = (code: string, field: string, message: string): JourneyViolation =>
  violation(code, message, { field, text: `${PATH}.${field}` });

function stringList(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null;
  const out: string[] = [];
  for (const item of value) {
    if (typeof item === 'string') out.push(item);
    else if (item && typeof item === 'object' && typeof (item as { name?: unknown }).name === 'string') {
      out.push((item as { name: string }).name);
    } else return null;
  }
  return out;
}

/**
 * Checks the merged parameters (`base` = stored values on PATCH, null on create) and returns the stored
 * form, or throws 400 listing every problem.
 */
export function checkParams(
  given: Record<string, unknown>,
  base: SyndicationParams | null,
  context: ActivationContext,
): SyndicationParams {
  const input = { ...(base ?? {}), ...spellParams(given) } as Record<string, unknown>;
  const found: JourneyViolation[] = [];
  const str = (field: string, fallback: string | null): string | null => {
    const v = input[field];
    if (v === undefined || v === null) return fallback;
    if (typeof v === 'string') return v;
    if (typeof v === 'number') return String(v);
    found.push(problem('shape.invalid', field, `${PATH}.${field} must be a string.`));
    return fallback;
  };
  for (const key of Object.keys(input)) {
    if (!KNOWN.has(key)) {
      found.push(
        problem(
          'activation.field_unknown',
          key,
          `"${key}" is not a setting of an activation; use ${[...KNOWN].join(', ')}.`,
        ),
      );
    }
  }

  const name = (str('name', '') ?? '').trim();
  if (!name) found.push(problem('activation.name_missing', 'name', 'The activation has no name; name it.'));

  const scheduleType = str('scheduleType', null);
  const scheduleTypes: readonly string[] = ACTIVATION_SCHEDULE_TYPES;
  if (scheduleType === null || !scheduleTypes.includes(scheduleType)) {
    found.push(
      problem(
        'activation.schedule_type',
        'scheduleType',
        `${scheduleType === null ? 'No schedule type is set' : `"${scheduleType}" is not a schedule type`}; use one of ${ACTIVATION_SCHEDULE_TYPES.join(', ')}.`,
      ),
    );
  }
  const scheduleOption = str('scheduleOption', null);
  if (scheduleType !== 'none' && scheduleType !== null && scheduleOption === null) {
    found.push(
      problem(
        'activation.schedule_option',
        'scheduleOption',
        `A ${scheduleType} schedule needs a time of day in scheduleOption, written HH:MM (24-hour), e.g. "09:30".`,
      ),
    );
  } else if (scheduleOption !== null && !SCHEDULE_OPTION.test(scheduleOption)) {
    found.push(
      problem(
        'activation.schedule_option',
        'scheduleOption',
        `scheduleOption "${scheduleOption}" is not a time of day; write it HH:MM (24-hour), e.g. "09:30".`,
      ),
    );
  }

  const zoneName = str('timezone', 'UTC') ?? 'UTC';
  const timezone = canonicalTimeZone(zoneName);
  if (timezone === null) {
    found.push(
      problem(
        'activation.timezone',
        'timezone',
        `"${zoneName}" is not an IANA time zone; use a name such as "UTC", "Europe/Berlin" or "Asia/Tokyo".`,
      ),
    );
  }

  const connectionId = str('connectionId', null);
  if (!connectionId) {
    found.push(
      problem(
        'activation.connection_missing',
        'connectionId',
        'The activation does not say where to send profiles; set connectionId to one of your result connections.',
      ),
    );
  } else if (!context.connectionExists(connectionId)) {
    found.push(
      problem(
        'activation.connection_unknown',
        'connectionId',
        `There is no result connection "${connectionId}" in this account; create it first or choose an existing one.`,
      ),
    );
  }

  const allColumns = input.allColumns === undefined ? false : input.allColumns;
  if (typeof allColumns !== 'boolean') {
    found.push(problem('shape.invalid', 'allColumns', `${PATH}.allColumns must be true or false.`));
  }
  const columns = input.columns === undefined || input.columns === null ? [] : stringList(input.columns);
  if (columns === null) {
    found.push(problem('shape.invalid', 'columns', `${PATH}.columns must be a list of column names.`));
  } else if (allColumns !== true) {
    // A webhook's body template names the fields each request sends: it needs no column list.
    if (columns.length === 0 && !hasBodyTemplate(input.connectorConfig)) {
      found.push(
        problem(
          'activation.columns_missing',
          'columns',
          'The activation sends no columns; list the parent segment columns to send, set allColumns to true, or give the webhook a bodyTemplate.',
        ),
      );
    }
    const unknown = columns.filter((c) => !context.columns.has(c));
    if (unknown.length > 0) {
      found.push(
        problem(
          'activation.column_unknown',
          'columns',
          `The parent segment has no column ${unknown.map((c) => `"${c}"`).join(', ')}; choose among ${[...context.columns].join(', ') || '(none)'}.`,
        ),
      );
    }
  }

  let connectorConfig = input.connectorConfig ?? {};
  if (typeof connectorConfig !== 'object' || connectorConfig === null || Array.isArray(connectorConfig)) {
    found.push(problem('shape.invalid', 'connectorConfig', `${PATH}.connectorConfig must be an object.`));
  } else {
    const webhook = { serverSecret: context.serverSecret, fields: templateFieldsOf(context) };
    connectorConfig = checkWebhookConfig(
      connectorConfig as Record<string, unknown>,
      base?.connectorConfig ?? null,
      webhook,
      found,
    );
  }
  const emailRecipients = input.emailRecipients == null ? [] : stringList(input.emailRecipients);
  if (emailRecipients === null) {
    found.push(problem('shape.invalid', 'emailRecipients', `${PATH}.emailRecipients must be a list of addresses.`));
  } else {
    const bad = emailRecipients.filter((e) => !EMAIL.test(e));
    if (bad.length > 0) {
      found.push(
        problem(
          'activation.email_invalid',
          'emailRecipients',
          `${bad.map((e) => `"${e}"`).join(', ')} ${bad.length === 1 ? 'is not an e-mail address' : 'are not e-mail addresses'}; fix or remove ${bad.length === 1 ? 'it' : 'them'}.`,
        ),
      );
    }
  }
  const notifyOn = input.notifyOn == null ? [] : stringList(input.notifyOn);
  if (notifyOn === null) {
    found.push(problem('shape.invalid', 'notifyOn', `${PATH}.notifyOn must be a list of strings.`));
  }

  if (found.length > 0) throw invalidActivation(found);
  return {
    name,
    description: str('description', null),
    scheduleType: scheduleType as SyndicationParams['scheduleType'],
    scheduleOption: scheduleType === 'none' ? null : scheduleOption,
    timezone: timezone as string,
    connectorConfig: connectorConfig as Record<string, unknown>,
    connectionId: connectionId as string,
    columns: columns as string[],
    allColumns: allColumns as boolean,
    emailRecipients: emailRecipients as string[],
    notifyOn: notifyOn as string[],
  };
}

export function invalidActivation(violations: JourneyViolation[]) {
  const list = violations.map((v) => v.message).join(' ');
  const noun = violations.length === 1 ? 'problem' : `${violations.length} problems`;
  return badRequest(`The activation has ${violations.length === 1 ? 'a' : ''} ${noun}: ${list}`.replace('  ', ' '), {
    violations,
  });
}

/** Which schedule fields differ between two parameter sets. */
export function scheduleChanges(before: SyndicationParams, after: SyndicationParams): string[] {
  return SCHEDULE_FIELDS.filter((f) => before[f] !== after[f]);
}

/** Whether the input's connectorConfig carries a webhook body template with some text. */
function hasBodyTemplate(config: unknown): boolean {
  const template = (config as { bodyTemplate?: unknown } | null | undefined)?.bodyTemplate;
  return typeof config === 'object' && typeof template === 'string' && template.trim() !== '';
}
