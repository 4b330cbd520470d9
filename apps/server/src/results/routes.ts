import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { errorBody, resultList, resultName, resultReference } from '@svc/contracts';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest } from '../platform/errors';
import { jsonResponse as json } from '../platform/openapi';
import { input } from '../platform/params';
import { maskUrl, urlProblem } from './maskUrl';
import { deleteResult, insertResult, listResults } from './store';

const security = [{ SVC1: [] }];
const error = (description: string) => json(errorBody, description);
const nameParam = z.object({ name: resultName.meta({ description: 'Result connection name', example: 'my_output' }) });

const createParams = z.object({
  url: z
    .string({ error: 'Send "url": where query results go, e.g. "td://@/database/table".' })
    .min(1, 'Send "url": where query results go, e.g. "td://@/database/table".'),
});

const routes = (deps: AppDeps) => {
  const base = { security, middleware: [apiKeyAuth(deps)], tags: ['Result connections'] };
  return {
    list: createRoute({
      ...base,
      method: 'get',
      path: '/v3/result/list',
      summary: 'Saved result connections; credentials in their URLs are masked',
      responses: { 200: json(resultList, 'Every result connection of the account'), 401: error('No valid API key') },
    }),
    create: createRoute({
      ...base,
      method: 'post',
      path: '/v3/result/create/{name}',
      summary: 'Save a result connection',
      request: {
        params: nameParam,
        body: {
          required: false,
          content: {
            'application/x-www-form-urlencoded': {
              schema: { type: 'object', properties: { url: { type: 'string' } } },
            },
            'application/json': { schema: { type: 'object', properties: { url: { type: 'string' } } } },
          },
        },
      },
      responses: {
        200: json(resultReference, 'Saved'),
        400: error('No url, or one that is malformed or points at a private address'),
        409: error('A connection of that name exists'),
      },
    }),
    remove: createRoute({
      ...base,
      method: 'post',
      path: '/v3/result/delete/{name}',
      summary: 'Delete a result connection',
      request: { params: nameParam },
      responses: { 200: json(resultReference, 'Deleted'), 404: error('No such connection in the account') },
    }),
  };
};

/** `/v3/result/*` (wire-compat §2.4): master keys only. */
export function resultRoutes(deps: AppDeps) {
  const r = routes(deps);
  return new OpenAPIHono<AppEnv>()
    .openapi(r.list, async (c) => {
      const { accountId } = principalOf(c);
      const results = (await listResults(deps.storage.db, accountId)).map((row) => ({
        name: row.name,
        url: maskUrl(row.url),
        organization: null,
      }));
      return c.json({ results }, 200);
    })
    .openapi(r.create, async (c) => {
      const { accountId } = principalOf(c);
      const { name } = c.req.valid('param');
      const { url } = await input(c, createParams);
      const problem = await urlProblem(url, deps.config.outbound);
      if (problem) throw badRequest(problem);
      await insertResult(deps.storage.db, accountId, name, url, deps.clock.now().getTime());
      return c.json({ name, result: name }, 200);
    })
    .openapi(r.remove, async (c) => {
      const { accountId } = principalOf(c);
      const { name } = c.req.valid('param');
      await deleteResult(deps.storage.db, accountId, name);
      return c.json({ name, result: name }, 200);
    });
}
