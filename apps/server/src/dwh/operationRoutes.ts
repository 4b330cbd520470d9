import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  integrationStatus,
  integrationStatusList,
  sessionAttempt,
  sessionAttemptList,
  workflowRun,
} from '@svc/contracts';
import type { Context } from 'hono';
import type { BulkLoadService } from '../bulk-loads';
import type { AppDeps, AppEnv } from '../platform/context';
import { getAttempt, listAttempts, startAttempt, toWorkflowRun } from './attempts';
import { listIntegrations, requireIntegration, requireIntegrationControl } from './integrations';
import { integrationStatuses, setPaused, integrationStatus as statusOf } from './operations';
import {
  base,
  commonErrors,
  dwhIdParam,
  enabledPrincipal,
  error,
  json,
  listPrincipal,
  listQuery,
  page,
} from './routeKit';

const attemptParams = dwhIdParam.extend({
  attempt_id: z.string().meta({ description: 'Run (session attempt) id', example: '1' }),
});

/**
 * Runs and day-two operations of integrations (`/v1/dwh/…`): run now, re-sync from scratch, the runs,
 * pause and resume, and the status of one or all. Registered before `/v1/dwh/{dwh_id}`, so `status` is
 * never taken for an id.
 */
export function dwhOperationRoutes(deps: AppDeps, service: BulkLoadService) {
  const b = base(deps, 'Data-warehouse sync');
  const id = (c: Context<AppEnv>) => c.req.param('dwh_id') ?? '';
  /** Starts a run by hand (or a re-sync from scratch) and answers it as `run_workflow` does. */
  const start = (resync: boolean) => async (c: Context<AppEnv>) => {
    const p = await enabledPrincipal(deps, c);
    const row = await requireIntegration(deps, p.accountId, id(c));
    requireIntegrationControl(p, row, resync ? 're-sync' : 'run');
    const { attempt, busy } = await startAttempt(deps, service, row, p.userId, 'manual', { resync });
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
  };
  const runRoute = (path: string, summary: string, description: string) =>
    createRoute({
      ...b,
      method: 'put',
      path,
      summary,
      description,
      request: { params: dwhIdParam },
      responses: {
        200: json(workflowRun, 'The run, status running'),
        400: error('Nothing to run'),
        404: error('None'),
        409: error('Every table is still loading from an earlier run'),
        ...commonErrors,
      },
    });
  const pause = (paused: boolean) =>
    createRoute({
      ...b,
      method: 'put',
      path: `/v1/dwh/{dwh_id}/${paused ? 'pause' : 'resume'}`,
      summary: paused
        ? 'Pause the schedule (runs by hand still work)'
        : 'Resume the schedule (missed runs are not made up)',
      request: { params: dwhIdParam },
      responses: { 200: json(integrationStatus, 'Its status'), 404: error('None'), ...commonErrors },
    });
  const setState = (paused: boolean) => async (c: Context<AppEnv>) => {
    const p = await enabledPrincipal(deps, c);
    const row = await requireIntegration(deps, p.accountId, id(c));
    requireIntegrationControl(p, row, paused ? 'pause' : 'resume');
    return c.json(await statusOf(deps, await setPaused(deps, row, paused)), 200);
  };
  return new OpenAPIHono<AppEnv>()
    .openapi(
      createRoute({
        ...b,
        method: 'get',
        path: '/v1/dwh/status',
        summary: 'Status of each integration: paused or active, next and latest run, rows moved',
        request: { query: listQuery },
        responses: {
          200: json(integrationStatusList, 'One per integration, newest first'),
          400: error('`all` is neither true nor false'),
          ...commonErrors,
        },
      }),
      async (c) => {
        const { accountId, owner } = await listPrincipal(deps, c);
        return c.json({ items: await integrationStatuses(deps, await listIntegrations(deps, accountId, owner)) }, 200);
      },
    )
    .openapi(
      createRoute({
        ...b,
        method: 'get',
        path: '/v1/dwh/{dwh_id}/status',
        summary: 'Status: paused or active, next and latest run, rows moved',
        request: { params: dwhIdParam },
        responses: { 200: json(integrationStatus, 'Its status'), 404: error('None'), ...commonErrors },
      }),
      async (c) => {
        const { accountId } = await enabledPrincipal(deps, c);
        return c.json(await statusOf(deps, await requireIntegration(deps, accountId, id(c))), 200);
      },
    )
    .openapi(pause(true), setState(true))
    .openapi(pause(false), setState(false))
    .openapi(
      runRoute(
        '/v1/dwh/{dwh_id}/run_workflow',
        'Run every table now',
        'Queues one job per table. Tables whose previous run is still going are left out (`already_running`).',
      ),
      start(false),
    )
    .openapi(
      runRoute(
        '/v1/dwh/{dwh_id}/resync',
        'Re-sync from scratch: read every row of every table and replace the target tables',
        'Each table forgets its incremental state and its target is replaced in one transaction when its rows are read. A table still loading is re-synced by its next run. A failed re-sync changes nothing and is asked for again by the next run.',
      ),
      start(true),
    )
    .openapi(
      createRoute({
        ...b,
        method: 'get',
        path: '/v1/dwh/{dwh_id}/session_attempts',
        summary: 'Runs, newest first, with each table’s status, rows, duration and error',
        request: { params: dwhIdParam },
        responses: { 200: json(sessionAttemptList, 'Attempts'), 404: error('None'), ...commonErrors },
      }),
      async (c) => {
        const { accountId } = await enabledPrincipal(deps, c);
        const items = await listAttempts(deps, await requireIntegration(deps, accountId, id(c)));
        return c.json({ items, pagination: page(items.length) }, 200);
      },
    )
    .openapi(
      createRoute({
        ...b,
        method: 'get',
        path: '/v1/dwh/{dwh_id}/session_attempts/{attempt_id}',
        summary: 'One run with each table’s status, rows, duration and error',
        request: { params: attemptParams },
        responses: { 200: json(sessionAttempt, 'The run'), 404: error('None'), ...commonErrors },
      }),
      async (c) => {
        const { accountId } = await enabledPrincipal(deps, c);
        const row = await requireIntegration(deps, accountId, id(c));
        return c.json(await getAttempt(deps, row, c.req.param('attempt_id')), 200);
      },
    );
}
