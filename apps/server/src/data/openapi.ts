import { z } from '@hono/zod-openapi';
import { errorBody } from '@svc/contracts';

/** OpenAPI helpers of the data routes: documented error answers and wire parameter bodies. */

const reasons: Record<number, string> = {
  400: 'Invalid parameters or names; the message says the rule',
  401: 'No valid API key',
  403: 'A write-only key, or the object is protected',
  404: 'No such database or table in the caller’s account',
  409: 'It already exists, or is still in use',
  413: 'The body is larger than the limit',
  415: 'The body is not in an accepted encoding',
  422: 'A table type other than log',
};

export function errorResponses(...codes: number[]) {
  return Object.fromEntries(
    codes.map((code) => [
      code,
      { description: reasons[code] ?? 'Error', content: { 'application/json': { schema: errorBody } } },
    ]),
  );
}

export const jsonResponse = <S extends z.ZodType>(schema: S, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/**
 * Documents POST parameters that clients send as JSON, form-urlencoded, multipart or the query string
 * (wire-compat §1.2); the handler reads them merged with `input()`, so the route itself validates nothing.
 */
export function wireParams(schema: z.ZodType, description: string) {
  const { $schema: _, ...jsonSchema } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  // A JSON Schema object, not a zod schema, so the route does not validate one encoding by itself.
  const media = { schema: jsonSchema as { type?: 'object' } };
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
