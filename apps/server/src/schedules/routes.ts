import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { scheduleCreated, scheduleHistory, scheduleList, scheduleObject, scheduleRuns } from '@svc/contracts';
import { listJobs } from '../jobs/jobStore';
import { index } from '../jobs/params';
import type { JobRunner } from '../jobs/runner';
import { toV3Job } from '../jobs/wire';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest } from '../platform/errors';
import { errorResponsesFrom, jsonResponse, wireBody } from '../platform/openapi';
import { input, readParams } from '../platform/params';
import { isoSeconds, v3Time } from '../platform/time';
import { createSchedule, removeSchedule, runNow, runTime, updateSchedule } from './service';
import { scheduleParams } from './settings';
import { nextSlot } from './slots';
import { listSchedules, requireSchedule } from './store';
import { toWireSchedule } from './wire';

/**
 * `/v3/schedule/*` (td-client-ruby/python/node, `td sched:*`): scheduled queries. Master keys only.
 * Successes answer 200 with the shapes the clients read; a duplicate name is 409 (the CLI's "already
 * exists"), an unknown schedule 404, an invalid cron, time zone or other setting 400 naming the field.
 */

const errors = errorResponsesFrom({
  400: 'A setting is invalid (cron, timezone, delay, type, query, result …); the message names it',
  401: 'No valid API key',
  403: 'A write-only key',
  404: 'No such schedule, or no such database, in the caller’s account',
  409: 'A schedule of that name exists',
  422: 'A result output this server does not offer (the message names what to use), or 1000 schedules already',
});
const name = z.string().openapi({ description: 'Schedule name', example: 'daily_revenue' });
const nameParams = z.object({ name });
const historyQuery = z.object({
  from: z.string().optional().openapi({ description: 'Index of the first run, newest first (default 0)' }),
  to: z.string().optional().openapi({ description: 'Index after the last run (default from + 20)' }),
});
const runParams = z.object({
  num: z
    .union([z.number(), z.string()])
    .optional()
    .transform((v, ctx) => {
      const n = v === undefined || v === '' ? 1 : Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 10) {
        ctx.addIssue({ code: 'custom', message: 'Send "num" as a whole number of runs from 1 to 10.' });
        return z.NEVER;
      }
      return n;
    }),
});

function routes(deps: AppDeps) {
  const base = { security: [{ SVC1: [] }], middleware: [apiKeyAuth(deps)], tags: ['Schedules'] };
  const post = (path: string) => ({ ...base, method: 'post' as const, path });
  const settings = wireBody(scheduleParams, 'The schedule’s settings; on update only those to change');
  return {
    create: createRoute({
      ...post('/v3/schedule/create/{name}'),
      summary: 'Create a scheduled query',
      description:
        '`query` and `database` are required. `start` is the first slot the cron gives after now (null without a ' +
        'cron: the schedule then runs only through /v3/schedule/run).',
      request: { params: nameParams, body: settings },
      responses: { 200: jsonResponse(scheduleCreated, 'Created'), ...errors(400, 401, 403, 404, 409, 422) },
    }),
    list: createRoute({
      ...base,
      method: 'get',
      path: '/v3/schedule/list',
      summary: 'Every scheduled query of the account',
      responses: { 200: jsonResponse(scheduleList, 'The schedules'), ...errors(401, 403) },
    }),
    update: createRoute({
      ...post('/v3/schedule/update/{name}'),
      summary: 'Change a scheduled query (`name` renames it)',
      description: 'A new cron or time zone takes effect now: slots before the change do not run.',
      request: { params: nameParams, body: settings },
      responses: { 200: jsonResponse(scheduleObject, 'Updated'), ...errors(400, 401, 403, 404, 409, 422) },
    }),
    remove: createRoute({
      ...post('/v3/schedule/delete/{name}'),
      summary: 'Delete a scheduled query (its past runs stay as jobs)',
      request: { params: nameParams },
      responses: { 200: jsonResponse(scheduleObject, 'What was deleted'), ...errors(401, 403, 404) },
    }),
    history: createRoute({
      ...base,
      method: 'get',
      path: '/v3/schedule/history/{name}',
      summary: 'The runs of a scheduled query, newest first',
      request: { params: nameParams, query: historyQuery },
      responses: { 200: jsonResponse(scheduleHistory, 'The runs'), ...errors(400, 401, 403, 404) },
    }),
    run: createRoute({
      ...post('/v3/schedule/run/{name}/{time}'),
      summary: 'Run a scheduled query now, as of a time',
      description:
        '`time` (Unix seconds, or an ISO 8601 time) becomes the first run’s scheduled time (TD_SCHEDULED_TIME); with ' +
        '`num` (1 to 10) the next runs are for the cron’s following slots.',
      request: {
        params: z.object({ name, time: z.string().openapi({ example: '1767225600' }) }),
        body: wireBody(runParams, 'num: how many runs (default 1)'),
      },
      responses: { 200: jsonResponse(scheduleRuns, 'The queued jobs'), ...errors(400, 401, 403, 404) },
    }),
  };
}

export function scheduleRoutes(deps: AppDeps, jobs: JobRunner) {
  const r = routes(deps);
  const db = deps.storage.db;
  const now = () => deps.clock.now().getTime();
  return new OpenAPIHono<AppEnv>()
    .openapi(r.create, async (c) => {
      const row = await createSchedule(deps, principalOf(c), c.req.valid('param').name, await readParams(c));
      const start = nextSlot(row, now());
      return c.json({ ...toWireSchedule(row, now()), start: start === null ? null : isoSeconds(new Date(start)) }, 200);
    })
    .openapi(r.list, async (c) => {
      const rows = await listSchedules(db, principalOf(c).accountId);
      return c.json({ schedules: rows.map((row) => toWireSchedule(row, now())) }, 200);
    })
    .openapi(r.update, async (c) => {
      const row = await updateSchedule(deps, principalOf(c), c.req.valid('param').name, await readParams(c));
      return c.json(toWireSchedule(row, now()), 200);
    })
    .openapi(r.remove, async (c) => {
      const row = await removeSchedule(deps, principalOf(c), c.req.valid('param').name);
      return c.json(toWireSchedule(row, now()), 200);
    })
    .openapi(r.history, async (c) => {
      const { accountId } = principalOf(c);
      const row = await requireSchedule(db, accountId, c.req.valid('param').name);
      const q = c.req.valid('query');
      const from = index('from', q.from, 0);
      const to = index('to', q.to, from + 20);
      if (to < from) throw badRequest('"to" must not be smaller than "from".');
      if (to - from > 1000) throw badRequest('Ask for at most 1000 runs at a time ("to" - "from" ≤ 1000).');
      // `to` is exclusive here (the clients' history paging); the job list's is inclusive.
      const { jobs, count } = await listJobs(db, accountId, { from, to: to - 1, status: null, scheduleId: row.id });
      const origin = new URL(c.req.url).origin;
      return c.json({ history: jobs.map((j) => toV3Job(j, now(), origin)), count, from, to }, 200);
    })
    .openapi(r.run, async (c) => {
      const p = principalOf(c);
      const params = c.req.valid('param');
      const row = await requireSchedule(db, p.accountId, params.name);
      const { num } = await input(c, runParams);
      const queued = await runNow(deps, jobs, p, row, runTime(params.time), num);
      return c.json(
        {
          jobs: queued.map((j) => ({
            job_id: j.id,
            type: j.type,
            scheduled_at: v3Time(new Date(j.scheduled_at as number)),
          })),
        },
        200,
      );
    });
}
