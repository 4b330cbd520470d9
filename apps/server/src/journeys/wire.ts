import type { ActivationResource, JourneyMeta, SyndicationParams } from '@svc/contracts';
import { type Journey, journeyDocument, type WireJourneyDocument } from '@svc/journey';
import { isoSeconds } from '../platform/time';
import { type ActivationRow, paramsOf } from './activationStore';
import { type JourneyBody, type JourneyRow, readJourneyBody } from './store';
import { maskedConnectorConfig } from './webhookConfig';

/** Journeys and activations as the wire shows them: JSON:API style, camelCase, ISO 8601 UTC. */

const iso = (ms: number | null) => (ms === null ? null : isoSeconds(new Date(ms)));
const userRef = (id: number | null) => ({ data: id === null ? null : { id: String(id), type: 'user' as const } });

export function bodyOfRow(row: JourneyRow): JourneyBody {
  return readJourneyBody(row.document);
}

/** The journey's attributes in their camelCase form (schema order), from its row. */
export function journeyOfRow(row: JourneyRow): Journey {
  return journeyOf(row, bodyOfRow(row));
}

/** The same from the row's columns and its document already read (a save has it in hand). */
export function journeyOf(row: JourneyRow, body: JourneyBody): Journey {
  return {
    audienceId: row.parent_segment_id,
    name: row.name,
    description: body.description,
    state: row.state,
    goal: body.goal,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    launchedAt: iso(row.launched_at),
    pausedAt: iso(row.paused_at),
    allowReentry: body.allowReentry,
    paused: row.paused === 1,
    journeyStages: body.journeyStages,
  };
}

export type JourneyAnswer = WireJourneyDocument & { meta: JourneyMeta };

/** Evenly split A/B tests, as the server computed them, for `meta.evenSplits`. */
function evenSplitsOf(journey: Journey): JourneyMeta['evenSplits'] {
  const out: JourneyMeta['evenSplits'] = [];
  journey.journeyStages.forEach((stage, stageIndex) => {
    for (const [stepId, step] of Object.entries(stage.steps ?? {})) {
      if (step.type !== 'ABTest' || step.customizedSplit) continue;
      const notice = { stageIndex, stepId, percentages: step.variants.map((v) => v.percentage) };
      out.push(stage.id === undefined ? notice : { ...notice, stageId: stage.id });
    }
  });
  return out;
}

export function journeyAnswer(
  row: JourneyRow,
  activationIds: ReadonlyArray<number>,
  meta: Omit<JourneyMeta, 'evenSplits'>,
  attributes: Journey = journeyOfRow(row),
): JourneyAnswer {
  const doc = journeyDocument({
    id: String(row.id),
    attributes,
    relationships: {
      parentFolder: { data: { id: row.folder_id, type: 'folder-segment' } },
      createdBy: userRef(row.created_by),
      updatedBy: userRef(row.updated_by),
      activations: { data: [] },
      journeyActivationSteps: {
        data: activationIds.map((id) => ({ id: String(id), type: 'journeyActivationStep' as const })),
      },
      jumpFrom: { data: [] },
      jumpTo: { data: [] },
    },
  });
  return { ...doc, meta: { evenSplits: evenSplitsOf(attributes), ...meta } };
}

/** An activation as answered; webhook header values masked (webhookConfig.ts). */
export function activationResource(row: ActivationRow, serverSecret: string): ActivationResource {
  const stored: SyndicationParams = paramsOf(row);
  const params = { ...stored, connectorConfig: maskedConnectorConfig(stored.connectorConfig ?? {}, serverSecret) };
  return {
    id: String(row.id),
    type: 'journeyActivationStep',
    attributes: {
      syndication_params: params,
      createdAt: iso(row.created_at) as string,
      updatedAt: iso(row.updated_at) as string,
    },
    relationships: {
      journey: { data: { id: String(row.journey_id), type: 'journey' } },
      createdBy: userRef(row.created_by),
      updatedBy: userRef(row.updated_by),
    },
  };
}
