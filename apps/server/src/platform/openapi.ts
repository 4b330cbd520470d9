import { type RouteConfig, z } from '@hono/zod-openapi';
import { errorBody } from '@svc/contracts';

/**
 * The OpenAPI pieces every feature's routes use. Each feature keeps its own table of what its error codes
 * mean; the answers all point at the one `Error` component.
 */

// Rebuilt with this package's `z`, whose schemas carry `.openapi()` whatever the import order.
const errorSchema = z.object(errorBody.shape).openapi('Error');

/** A feature's documented error answers, from its own reasons per status code. */
export function errorResponsesFrom(reasons: Record<number, string>) {
  return (...codes: number[]) =>
    Object.fromEntries(
      codes.map((code) => [
        code,
        { description: reasons[code] ?? 'Error', content: { 'application/json': { schema: errorSchema } } },
      ]),
    );
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
