import { type RouteConfig, z } from '@hono/zod-openapi';
import { errorBody, notFoundBody } from '@svc/contracts';

/**
 * The OpenAPI pieces every feature's routes use. Each feature keeps its own table of what its error codes
 * mean; the answers all point at the one `Error` component.
 */

// Rebuilt with this package's `z`, whose schemas carry `.openapi()` whatever the import order.
const errorSchema = z.object(errorBody.shape).openapi('Error');
const NOT_FOUND_DESCRIPTION =
  'The spec’s body for an unknown resource: exactly error, message, text ("Resource not found"), severity and status_code. The `X-SVC-Not-Found` header names what was not found.';

/** A documented error answer with the one error body (any status but 404, which `documentNotFound` fills in). */
export const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorSchema } },
});

interface Doc {
  paths?: object;
  components?: { schemas?: object };
}

/**
 * Every 404 of the service answers the same five-field body (platform/errors.ts), whatever the route says
 * about it, so the document says so in one place: each documented 404 gets the `NotFound` schema and the
 * `X-SVC-Not-Found` header, keeping the route's own description of when it happens.
 */
export function documentNotFound<D extends Doc>(doc: D): D {
  const { $schema: _, ...schema } = z.toJSONSchema(notFoundBody, { target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, NotFound: schema } };
  for (const item of Object.values(doc.paths ?? {}) as object[]) {
    for (const op of Object.values(item ?? {}) as unknown[]) {
      const responses = (op as { responses?: Record<string, { description?: string }> })?.responses;
      const r404 = responses?.['404'];
      if (!responses || !r404) continue;
      responses['404'] = {
        description: `${r404.description ?? 'Not found'}. ${NOT_FOUND_DESCRIPTION}`,
        headers: { 'X-SVC-Not-Found': { description: 'What was not found', schema: { type: 'string' } } },
        content: { 'application/json': { schema: { $ref: '#/components/schemas/NotFound' } } },
      } as never;
    }
  }
  return doc;
}

/** A feature's documented error answers, from its own reasons per status code. */
export function errorResponsesFrom(reasons: Record<number, string>) {
  return (...codes: number[]) =>
    Object.fromEntries(codes.map((code) => [code, errorResponse(reasons[code] ?? 'Error')]));
}

export const jsonResponse = <S extends z.ZodType>(schema: S, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

type RequestBody = NonNullable<NonNullable<RouteConfig['request']>['body']>;
type DocSchema = NonNullable<Extract<RequestBody['content'][string], { schema?: unknown }>['schema']>;

/**
 * A body's schema as plain JSON Schema (2020-12, the dialect of OpenAPI 3.1): documented, but not validated
 * by the route, for handlers that read the body themselves (all wire encodings merged, or every problem
 * reported at once).
 */
export function documentedOnly(schema: z.ZodType): DocSchema {
  const { $schema: _, ...jsonSchema } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return jsonSchema as DocSchema;
}

/**
 * Documents the parameters of a wire POST route, which real clients send as JSON, form-urlencoded or
 * multipart (wire-compat §1.2); the handler reads them merged with `input()`.
 */
export function wireBody(schema: z.ZodType, description: string) {
  const media = { schema: documentedOnly(schema) };
  return {
    description,
    required: false,
    content: {
      'application/json': media,
      'application/x-www-form-urlencoded': media,
      'multipart/form-data': media,
    },
  };
}
