import { CONSOLE_HEADER } from '@svc/contracts';

/** A failed call: `status` is the HTTP status, or 0 when the server could not be reached at all. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The server's short label (`error` of the body), e.g. "Unauthorized". */
    readonly code: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const NETWORK_ERROR_MESSAGE =
  'The server cannot be reached. Check your network connection, or whether the server is running, and try again.';

/**
 * Turns a failed response into an ApiError. The server answers the contract's one error body
 * `{error, message, text, severity, status_code, details?}` on every path, `/v1` included; anything else
 * (a proxy's HTML page, an empty body) still yields a sentence a person can read.
 */
export function errorFromBody(status: number, body: unknown, statusText = ''): ApiError {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const message = typeof b.message === 'string' && b.message ? b.message : typeof b.text === 'string' ? b.text : '';
    if (message) {
      const code = typeof b.error === 'string' ? b.error : statusText;
      const details = b.details && typeof b.details === 'object' ? (b.details as Record<string, unknown>) : undefined;
      return new ApiError(status, message, code, details);
    }
  }
  const label = statusText ? `${status} ${statusText}` : String(status);
  const message =
    status >= 500
      ? `The server failed to handle the request (${label}). Try again in a moment.`
      : `The request was refused (${label}).`;
  return new ApiError(status, message, statusText);
}

/** The field a 400 body's zod issues blame first, if any: lets forms show the message at the field. */
export function fieldOfError(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const issues = error.details?.issues;
  if (!Array.isArray(issues)) return undefined;
  const path = (issues[0] as { path?: unknown } | undefined)?.path;
  return Array.isArray(path) && typeof path[0] === 'string' ? path[0] : undefined;
}

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => {};

/** The app sets what a 401 means (go to the login page); the client itself knows nothing of routes. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler) {
  onUnauthorized = handler;
}

/** Any schema with `parse`: the contracts' zod schemas validate what the server answers. */
interface Parser<T> {
  parse(data: unknown): T;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Off for the login call, whose 401 is a wrong password to show, not a session that ended. */
  redirectOn401?: boolean;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The one fetch client of the console: same origin, session cookie, CSRF header on unsafe methods. */
export async function request<T>(
  method: string,
  path: string,
  schema: Parser<T>,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (UNSAFE.has(method)) headers[CONSOLE_HEADER] = '1';
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? null : JSON.stringify(body),
      signal: options.signal ?? null,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE, 'Network error');
  }
  const data: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    if (res.status === 401 && options.redirectOn401 !== false) onUnauthorized();
    throw errorFromBody(res.status, data, res.statusText);
  }
  try {
    return schema.parse(data);
  } catch {
    // A server of another version: say so rather than fail later on a missing field.
    throw new ApiError(
      res.status,
      `The server's answer to ${method} ${path} was not understood. Reload the page.`,
      'Bad response',
    );
  }
}

export const api = {
  get: <T>(path: string, schema: Parser<T>, options?: RequestOptions) =>
    request('GET', path, schema, undefined, options),
  post: <T>(path: string, schema: Parser<T>, body: unknown = {}, options?: RequestOptions) =>
    request('POST', path, schema, body, options),
  patch: <T>(path: string, schema: Parser<T>, body: unknown, options?: RequestOptions) =>
    request('PATCH', path, schema, body, options),
  put: <T>(path: string, schema: Parser<T>, body: unknown, options?: RequestOptions) =>
    request('PUT', path, schema, body, options),
  delete: <T>(path: string, schema: Parser<T>, options?: RequestOptions) =>
    request('DELETE', path, schema, undefined, options),
};
