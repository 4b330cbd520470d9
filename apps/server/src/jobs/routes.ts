import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { dataName, jobDetail, jobIssued, jobKilled, jobList, jobStatusObject, resultFormat } from '@svc/contracts';
import { requireDatabase } from '../data';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest, notFound, unprocessable } from '../platform/errors';
import { input, listIndex, readParams } from '../platform/params';
import { findJobByDomainKey, JOB_STATUSES, type JobStatus, listJobs, requireJob } from './jobStore';
import { errors, issueParams, json, listQuery, resultQuery, wireBody } from './params';
import { QueryRefused } from './query/dialect';
import { inspectQuery, QUERY_TYPES } from './queryJob';
import { checkResultTarget } from './resultOutput';
import { resultStoreFor } from './resultStore';
import { resultResponse } from './results';
import type { JobRunner } from './runner';
import { toV3Job, toV3JobDetail, toV3JobStatus } from './wire';

const security = [{ SVC1: [] }];
const tags = ['Jobs'];
const jobParam = z.object({ job_id: z.string().openapi({ description: 'Job id', example: '101' }) });

function routes(deps: AppDeps) {
  const base = { security, tags, middleware: [apiKeyAuth(deps)] };
  const get = (path: string) => ({ ...base, method: 'get' as const, path });
  return {
    issue: createRoute({
      ...base,
      method: 'post',
      path: '/v3/job/issue/{type}/{db}',
      summary: 'Issue a query job',
      description:
        '`type` is presto, trino or hive (HiveQL, rewritten into the Presto dialect; an untranslatable construct is a ' +
        '400 naming it). Parameters arrive as JSON, form, multipart or the query string: `query` (one read-only ' +
        'statement: docs/query-dialect.md), `priority` (-2…2), `domain_key`, `retry_limit`, and `result` (or ' +
        '`result_url`): where a successful result is written, `td://@/<database>/<table>` with `?mode=append` (the ' +
        'default) or `?mode=replace`; an `https://` webhook the rows are POSTed to as JSON batches; or the name of a ' +
        'result connection holding either. A target whose database is missing, whose table cannot be created or ' +
        'whose webhook address is refused is a 400; other schemes a 422. `type` bulkload (`td ' +
        'connector:issue`) takes JSON `{"config": {in, out, filters}, "table"}` instead and loads the source once.',
      request: {
        params: z.object({ type: z.string().openapi({ example: 'presto' }), db: dataName }),
        body: wireBody(issueParams, 'query, and optionally priority, domain_key, retry_limit, result'),
      },
      responses: { 200: json(jobIssued, 'The job is queued'), ...errors(400, 401, 403, 404, 409, 422) },
    }),
    status: createRoute({
      ...get('/v3/job/status/{job_id}'),
      summary: 'Status of a job',
      request: { params: jobParam },
      responses: { 200: json(jobStatusObject, 'The status'), ...errors(401, 403, 404) },
    }),
    statusByDomainKey: createRoute({
      ...get('/v3/job/status_by_domain_key/{domain_key}'),
      summary: 'Status of the job issued with a domain key',
      request: { params: z.object({ domain_key: z.string() }) },
      responses: { 200: json(jobStatusObject, 'The status'), ...errors(401, 403, 404) },
    }),
    show: createRoute({
      ...get('/v3/job/show/{job_id}'),
      summary: 'A job with its output so far',
      request: { params: jobParam },
      responses: { 200: json(jobDetail, 'The job'), ...errors(401, 403, 404) },
    }),
    list: createRoute({
      ...get('/v3/job/list'),
      summary: 'Jobs of the account, newest first',
      request: { query: listQuery },
      responses: { 200: json(jobList, 'The jobs'), ...errors(400, 401, 403) },
    }),
    kill: createRoute({
      ...base,
      method: 'post',
      path: '/v3/job/kill/{job_id}',
      summary: 'Kill a queued or running job',
      request: { params: jobParam },
      responses: { 200: json(jobKilled, 'The status the job had'), ...errors(401, 403, 404) },
    }),
    result: createRoute({
      ...get('/v3/job/result/{job_id}'),
      summary: 'The result of a successful job',
      description:
        '`msgpack` and `msgpack.gz` answer `Range: bytes=a-b` with 206, `Content-Range` and an `ETag`. An unfinished ' +
        'or failed job answers 404.',
      request: { params: jobParam, query: resultQuery },
      responses: {
        200: {
          description: 'The rows',
          content: {
            'application/json': { schema: z.string().openapi({ description: 'One JSON array per line' }) },
            'text/csv': { schema: z.string() },
            'text/tab-separated-values': { schema: z.string() },
            'application/x-msgpack': { schema: z.string().openapi({ format: 'binary' }) },
            'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) },
          },
        },
        206: { description: 'A byte range of a msgpack or msgpack.gz result' },
        ...errors(400, 401, 403, 404, 416),
      },
    }),
  };
}

/** `/v3/job/*` (wire-compat §2.3). Master keys only: write-only keys answer 403. */
export function jobRoutes(deps: AppDeps, runner: JobRunner) {
  const r = routes(deps);
  const results = resultStoreFor(deps);
  const now = () => deps.clock.now().getTime();
  const origin = (url: string) => new URL(url).origin;
  return new OpenAPIHono<AppEnv>()
    .openapi(r.issue, async (c) => {
      const p = principalOf(c);
      const { type, db } = c.req.valid('param');
      const issuer = runner.issuer(type);
      if (!(QUERY_TYPES as readonly string[]).includes(type) && !issuer) {
        throw unprocessable(
          `Jobs of type "${type.slice(0, 40)}" cannot be issued here: use hive, presto or trino (or bulkload with a "config").`,
        );
      }
      const database = await requireDatabase(deps.storage.db, p.accountId, db);
      if (issuer) {
        const params = await readParams(c);
        const job = await issuer({ accountId: p.accountId, userId: p.userId, database: database.name, params });
        return c.json({ job: String(job.id), job_id: String(job.id), database: database.name }, 200);
      }
      const params = await input(c, issueParams);
      const result = (params.result || params.result_url || '').trim();
      if (result !== '') await checkResultTarget(deps, p.accountId, result);
      try {
        await inspectQuery(deps, database, type, params.query);
      } catch (e) {
        if (e instanceof QueryRefused) throw badRequest(e.message);
        throw e;
      }
      const job = await runner.enqueue({
        accountId: p.accountId,
        userId: p.userId,
        type,
        database: database.name,
        query: params.query,
        priority: params.Priority !== 0 ? params.Priority : params.priority,
        retryLimit: params.retry_limit,
        domainKey: params.domain_key,
        resultUrl: result || null,
      });
      return c.json({ job: String(job.id), job_id: String(job.id), database: database.name }, 200);
    })
    .openapi(r.status, async (c) => {
      const job = await requireJob(deps.storage.db, principalOf(c).accountId, c.req.valid('param').job_id);
      return c.json(toV3JobStatus(job, now()), 200);
    })
    .openapi(r.statusByDomainKey, async (c) => {
      const p = principalOf(c);
      const job = await findJobByDomainKey(deps.storage.db, p.accountId, c.req.valid('param').domain_key);
      if (!job) throw notFound('job');
      return c.json(toV3JobStatus(job, now()), 200);
    })
    .openapi(r.show, async (c) => {
      const job = await requireJob(deps.storage.db, principalOf(c).accountId, c.req.valid('param').job_id);
      return c.json(toV3JobDetail(job, now(), origin(c.req.url), await runner.queuePosition(job.id)), 200);
    })
    .openapi(r.list, async (c) => {
      const q = c.req.valid('query');
      const from = listIndex('from', q.from, 0);
      const to = listIndex('to', q.to, from + 19);
      if (to < from) throw badRequest('"to" must not be smaller than "from".');
      if (to - from >= 1000) throw badRequest('Ask for at most 1000 jobs at a time ("to" - "from" < 1000).');
      const status = q.status ? q.status.toLowerCase() : null;
      if (status !== null && !(JOB_STATUSES as readonly string[]).includes(status)) {
        throw badRequest(`"status" must be one of ${JOB_STATUSES.join(', ')}.`);
      }
      const { jobs, count } = await listJobs(deps.storage.db, principalOf(c).accountId, {
        from,
        to,
        status: status as JobStatus | null,
        type: q.type ? q.type.toLowerCase() : null,
        database: q.database || null,
        userName: q.user?.slice(0, 255) || null,
      });
      const at = origin(c.req.url);
      const positions = jobs.some((j) => j.status === 'queued')
        ? await runner.queuePositions()
        : new Map<number, number>();
      return c.json(
        {
          jobs: jobs.map((j) => toV3Job(j, now(), at, positions.get(j.id) ?? null)),
          count,
          from: q.from === undefined ? null : from,
          to: q.to === undefined ? null : to,
        },
        200,
      );
    })
    .openapi(r.kill, async (c) => {
      const p = principalOf(c);
      const job = await requireJob(deps.storage.db, p.accountId, c.req.valid('param').job_id);
      const former = (await runner.kill(p.accountId, job.id)) ?? job.status;
      return c.json({ job_id: String(job.id), former_status: former }, 200);
    })
    .openapi(r.result, async (c) => {
      const job = await requireJob(deps.storage.db, principalOf(c).accountId, c.req.valid('param').job_id);
      const q = c.req.valid('query');
      const format = resultFormat.safeParse((q.format ?? 'tsv').toLowerCase());
      if (!format.success) {
        throw badRequest(
          `"format" must be one of ${resultFormat.options.join(', ')}, not "${String(q.format).slice(0, 40)}".`,
        );
      }
      const header = /^true$/i.test(q.header ?? '');
      return (await resultResponse(results, job, format.data, header, c.req.raw.headers)) as never;
    });
}
