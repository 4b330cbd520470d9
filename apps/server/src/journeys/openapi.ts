import { z } from '@hono/zod-openapi';
import { journeyMeta } from '@svc/contracts';
import { journeyRequestSchema, journeyWireDocumentSchema } from '@svc/journey';
import type { Context } from 'hono';
import { badRequest, unsupportedMediaType } from '../platform/errors';
import { documentedOnly, errorResponsesFrom, jsonResponse } from '../platform/openapi';

/** OpenAPI pieces of the journeys routes, and the JSON body reader they share. */

const reasons: Record<number, string> = {
  400: 'The body breaks journey rules or is malformed; `details.violations` lists code, message and path of each',
  401: 'No valid API key or console session',
  403: 'A write-only key, or no Full Control on the folder (View permission only)',
  404: 'No such journey (or activation, or folder) in the caller’s account',
  409: 'Not allowed in the journey’s state (launched, paused or draft); the message says why',
  415: 'The body is not JSON',
};

export const errorResponses = errorResponsesFrom(reasons);
export { jsonResponse };

/**
 * Documents a JSON body without letting the route validate it: the handler reads it (both spellings) and
 * reports every problem at once, which a route-level validator would not.
 */
export function jsonBody(schema: z.ZodType, description: string) {
  return { description, required: true, content: { 'application/json': { schema: documentedOnly(schema) } } };
}

export const journeyAnswerSchema = journeyWireDocumentSchema.extend({ meta: journeyMeta });
export { journeyRequestSchema };

export const journeyIdParam = z.object({
  journeyId: z.string().openapi({ param: { name: 'journeyId', in: 'path' }, example: '2058' }),
});
export const activationIdParams = journeyIdParam.extend({
  activationId: z.string().openapi({ param: { name: 'activationId', in: 'path' }, example: '901' }),
});

/** The request body as JSON (an object). Empty → {}. */
export async function readJson(c: Context): Promise<unknown> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  const raw = await c.req.text();
  if (raw.trim().length === 0) return {};
  if (type !== '' && !type.startsWith('application/json') && !type.includes('+json')) {
    throw unsupportedMediaType(`Send the body as JSON (Content-Type: application/json), not "${type}".`);
  }
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw badRequest('The request body is not valid JSON; check quotes, commas and brackets.');
  }
}
