import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { IntegrationConfigs } from '@svc/contracts';
import {
  integration,
  integrationConfigs,
  integrationCreate,
  integrationCreated,
  integrationDeleteQuery,
  integrationList,
  integrationSession,
  integrationUpdate,
} from '@svc/contracts';
import type { Context } from 'hono';
import { about, auditAction } from '../audit';
import type { AppDeps, AppEnv } from '../platform/context';
import { input } from '../platform/params';
import {
  createIntegration,
  integrationSessions,
  listIntegrations,
  requireIntegration,
  requireIntegrationControl,
  tableDigest,
  toWireConfigs,
  toWireIntegration,
  updateIntegration,
} from './integrations';
import { deleteWithTables } from './operations';
import {
  base,
  commonErrors,
  dwhIdParam,
  enabledPrincipal,
  error,
  json,
  jsonBody,
  listPrincipal,
  listQuery,
  page,
} from './routeKit';

/** Integrations (`/v1/dwh/…`): their configs and their bulk load sessions. */
export function dwhIntegrationRoutes(deps: AppDeps) {
  const b = base(deps, 'Data-warehouse sync');
  const remove = createRoute({
    ...b,
    method: 'delete',
    path: '/v1/dwh/{dwh_id}',
    summary: 'Delete an integration and its sessions; `drop_tables=true` deletes its target tables too',
    description:
      'Without `drop_tables` the loaded tables stay. With `drop_tables=true` the target tables and their rows are deleted as well; while a run is still loading one of them this answers 409.',
    request: { params: dwhIdParam, query: integrationDeleteQuery },
    responses: {
      200: json(integration, 'The deleted integration'),
      400: error('Invalid `drop_tables`'),
      404: error('None'),
      409: error('A run is still loading (with drop_tables)'),
      ...commonErrors,
    },
  });
  const one = (method: 'get' | 'put', summary: string) =>
    createRoute({
      ...b,
      method,
      path: '/v1/dwh/{dwh_id}',
      summary,
      request: { params: dwhIdParam, ...(method === 'put' ? { body: jsonBody('Fields to change') } : {}) },
      responses: {
        200: json(integration, 'The integration'),
        400: error('Invalid'),
        404: error('None'),
        ...commonErrors,
      },
    });
  const list = (path: string) =>
    createRoute({
      ...b,
      method: 'get',
      path,
      summary: 'Integrations of the current user, newest first (administrators: every one with `all=true`)',
      description:
        'The caller’s own integrations (those it created). An administrator sends `all=true` for every integration of the account; for anyone else `all=true` is 403. Running or changing another user’s integration is also for administrators only (403).',
      request: { query: listQuery },
      responses: {
        200: json(integrationList, 'Items'),
        400: error('`all` is neither true nor false'),
        ...commonErrors,
      },
    });
  const create = (path: string) =>
    createRoute({
      ...b,
      method: 'post',
      path,
      summary: 'Create an integration: one bulk load session per table',
      request: { body: jsonBody('name, schedule, basic_configs, advanced_configs, output_config, filter_configs') },
      responses: {
        200: json(integrationCreated, 'Its id'),
        400: error('Invalid'),
        404: error('No such authentication'),
        409: error('Name taken'),
        ...commonErrors,
      },
    });
  const listAll = async (c: Context<AppEnv>) => {
    const { accountId, owner } = await listPrincipal(deps, c);
    const items = (await listIntegrations(deps, accountId, owner)).map(toWireIntegration);
    return c.json({ items, pagination: page(items.length) }, 200);
  };
  const createOne = async (c: Context<AppEnv>) => {
    const p = await enabledPrincipal(deps, c);
    const row = await createIntegration(deps, p.accountId, p.userId, await input(c, integrationCreate), (tx, created) =>
      auditAction(deps, p, 'dwh.integration_create', about('integration', created.id, created.name), tx),
    );
    return c.json({ dwh_id: row.id }, 200);
  };
  const id = (c: { req: { param: (k: 'dwh_id') => string } }) => c.req.param('dwh_id');
  return new OpenAPIHono<AppEnv>()
    .openapi(list('/v1/dwh/'), listAll)
    .openapi(list('/v1/dwh'), listAll)
    .openapi(create('/v1/dwh/'), createOne)
    .openapi(create('/v1/dwh'), createOne)
    .openapi(one('get', 'One integration'), async (c) => {
      const { accountId } = await enabledPrincipal(deps, c);
      return c.json(toWireIntegration(await requireIntegration(deps, accountId, id(c))), 200);
    })
    .openapi(one('put', 'Change an integration (its sessions follow; incremental state is kept)'), async (c) => {
      const p = await enabledPrincipal(deps, c);
      const row = await requireIntegration(deps, p.accountId, id(c));
      requireIntegrationControl(p, row, 'change');
      const body = await input(c, integrationUpdate);
      const changed = await updateIntegration(deps, row, body, (tx, next) =>
        auditAction(
          deps,
          p,
          'dwh.integration_update',
          about('integration', row.id, next.name, { fields: Object.keys(body) }),
          tx,
        ),
      );
      return c.json(toWireIntegration(changed), 200);
    })
    .openapi(remove, async (c) => {
      const p = await enabledPrincipal(deps, c);
      const { drop_tables } = await input(c, integrationDeleteQuery);
      const row = await requireIntegration(deps, p.accountId, id(c));
      requireIntegrationControl(p, row, 'delete');
      const dropTables = drop_tables === 'true' || drop_tables === '1';
      await deleteWithTables(deps, row, dropTables);
      await auditAction(
        deps,
        p,
        'dwh.integration_delete',
        about('integration', row.id, row.name, { drop_tables: dropTables }),
      );
      return c.json(toWireIntegration(row), 200);
    })
    .openapi(
      createRoute({
        ...b,
        method: 'get',
        path: '/v1/dwh/{dwh_id}/configs',
        summary: 'The configuration',
        request: { params: dwhIdParam },
        responses: { 200: json(integrationConfigs, 'Configs'), 404: error('None'), ...commonErrors },
      }),
      async (c) => {
        const { accountId } = await enabledPrincipal(deps, c);
        return c.json(toWireConfigs(await requireIntegration(deps, accountId, id(c))) as IntegrationConfigs, 200);
      },
    )
    .openapi(
      createRoute({
        ...b,
        method: 'get',
        path: '/v1/dwh/{dwh_id}/bulkload_sessions',
        summary: 'Its bulk load sessions',
        request: { params: dwhIdParam },
        responses: { 200: json(z.array(integrationSession), 'One per table'), 404: error('None'), ...commonErrors },
      }),
      async (c) => {
        const { accountId } = await enabledPrincipal(deps, c);
        const row = await requireIntegration(deps, accountId, id(c));
        const configs = toWireConfigs(row).advanced_configs;
        return c.json(
          (await integrationSessions(deps, row)).map((s) => {
            const a = configs.find((x) => x.target_table === s.table_name);
            return {
              name: s.name,
              bulkload_session_id: s.id,
              target_table: s.table_name,
              configs_digest: a ? tableDigest(a) : '',
            };
          }),
          200,
        );
      },
    );
}
