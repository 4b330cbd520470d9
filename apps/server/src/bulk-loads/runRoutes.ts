import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { BULK_LOAD_NAME, bulkLoadJob, errorBody } from '@svc/contracts';
import type { Context } from 'hono';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { notFound } from '../platform/errors';
import { jsonResponse as json } from '../platform/openapi';
import type { BulkLoadService } from './service';
import { listBulkLoadJobs, requireBulkLoad } from './store';

const nameParam = z.object({ name: z.string().meta({ description: 'Session name', example: 'daily_pg' }) });

function sessionName(c: Context<AppEnv>): string {
  const raw = (c.req.param('name') ?? '').replace(/\.json$/, '');
  if (!BULK_LOAD_NAME.test(raw)) throw notFound();
  return raw;
}

const run = createRoute({
  method: 'post',
  path: '/v3/bulk_loads/{name}/jobs',
  tags: ['Bulk loads'],
  security: [{ SVC1: [] }],
  summary: 'Run the session now: queues a bulk load job and returns it',
  request: { params: nameParam },
  responses: {
    200: json(bulkLoadJob, 'The queued job'),
    404: json(errorBody, 'No such session'),
    409: json(errorBody, 'A job of the session is still queued or running (one at a time)'),
  },
});

/** `POST /v3/bulk_loads/:name/jobs`: an on-demand run (master keys and console sessions). */
export function bulkLoadRunRoutes(deps: AppDeps, service: BulkLoadService) {
  return new OpenAPIHono<AppEnv>().openapi({ ...run, middleware: [apiKeyAuth(deps)] }, async (c) => {
    const { accountId, userId } = principalOf(c);
    const row = await requireBulkLoad(deps.storage.db, accountId, sessionName(c));
    const job = await service.enqueue(row, userId);
    const wire = (await listBulkLoadJobs(deps, row)).find((j) => j.job_id === job.id);
    if (!wire) throw notFound('job');
    return c.json(wire, 200);
  });
}
