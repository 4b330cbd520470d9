import type { MiddlewareHandler } from 'hono';
import type { AppDeps, AppEnv } from '../platform/context';
import { unauthorized } from '../platform/errors';
import { csrfProblem } from './csrf';
import { findLiveSession, readSessionCookie } from './sessions';

/** Path patterns where a console session may stand in for an API key. */
export const SESSION_PATHS = ['/v3/*', '/v1/*', '/entities/*', '/audiences', '/audiences/*', '/console-api/*'] as const;

/**
 * Turns a live console session cookie into the request's principal (`via: 'session'`), so the console can
 * call REST routes without holding a key. An Authorization header, when sent, decides alone. For unsafe
 * methods the cookie counts only with the console header (and a JSON body), so another site cannot ride it.
 */
export function sessionPrincipal(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!c.get('principal') && c.req.header('authorization') === undefined) {
      const id = readSessionCookie(c);
      if (id && (await csrfProblem(c)) === null) {
        const session = findLiveSession(deps, id);
        if (session) c.set('principal', { ...session, via: 'session', keyId: null });
      }
    }
    await next();
  };
}

/** Console routes answer only to a signed-in browser, never to an API key. */
export function requireSession(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.get('principal')?.via !== 'session') {
      throw unauthorized('You are not signed in, or your session has ended. Sign in again.');
    }
    await next();
  };
}
