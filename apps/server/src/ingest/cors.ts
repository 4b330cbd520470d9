import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../platform/context';

const DEFAULT_HEADERS = 'Authorization, Content-Type, Accept, User-Agent, X-SVC-Write-Key';

/**
 * CORS for the ingestion routes only (DESIGN §6): browser SDKs post with credentials, so the answer
 * must echo the request's Origin (never `*`) with `Access-Control-Allow-Credentials: true`, on the
 * preflight and on the POST, errors included. Preflights answer 200 like every other success.
 */
export function ingestCors(methods = 'POST, OPTIONS'): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (c.req.method === 'OPTIONS') {
      const headers: Record<string, string> = { vary: 'Origin' };
      if (origin) {
        headers['access-control-allow-origin'] = origin;
        headers['access-control-allow-credentials'] = 'true';
        headers['access-control-allow-methods'] = methods;
        headers['access-control-allow-headers'] = c.req.header('access-control-request-headers') ?? DEFAULT_HEADERS;
        headers['access-control-max-age'] = '600';
      }
      return c.body(null, 200, headers);
    }
    await next();
    // On the answer's own headers: `c.header` after the answer is made would rebuild it as a streamed Response,
    // which costs a postback a third of its time on the request loop.
    const headers = c.res.headers;
    headers.append('vary', 'Origin');
    if (origin) {
      headers.set('access-control-allow-origin', origin);
      headers.set('access-control-allow-credentials', 'true');
    }
  };
}
