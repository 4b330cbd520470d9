import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  guessRequest,
  guessResult,
  warehouseDatabases,
  warehouseSchemas,
  warehouseTableSchema,
  warehouseTables,
} from '@svc/contracts';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest } from '../platform/errors';
import { input } from '../platform/params';
import { connectionSpec, requireAuthentication } from './authentications';
import { type ConnectOptions, withConnection } from './connection';
import { guess } from './guess';
import { base, commonErrors, enabledPrincipal, error, idParam, json, jsonBody, warehouse } from './routeKit';
import { mapColumn } from './typeMap';
import { describeTable, listDatabases, listSchemas, listTables } from './warehouse';

const databaseQuery = z.object({
  database: z.string().optional().meta({ description: 'Another database of the warehouse server to browse' }),
});

/** A database name to connect to; the server decides whether the authentication's user may. */
function checkDatabaseName(name: string): string {
  if (name.length > 63 || name.trim() === '' || /\0/.test(name)) {
    throw badRequest('"database" must be a PostgreSQL database name (1 to 63 characters).');
  }
  return name;
}

const tableParams = z.object({ id: z.string(), schema: z.string(), table: z.string() });

/** Browsing a warehouse through a stored authentication, and the guess (`/v1`). */
export function dwhBrowseRoutes(deps: AppDeps, options: ConnectOptions) {
  const b = base(deps, 'Data-warehouse sync');
  /** A connection with the authentication, to its own database or to `?database=` on the same server. */
  const connectTo = async (accountId: number, id: string, database?: string) => {
    const row = await requireAuthentication(deps, accountId, id);
    const spec = { ...connectionSpec(deps, row), ...(database ? { database: checkDatabaseName(database) } : {}) };
    return <T>(work: Parameters<typeof withConnection<T>>[2]) => warehouse(() => withConnection(spec, options, work));
  };
  return new OpenAPIHono<AppEnv>()
    .openapi(
      createRoute({
        ...b,
        method: 'get',
        path: '/v1/authentications/{id}/databases',
        summary: 'Warehouse databases',
        request: { params: idParam },
        responses: {
          200: json(warehouseDatabases, 'Names'),
          400: error('Cannot connect'),
          404: error('None'),
          ...commonErrors,
        },
      }),
      async (c) => {
        const { accountId } = await enabledPrincipal(deps, c);
        return c.json({ databases: await (await connectTo(accountId, c.req.param('id')))(listDatabases) }, 200);
      },
    )
    .openapi(
      createRoute({
        ...b,
        method: 'get',
        path: '/v1/authentications/{id}/schemas',
        summary: 'Schemas of its database (?database= for another database of the server)',
        request: { params: idParam, query: databaseQuery },
        responses: {
          200: json(warehouseSchemas, 'Names'),
          400: error('Cannot connect'),
          404: error('None'),
          ...commonErrors,
        },
      }),
      async (c) => {
        const { accountId } = await enabledPrincipal(deps, c);
        const database = c.req.query('database');
        return c.json({ schemas: await (await connectTo(accountId, c.req.param('id'), database))(listSchemas) }, 200);
      },
    )
    .openapi(
      createRoute({
        ...b,
        method: 'get',
        path: '/v1/authentications/{id}/tables',
        summary: 'Tables and views (?schema= to narrow, ?database= for another database of the server)',
        request: { params: idParam, query: databaseQuery.extend({ schema: z.string().optional() }) },
        responses: {
          200: json(warehouseTables, 'Tables'),
          400: error('Cannot connect'),
          404: error('None'),
          ...commonErrors,
        },
      }),
      async (c) => {
        const { accountId } = await enabledPrincipal(deps, c);
        const schema = c.req.query('schema') || null;
        const connection = await connectTo(accountId, c.req.param('id'), c.req.query('database'));
        return c.json({ tables: await connection((cl) => listTables(cl, schema)) }, 200);
      },
    )
    .openapi(
      createRoute({
        ...b,
        method: 'get',
        path: '/v1/authentications/{id}/tables/{schema}/{table}',
        summary: 'A table schema: columns, mapped types, skipped columns (?database= as above)',
        request: { params: tableParams, query: databaseQuery },
        responses: {
          200: json(warehouseTableSchema, 'Columns'),
          400: error('Cannot connect or no such table'),
          404: error('None'),
          ...commonErrors,
        },
      }),
      async (c) => {
        const { accountId } = await enabledPrincipal(deps, c);
        const { schema, table } = c.req.param();
        const connection = await connectTo(accountId, c.req.param('id'), c.req.query('database'));
        const info = await connection((cl) => describeTable(cl, schema, table));
        return c.json({ schema, name: table, columns: info.map(mapColumn) }, 200);
      },
    )
    .openapi(
      createRoute({
        ...b,
        method: 'post',
        path: '/v1/guess',
        summary: 'Guess basic and advanced configs of tables',
        request: { body: jsonBody('svc_authentication_id, schema and tables (or the same inside basic_configs)') },
        responses: {
          200: json(guessResult, 'Configs to review'),
          400: error('Invalid, or the warehouse said no'),
          404: error('No such authentication'),
          ...commonErrors,
        },
      }),
      async (c) => {
        const { accountId } = await enabledPrincipal(deps, c);
        const body = await input(c, guessRequest);
        const authId = body.svc_authentication_id ?? body.basic_configs?.svc_authentication_id;
        if (authId === undefined) throw badRequest('Send "svc_authentication_id": the id of a stored authentication.');
        const tables = body.tables ?? body.basic_configs?.tables ?? [];
        if (tables.length === 0)
          throw badRequest('Send "tables": the warehouse tables to guess, e.g. ["public.orders"].');
        if (tables.length > 100) throw badRequest('Guess at most 100 tables at once.');
        const row = await requireAuthentication(deps, accountId, authId);
        const schema = body.schema ?? body.basic_configs?.schema ?? 'public';
        const target = body.target_database ?? body.basic_configs?.target_database;
        const database = checkDatabaseName(body.database ?? body.basic_configs?.database ?? row.database_name);
        const result = await warehouse(() =>
          withConnection({ ...connectionSpec(deps, row), database }, options, (cl) =>
            guess(cl, {
              svc_authentication_id: row.id,
              database,
              schema,
              tables,
              ...(target ? { target_database: target } : {}),
            }),
          ),
        );
        return c.json(result, 200);
      },
    );
}
