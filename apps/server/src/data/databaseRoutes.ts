import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { databaseList, databaseObject, databaseReference, dataName } from '@svc/contracts';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { input, truthy } from '../platform/params';
import { listDatabases, requireDatabase } from './catalog';
import { createDatabase, deleteDatabase, recordCount, recordCounts, setDeleteProtected } from './databases';
import { errorResponses, jsonResponse, wireParams } from './openapi';
import { toV3Database, toV3DatabaseListItem } from './wire';

const security = [{ SVC1: [] }];
const dbParam = z.object({ db: dataName.meta({ description: 'Database name', example: 'web_events' }) });

const updateParams = z.object({
  delete_protected: z
    .union([z.boolean(), z.string()], {
      error: 'Send "delete_protected" as true or false.',
    })
    .refine((v) => typeof v === 'boolean' || /^(true|false|1|0)$/i.test(v), 'Send "delete_protected" as true or false.')
    .transform((v) => truthy(v)),
});

function routes(deps: AppDeps) {
  const base = { security, middleware: [apiKeyAuth(deps)], tags: ['Databases'] };
  return {
    list: createRoute({
      ...base,
      method: 'get',
      path: '/v3/database/list',
      summary: 'Databases of the account',
      description: '`count` is the number of records in the database; times use the `+0000` offset form.',
      responses: { 200: jsonResponse(databaseList, 'Every database'), ...errorResponses(401, 403) },
    }),
    show: createRoute({
      ...base,
      method: 'get',
      path: '/v3/database/show/{db}',
      summary: 'One database',
      request: { params: dbParam },
      responses: { 200: jsonResponse(databaseObject, 'The database'), ...errorResponses(400, 401, 403, 404) },
    }),
    create: createRoute({
      ...base,
      method: 'post',
      path: '/v3/database/create/{db}',
      summary: 'Create a database',
      request: { params: dbParam },
      responses: {
        200: jsonResponse(databaseReference, 'The database is created'),
        ...errorResponses(400, 401, 403, 409),
      },
    }),
    update: createRoute({
      ...base,
      method: 'post',
      path: '/v3/database/update/{db}',
      summary: 'Turn delete protection on or off',
      request: { params: dbParam, body: wireParams(updateParams, 'delete_protected: true or false') },
      responses: {
        200: jsonResponse(databaseObject, 'The database as it is now'),
        ...errorResponses(400, 401, 403, 404, 415),
      },
    }),
    remove: createRoute({
      ...base,
      method: 'post',
      path: '/v3/database/delete/{db}',
      summary: 'Delete a database with its tables and data',
      description: 'Refused with 403 while the database is delete-protected.',
      request: { params: dbParam },
      responses: {
        200: jsonResponse(databaseReference, 'The database is deleted'),
        ...errorResponses(400, 401, 403, 404, 409),
      },
    }),
  };
}

/** `/v3/database/*` (wire-compat §2.1). Master keys only: write-only keys answer 403. */
export function databaseRoutes(deps: AppDeps) {
  const r = routes(deps);
  return new OpenAPIHono<AppEnv>()
    .openapi(r.list, async (c) => {
      const p = principalOf(c);
      const counts = await recordCounts(deps, p.accountId);
      const rows = await listDatabases(deps.storage.db, p.accountId);
      const databases = rows.map((d) => toV3DatabaseListItem(d, counts.get(d.id) ?? 0));
      return c.json({ databases }, 200);
    })
    .openapi(r.show, async (c) => {
      const p = principalOf(c);
      const database = await requireDatabase(deps.storage.db, p.accountId, c.req.valid('param').db);
      return c.json(toV3Database(database, await recordCount(deps, database)), 200);
    })
    .openapi(r.create, async (c) => {
      const p = principalOf(c);
      const database = await createDatabase(deps, p.accountId, c.req.valid('param').db);
      return c.json({ database: database.name }, 200);
    })
    .openapi(r.update, async (c) => {
      const p = principalOf(c);
      const database = await requireDatabase(deps.storage.db, p.accountId, c.req.valid('param').db);
      const { delete_protected } = await input(c, updateParams);
      const updated = await setDeleteProtected(deps, database, delete_protected);
      return c.json(toV3Database(updated, await recordCount(deps, updated)), 200);
    })
    .openapi(r.remove, async (c) => {
      const p = principalOf(c);
      const database = await requireDatabase(deps.storage.db, p.accountId, c.req.valid('param').db);
      await deleteDatabase(deps, database);
      return c.json({ database: database.name }, 200);
    });
}
