import { getPath } from 'hono/utils/url';

/**
 * The path the router matches: a trailing slash on a `/v3` path is dropped, so `/v3/job/list/`
 * (td-client-node's listJobs) reaches `/v3/job/list`. Done once here, for every `/v3` route, by the
 * app's `getPath`; other paths (the console, `/v1`, the records API) are matched as sent.
 */
export function routePath(request: Request): string {
  const path = getPath(request);
  if (path.length > 4 && path.startsWith('/v3/') && path.endsWith('/')) return path.replace(/\/+$/, '');
  return path;
}
