import { CONSOLE_HEADER } from '@svc/contracts';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppDeps, AppEnv } from '../platform/context';
import { csrfProblem } from './csrf';
import { findLiveSession, readSessionCookie } from './sessions';

/** Path patterns where a console session may stand in for an API key. */
export const SESSION_PATHS = ['/v3/*', '/v1/*', '/entities/*', '/audiences', '/audiences/*', '/console-api/*'] as const;

export interface SessionPrincipalOptions {
  /**
   * For routes whose body is raw bytes (the bulk import part upload): the console header alone guards them,
   * and the body is left unread for the route to stream.
   */
  rawBody?: boolean;
}

/** A custom header cannot be sent cross-site without a CORS preflight, which these routes never answer. */
function rawBodyProblem(c: Context): string | null {
  return c.req.header(CONSOLE_HEADER) === '1' ? null : `Console uploads must carry the header "${CONSOLE_HEADER}: 1".`;
}

/**
 * Turns a live console session cookie into the request's principal (`via: 'session'`), so the console can
 * call REST routes without holding a key. An Authorization header, when sent, decides alone. For unsafe
 * methods the cookie counts only with the console header (and a JSON body), so another site cannot ride it.
 */
export function sessionPrincipal(deps: AppDeps, options: SessionPrincipalOptions = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!c.get('principal') && c.req.header('authorization') === undefined) {
      const id = readSessionCookie(c);
      const guarded = options.rawBody ? rawBodyProblem(c) : await csrfProblem(c);
      if (id && guarded === null) {
        const session = await findLiveSession(deps, id);
        if (session) c.set('principal', { ...session, via: 'session', keyId: null });
      }
    }
    await next();
  };
}
