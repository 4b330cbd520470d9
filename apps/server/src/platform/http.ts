import { randomUUID } from 'node:crypto';
import type { ErrorHandler, MiddlewareHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppDeps, AppEnv } from './context';
import { ApiError, errorBody, NOT_FOUND_HEADER, notFoundHeader, payloadTooLarge } from './errors';
import { limits } from './limits';
import { isStorageUnavailable } from './storage';
import { isStoredJsonError } from './storedJson';

/**
 * Logs one line per request: method, path without its query string (which may carry a key), status and
 * time. Headers and bodies are never logged.
 */
export function requestLogger(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = randomUUID();
    c.set('requestId', requestId);
    await next();
    deps.logger.info('request', {
      id: requestId,
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
  };
}

/** The single error formatter: every error leaves as the wire error body; stacks stay in the log. */
export function errorHandler(deps: AppDeps): ErrorHandler<AppEnv> {
  return (err, c) => {
    let apiError: ApiError;
    if (err instanceof ApiError) apiError = err;
    else if (err instanceof HTTPException && err.status < 500) {
      apiError =
        err.status === 413
          ? payloadTooLarge(`The request body is larger than the limit of ${limits.bodyBytes} bytes.`)
          : new ApiError(err.status, 'Bad Request', err.message || 'The request could not be read.');
    } else if (isStorageUnavailable(err)) {
      // The database is away (restarting, network): nothing of this request was acknowledged; retry later.
      deps.logger.warn('storage unavailable', { id: c.get('requestId'), error: (err as Error).message });
      apiError = new ApiError(
        503,
        'Service Unavailable',
        'The database is not reachable right now, so this request was not completed. Try it again in a moment.',
      );
      c.header('Retry-After', '5');
    } else if (isStoredJsonError(err)) {
      // Data this server stored is not what it expects (a bug or a hand edit): say where, keep the stack in the log.
      deps.logger.error('stored data unreadable', { id: c.get('requestId'), error: err.message, stack: err.stack });
      apiError = new ApiError(500, 'Internal Server Error', `${err.message} The error has been logged.`);
    } else {
      deps.logger.error('unhandled error', {
        id: c.get('requestId'),
        path: new URL(c.req.url).pathname,
        error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
        stack: err instanceof Error ? err.stack : undefined,
      });
      apiError = new ApiError(
        500,
        'Internal Server Error',
        'The server failed to handle this request. It has been logged.',
      );
    }
    const missing = notFoundHeader(apiError);
    if (missing) c.header(NOT_FOUND_HEADER, missing);
    return c.json(errorBody(apiError), apiError.status);
  };
}

export const notFoundHandler: NotFoundHandler<AppEnv> = (c) => {
  const e = new ApiError(404, 'Resource not found', 'Resource not found', {
    route: `${c.req.method} ${new URL(c.req.url).pathname}`,
  });
  const missing = notFoundHeader(e);
  if (missing) c.header(NOT_FOUND_HEADER, missing);
  return c.json(errorBody(e), 404);
};

/**
 * A request refused (4xx/5xx) while it declares a body the handler may not have read: the answer says
 * `Connection: close`, so pooling clients open a new connection for their next request instead of
 * reusing one the server drops once its short drain of the unread body gives up.
 */
export function closeOnRefusal(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.res.status < 400) return;
    const length = c.req.header('content-length');
    const declaresBody = (length !== undefined && length !== '0') || c.req.header('transfer-encoding') !== undefined;
    if (declaresBody) c.res.headers.set('connection', 'close');
  };
}

/**
 * `Cache-Control: no-store` on every console backend answer and every answer to a request that carried
 * credentials (an API key, a write key or a session cookie), errors included: nothing a signed-in person
 * or a key saw is kept by a browser or a shared cache.
 */
export function noStoreWhenAuthenticated(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const credentials =
      c.req.header('authorization') !== undefined ||
      c.req.header('x-svc-write-key') !== undefined ||
      (c.req.header('cookie') ?? '').includes('svc_session') ||
      c.get('principal');
    if (credentials || c.req.path.startsWith('/console-api')) {
      c.res.headers.set('cache-control', 'no-store');
    }
  };
}
