import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * The one error type of the service. Every failure a client can cause is thrown as an ApiError
 * and formatted by the app's single onError into the wire error body (wire-compat §1.4).
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    /** Short label, sent as `error`. */
    readonly error: string,
    /** A sentence a person can act on, sent as `message` and `text`. */
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ErrorBody {
  error: string;
  message: string;
  text: string;
  severity: 'error';
  status_code: number;
  details?: Record<string, unknown>;
}

/**
 * The contract's one error body, on every path (`/v1` too): `error`, `message`, `text`, `severity`,
 * `status_code`, and `details` beside them when there are any. A 404 carries exactly the five fields of the
 * spec's Errors section; what was not found goes to the `X-SVC-Not-Found` header instead (`notFoundHeader`).
 */
export function errorBody(err: ApiError): ErrorBody {
  const body: ErrorBody = {
    error: err.error,
    message: err.message,
    text: err.message,
    severity: 'error',
    status_code: err.status,
  };
  if (err.details && err.status !== 404) body.details = err.details;
  return body;
}

/** Response header naming what a 404 did not find (`resource` or `route` of its details), kept out of the body. */
export const NOT_FOUND_HEADER = 'X-SVC-Not-Found';

export function notFoundHeader(err: ApiError): string | null {
  if (err.status !== 404 || !err.details) return null;
  const what = err.details.resource ?? err.details.route;
  return typeof what === 'string' ? what.replace(/[^\x20-\x7e]/g, '?').slice(0, 200) : null;
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new ApiError(400, 'Bad Request', message, details);

export const unauthorized = (message = 'Authentication required: send "Authorization: SVC1 <your API key>".') =>
  new ApiError(401, 'Unauthorized', message);

export const forbidden = (message: string) => new ApiError(403, 'Forbidden', message);

/** The spec's body for an unknown resource: error, message and text all read "Resource not found". */
export const notFound = (what?: string) =>
  new ApiError(404, 'Resource not found', 'Resource not found', what ? { resource: what } : undefined);

export const conflict = (message: string, details?: Record<string, unknown>) =>
  new ApiError(409, 'Conflict', message, details);

export const payloadTooLarge = (message: string) => new ApiError(413, 'Payload Too Large', message);

export const unsupportedMediaType = (message: string) => new ApiError(415, 'Unsupported Media Type', message);

export const unprocessable = (message: string, details?: Record<string, unknown>) =>
  new ApiError(422, 'Unprocessable Entity', message, details);

export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new ApiError(429, 'Too Many Requests', message, { retry_after: retryAfterSeconds });

export const serviceUnavailable = (message: string) => new ApiError(503, 'Service Unavailable', message);
