import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { dataName, tableReference, tablesSwapped } from '@svc/contracts';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest, unprocessable } from '../platform/errors';
import { errorResponsesFrom } from '../platform/openapi';
import { input } from '../platform/params';
import { findTable, requireDatabase, requireTable } from './catalog';
import { swapTablesInWorker } from './fileWrites';
import { jsonResponse, wireParams } from './openapi';
import { moveTableInBackground, taken } from './tableChanges';

/**
 * `/v3/table/swap`, `/v3/table/update` and `/v3/table/change_database` (wire-compat §2.2): changes to a
 * table as a whole. Master keys only. `td table:rename` creates the new name, swaps and deletes the old
 * one, so after a rename only the new name is left.
 */

const security = [{ SVC1: [] }];
const errors = errorResponsesFrom({
  400: 'Invalid parameters or names; the message names the field',
  401: 'No valid API key',
  403: 'A write-only key',
  404: 'No such database or table in the caller’s account',
  409: 'The destination already has a table of that name',
  422: 'A change this route does not make here; the message names the route that does',
});
const db = dataName.meta({ description: 'Database name', example: 'web_events' });
const table = dataName.meta({ description: 'Table name', example: 'pageviews' });

const wholeDays = z
  .union([z.number(), z.string()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === '') return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0 || n > 36_500) {
      ctx.addIssue({ code: 'custom', message: 'Send a whole number of days from 0 (keep rows forever) to 36500.' });
      return z.NEVER;
    }
    return n === 0 ? null : n;
  });

const flag = z
  .union([z.boolean(), z.string()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === '') return undefined;
    if (typeof v === 'boolean') return v;
    if (/^(true|1)$/i.test(v)) return true;
    if (/^(false|0)$/i.test(v)) return false;
    ctx.addIssue({ code: 'custom', message: 'Send true or false.' });
    return z.NEVER;
  });

const updateParams = z.object({
  expire_days: wholeDays,
  include_v: flag,
  detect_schema: flag.openapi({ description: 'Accepted and ignored: every import adds the columns it needs' }),
  name: z.string().optional(),
  schema: z.unknown().optional(),
});

const moveParams = z.object({
  dest_database_name: z
    .string({ error: 'Send "dest_database_name": the database to move the table to.' })
    .min(1, 'Send "dest_database_name": the database to move the table to.'),
});

function routes(deps: AppDeps) {
  const base = { security, middleware: [apiKeyAuth(deps)], tags: ['Tables'] };
  return {
    swap: createRoute({
      ...base,
      method: 'post',
      path: '/v3/table/swap/{db}/{table1}/{table2}',
      summary: 'Exchange the names of two tables',
      description:
        'Each table keeps its rows, schema and settings; only the names change. `td table:rename` creates the new ' +
        'name, swaps and deletes the old one.',
      request: { params: z.object({ db, table1: table, table2: table }) },
      responses: { 200: jsonResponse(tablesSwapped, 'Swapped'), ...errors(400, 401, 403, 404) },
    }),
    update: createRoute({
      ...base,
      method: 'post',
      path: '/v3/table/update/{db}/{table}',
      summary: 'Set expire_days and include_v',
      description:
        '`expire_days`: whole days, 0 for none (stored and shown; rows are not removed by age on this server). ' +
        '`include_v`: true or false. Table show and list answer both.',
      request: {
        params: z.object({ db, table }),
        body: wireParams(updateParams, 'expire_days, include_v (detect_schema is accepted and ignored)'),
      },
      responses: { 200: jsonResponse(tableReference, 'Updated'), ...errors(400, 401, 403, 404, 422) },
    }),
    move: createRoute({
      ...base,
      method: 'post',
      path: '/v3/table/change_database/{db}/{table}',
      summary: 'Move a table to another database of the account',
      request: {
        params: z.object({ db, table }),
        body: wireParams(moveParams, 'dest_database_name: the database to move the table to'),
      },
      responses: {
        200: jsonResponse(tableReference, 'Moved; `database` is the destination'),
        ...errors(400, 401, 403, 404, 409),
      },
    }),
  };
}

export function tableChangeRoutes(deps: AppDeps) {
  const r = routes(deps);
  const store = deps.storage.db;
  return new OpenAPIHono<AppEnv>()
    .openapi(r.swap, async (c) => {
      const { accountId } = principalOf(c);
      const params = c.req.valid('param');
      if (params.table1 === params.table2) throw badRequest('Name two different tables to swap.');
      const database = await requireDatabase(store, accountId, params.db);
      const a = await requireTable(store, accountId, database.id, params.table1);
      const b = await requireTable(store, accountId, database.id, params.table2);
      await swapTablesInWorker(deps, database, a, b);
      return c.json({ database: database.name, table1: a.name, table2: b.name }, 200);
    })
    .openapi(r.update, async (c) => {
      const { accountId } = principalOf(c);
      const params = c.req.valid('param');
      const database = await requireDatabase(store, accountId, params.db);
      const row = await requireTable(store, accountId, database.id, params.table);
      const body = await input(c, updateParams);
      if (body.name !== undefined && body.name !== row.name) {
        throw unprocessable(
          'Renaming is not done through table update here: create the new name, swap (POST /v3/table/swap/<db>/<old>/<new>) and delete the old one, as `td table:rename` does.',
        );
      }
      if (body.schema !== undefined) {
        throw unprocessable('Set a schema with POST /v3/table/update-schema/<db>/<table> (`td schema:set`).');
      }
      if (body.expire_days === undefined && body.include_v === undefined && body.detect_schema === undefined) {
        throw badRequest('Send "expire_days" (whole days, 0 for none) or "include_v" (true or false).');
      }
      const expireDays = body.expire_days === undefined ? row.expire_days : body.expire_days;
      const includeV = body.include_v === undefined ? row.include_v : body.include_v ? 1 : 0;
      await store
        .updateTable('tables')
        .set({ expire_days: expireDays, include_v: includeV, updated_at: deps.clock.now().getTime() })
        .where('id', '=', row.id)
        .where('account_id', '=', row.account_id)
        .execute();
      return c.json({ database: database.name, table: row.name, type: 'log' as const }, 200);
    })
    .openapi(r.move, async (c) => {
      const { accountId } = principalOf(c);
      const params = c.req.valid('param');
      const { dest_database_name: destName } = await input(c, moveParams);
      const from = await requireDatabase(store, accountId, params.db);
      const row = await requireTable(store, accountId, from.id, params.table);
      const to = await requireDatabase(store, accountId, destName);
      if (to.id === from.id) throw badRequest(`The table "${row.name}" is already in the database "${from.name}".`);
      if (await findTable(store, accountId, to.id, row.name)) throw taken(to, row.name);
      await moveTableInBackground(deps, from, to, row);
      return c.json({ database: to.name, table: row.name, type: 'log' as const }, 200);
    });
}
