import { CONSOLE_HEADER } from '@svc/contracts';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../platform/context';
import { forbidden } from '../platform/errors';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Why an unsafe request could have come from another site, or null when it could not. A cross-site form
 * or a "simple" fetch cannot set a custom header, nor send `application/json` without a CORS preflight,
 * which these routes never answer.
 */
export async function csrfProblem(c: Context): Promise<string | null> {
  if (SAFE.has(c.req.method)) return null;
  if (c.req.header(CONSOLE_HEADER) !== '1') {
    return `Console requests that change something must carry the header "${CONSOLE_HEADER}: 1".`;
  }
  const type = c.req.header('content-type');
  if (type !== undefined) {
    return type.toLowerCase().startsWith('application/json')
      ? null
      : `Console requests must send their body as application/json, not "${type}".`;
  }
  // No declared type: acceptable only when there is no body at all.
  if (c.req.raw.body !== null && (await c.req.text()).length > 0) {
    return 'Console requests must send their body as application/json with a Content-Type header.';
  }
  return null;
}

/** Refuses (403) unsafe console requests that lack the console header or send a non-JSON body. */
export function consoleCsrfGuard(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const problem = await csrfProblem(c);
    if (problem) throw forbidden(problem);
    await next();
  };
}
