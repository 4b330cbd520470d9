import { type RouteConfig, z } from '@hono/zod-openapi';
import { errorBody } from '@svc/contracts';

/** One shared component, so each route's error answers point at it instead of repeating it. */
// Rebuilt with this package's `z`, whose schemas carry `.openapi()` whatever the import order.
const errorSchema = z.object(errorBody.shape).openapi('Error');

const reasons: Record<number, string> = {
  400: 'Invalid parameters; the message names each one',
  401: 'No valid API key or console session',
  403: 'The caller may not do this (a write-only key, or not an administrator)',
  404: 'No such object in the caller’s account',
  409: 'The object already exists',
  415: 'The body is not JSON, form-urlencoded or multipart',
  429: 'Too many attempts; see the Retry-After header',
};

/** The documented error answers of a route, all with the one error body. */
export function errorResponses(...codes: (keyof typeof reasons)[]) {
  return Object.fromEntries(
    codes.map((code) => [
      code,
      { description: reasons[code] ?? 'Error', content: { 'application/json': { schema: errorSchema } } },
    ]),
  );
}

type RequestBody = NonNullable<NonNullable<RouteConfig['request']>['body']>;
type DocSchema = NonNullable<Extract<RequestBody['content'][string], { schema?: unknown }>['schema']>;

/**
 * Documents the parameters of a wire POST route, which real clients send as JSON, form-urlencoded or
 * multipart (wire-compat §1.2). The schema goes in as plain JSON Schema on purpose: the route must not
 * validate one encoding by itself, since the handler reads all of them merged with `input()`.
 */
export function wireBody(schema: z.ZodType, description: string) {
  const { $schema: _, ...jsonSchema } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  // zod emits JSON Schema 2020-12, the dialect of OpenAPI 3.1; only the TypeScript types differ.
  const media = { schema: jsonSchema as DocSchema };
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

/** REST routes accept an API key or, from the console, its session cookie. */
export const restSecurity: Record<string, string[]>[] = [{ SVC1: [] }, { consoleSession: [] }];
