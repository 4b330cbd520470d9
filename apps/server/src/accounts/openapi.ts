import { z } from '@hono/zod-openapi';
import { errorResponsesFrom, wireBody } from '../platform/openapi';

const reasons: Record<number, string> = {
  400: 'Invalid parameters; the message names each one',
  401: 'No valid API key or console session',
  403: 'The caller may not do this (a write-only key, or not an administrator)',
  404: 'No such object in the caller’s account',
  409: 'The object already exists',
  410: 'A one-time link that was used, revoked or has expired',
  415: 'The body is not JSON, form-urlencoded or multipart',
  429: 'Too many attempts; see the Retry-After header',
};

/** The documented error answers of a route, all with the one error body. */
export const errorResponses = errorResponsesFrom(reasons);

export { wireBody };

/** REST routes accept an API key or, from the console, its session cookie. */
export const restSecurity: Record<string, string[]>[] = [{ SVC1: [] }, { consoleSession: [] }];

/** A required JSON body of the console's routes. */
export const jsonBody = <S extends z.ZodType>(schema: S) => ({
  required: true,
  content: { 'application/json': { schema } },
});

/** The numeric `{id}` of a console route's path. */
export const idParam = z.object({
  id: z.coerce
    .number({ error: 'The id in the path must be a whole number.' })
    .int('The id in the path must be a whole number.')
    .positive('The id in the path must be a whole number.')
    .openapi({ param: { name: 'id', in: 'path' }, example: 12 }),
});
