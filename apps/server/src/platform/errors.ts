import type { V1ErrorBody } from '@svc/contracts';
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

export function errorBody(err: ApiError): ErrorBody {
  const body: ErrorBody = {
    error: err.error,
    message: err.message,
    text: err.message,
    severity: 'error',
    status_code: err.status,
  };
  if (err.details) body.details = err.details;
  return body;
}

/**
 * The body of an error under `/v1` (the data-warehouse sync API), in the form its public description gives:
 * `{error: {code, title, message, detail?}}`.
 */
export function v1ErrorBody(err: ApiError): V1ErrorBody {
  return {
    error: {
      code: err.status,
      title: err.error,
      message: err.message,
      ...(err.details ? { detail: err.details } : {}),
    },
  };
}

/** The error body a path answers with: the `/v1` form there, the v3 wire form everywhere else. */
export function errorBodyFor(path: string, err: ApiError) {
  return path === '/v1' || path.startsWith('/v1/') ? v1ErrorBody(err) : errorBody(err);
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
