import { randomUUID } from 'node:crypto';
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { errorBody } from '@svc/contracts';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { keyFromAuthorization } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { unprocessable } from '../platform/errors';
import { ingestPrincipal } from './body';
import { ingestCors } from './cors';
import { globalIdOf, setGlobalIdCookie } from './placeholders';

/**
 * The other calls td-js-sdk makes besides posting records (lib/plugins/*.js), with the same credentialed
 * CORS as the records API:
 * - `fetchGlobalID`: `GET /` with `Authorization: TD1 <write key>` answers `{"global_id"}`, the same id
 *   `td_global_id` placeholders get (the `_td_global` cookie). Without an Authorization header `/` stays the
 *   console's.
 * - `fetchServerCookie`: `GET /get_cookie_id?cookie_domain=` answers `{"td_ssc_id"}` and keeps it in the
 *   `_td_ssc_id` cookie, set by the server (so browsers' limits on script-set cookies do not apply); on the
 *   customer's domain when this server is reached under it.
 * - `fetchUserSegments` and `fetchPersonalization` are not offered: 422 naming what to use instead.
 */

const SSC_COOKIE = '_td_ssc_id';
const MAX_AGE = 400 * 24 * 60 * 60;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DOMAIN = /^[a-z0-9.-]{1,253}$/;

export const SDK_NOT_OFFERED = {
  segments:
    'Looking up a browser’s segments (td-js-sdk fetchUserSegments) is not offered by this server: see who is in a segment with GET /audiences/<id>/segments/<segmentId>/sample, or send its members to your site with a journey activation.',
  personalization:
    'Personalization (td-js-sdk fetchPersonalization) is not offered by this server: record the visit with addRecord (POST /<db>/<table>) and act on it with a journey.',
};

const docs = [
  createRoute({
    method: 'get',
    path: '/',
    tags: ['Ingestion'],
    summary: 'td-js-sdk fetchGlobalID: the browser’s global id',
    description:
      'Only with `Authorization: SVC1 <write-only or master key>` (or TD1); otherwise `/` is the console. Answers the ' +
      'id of the `_td_global` cookie (issued when absent), the same id `td_global_id` placeholders are filled with.',
    security: [{ SVC1: [] }],
    responses: {
      200: { description: 'The id', content: { 'application/json': { schema: z.object({ global_id: z.string() }) } } },
      401: { description: 'A missing or invalid key', content: { 'application/json': { schema: errorBody } } },
    },
  }),
  createRoute({
    method: 'get',
    path: '/get_cookie_id',
    tags: ['Ingestion'],
    summary: 'td-js-sdk fetchServerCookie: the browser’s server-side cookie id',
    request: { query: z.object({ cookie_domain: z.string().optional() }) },
    responses: {
      200: { description: 'The id', content: { 'application/json': { schema: z.object({ td_ssc_id: z.string() }) } } },
    },
  }),
  ...(
    [
      ['get', '/cdp/lookup/collect/segments', SDK_NOT_OFFERED.segments],
      ['post', '/public/{db}/{table}', SDK_NOT_OFFERED.personalization],
    ] as const
  ).map(([method, path, message]) =>
    createRoute({
      method,
      path,
      tags: ['Not offered'],
      summary: 'Not offered (td-js-sdk)',
      description: message,
      responses: { 422: { description: message, content: { 'application/json': { schema: errorBody } } } },
    }),
  ),
];

const isPreflight = (c: Context) =>
  c.req.method === 'OPTIONS' && c.req.header('access-control-request-method') !== undefined;

/** The domain the server-side cookie may be set for: the one asked for, if this request's host is under it. */
function cookieDomain(c: Context): string | undefined {
  const wanted = (c.req.query('cookie_domain') ?? '').trim().toLowerCase().replace(/^\./, '');
  const host = new URL(c.req.url).hostname.toLowerCase();
  if (!wanted || !DOMAIN.test(wanted) || !wanted.includes('.')) return undefined;
  return host === wanted || host.endsWith(`.${wanted}`) ? wanted : undefined;
}

/** Mounts the routes above; call it before the console's static files (GET `/` falls through to them). */
export function mountSdkRoutes(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  for (const doc of docs) app.openAPIRegistry.registerPath(doc);
  const cors = ingestCors('GET, POST, OPTIONS');
  const keyed = (c: Context) => c.req.header('authorization') !== undefined;
  // Middleware first, so a refused key still leaves with the CORS headers the browser needs to read it.
  app.use('/', (c, next) => (isPreflight(c) || (c.req.method === 'GET' && keyed(c)) ? cors(c, next) : next()));
  app.get('/', async (c, next) => {
    if (!keyed(c)) return next();
    await ingestPrincipal(deps, c, keyFromAuthorization(c.req.header('authorization')));
    const globalId = globalIdOf(c);
    setGlobalIdCookie(deps, c, globalId);
    return c.json({ global_id: globalId }, 200);
  });
  app.on(['GET', 'OPTIONS'], '/get_cookie_id', cors, (c) => {
    const sent = getCookie(c, SSC_COOKIE);
    const id = sent && UUID.test(sent) ? sent : randomUUID();
    const domain = cookieDomain(c);
    // Read by the SDK's script to cache it, so not HttpOnly; set by the server, so not capped by browsers.
    setCookie(c, SSC_COOKIE, id, { path: '/', maxAge: MAX_AGE, sameSite: 'Lax', ...(domain ? { domain } : {}) });
    return c.json({ td_ssc_id: id }, 200);
  });
  app.on(['GET', 'OPTIONS'], '/cdp/lookup/collect/segments', cors, () => {
    throw unprocessable(SDK_NOT_OFFERED.segments);
  });
  app.on(['POST', 'OPTIONS'], '/public/:db/:table', cors, () => {
    throw unprocessable(SDK_NOT_OFFERED.personalization);
  });
}
