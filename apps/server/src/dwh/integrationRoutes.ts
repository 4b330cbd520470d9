import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { IntegrationConfigs } from '@svc/contracts';
import {
  integration,
  integrationConfigs,
  integrationCreate,
  integrationCreated,
  integrationList,
  integrationSession,
  integrationUpdate,
  sessionAttemptList,
  workflowRun,
} from '@svc/contracts';
import type { Context } from 'hono';
import { about, auditAction } from '../audit';
import type { BulkLoadService } from '../bulk-loads/service';
import type { AppDeps, AppEnv } from '../platform/context';
import { forbidden } from '../platform/errors';
import { input } from '../platform/params';
import { listAttempts, startAttempt, toWorkflowRun } from './attempts';
import {
  createIntegration,
  deleteIntegration,
  integrationSessions,
  listIntegrations,
  requireIntegration,
  requireIntegrationControl,
  tableDigest,
  toWireConfigs,
  toWireIntegration,
  updateIntegration,
} from './integrations';
import { base, commonErrors, dwhIdParam, enabledPrincipal, error, json, jsonBody } from './routeKit';

const page = (n: number) => ({ page: 1, size: n, total_pages: 1 });
const listQuery = z.object({
  all: z
    .enum(['true', 'false', '1', '0'], { error: '"all" must be true or false.' })
    .optional()
    .openapi({ description: 'Administrators: `true` lists every user’s integrations, not only their own' }),
});

/** Integrations (`/v1/dwh/…`): configs, their bulk load sessions, runs (session attempts). */
export function dwhIntegrationRoutes(deps: AppDeps, service: BulkLoadService) {
  const b = base(deps, 'Data-warehouse sync');
  const one = (method: 'get' | 'put' | 'delete', summary: string) =>
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
    const p = await enabledPrincipal(deps, c);
    const all = ['true', '1'].includes(c.req.query('all') ?? '');
    if (all && !p.administrator) {
      throw forbidden(
        'Only an administrator can list every user’s integrations (all=true); leave out "all" for yours.',
      );
    }
    const items = (await listIntegrations(deps, p.accountId, all ? null : p.userId)).map(toWireIntegration);
    return c.json({ items, pagination: page(items.length) }, 200);
  };
  const createOne = async (c: Context<AppEnv>) => {
    const p = await enabledPrincipal(deps, c);
    const row = await createIntegration(deps, p.accountId, p.userId, await input(c, integrationCreate));
    await auditAction(deps, p, 'dwh.integration_create', about('integration', row.id, row.name));
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
      const changed = await updateIntegration(deps, row, body);
      await auditAction(
        deps,
        p,
        'dwh.integration_update',
        about('integration', row.id, changed.name, { fields: Object.keys(body) }),
      );
      return c.json(toWireIntegration(changed), 200);
    })
    .openapi(one('delete', 'Delete an integration and its sessions (loaded tables stay)'), async (c) => {
      const p = await enabledPrincipal(deps, c);
      const row = await requireIntegration(deps, p.accountId, id(c));
      requireIntegrationControl(p, row, 'delete');
      await deleteIntegration(deps, row);
      await auditAction(deps, p, 'dwh.integration_delete', about('integration', row.id, row.name));
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
    )
    .openapi(
      createRoute({
        ...b,
        method: 'put',
        path: '/v1/dwh/{dwh_id}/run_workflow',
        summary: 'Run every table now',
        request: { params: dwhIdParam },
        responses: {
          200: json(workflowRun, 'The run, status running'),
          400: error('Nothing to run'),
          404: error('None'),
          409: error('Every table is still loading from an earlier run'),
          ...commonErrors,
        },
      }),
      async (c) => {
        const p = await enabledPrincipal(deps, c);
        const row = await requireIntegration(deps, p.accountId, id(c));
        requireIntegrationControl(p, row, 'run');
        const { attempt, busy } = await startAttempt(deps, service, row, p.userId, 'manual');
        if (!attempt) throw new Error('a manual run always starts or refuses');
        return c.json(
          {
            ...(await toWorkflowRun(deps, row, attempt)),
            status: 'running',
            done: false,
            success: false,
            finishedAt: null,
            already_running: busy,
          },
          200,
        );
      },
    )
    .openapi(
      createRoute({
        ...b,
        method: 'get',
        path: '/v1/dwh/{dwh_id}/session_attempts',
        summary: 'Runs, newest first, with each table’s status, rows and error',
        request: { params: dwhIdParam },
        responses: { 200: json(sessionAttemptList, 'Attempts'), 404: error('None'), ...commonErrors },
      }),
      async (c) => {
        const { accountId } = await enabledPrincipal(deps, c);
        const items = await listAttempts(deps, await requireIntegration(deps, accountId, id(c)));
        return c.json({ items, pagination: page(items.length) }, 200);
      },
    );
}
