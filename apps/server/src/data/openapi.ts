import { errorResponsesFrom, jsonResponse, wireBody } from '../platform/openapi';

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

export const errorResponses = errorResponsesFrom(reasons);
export { jsonResponse };

/** POST parameters as clients send them: JSON, form-urlencoded, multipart or the query string. */
export const wireParams = wireBody;
