import { z } from 'zod';
import type { Journey, WireJourney } from './journey';
import { journeySchema, journeyWireSchema } from './journey';
import type { ParseResult } from './normalize';
import { serializeJourney, stageIdsOf } from './normalize';
import { shapeViolations } from './shape-issues';
import { isRecord, spellJourney } from './spelling';

const idSchema = z.string().min(1);

function toOne<T extends string>(type: T) {
  return z.object({
    data: z
      .object({ id: idSchema, type: z.literal(type).default(type) })
      .nullable()
      .default(null),
  });
}

function toMany<T extends z.ZodType<string>>(type: T) {
  return z.object({ data: z.array(z.object({ id: idSchema, type })).default([]) });
}

export const journeyRelationshipsSchema = z.object({
  parentFolder: toOne('folder-segment').prefault({}),
  createdBy: toOne('user').prefault({}),
  updatedBy: toOne('user').prefault({}),
  activations: toMany(z.string()).prefault({}),
  journeyActivationSteps: toMany(z.literal('journeyActivationStep').default('journeyActivationStep')).prefault({}),
  jumpFrom: toMany(z.string()).prefault({}),
  jumpTo: toMany(z.string()).prefault({}),
});

/** `data` of a journey document: JSON:API style resource, read into the one camelCase form. */
export const journeyResourceSchema = z.object({
  id: idSchema,
  type: z.literal('journey'),
  attributes: z.preprocess(spellJourney, journeySchema),
  relationships: journeyRelationshipsSchema.prefault({}),
});

/** Reads an answered journey document (goal `segment_id` and all) into the camelCase model. */
export const journeyDocumentSchema = z.object({ data: journeyResourceSchema });

/** A journey document as the server answers it (see `journeyWireSchema`); for the API description. */
export const journeyWireDocumentSchema = z.object({
  data: journeyResourceSchema.extend({ attributes: journeyWireSchema }),
});

/** Body of POST/PATCH /entities/journeys: `id` only on PATCH. */
export const journeyRequestSchema = z.object({
  id: idSchema.optional(),
  type: z.literal('journey').default('journey'),
  attributes: journeySchema,
  relationships: journeyRelationshipsSchema.prefault({}),
});

export type JourneyRelationships = z.output<typeof journeyRelationshipsSchema>;
export type JourneyResource = z.output<typeof journeyResourceSchema>;
export type JourneyDocument = z.output<typeof journeyDocumentSchema>;
export type WireJourneyDocument = z.output<typeof journeyWireDocumentSchema> & {
  data: { attributes: WireJourney };
};
export type JourneyRequest = z.output<typeof journeyRequestSchema>;

/** Relationship ids may arrive as numbers; types may be omitted (they are implied by the relationship). */
function spellRelationships(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const out: Record<string, unknown> = {};
  for (const [name, rel] of Object.entries(raw)) {
    if (!isRecord(rel)) {
      out[name] = rel;
      continue;
    }
    const spellRef = (ref: unknown) =>
      isRecord(ref) && typeof ref.id === 'number' ? { ...ref, id: String(ref.id) } : ref;
    out[name] = { ...rel, data: Array.isArray(rel.data) ? rel.data.map(spellRef) : spellRef(rel.data) };
  }
  return out;
}

/**
 * Reads a journey request body: top-level `{type, id?, attributes, relationships}` as the spec's
 * examples send, or the same wrapped in `data`. `type` may be "journey" or "journeys".
 */
export function parseJourneyRequest(input: unknown): ParseResult<JourneyRequest> {
  const wrapped = isRecord(input) && isRecord(input.data);
  const body = wrapped ? (input.data as Record<string, unknown>) : input;
  const prefix = wrapped ? ['data'] : [];
  if (!isRecord(body)) {
    return { ok: false, violations: shapeViolations(journeyRequestSchema.safeParse(body).error?.issues ?? []) };
  }
  const attributes = spellJourney(body.attributes);
  const candidate = {
    ...body,
    id: typeof body.id === 'number' ? String(body.id) : body.id,
    type: body.type === 'journeys' ? 'journey' : body.type,
    attributes,
    relationships: spellRelationships(body.relationships),
  };
  const parsed = journeyRequestSchema.safeParse(candidate);
  if (parsed.success) return { ok: true, value: parsed.data };
  const inAttributes = parsed.error.issues.filter((i) => i.path[0] === 'attributes');
  const elsewhere = parsed.error.issues.filter((i) => i.path[0] !== 'attributes');
  return {
    ok: false,
    violations: [
      ...shapeViolations(inAttributes, stageIdsOf(attributes), ['attributes']),
      ...shapeViolations(elsewhere).map((v) => ({
        ...v,
        path: { ...v.path, text: [...prefix, v.path.text].join('.') },
      })),
    ],
  };
}

/** The response document `{data: {id, type: 'journey', attributes, relationships}}` in camelCase. */
export function journeyDocument(input: {
  id: string;
  attributes: Journey;
  relationships?: z.input<typeof journeyRelationshipsSchema>;
}): WireJourneyDocument {
  return {
    data: {
      id: input.id,
      type: 'journey',
      attributes: serializeJourney(input.attributes),
      relationships: journeyRelationshipsSchema.parse(input.relationships ?? {}),
    },
  };
}
