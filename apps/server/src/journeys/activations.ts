import { activationRequest, type JourneyViolation, type SyndicationParams } from '@svc/contracts';
import { activationReferences, isRecord } from '@svc/journey';
import type { Principal } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { badRequest, conflict } from '../platform/errors';
import { describeIssues } from '../platform/params';
import { listResults } from '../results';
import { parentSegmentFor, requireJourneyControl } from './access';
import {
  type ActivationContext,
  checkParams,
  invalidActivation,
  scheduleChanges,
  templateFieldsOf,
} from './activationParams';
import {
  type ActivationRow,
  deleteActivationRow,
  getActivationRow,
  insertActivationRow,
  paramsOf,
  updateActivationRow,
} from './activationStore';
import { getJourneyRow, type JourneyRow } from './store';
import { checkWebhookConfig, type WebhookSettings, webhookSettingsOf } from './webhookConfig';
import { journeyOfRow } from './wire';

/**
 * Activations (journeyActivationSteps, the spec's "syndications"): where an activation step sends its
 * profiles. They can be created and changed on drafts and launched journeys alike; while a journey is
 * paused its activations' schedules stay as they are.
 */

/** What activation settings are checked against: the parent segment's columns and the account's connections. */
export async function activationContextFor(deps: AppDeps, row: JourneyRow): Promise<ActivationContext> {
  const parentSegment = await parentSegmentFor(deps, row.account_id, row.parent_segment_id);
  const connections = await listResults(deps.storage.db, row.account_id);
  const names = new Set(connections.map((c) => c.name));
  const ids = new Set(connections.map((c) => String(c.id)));
  return {
    columns: new Set(parentSegment.columns),
    connectionExists: (id) => names.has(id) || ids.has(id),
    serverSecret: deps.config.secret,
  };
}

/** `attributes.syndication_params` (or `syndicationParams`) of a body, wrapped in `data` or not. */
function paramsIn(body: unknown, activationId?: string): Record<string, unknown> {
  const raw = isRecord(body) && isRecord(body.data) ? body.data : body;
  const parsed = activationRequest.safeParse(raw);
  if (!parsed.success) {
    throw badRequest(
      `Send the activation as {type: "journeyActivationStep", attributes: {syndication_params: {...}}}. ${describeIssues(parsed.error)}`,
    );
  }
  if (activationId !== undefined && parsed.data.id !== undefined && String(parsed.data.id) !== activationId) {
    throw badRequest(
      `The body is for activation ${String(parsed.data.id)} but the path names activation ${activationId}; make them match.`,
    );
  }
  const params = parsed.data.attributes.syndicationParams ?? parsed.data.attributes.syndication_params;
  if (!params) throw badRequest('The activation body has no attributes.syndication_params; send its settings there.');
  return params;
}

async function journeyFor(
  deps: AppDeps,
  principal: Principal,
  journeyId: string,
  action: string | null,
): Promise<JourneyRow> {
  const row = await getJourneyRow(deps.storage.db, principal.accountId, journeyId);
  if (action !== null) await requireJourneyControl(deps, principal, row, action);
  return row;
}

export async function createActivation(
  deps: AppDeps,
  principal: Principal,
  journeyId: string,
  body: unknown,
): Promise<ActivationRow> {
  const journey = await journeyFor(deps, principal, journeyId, 'add activations to journeys in this folder');
  const params = checkParams(paramsIn(body), null, await activationContextFor(deps, journey));
  const id = await insertActivationRow(deps.storage.db, {
    accountId: principal.accountId,
    journeyId: journey.id,
    params,
    userId: principal.userId,
    now: deps.clock.now().getTime(),
  });
  return getActivationRow(deps.storage.db, principal.accountId, journey.id, String(id));
}

/** Settings left out keep their values. A schedule change while the journey is paused answers 409. */
export async function updateActivation(
  deps: AppDeps,
  principal: Principal,
  journeyId: string,
  activationId: string,
  body: unknown,
): Promise<ActivationRow> {
  const journey = await journeyFor(deps, principal, journeyId, 'change activations of journeys in this folder');
  const row = await getActivationRow(deps.storage.db, principal.accountId, journey.id, activationId);
  const before: SyndicationParams = paramsOf(row);
  const after = checkParams(paramsIn(body, activationId), before, await activationContextFor(deps, journey));
  const changed = scheduleChanges(before, after);
  if (journey.paused === 1 && changed.length > 0) {
    throw conflict(
      `This journey is paused, so its activation schedules cannot change (${changed.join(', ')}); resume the journey first, or change only the other settings.`,
    );
  }
  await updateActivationRow(deps.storage.db, row, after, principal.userId, deps.clock.now().getTime());
  return getActivationRow(deps.storage.db, principal.accountId, journey.id, activationId);
}

export async function getActivation(deps: AppDeps, principal: Principal, journeyId: string, activationId: string) {
  const journey = await journeyFor(deps, principal, journeyId, null);
  return getActivationRow(deps.storage.db, principal.accountId, journey.id, activationId);
}

/** An activation that a step of the journey still names cannot be deleted (409 naming the step). */
export async function deleteActivation(deps: AppDeps, principal: Principal, journeyId: string, activationId: string) {
  const journey = await journeyFor(deps, principal, journeyId, 'delete activations of journeys in this folder');
  const row = await getActivationRow(deps.storage.db, principal.accountId, journey.id, activationId);
  const users = activationReferences(journeyOfRow(journey)).filter((r) => r.activationId === String(row.id));
  if (users.length > 0) {
    const steps = users.map((u) => `${u.stepId} (stage ${u.stageIndex + 1})`).join(', ');
    throw conflict(
      `Activation ${row.id} is used by step ${steps}; point ${users.length === 1 ? 'that step' : 'those steps'} at another activation first.`,
    );
  }
  await deleteActivationRow(deps.storage.db, row);
  return row;
}

/**
 * The webhook settings a test send uses: those typed in the form (`given`, checked as at save), header
 * values left out taken from the saved activation when one is named, or the saved activation's own.
 */
export async function testWebhookSettings(
  deps: AppDeps,
  journey: JourneyRow,
  given: Record<string, unknown> | undefined,
  activationId: string | undefined,
): Promise<WebhookSettings> {
  const saved = activationId
    ? paramsOf(await getActivationRow(deps.storage.db, journey.account_id, journey.id, activationId)).connectorConfig
    : null;
  const context = await activationContextFor(deps, journey);
  const found: JourneyViolation[] = [];
  const checked = checkWebhookConfig(
    given ?? saved ?? {},
    saved ?? null,
    { serverSecret: deps.config.secret, fields: templateFieldsOf(context) },
    found,
  );
  if (found.length > 0) throw invalidActivation(found);
  return webhookSettingsOf(checked, deps.config.secret);
}
