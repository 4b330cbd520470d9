import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { CONSOLE_HEADER, type DemoItem, demoDeleted, demoStatus } from '@svc/contracts';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { apiKeyAuth, principalOf, requireAdmin } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { ApiError, badRequest, conflict } from '../platform/errors';
import { errorResponsesFrom, jsonResponse } from '../platform/openapi';
import { demoItems, forgetDemoItem } from './registry';
import { type DemoApp, seedDemo } from './seed';

const errorResponses = errorResponsesFrom({
  400: 'Called with a console session: the demo is created with a master API key',
  401: 'No valid API key or console session',
  409: 'The demo data is already there',
  403: 'Not an administrator of the account, or a write-only key',
});

/** In-process requests to the app the routes are part of. */
export type AppRequest = (path: string, init: RequestInit) => Response | Promise<Response>;

/**
 * Each demo item removed through the service's own API, with the caller's credentials, so every rule of
 * those routes holds (a launched journey is paused before it is deleted). An item already gone counts as
 * removed; query jobs stay in the job history.
 */
function removals(item: DemoItem): Array<[method: string, path: string]> {
  const ref = encodeURIComponent(item.ref);
  switch (item.kind) {
    case 'journey':
      return [
        ['PATCH', `/entities/journeys/${ref}/pause`],
        ['DELETE', `/entities/journeys/${ref}`],
      ];
    case 'parentSegment':
      return [['DELETE', `/audiences/${ref}`]];
    case 'connection':
      return [['POST', `/v3/result/delete/${ref}`]];
    case 'database':
      return [['POST', `/v3/database/delete/${ref}`]];
    case 'queryJob':
      return [];
  }
}

/** Deletion order: what uses something goes before it. */
const ORDER: DemoItem['kind'][] = ['journey', 'parentSegment', 'connection', 'queryJob', 'database'];

export function demoRoutes(deps: AppDeps, app: DemoApp) {
  const request: AppRequest = (path, init) => app.request(path, init);
  const base = { security: [{ SVC1: [] }], middleware: [apiKeyAuth(deps)], tags: ['Demo'] };
  const status = createRoute({
    ...base,
    method: 'get',
    path: '/entities/demo',
    summary: 'The demo data of the first start in this account',
    description: 'Lists what the first start created as demo data (`SVC_DEMO=0` creates none); empty once deleted.',
    responses: { 200: jsonResponse(demoStatus, 'The demo items, oldest first'), ...errorResponses(401, 403) },
  });
  const remove = createRoute({
    ...base,
    method: 'delete',
    path: '/entities/demo',
    summary: 'Delete the demo data in one action',
    description:
      'Pauses and deletes the demo journey, deletes the demo parent segment with its segments, the result connections and the sample database. Query jobs stay in the job history. Administrators only.',
    responses: { 200: jsonResponse(demoDeleted, 'What was removed'), ...errorResponses(401, 403) },
  });
  const create = createRoute({
    ...base,
    method: 'post',
    path: '/entities/demo',
    summary: 'Create the demo data in this account (what the first start creates)',
    description:
      'The sample database `demo_shop` (about 100,000 rows), a parent segment with three segments, a launched two-stage journey run once, and a query job, all created through this API with the caller’s master key (the records API takes keys only). Administrators only; 409 while demo data is there.',
    responses: { 200: jsonResponse(demoStatus, 'The demo items'), ...errorResponses(400, 401, 403, 409) },
  });
  return new OpenAPIHono<AppEnv>()
    .openapi(status, async (c) => c.json({ items: await demoItems(deps.storage.db, principalOf(c).accountId) }, 200))
    .openapi(create, async (c) => {
      const principal = principalOf(c);
      requireAdmin(principal);
      const authorization = c.req.header('authorization');
      if (principal.via === 'session' || !authorization) {
        throw badRequest(
          'Create the demo with a master API key (Authorization: SVC1 <key>): its data is imported with the records API, which takes keys only.',
        );
      }
      if ((await demoItems(deps.storage.db, principal.accountId)).length > 0) {
        throw conflict('The demo data is already in this account; delete it first (DELETE /entities/demo).');
      }
      const demo = await seedDemo(app, deps, { accountId: principal.accountId, authorization });
      return c.json({ items: demo.items }, 200);
    })
    .openapi(remove, async (c) => {
      const principal = principalOf(c);
      requireAdmin(principal);
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'cookie', CONSOLE_HEADER]) {
        const value = c.req.header(name);
        if (value !== undefined) headers[name] = value;
      }
      const items = (await demoItems(deps.storage.db, principal.accountId)).sort(
        (a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind),
      );
      const deleted: DemoItem[] = [];
      for (const item of items) {
        for (const [method, path] of removals(item)) {
          const res = await request(path, { method, headers });
          // 404: already deleted by hand; 409 from pause: already paused. Anything else stops the action.
          if (res.status !== 200 && res.status !== 404 && !(res.status === 409 && path.endsWith('/pause'))) {
            const body = (await res.json()) as { error?: string; message?: string };
            throw new ApiError(
              res.status as ContentfulStatusCode,
              body.error ?? 'Demo deletion stopped',
              `${item.label} could not be deleted: ${body.message ?? res.statusText}`,
            );
          }
        }
        await forgetDemoItem(deps.storage.db, principal.accountId, item);
        deleted.push(item);
      }
      return c.json({ deleted }, 200);
    });
}
