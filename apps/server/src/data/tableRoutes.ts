import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { DATA_NAME, dataName, schemaParam, tableList, tableObject, tableReference } from '@svc/contracts';
import type { Context } from 'hono';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest, unprocessable } from '../platform/errors';
import { input, truthy } from '../platform/params';
import { listTables, requireDatabase, requireTable } from './catalog';
import { parseSchema } from './columns';
import { changeSchemaInWorker } from './fileWrites';
import { errorResponses, jsonResponse, wireParams } from './openapi';
import { createTable, deleteTable } from './tables';
import { tailBody } from './tail';
import { toV3Table } from './wire';

const security = [{ SVC1: [] }];
const db = dataName.meta({ description: 'Database name', example: 'web_events' });
const table = dataName.meta({ description: 'Table name', example: 'pageviews' });
const tableParams = z.object({ db, table });

const createParams = z.object({
  schema: schemaParam.optional(),
  expire_days: z
    .union([z.number(), z.string()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return null;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) {
        ctx.addIssue({ code: 'custom', message: 'Send "expire_days" as a whole number of days, 1 or more.' });
        return z.NEVER;
      }
      return n;
    }),
  include_v: z.union([z.boolean(), z.string()]).optional(),
});
const schemaParams = z.object({ schema: schemaParam.optional() });

const tailQuery = z.object({
  count: z.string().optional().openapi({ description: 'Rows to show, 1 to 10000 (default 10)' }),
  format: z.string().optional().openapi({ description: 'json (default; one object per line) or msgpack' }),
});

function routes(deps: AppDeps) {
  const base = { security, middleware: [apiKeyAuth(deps)], tags: ['Tables'] };
  const create = (path: string, withType: boolean) =>
    createRoute({
      ...base,
      method: 'post',
      path,
      summary: withType ? 'Create a table of a type (only log)' : 'Create a log table',
      request: {
        params: withType ? tableParams.extend({ type: z.string().openapi({ example: 'log' }) }) : tableParams,
        body: wireParams(createParams, 'Optional schema (JSON string or array), expire_days, include_v'),
      },
      responses: {
        200: jsonResponse(tableReference, 'The table is created'),
        ...errorResponses(400, 401, 403, 404, 409, 422),
      },
    });
  return {
    list: createRoute({
      ...base,
      method: 'get',
      path: '/v3/table/list/{db}',
      summary: 'Tables of a database',
      request: { params: z.object({ db }) },
      responses: { 200: jsonResponse(tableList, 'Every table'), ...errorResponses(400, 401, 403, 404) },
    }),
    show: createRoute({
      ...base,
      method: 'get',
      path: '/v3/table/show/{db}/{table}',
      summary: 'One table',
      request: { params: tableParams },
      responses: { 200: jsonResponse(tableObject, 'The table'), ...errorResponses(400, 401, 403, 404) },
    }),
    create: create('/v3/table/create/{db}/{table}', false),
    createTyped: create('/v3/table/create/{db}/{table}/{type}', true),
    remove: createRoute({
      ...base,
      method: 'post',
      path: '/v3/table/delete/{db}/{table}',
      summary: 'Delete a table and its rows',
      request: { params: tableParams },
      responses: { 200: jsonResponse(tableReference, 'The table is deleted'), ...errorResponses(400, 401, 403, 404) },
    }),
    updateSchema: createRoute({
      ...base,
      method: 'post',
      path: '/v3/table/update-schema/{db}/{table}',
      summary: 'Set the schema',
      description:
        'Listed columns are added or converted to the new type; columns not listed are dropped with their data.',
      request: { params: tableParams, body: wireParams(schemaParams, 'schema: [[name, type(, alias)], …]') },
      responses: { 200: jsonResponse(tableReference, 'The schema is set'), ...errorResponses(400, 401, 403, 404) },
    }),
    appendSchema: createRoute({
      ...base,
      method: 'post',
      path: '/v3/table/append-schema/{db}/{table}',
      summary: 'Add or retype columns, keeping the others',
      request: { params: tableParams, body: wireParams(schemaParams, 'schema: [[name, type(, alias)], …]') },
      responses: { 200: jsonResponse(tableReference, 'The columns are added'), ...errorResponses(400, 401, 403, 404) },
    }),
    tail: createRoute({
      ...base,
      method: 'get',
      path: '/v3/table/tail/{db}/{table}',
      summary: 'The newest rows',
      description:
        'Newest first by `time`. `format=json`: one JSON object per line; `format=msgpack`: concatenated msgpack maps. ' +
        'The format may also be a suffix of the table name: `/v3/table/tail/db/t.msgpack`.',
      request: { params: z.object({ db, table: z.string() }), query: tailQuery },
      responses: {
        200: {
          description: 'The rows',
          content: {
            'application/json': { schema: z.string() },
            'application/x-msgpack': { schema: z.string().openapi({ format: 'binary' }) },
          },
        },
        ...errorResponses(400, 401, 403, 404),
      },
    }),
  };
}

function parseTailTarget(raw: string, query: z.infer<typeof tailQuery>) {
  const dot = raw.indexOf('.');
  const name = dot < 0 ? raw : raw.slice(0, dot);
  const format = (dot < 0 ? (query.format ?? 'json') : raw.slice(dot + 1)).toLowerCase();
  if (!DATA_NAME.test(name)) {
    throw badRequest('"table": use only lowercase letters, digits and underscores, 3 to 255 characters.');
  }
  if (format !== 'json' && format !== 'msgpack') throw badRequest('"format" must be json or msgpack.');
  const count = query.count === undefined ? 10 : Number(query.count);
  if (!Number.isInteger(count) || count < 1 || count > 10_000) {
    throw badRequest('"count" must be a whole number from 1 to 10000.');
  }
  return { name, format: format as 'json' | 'msgpack', count };
}

/** `/v3/table/*` (wire-compat §2.2). Master keys only: write-only keys answer 403. */
export function tableRoutes(deps: AppDeps) {
  const r = routes(deps);
  const createHandler = async (c: Context<AppEnv>, params: { db: string; table: string; type?: string }) => {
    const p = principalOf(c);
    if (params.type !== undefined && params.type !== 'log') {
      throw unprocessable(`Table type must be 'log', not '${params.type.slice(0, 40)}'.`);
    }
    const database = await requireDatabase(deps.storage.db, p.accountId, params.db);
    const opts = await input(c, createParams);
    const schema = opts.schema === undefined || opts.schema === '' ? [] : parseSchema(opts.schema);
    const includeV = opts.include_v === undefined ? true : truthy(opts.include_v);
    const row = await createTable(deps, database, params.table, { schema, expireDays: opts.expire_days, includeV });
    return { database: database.name, table: row.name, type: 'log' as const };
  };
  const schemaHandler = async (
    c: Context<AppEnv>,
    params: { db: string; table: string },
    mode: 'replace' | 'append',
  ) => {
    const p = principalOf(c);
    const database = await requireDatabase(deps.storage.db, p.accountId, params.db);
    const row = await requireTable(deps.storage.db, p.accountId, database.id, params.table);
    const { schema } = await input(c, schemaParams);
    if (schema === undefined) throw badRequest('Send "schema": a JSON array of [name, type] entries.');
    await changeSchemaInWorker(deps, database, row, parseSchema(schema), mode);
    return { database: database.name, table: row.name, type: 'log' as const };
  };
  return new OpenAPIHono<AppEnv>()
    .openapi(r.list, async (c) => {
      const p = principalOf(c);
      const database = await requireDatabase(deps.storage.db, p.accountId, c.req.valid('param').db);
      const tables = (await listTables(deps.storage.db, p.accountId, database.id)).map(toV3Table);
      return c.json({ database: database.name, tables }, 200);
    })
    .openapi(r.show, async (c) => {
      const p = principalOf(c);
      const { db: dbName, table: tableName } = c.req.valid('param');
      const database = await requireDatabase(deps.storage.db, p.accountId, dbName);
      return c.json(toV3Table(await requireTable(deps.storage.db, p.accountId, database.id, tableName)), 200);
    })
    .openapi(r.create, async (c) => c.json(await createHandler(c, c.req.valid('param')), 200))
    .openapi(r.createTyped, async (c) => c.json(await createHandler(c, c.req.valid('param')), 200))
    .openapi(r.remove, async (c) => {
      const p = principalOf(c);
      const { db: dbName, table: tableName } = c.req.valid('param');
      const database = await requireDatabase(deps.storage.db, p.accountId, dbName);
      const row = await requireTable(deps.storage.db, p.accountId, database.id, tableName);
      await deleteTable(deps, database, row);
      return c.json({ database: database.name, table: row.name, type: 'log' as const }, 200);
    })
    .openapi(r.updateSchema, async (c) => c.json(await schemaHandler(c, c.req.valid('param'), 'replace'), 200))
    .openapi(r.appendSchema, async (c) => c.json(await schemaHandler(c, c.req.valid('param'), 'append'), 200))
    .openapi(r.tail, async (c) => {
      const p = principalOf(c);
      const params = c.req.valid('param');
      const target = parseTailTarget(params.table, c.req.valid('query'));
      const database = await requireDatabase(deps.storage.db, p.accountId, params.db);
      const row = await requireTable(deps.storage.db, p.accountId, database.id, target.name);
      const { body, contentType } = await tailBody(deps, database, row, target.count, target.format);
      return c.body(body, 200, { 'content-type': contentType }) as never;
    });
}
