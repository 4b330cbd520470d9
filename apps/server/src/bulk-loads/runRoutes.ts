import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { BULK_LOAD_NAME, bulkLoadJob, errorBody } from '@svc/contracts';
import type { Context } from 'hono';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { notFound } from '../platform/errors';
import { jsonResponse as json } from '../platform/openapi';
import { readParams } from '../platform/params';
import { guessConfig, PREVIEW_ROWS, previewConfig } from './adhoc';
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

const configBody = {
  description:
    '{"config": {"in": {"type": "postgresql", host, port, user, password, database, schema, table}, "out", "filters"}}',
  required: true,
  content: { 'application/json': { schema: { type: 'object' as const } } },
};

const guess = createRoute({
  method: 'post',
  path: '/v3/bulk_loads/guess',
  tags: ['Bulk loads'],
  security: [{ SVC1: [] }],
  summary: 'Complete a source config by looking at the source (td connector:guess)',
  description:
    'Answers `{"config": …}` with `in.columns` (types mapped), the incremental choice, `out.time_column` when a ' +
    "timestamp looks like the rows' time (else an `add_time` filter), and `rename` filters for names that do not " +
    'fit the column rule. The credentials sent come back as sent: the answer is the config to save.',
  request: { body: configBody },
  responses: {
    200: json(z.object({ config: z.record(z.string(), z.unknown()) }), 'The completed config'),
    400: json(errorBody, 'An invalid config, or a source that cannot be reached or read; the message says which'),
  },
});

const preview = createRoute({
  method: 'post',
  path: '/v3/bulk_loads/preview',
  tags: ['Bulk loads'],
  security: [{ SVC1: [] }],
  summary: `The first ${PREVIEW_ROWS} rows a config would load (td connector:preview)`,
  request: { body: configBody },
  responses: {
    200: json(
      z.object({
        schema: z.array(z.object({ index: z.number().int(), name: z.string(), type: z.string() })),
        records: z.array(z.array(z.unknown())),
      }),
      'Columns as they would land (time last) and the rows',
    ),
    400: json(errorBody, 'An invalid config, or a source that cannot be reached or read; the message says which'),
  },
});

/** `POST /v3/bulk_loads/:name/jobs` (an on-demand run), guess and preview (master keys and console sessions). */
export function bulkLoadRunRoutes(deps: AppDeps, service: BulkLoadService) {
  const auth = apiKeyAuth(deps);
  const body = async (c: Context<AppEnv>) => (await readParams(c)) as Record<string, unknown>;
  return new OpenAPIHono<AppEnv>()
    .openapi({ ...guess, middleware: [auth] }, async (c) =>
      c.json(await guessConfig(service.sources, principalOf(c).accountId, await body(c)), 200),
    )
    .openapi({ ...preview, middleware: [auth] }, async (c) =>
      c.json(await previewConfig(deps, service.sources, principalOf(c).accountId, await body(c)), 200),
    )
    .openapi({ ...run, middleware: [auth] }, async (c) => {
      const { accountId, userId } = principalOf(c);
      const row = await requireBulkLoad(deps.storage.db, accountId, sessionName(c));
      const job = await service.enqueue(row, userId);
      const wire = (await listBulkLoadJobs(deps, row)).find((j) => j.job_id === job.id);
      if (!wire) throw notFound('job');
      return c.json(wire, 200);
    });
}
